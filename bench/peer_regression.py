#!/usr/bin/env python3
"""qicc on a peer's regression suite: ESBMC's own C regression tests (463 of them, in
../shared/peer-regression/tests; see its README.md), each run once and classified.

Usage:
  bench/peer_regression.py [--sample N | --only NAME...] [--jobs 2] [--timeout 10]
                           [--qicc PATH] [--tests-dir DIR] [--known FILE] [--json OUT]

Each test is a directory with one C file and expect.json: `expected` ("true": ESBMC proves the
program safe; "false": some run fails an assertion, or one of ESBMC's default checks: array
bounds, pointer validity, division by zero) and `data_model` ("ILP32": qicc gets --32). qicc
runs `verify --format json --timeout T [--32] FILE`, in its own process group (its own
session), and the whole group is killed T + 5 s after the start.

Classes (the first that applies):
  deadline        the run took longer than T + 1.5 s of wall time (or was killed): qicc did
                  not keep its own time limit;
  crash           killed by a signal, an exit code that is none of qicc's, or a verdict that
                  disagrees with the exit code;
  internal-error  exit code 1, or a report with `internal_error`;
  rejected        exit code 6 (input qicc does not support, or not valid C); the first error
                  line is kept;
  unknown         UNKNOWN (exit code 5);
  agree           the expected verdict: TRUE on "true" (exit 0), FALSE on "false" (exit 10);
  wrong-true      TRUE on "false": a failing run that qicc missed;
  wrong-false     FALSE on "true": an alarm on a safe program.
The last five classes of failures (wrong-true, wrong-false, internal-error, crash, deadline)
fail the run unless the test is listed in the known list (bench/peer-regression-known.txt):
`NAME  KIND  reason` a line, KIND `difference` (qicc's documented semantics and C allow both
answers) or `bug` (a qicc bug, open in issue 28; the reason starts with the class it shows as).
A listed test that runs and no longer fails is a stale entry, and fails the run too.

The exit status is 0 iff no test failed outside the known list and no entry is stale (2 on a
usage error or a malformed known list).
"""
import argparse, collections, concurrent.futures, hashlib, json, os, re, sys, threading

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from run_tasks import run_child  # noqa: E402

DEFAULT_TESTS = os.path.normpath(os.path.join(REPO, '..', 'shared', 'peer-regression', 'tests'))
DEFAULT_KNOWN = os.path.join(HERE, 'peer-regression-known.txt')

GRACE_KILL = 5.0      # the process group is killed this long after the time limit
GRACE_DEADLINE = 1.5  # a run longer than the limit plus this is a `deadline` failure

EXIT_TRUE, EXIT_INTERNAL, EXIT_UNKNOWN, EXIT_REJECTED, EXIT_FALSE = 0, 1, 5, 6, 10

CLASSES = ['agree', 'unknown', 'rejected', 'wrong-true', 'wrong-false', 'internal-error',
           'crash', 'deadline']
FAILURES = ['wrong-true', 'wrong-false', 'internal-error', 'crash', 'deadline']
KINDS = ['difference', 'bug']

# ---------------------------------------------------------------------------------------------
# Tests


def find_tests(root):
    """{name: (c_file, expect)} for every test directory under root."""
    tests = {}
    for name in sorted(os.listdir(root)):
        d = os.path.join(root, name)
        exp = os.path.join(d, 'expect.json')
        if not os.path.isfile(exp):
            continue
        cs = sorted(f for f in os.listdir(d) if f.endswith('.c'))
        if len(cs) != 1:
            raise SystemExit(f'{d}: expected exactly one C file, found {cs}')
        with open(exp) as f:
            tests[name] = (os.path.join(d, cs[0]), json.load(f))
    return tests


def sample(names, n):
    """A deterministic sample of n names: those with the smallest hash of their name (a test
    added to or removed from the suite changes the sample by at most one test)."""
    key = lambda s: hashlib.sha256(s.encode()).hexdigest()  # noqa: E731
    return sorted(sorted(names, key=key)[:n])


def command(qicc, c_file, expect, timeout):
    cmd = [qicc, 'verify', '--format', 'json', '--timeout', str(timeout)]
    if expect.get('data_model') == 'ILP32':
        cmd.append('--32')
    return cmd + [c_file]

# ---------------------------------------------------------------------------------------------
# Classification


def parse_report(stdout):
    """qicc's JSON report (a dict), or None when stdout holds none."""
    text = stdout.strip()
    if not text:
        return None
    try:
        rep = json.loads(text)
    except ValueError:
        # Something before the report: take the last line that parses as an object.
        for line in reversed(text.splitlines()):
            try:
                rep = json.loads(line)
                break
            except ValueError:
                continue
        else:
            return None
    return rep if isinstance(rep, dict) else None


