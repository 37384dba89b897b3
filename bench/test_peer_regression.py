"""Tests of bench/peer_regression.py's plumbing: the classification of runs, the known list,
the deterministic sample, and a whole run against a fake qicc (a shell script) on a hand-made
suite of five tests. Cheap: no real qicc and no solver.

    PYTHONPATH=. python3 -m unittest bench/test_peer_regression.py
"""
import io
import json
import os
import stat
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import peer_regression as pr  # noqa: E402


def report(verdict, reason=None, **extra):
    return json.dumps(dict(verdict=verdict, reason=reason, **extra), indent=2)


class Classify(unittest.TestCase):
    def test_verdicts(self):
        cases = [
            ('true', 0, report('true'), 'agree'),
            ('false', 10, report('false', 'assertion #0 violated'), 'agree'),
            ('false', 0, report('true', 'the program has no assertion'), 'wrong-true'),
            ('true', 10, report('false', 'assertion #0 violated'), 'wrong-false'),
            ('true', 5, report('unknown', 'time limit reached'), 'unknown'),
            ('false', 5, report('unknown', 'undefined behaviour'), 'unknown'),
        ]
        for expected, code, out, cls in cases:
            with self.subTest(expected=expected, code=code):
                got = pr.classify(expected, code, out, '', 0.5, 10)
                self.assertEqual(got[0], cls)
        self.assertEqual(pr.classify('false', 0, report('true', 'no assertion'), '', 1, 10),
                         ('wrong-true', 'true', 'no assertion'))

    def test_rejected_keeps_the_first_error_line(self):
        err = 'WARNING: unknown parameter\nerror: unsupported: inline assembly\n  at main.c:3\n'
        self.assertEqual(pr.classify('true', 6, '', err, 0.1, 10),
                         ('rejected', None, 'error: unsupported: inline assembly'))
        # The report's reason, when there is a report.
        self.assertEqual(pr.classify('true', 6, report('unknown', 'bad input\nmore'), err, 0.1,
                                     10)[2], 'bad input')

    def test_internal_errors(self):
        self.assertEqual(pr.classify('true', 1, '', 'thread main panicked at x.rs:1\n', 1, 10),
                         ('internal-error', None, 'thread main panicked at x.rs:1'))
        # internal_error in the report wins over its verdict and exit code.
        out = report('unknown', 'contradiction', internal_error={'message': 'engines disagree'})
        self.assertEqual(pr.classify('true', 5, out, '', 1, 10)[::2],
                         ('internal-error', 'engines disagree'))

    def test_crashes(self):
        self.assertEqual(pr.classify('true', -11, '', '', 1, 10)[0], 'crash')
        self.assertEqual(pr.classify('true', 3, '', 'oops', 1, 10)[0], 'crash')
        # A verdict that disagrees with the exit code is no answer.
        self.assertEqual(pr.classify('true', 0, report('false'), '', 1, 10)[0], 'crash')
        self.assertEqual(pr.classify('true', 0, 'not json', '', 1, 10)[0], 'crash')

    def test_deadline(self):
        self.assertEqual(pr.classify('true', 0, report('true'), '', 11.4, 10)[0], 'agree')
        self.assertEqual(pr.classify('true', 0, report('true'), '', 11.6, 10)[0], 'deadline')
        self.assertEqual(pr.classify('true', -9, '', '', 15.0, 10, killed=True)[0], 'deadline')

    def test_rejection_reason_drops_the_location(self):
        self.assertEqual(pr.rejection_reason('/t/a/main.c:3:7: unsupported: inline assembly'),
                         'unsupported: inline assembly')
        self.assertEqual(pr.rejection_reason('unsupported: x'), 'unsupported: x')

    def test_report_after_noise(self):
        self.assertEqual(pr.parse_report('noise\n{"verdict": "true"}')['verdict'], 'true')
        self.assertIsNone(pr.parse_report(''))
        self.assertIsNone(pr.parse_report('[1, 2]'))


class Known(unittest.TestCase):
    def test_parse(self):
        text = ('# comment\n\n'
                'a_test  difference  malloc never fails in qicc  # trailing comment\n'
                'b_test\tbug\twrong-true: __builtin_foo unmodelled\n')
        self.assertEqual(pr.parse_known(text), {
            'a_test': ('difference', 'malloc never fails in qicc'),
            'b_test': ('bug', 'wrong-true: __builtin_foo unmodelled')})
        self.assertEqual(pr.listed_class('wrong-true: x'), 'wrong-true')
        self.assertIsNone(pr.listed_class('malloc never fails'))

    def test_malformed(self):
        for text in ['a_test bug\n', 'a_test  feature  why\n',
                     'a  bug  wrong-true: x\na  bug  wrong-true: y\n']:
            with self.subTest(text=text), self.assertRaises(ValueError):
                pr.parse_known(text)

    def test_the_checked_in_list_parses(self):
        with open(pr.DEFAULT_KNOWN) as f:
            known = pr.parse_known(f.read())
        for name, (kind, reason) in known.items():
            if kind == 'bug':
                self.assertIsNotNone(pr.listed_class(reason), f'{name}: reason lacks its class')

    def test_judge(self):
        known = {'k_bug': ('bug', 'wrong-true: x'), 'k_diff': ('difference', 'y'),
                 'k_fixed': ('bug', 'crash: z'), 'k_not_run': ('bug', 'deadline: w')}
        results = [{'name': 'new_fail', 'class': 'wrong-false'}, {'name': 'ok', 'class': 'agree'},
                   {'name': 'rej', 'class': 'rejected'}, {'name': 'k_bug', 'class': 'wrong-true'},
                   {'name': 'k_diff', 'class': 'internal-error'},
                   {'name': 'k_fixed', 'class': 'unknown'}]
        new, listed, stale, ok = pr.judge(results, known)
        self.assertEqual([r['name'] for r in new], ['new_fail'])
        self.assertEqual([r['name'] for r in listed], ['k_bug', 'k_diff'])
        self.assertEqual([r['name'] for r in stale], ['k_fixed'])
        self.assertFalse(ok)
        self.assertTrue(pr.judge(results[1:3] + results[3:5], known)[3])
        self.assertFalse(pr.judge(results[5:], known)[3])  # a stale entry alone fails


