#!/usr/bin/env python3
"""The solver-query benchmark: collect the SMT queries qicc sends, then time a solver
configuration over them.

  bench/queries.py collect [--qicc target/release/qicc] [--tasks ../shared/benchmarks]
                           [--engines bmc,qicc] [--cap 20] [--select GLOB] [--sample N]
                           --out /tmp/qicc-queries
  bench/queries.py time /tmp/qicc-queries [--runs 3] [--timeout 60] [--json z3.json]
                        [--bin target/release/examples/query_bench] [-- --logic QF_AUFBV ...]
  bench/queries.py compare before.json after.json
  bench/queries.py solvers /tmp/corpus-a [/tmp/corpus-b ...] [--solvers z3,bitwuzla]
                           [--runs 1] [--timeout 20] [--markdown out.md]

`collect` runs `qicc verify` on each task (or a sample, as run_tasks.py picks them) with
QICC_QUERY_CORPUS set (see crates/qicc-smt/src/corpus.rs): every check any engine makes is
written as a stand-alone SMT-LIB 2 file, in one subdirectory per task and engine. The corpus
belongs outside the repository (it is large and machine-made).

`time` runs the `query_bench` example (cargo build --release -p qicc-smt --examples), which
checks each query in process with the Z3 qicc links and the settings of its FreshPerCheck mode,
several times, and reports the median per query and the total. A disagreement on sat/unsat
between runs, or with the answer qicc recorded, fails it (a solver bug, not a timing).

`compare` puts two `time --json` results side by side: the total, the median ratio, and the
queries whose median changed most.

`solvers` times each corpus with each back-end in process (`query_bench --solver NAME`: the
query read back into qicc's terms and checked through qicc's translation, so a query one
solver could not parse is translated, not skipped) and reports per corpus and solver the
queries answered, the total time, and the median ratio to the first solver on the queries
both answered.
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


def median(xs):
    xs = sorted(xs)
    if not xs:
        return float('nan')
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def definite(q):
    return q['answer'] in ('sat', 'unsat')


def ratio_on_both(base, other):
    """The median of other/base per query both answered, and how many that is."""
    b = {q['query']: q for q in base['queries']}
    rs = [q['median_ms'] / max(b[q['query']]['median_ms'], 0.01) for q in other['queries']
          if q['query'] in b and definite(q) and definite(b[q['query']])]
    return median(rs), len(rs)


def solvers(a):
    import tempfile
    names = a.solvers.split(',')
    lines = ['| corpus | solver | queries | answered | total s | median ratio to %s (on both) |'
             % names[0], '|---|---|---|---|---|---|']
    for corpus in a.corpora:
        results = []
        for name in names:
            with tempfile.NamedTemporaryFile(suffix='.json', delete=False) as f:
                out = f.name
            cmd = [a.bin, '--runs', str(a.runs), '--timeout', str(a.timeout), '--solver', name,
                   '--json', out, corpus]
            r = subprocess.run(cmd, stdout=subprocess.DEVNULL)
            if r.returncode not in (0, 1):
                sys.exit('query_bench failed on %s with %s' % (corpus, name))
            if r.returncode == 1:
                print('warning: %s disagrees with a recorded answer on %s' % (name, corpus),
                      file=sys.stderr)
            with open(out) as f:
                results.append(json.load(f))
            os.unlink(out)
        for name, res in zip(names, results):
            qs = res['queries']
            ratio, n = ratio_on_both(results[0], res)
            lines.append('| %s | %s | %d | %d | %.2f | %.2f (%d) |' % (
                os.path.basename(os.path.normpath(corpus)), name, len(qs),
                sum(1 for q in qs if definite(q)), res['total_s'], ratio, n))
    text = '\n'.join(lines) + '\n'
    print(text, end='')
    if a.markdown:
        with open(a.markdown, 'w') as f:
            f.write(text)


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
    ratio, n = ratio_on_both(runs[0], runs[1])
    print('median ratio after/before on the %d queries both answered: %.2f' % (n, ratio))
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
    v = sub.add_parser('solvers')
    v.add_argument('corpora', nargs='+')
    v.add_argument('--solvers', default='z3,bitwuzla')
    v.add_argument('--bin', default=os.path.join(REPO, 'target', 'release', 'examples', 'query_bench'))
    v.add_argument('--runs', type=int, default=1)
    v.add_argument('--timeout', type=float, default=20)
    v.add_argument('--markdown')
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
    {'collect': collect, 'time': time_corpus, 'compare': compare, 'solvers': solvers}[a.cmd](a)


if __name__ == '__main__':
    main()