def first_error_line(stderr, report):
    """The first line saying what went wrong: the report's reason, else stderr's first panic or
    `error` line, else its last non-empty line (Z3 may print a warning and a list of
    parameters first)."""
    if report and report.get('reason'):
        return str(report['reason']).splitlines()[0].strip()
    lines = [l.strip() for l in stderr.splitlines() if l.strip()]
    for pick in (lambda l: 'panicked' in l, lambda l: l.lower().startswith(('error', 'fatal')),
                 lambda l: 'error' in l.lower()):
        for l in lines:
            if pick(l):
                return l
    return lines[-1] if lines else ''


def _internal_text(err):
    if isinstance(err, dict):
        return err.get('message') or err.get('reason') or json.dumps(err, sort_keys=True)
    return str(err)


def classify(expected, exit_code, stdout, stderr, wall, timeout, killed=False):
    """(class, verdict, reason) of one run: class one of CLASSES, verdict qicc's ("true",
    "false", "unknown" or None), reason what qicc said (or what went wrong)."""
    report = parse_report(stdout)
    verdict = report.get('verdict') if report else None
    verdict = verdict.lower() if isinstance(verdict, str) else None
    reason = str(report.get('reason') or '') if report else ''
    if killed or wall > timeout + GRACE_DEADLINE:
        return 'deadline', verdict, f'ran {wall:.1f} s on a {timeout} s limit' + \
            (' (killed)' if killed else '')
    if exit_code < 0:
        return 'crash', verdict, f'signal {-exit_code}: ' + first_error_line(stderr, None)
    if exit_code == EXIT_INTERNAL or (report and report.get('internal_error')):
        text = _internal_text(report.get('internal_error')) if report and \
            report.get('internal_error') else first_error_line(stderr, report)
        return 'internal-error', verdict, text
    if exit_code == EXIT_REJECTED:
        return 'rejected', verdict, first_error_line(stderr, report)
    want = {EXIT_TRUE: 'true', EXIT_FALSE: 'false', EXIT_UNKNOWN: 'unknown'}.get(exit_code)
    if want is None or verdict != want:
        return 'crash', verdict, f'exit code {exit_code}, verdict {verdict or "missing"}: ' + \
            first_error_line(stderr, report)
    if verdict == 'unknown':
        return 'unknown', verdict, reason
    if verdict == expected:
        return 'agree', verdict, reason
    return ('wrong-true' if verdict == 'true' else 'wrong-false'), verdict, reason

# ---------------------------------------------------------------------------------------------
# The known list


def parse_known(text, source='known list'):
    """{name: (kind, reason)} from the known list's text: `NAME  KIND  reason` a line, `#`
    starts a comment. Raises ValueError on a malformed line, an unknown kind or a name listed
    twice."""
    known = {}
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split('#', 1)[0].strip()
        if not line:
            continue
        parts = line.split(None, 2)
        if len(parts) < 3:
            raise ValueError(f'{source}:{n}: want `NAME  KIND  reason`, got {raw!r}')
        name, kind, reason = parts
        if kind not in KINDS:
            raise ValueError(f'{source}:{n}: kind {kind!r} is none of {", ".join(KINDS)}')
        if name in known:
            raise ValueError(f'{source}:{n}: {name} is listed twice')
        known[name] = (kind, reason.strip())
    return known


def rejection_reason(line):
    """A rejection's reason without its `FILE:LINE:COL: ` prefix (so that equal reasons count
    together)."""
    return re.sub(r'^\S*?:\d+:\d+:\s*', '', line)


def listed_class(reason):
    """The failure class a known entry's reason starts with (`wrong-true: ...`), if any."""
    head = reason.split(':', 1)[0].strip()
    return head if head in FAILURES else None


def judge(results, known):
    """Splits the results (dicts with `name` and `class`) into new failures (not listed),
    known failures (listed) and stale entries (listed, run, not failing); returns the three
    lists of results and whether the run passes."""
    new, listed, stale = [], [], []
    for r in results:
        entry = known.get(r['name'])
        if r['class'] in FAILURES:
            (listed if entry else new).append(r)
        elif entry:
            stale.append(r)
    return new, listed, stale, not new and not stale

# ---------------------------------------------------------------------------------------------
# Running