class Sample(unittest.TestCase):
    def test_deterministic_and_stable(self):
        names = [f't{i}' for i in range(100)]
        s = pr.sample(names, 10)
        self.assertEqual(len(s), 10)
        self.assertEqual(s, pr.sample(list(reversed(names)), 10))
        self.assertEqual(s, sorted(s))
        # Adding a test changes the sample by at most one test.
        self.assertLessEqual(len(set(s) - set(pr.sample(names + ['new'], 10))), 1)
        self.assertEqual(pr.sample(names, 1000), sorted(names))

    def test_command(self):
        self.assertEqual(pr.command('q', 'm.c', {'data_model': 'ILP32'}, 5),
                         ['q', 'verify', '--format', 'json', '--timeout', '5', '--32', 'm.c'])
        self.assertNotIn('--32', pr.command('q', 'm.c', {'data_model': 'LP64'}, 5))


# A fake qicc: the test's C file says what to do in its first line's comment.
FAKE_QICC = r'''#!/bin/sh
for last; do :; done
case "$(head -n1 "$last")" in
  *say-true*) echo '{"verdict": "true", "reason": null}'; exit 0 ;;
  *say-false*) echo '{"verdict": "false", "reason": "assertion #0 violated"}'; exit 10 ;;
  *say-reject*) echo 'error: unsupported: _Complex' >&2; exit 6 ;;
  *want-32*) case " $* " in *" --32 "*) echo '{"verdict": "true"}'; exit 0 ;; esac; exit 3 ;;
  *sleep*) sleep 3; echo '{"verdict": "true"}'; exit 0 ;;
esac
exit 1
'''


class WholeRun(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        root = self.dir.name
        self.qicc = os.path.join(root, 'qicc')
        with open(self.qicc, 'w') as f:
            f.write(FAKE_QICC)
        os.chmod(self.qicc, os.stat(self.qicc).st_mode | stat.S_IXUSR)
        self.tests = os.path.join(root, 'tests')
        for name, first, expected, dm in [
                ('t_agree', 'say-true', 'true', 'LP64'),
                ('t_wrong_true', 'say-true', 'false', 'LP64'),
                ('t_reject', 'say-reject', 'true', 'LP64'),
                ('t_ilp32', 'want-32', 'true', 'ILP32'),
                ('t_slow', 'sleep', 'true', 'LP64')]:
            d = os.path.join(self.tests, name)
            os.makedirs(d)
            with open(os.path.join(d, 'main.c'), 'w') as f:
                f.write(f'// {first}\nint main(void) {{ return 0; }}\n')
            with open(os.path.join(d, 'expect.json'), 'w') as f:
                json.dump({'expected': expected, 'data_model': dm}, f)
        self.known = os.path.join(root, 'known.txt')

    def tearDown(self):
        self.dir.cleanup()

    def main(self, known_text, *extra):
        with open(self.known, 'w') as f:
            f.write(known_text)
        out_json = os.path.join(self.dir.name, 'out.json')
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            code = pr.main(['--qicc', self.qicc, '--tests-dir', self.tests, '--known', self.known,
                            '--timeout', '1', '--jobs', '2', '--json', out_json, *extra])
        with open(out_json) as f:
            return code, out.getvalue(), {r['name']: r for r in json.load(f)['results']}

    def test_classes_known_list_and_exit_code(self):
        code, out, res = self.main('', '--only', 't_agree', 't_wrong_true', 't_reject',
                                   't_ilp32')
        self.assertEqual({n: r['class'] for n, r in res.items()},
                         {'t_agree': 'agree', 't_wrong_true': 'wrong-true',
                          't_reject': 'rejected', 't_ilp32': 'agree'})
        self.assertEqual(res['t_reject']['reason'], 'error: unsupported: _Complex')
        self.assertEqual(code, 1)
        self.assertIn('t_wrong_true  wrong-true  [NEW]', out)
        code, out, _ = self.main('t_wrong_true  bug  wrong-true: fake\n', '--only', 't_agree',
                                 't_wrong_true')
        self.assertEqual(code, 0, out)
        code, out, _ = self.main('t_wrong_true  bug  wrong-true: fake\n'
                                 't_agree  difference  no longer differs\n',
                                 '--only', 't_agree', 't_wrong_true')
        self.assertEqual(code, 1)
        self.assertIn('Stale entries', out)

    def test_deadline(self):
        code, out, res = self.main('', '--only', 't_slow')
        self.assertEqual(res['t_slow']['class'], 'deadline')
        self.assertEqual(code, 1)


if __name__ == '__main__':
    unittest.main()
