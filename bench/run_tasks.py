#!/usr/bin/env python3
"""Time and peak memory of `qicc verify` per task, for one or more engines.

Usage:
  bench/run_tasks.py [--qicc target/release/qicc] [--engines bmc,qicc] [--timeout 60]
                     [--tasks ../shared/benchmarks/seeds] [--markdown out.md]
  bench/run_tasks.py --qicc before=/tmp/qicc-old --qicc after=target/release/qicc ...

With several `--qicc LABEL=PATH` binaries the runs are interleaved (task by task, engine by
engine, binary by binary, so load affects each alike), and a summary per engine lists every
task whose verdict differs between the binaries and the total wall and solver time of each.

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
    ap.add_argument('--qicc', action='append',
                    help='a qicc binary, or LABEL=PATH; repeat to compare binaries')
    ap.add_argument('--engines', default='bmc,qicc')
    ap.add_argument('--timeout', type=float, default=60)
    ap.add_argument('--tasks', default=os.path.join(here, '..', '..', 'shared', 'benchmarks', 'seeds'))
    ap.add_argument('--markdown')
    a = ap.parse_args()
    bins = []
    for q in a.qicc or [os.path.join(here, '..', 'target', 'release', 'qicc')]:
        label, _, path = q.rpartition('=')
        bins.append((label or 'qicc', path))
    ymls = []
    for root, _, files in os.walk(a.tasks):
        ymls += [os.path.join(root, f) for f in files if f.endswith('.yml')]
    ymls.sort()
    rows = []
    wrong = 0
    header = '| task | expected | engine | binary | verdict | wall s | solver s | peak RSS MiB |'
    sep = '|---|---|---|---|---|---:|---:|---:|'
    print(header)
    print(sep)
    # (engine, label) -> {task: (verdict, wall, solver)}
    seen = {}
    for yml in ymls:
        want = expected_verdict(yml)
        for engine, (label, qicc) in [(e, b) for e in a.engines.split(',') for b in bins]:
            rep, wall = run(qicc, engine, a.timeout, yml)
            stats = rep.get('stats', {})
            verdict = rep.get('verdict', 'none')
            rss = stats.get('peak_rss_kib')
            solver = stats.get('solver_time_ms')
            flag = ''
            if verdict in ('true', 'false') and want in ('true', 'false') and verdict != want:
                flag = ' WRONG'
                wrong += 1
            task = os.path.relpath(yml, a.tasks)[:-4]
            seen.setdefault((engine, label), {})[task] = (
                verdict, wall, solver / 1000 if isinstance(solver, (int, float)) else 0.0)
            row = '| %s | %s | %s | %s | %s%s | %.2f | %s | %s |' % (
                task, want, engine, label, verdict, flag, wall,
                '%.2f' % (solver / 1000) if isinstance(solver, (int, float)) else '-',
                '%.0f' % (rss / 1024) if isinstance(rss, (int, float)) else '-')
            print(row, flush=True)
            rows.append(row)
    if a.markdown:
        with open(a.markdown, 'w') as f:
            f.write(header + '\n' + sep + '\n' + '\n'.join(rows) + '\n')
    if len(bins) > 1:
        for engine in a.engines.split(','):
            runs = [(label, seen.get((engine, label), {})) for label, _ in bins]
            print('\nengine %s:' % engine)
            for label, r in runs:
                decided = sum(1 for v in r.values() if v[0] in ('true', 'false'))
                print('  %-10s decided %3d  wall %8.1f s  solver %8.1f s' % (
                    label, decided, sum(v[1] for v in r.values()), sum(v[2] for v in r.values())))
            for task in sorted(runs[0][1]):
                verdicts = [r.get(task, ('none',))[0] for _, r in runs]
                if len(set(verdicts)) > 1:
                    print('  changed: %s: %s' % (task, ' '.join(
                        '%s=%s' % (label, v) for (label, _), v in zip(runs, verdicts))))
    print('\nwrong verdicts: %d' % wrong)
    sys.exit(1 if wrong else 0)

if __name__ == '__main__':
    main()
