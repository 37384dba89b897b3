#!/usr/bin/env python3
"""Time and peak memory of `qicc verify` per task, for one or more engines.

Usage:
  bench/run_tasks.py [--qicc target/release/qicc] [--engines bmc,qicc] [--timeout 60]
                     [--tasks ../shared/benchmarks/seeds] [--markdown out.md]

Each task (an SV-COMP .yml) runs as a child process; the figures are read from its
`--format json` report: stats.solver_time_ms and stats.peak_rss_kib (the process's VmHWM
when it finished), and the wall time is measured here around the whole process. Prints one table row per task and
engine, and flags any verdict that contradicts the task's expected verdict as WRONG.
"""
import argparse, json, os, subprocess, sys, time

def expected_verdict(yml):
    want = None
    lines = open(yml).read().splitlines()
    for i, line in enumerate(lines):
        if 'unreach-call.prp' in line:
            for nxt in lines[i + 1:i + 3]:
                if 'expected_verdict' in nxt:
                    want = nxt.split(':', 1)[1].strip().lower()
    return want

def run(qicc, engine, timeout, yml):
    cmd = [qicc, 'verify', '--engine', engine, '--timeout', str(timeout), '--format', 'json', '--quiet', yml]
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        out, _ = proc.communicate(timeout=timeout + 30)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
    wall = time.monotonic() - t0
    try:
        rep = json.loads(out.decode())
    except Exception:
        rep = {}
    return rep, wall

def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument('--qicc', default=os.path.join(here, '..', 'target', 'release', 'qicc'))
    ap.add_argument('--engines', default='bmc,qicc')
    ap.add_argument('--timeout', type=float, default=60)
    ap.add_argument('--tasks', default=os.path.join(here, '..', '..', 'shared', 'benchmarks', 'seeds'))
    ap.add_argument('--markdown')
    a = ap.parse_args()
    ymls = []
    for root, _, files in os.walk(a.tasks):
        ymls += [os.path.join(root, f) for f in files if f.endswith('.yml')]
    ymls.sort()
    rows = []
    wrong = 0
    header = '| task | expected | engine | verdict | wall s | solver s | peak RSS MiB |'
    print(header)
    print('|---|---|---|---|---:|---:|---:|')
    for yml in ymls:
        want = expected_verdict(yml)
        for engine in a.engines.split(','):
            rep, wall = run(a.qicc, engine, a.timeout, yml)
            stats = rep.get('stats', {})
            verdict = rep.get('verdict', 'none')
            rss = stats.get('peak_rss_kib')
            solver = stats.get('solver_time_ms')
            flag = ''
            if verdict in ('true', 'false') and want in ('true', 'false') and verdict != want:
                flag = ' WRONG'
                wrong += 1
            row = '| %s | %s | %s | %s%s | %.2f | %s | %s |' % (
                os.path.relpath(yml, a.tasks)[:-4], want, engine, verdict, flag, wall,
                '%.2f' % (solver / 1000) if isinstance(solver, (int, float)) else '-',
                '%.0f' % (rss / 1024) if isinstance(rss, (int, float)) else '-')
            print(row, flush=True)
            rows.append(row)
    if a.markdown:
        with open(a.markdown, 'w') as f:
            f.write(header + '\n|---|---|---|---|---:|---:|---:|\n' + '\n'.join(rows) + '\n')
    print('\nwrong verdicts: %d' % wrong)
    sys.exit(1 if wrong else 0)

if __name__ == '__main__':
    main()