def run_test(qicc, name, c_file, expect, timeout):
    cmd = command(qicc, c_file, expect, timeout)
    out = run_child(cmd, timeout + GRACE_KILL, cwd=os.path.dirname(c_file))
    cls, verdict, reason = classify(expect['expected'], out['exit_code'], out['stdout'],
                                    out['stderr'], out['wall'], timeout, out['killed'])
    return {'name': name, 'expected': expect['expected'],
            'data_model': expect.get('data_model', 'LP64'), 'class': cls, 'verdict': verdict,
            'exit_code': out['exit_code'], 'wall_s': round(out['wall'], 3), 'reason': reason,
            'command': cmd}


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    tool_dir = os.environ.get('QICC_TOOL_DIR')
    default_qicc = os.path.join(tool_dir, 'qicc') if tool_dir else \
        os.path.join(REPO, 'target', 'release', 'qicc')
    p.add_argument('--qicc', default=default_qicc,
                   help='the qicc binary (default: $QICC_TOOL_DIR/qicc, else target/release/qicc)')
    p.add_argument('--tests-dir', default=DEFAULT_TESTS,
                   help='the suite (default: ../shared/peer-regression/tests from the repository)')
    p.add_argument('--known', default=DEFAULT_KNOWN, help='the known list (default: %(default)s)')
    p.add_argument('--timeout', type=float, default=10, help='seconds per test (default: 10)')
    p.add_argument('--jobs', type=int, default=2, help='tests run at once (default: 2)')
    sel = p.add_mutually_exclusive_group()
    sel.add_argument('--sample', type=int, help='a deterministic sample of N tests')
    sel.add_argument('--only', nargs='+', metavar='NAME', help='only these tests')
    p.add_argument('--json', metavar='OUT', help='write every test\'s result to OUT')
    p.add_argument('--quiet', action='store_true', help='no progress lines')
    args = p.parse_args(argv)
    if args.timeout == int(args.timeout):
        args.timeout = int(args.timeout)
    return args


def main(argv=None):
    args = parse_args(argv)
    if not os.path.isfile(args.qicc):
        print(f'error: no qicc binary at {args.qicc} (cargo build --release, or --qicc PATH)',
              file=sys.stderr)
        return 2
    if not os.path.isdir(args.tests_dir):
        print(f'error: no test suite at {args.tests_dir} (--tests-dir DIR)', file=sys.stderr)
        return 2
    try:
        with open(args.known) as f:
            known = parse_known(f.read(), args.known)
    except ValueError as e:
        print(f'error: {e}', file=sys.stderr)
        return 2
    tests = find_tests(args.tests_dir)
    for name in known:
        if name not in tests:
            print(f'warning: known list names {name}, which is no test of the suite',
                  file=sys.stderr)
    names = sorted(tests)
    if args.only:
        missing = [n for n in args.only if n not in tests]
        if missing:
            print(f'error: no such test: {", ".join(missing)}', file=sys.stderr)
            return 2
        names = sorted(set(args.only))
    elif args.sample is not None:
        names = sample(names, args.sample)

    results, lock = [], threading.Lock()

    def one(name):
        c_file, expect = tests[name]
        r = run_test(os.path.abspath(args.qicc), name, c_file, expect, args.timeout)
        with lock:
            results.append(r)
            if not args.quiet:
                print(f'[{len(results)}/{len(names)}] {name}: {r["class"]} ({r["wall_s"]:.1f} s)',
                      file=sys.stderr, flush=True)
        return r

    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        list(pool.map(one, names))
    results.sort(key=lambda r: r['name'])
    new, listed, stale, ok = judge(results, known)
    for r in results:
        r['known'] = known[r['name']][0] if r['name'] in known else None

    print(f'\nqicc on {len(results)} peer regression tests ({args.tests_dir}), '
          f'{args.timeout} s each:')
    for cls in CLASSES:
        n = sum(r['class'] == cls for r in results)
        mark = ' (failure)' if cls in FAILURES else ''
        print(f'  {cls:<15} {n:>4}{mark}')
    rejections = collections.Counter(rejection_reason(r['reason']) for r in results
                                     if r['class'] == 'rejected')
    if rejections:
        print('\nMost common rejection reasons:')
        for why, n in rejections.most_common(10):
            print(f'  {n:>4}  {why}')
    failing = [r for r in results if r['class'] in FAILURES]
    if failing:
        print('\nFailing tests:')
        for r in failing:
            entry = known.get(r['name'])
            tag = f'known {entry[0]}' if entry else 'NEW'
            note = ''
            if entry and listed_class(entry[1]) not in (None, r['class']):
                note = f' [listed as {listed_class(entry[1])}]'
            said = f'qicc {r["verdict"].upper()}' if r['verdict'] else f'exit {r["exit_code"]}'
            said += f': {r["reason"]}' if r['reason'] else ''
            print(f'  {r["name"]}  {r["class"]}  [{tag}]{note}  {said}')
    if stale:
        print('\nStale entries (listed in the known list, no longer failing; remove them):')
        for r in stale:
            print(f'  {r["name"]}  now {r["class"]}  (listed: {known[r["name"]][0]}: '
                  f'{known[r["name"]][1]})')
    print(f'\n{len(new)} new failure(s), {len(listed)} known, {len(stale)} stale entr'
          f'{"y" if len(stale) == 1 else "ies"}: {"PASS" if ok else "FAIL"}')
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'qicc': os.path.abspath(args.qicc), 'timeout': args.timeout,
                       'tests_dir': os.path.abspath(args.tests_dir), 'results': results},
                      f, indent=1)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
