#!/usr/bin/env python3
"""The solver-query benchmark: collect the SMT queries qicc sends, then time a solver
configuration over them.

  bench/queries.py collect [--qicc target/release/qicc] [--tasks ../shared/benchmarks]
                           [--engines bmc,qicc] [--cap 20] [--select GLOB] [--sample N]
                           --out /tmp/qicc-queries
  bench/queries.py time /tmp/qicc-queries [--runs 3] [--timeout 60] [--json z3.json]
                        [--bin target/release/examples/query_bench] [-- --logic QF_AUFBV ...]
  bench/queries.py compare before.json after.json

`collect` runs `qicc verify` on each task (or a sample, as run_tasks.py picks them) with
QICC_QUERY_CORPUS set (see crates/qicc-smt/src/corpus.rs): every check any engine makes is
written as a stand-alone SMT-LIB 2 file, in one subdirectory per task and engine. The corpus
belongs outside the repository (it is large and machine-made).

`time` runs the `query_bench` example (cargo build --release -p qicc-smt --examples), which
checks each query in process with the Z3 qicc links and the settings of its FreshPerCheck mode,
several times, and reports the median per query and the total. A disagreement on sat/unsat
between runs, or with the answer qicc recorded, fails it (a solver bug, not a timing).

`compare` puts two `time --json` results side by side: the total, and the queries whose
median changed most.
"""
import argparse, json, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import run_tasks as rt  # noqa: E402  (one home for finding tasks and running children)


def collect(a):
    os.makedirs(a.out, exist_ok=True)
    for task in rt.find_tasks(a.tasks, a.select, a.sample):
        for engine in a.engines.split(','):
            d = os.path.join(a.out, '%s@%s' % (task.name.replace(os.sep, '__'), engine))
            os.makedirs(d, exist_ok=True)
            env = dict(os.environ, QICC_QUERY_CORPUS=os.path.abspath(d))
            qicc = rt.Qicc('qicc', a.qicc, engine)
            r = rt.run_child(qicc.command(task, a.cap), a.cap + 30, env=env)
            try:
                verdict = json.loads(r['stdout']).get('verdict', 'none')
            except ValueError:
                verdict = 'none'
            n = len([f for f in os.listdir(d) if f.endswith('.smt2')])
            print('%-60s %-8s %-8s %5d queries' % (task.name, engine, verdict, n), flush=True)


def time_corpus(a):
    cmd = [a.bin, '--runs', str(a.runs), '--timeout', str(a.timeout)]
    if a.json:
        cmd += ['--json', a.json]
    sys.exit(subprocess.call(cmd + a.bench_args + [a.corpus]))


def compare(a):
    runs = []
    for path in (a.before, a.after):
        with open(path) as f:
            runs.append(json.load(f))
    before = {q['query']: q for q in runs[0]['queries']}
    after = {q['query']: q for q in runs[1]['queries']}
    both = sorted(set(before) & set(after))
    tb = sum(before[q]['median_ms'] for q in both) / 1000
    ta = sum(after[q]['median_ms'] for q in both) / 1000
    print('%s: %.2f s   %s: %.2f s   on the %d queries both timed (ratio %.2f)' % (
        runs[0]['solver'], tb, runs[1]['solver'], ta, len(both), ta / tb if tb else float('nan')))
    lost = [q for q in both if before[q]['answer'] in ('sat', 'unsat') and
            after[q]['answer'] not in ('sat', 'unsat')]
    won = [q for q in both if after[q]['answer'] in ('sat', 'unsat') and
           before[q]['answer'] not in ('sat', 'unsat')]
    print('answered only before: %d   answered only after: %d' % (len(lost), len(won)))
    delta = sorted(both, key=lambda q: after[q]['median_ms'] - before[q]['median_ms'])
    print('\nlargest gains / losses (ms):')
    for q in delta[:8] + delta[-8:]:
        print('  %-70s %10.1f -> %10.1f' % (q, before[q]['median_ms'], after[q]['median_ms']))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest='cmd', required=True)
    c = sub.add_parser('collect')
    c.add_argument('--qicc', default=os.path.join(REPO, 'target', 'release', 'qicc'))
    c.add_argument('--tasks', default=rt.default_benchmarks())
    c.add_argument('--engines', default='bmc,qicc')
    c.add_argument('--cap', type=float, default=20, help='seconds per task and engine')
    c.add_argument('--select', action='append', default=[], metavar='GLOB',
                   help='only tasks whose name matches (repeatable)')
    c.add_argument('--sample', type=int, help='only N tasks, evenly spread over the sorted list')
    c.add_argument('--out', required=True)
    t = sub.add_parser('time')
    t.add_argument('corpus')
    t.add_argument('--bin', default=os.path.join(REPO, 'target', 'release', 'examples', 'query_bench'))
    t.add_argument('--runs', type=int, default=3)
    t.add_argument('--timeout', type=float, default=60)
    t.add_argument('--json')
    m = sub.add_parser('compare')
    m.add_argument('before')
    m.add_argument('after')
    # Anything after `--` goes to query_bench (time only): --logic L, --param NAME=VALUE.
    argv = sys.argv[1:]
    rest = argv[argv.index('--') + 1:] if '--' in argv else []
    a = ap.parse_args(argv[:len(argv) - len(rest) - (1 if '--' in argv else 0)])
    if rest and a.cmd != 'time':
        ap.error('only `time` passes options on to query_bench')
    a.bench_args = rest
    {'collect': collect, 'time': time_corpus, 'compare': compare}[a.cmd](a)


if __name__ == '__main__':
    main()
