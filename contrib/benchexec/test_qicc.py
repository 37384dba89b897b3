# This file is part of qicc.
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Tests of the BenchExec tool-info module `qicc.py` against a built qicc: the command line
it makes for SV-COMP tasks, and the results it reads from qicc's real answers (TRUE, FALSE,
UNKNOWN, an unsupported property) and from broken runs.

    QICC_TOOL_DIR=target/release PYTHONPATH=. python3 -m unittest contrib/benchexec/test_qicc.py
"""

import os
import subprocess
import tempfile
import unittest

import benchexec.result as result
from benchexec.tools.template import BaseTool2
from benchexec.util import ProcessExitCode

from contrib.benchexec.qicc import Tool

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
REGRESSION = os.path.join(REPO, "tests", "regression")
# Absolute: each run's working directory is a fresh temporary one, where a relative path
# to the executable would name nothing.
TOOL_DIR = os.path.abspath(
    os.environ.get("QICC_TOOL_DIR", os.path.join(REPO, "target", "release"))
)


def limits(cputime=None, walltime=None, cores=None):
    return BaseTool2.ResourceLimits(
        cputime=cputime, cputime_hard=None, walltime=walltime, memory=None, cpu_cores=cores
    )


class QiccToolInfo(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tool = Tool()
        cls.exe = cls.tool.executable(BaseTool2.ToolLocator(tool_directory=TOOL_DIR))

    def run_qicc(self, case, program="main.c", prp=None, options=(), data_model="LP64"):
        """Runs qicc on a regression case with the module's command line, as BenchExec
        would (stderr merged into the output), and reads its result."""
        # The run's working directory is a fresh one, as BenchExec's: the witness.yml the
        # command line asks for lands there, not in the repository.
        work = tempfile.mkdtemp(prefix="qicc-benchexec-")
        task = BaseTool2.Task.with_files(
            [os.path.join(REGRESSION, case, program)],
            property_file=prp,
            options={"language": "C", "data_model": data_model},
        )
        cmd = self.tool.cmdline(self.exe, list(options), task, limits(cputime=60, cores=2))
        proc = subprocess.run(
            cmd,
            cwd=work,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            universal_newlines=True,
        )
        run = BaseTool2.Run(
            cmd,
            ProcessExitCode.create(value=proc.returncode),
            BaseTool2.RunOutput(proc.stdout.splitlines(keepends=True)),
            None,
        )
        res = self.tool.determine_result(run)
        if res in (result.RESULT_FALSE_REACH, result.RESULT_TRUE_PROP):
            with open(os.path.join(work, "witness.yml")) as w:
                self.assertIn("format_version", w.read())
        return res

    def test_name_and_version(self):
        self.assertEqual(self.tool.name(), "qicc")
        self.assertRegex(self.tool.version(self.exe), r"^\d+\.\d+\.\d+")

    def test_cmdline(self):
        task = BaseTool2.Task.with_files(
            ["dir/prog.i"],
            property_file="props/unreach-call.prp",
            options={"language": "C", "data_model": "ILP32"},
        )
        cmd = self.tool.cmdline(self.exe, ["--engine", "bmc"], task, limits(900, None, 4))
        self.assertEqual(
            cmd,
            [self.exe, "verify", "--32", "--property", "props/unreach-call.prp",
             "--timeout", "222", "--witness", "witness.yml", "--engine", "bmc", "dir/prog.i"],
        )
        task = BaseTool2.Task.with_files(["p.c"], options={"language": "C", "data_model": "LP64"})
        cmd = self.tool.cmdline(self.exe, [], task, limits(None, 30, None))
        self.assertEqual(
            cmd, [self.exe, "verify", "--64", "--timeout", "27", "--witness", "witness.yml", "p.c"])
        # The user's own data model and time limit win.
        cmd = self.tool.cmdline(self.exe, ["--64", "--timeout", "5"], task._replace(
            options={"language": "C", "data_model": "ILP32"}), limits(900, None, 4))
        self.assertEqual(
            cmd, [self.exe, "verify", "--witness", "witness.yml", "--64", "--timeout", "5", "p.c"])

    def test_results_of_real_runs(self):
        prp = os.path.join(REPO, "..", "shared", "benchmarks", "properties", "unreach-call.prp")
        prp = prp if os.path.exists(prp) else None
        self.assertEqual(
            self.run_qicc("false_simple", prp=prp, options=["--engine", "bmc"]),
            result.RESULT_FALSE_REACH,
        )
        self.assertEqual(
            self.run_qicc("true_bounded_loop", options=["--engine", "bmc"]),
            result.RESULT_TRUE_PROP,
        )
        self.assertEqual(
            self.run_qicc("unknown_unbounded", options=["--engine", "bmc", "--max-unwind", "16"]),
            result.RESULT_UNKNOWN,
        )
        self.assertEqual(
            self.run_qicc("property_no_overflow", prp=os.path.join(
                REGRESSION, "property_no_overflow", "no-overflow.prp")),
            result.RESULT_FALSE_OVERFLOW,
        )
        # valid-memsafety: the sub-property a FALSE names is BenchExec's result.
        for case, expected in [("memsafety_null_false", result.RESULT_FALSE_DEREF),
                               ("memsafety_double_free_false", result.RESULT_FALSE_FREE),
                               ("memsafety_leak_overwrite_false", result.RESULT_FALSE_MEMTRACK),
                               ("memsafety_null_true", result.RESULT_TRUE_PROP)]:
            self.assertEqual(
                self.run_qicc(case, prp=os.path.join(REGRESSION, case, "valid-memsafety.prp")),
                expected,
            )
        self.assertEqual(
            self.run_qicc("memsafety_cleanup_exit_false", prp=os.path.join(
                REGRESSION, "memsafety_cleanup_exit_false", "valid-memcleanup.prp")),
            result.RESULT_FALSE_MEMCLEANUP,
        )
        self.assertEqual(
            self.run_qicc("property_task_unsupported", program="prog.c", prp=os.path.join(
                REGRESSION, "property_task_unsupported", "termination.prp")),
            "ERROR (property termination (qicc checks unreach-call, no-overflow, "
            "valid-memsafety and valid-memcleanup))",
        )
        self.assertEqual(
            self.run_qicc("syntax_error")[: len("ERROR (")], "ERROR (",
        )

    def test_results_of_broken_runs(self):
        def run(code, lines, reason=None):
            exit_code = (
                ProcessExitCode.create(signal=9) if code is None
                else ProcessExitCode.create(value=code)
            )
            out = BaseTool2.RunOutput([line + "\n" for line in lines])
            return self.tool.determine_result(BaseTool2.Run(["qicc"], exit_code, out, reason))

        self.assertEqual(run(None, [], "cputime"), result.RESULT_TIMEOUT)
        self.assertEqual(run(None, []), "ERROR (signal 9)")
        self.assertEqual(run(5, ["VERDICT: UNKNOWN (time limit reached)"]), result.RESULT_TIMEOUT)
        # A verdict that the exit code does not confirm (or none) is no answer.
        self.assertEqual(run(10, []), "ERROR (exit code 10, verdict missing)")
        self.assertEqual(run(0, ["VERDICT: FALSE (x)"]), "ERROR (exit code 0, verdict FALSE)")
        # A FALSE names the violated property unless it is unreach-call.
        self.assertEqual(run(10, ["VERDICT: FALSE(no-overflow) (assertion #1 violated)"]),
                         result.RESULT_FALSE_OVERFLOW)
        self.assertEqual(run(10, ["VERDICT: FALSE (assertion #1 violated)"]),
                         result.RESULT_FALSE_REACH)
        for sub, res in [("valid-deref", result.RESULT_FALSE_DEREF),
                         ("valid-free", result.RESULT_FALSE_FREE),
                         ("valid-memtrack", result.RESULT_FALSE_MEMTRACK),
                         ("valid-memcleanup", result.RESULT_FALSE_MEMCLEANUP)]:
            self.assertEqual(run(10, ["VERDICT: FALSE(%s) (assertion #1 violated)" % sub]), res)
        self.assertEqual(run(10, ["VERDICT: FALSE(termination)"]),
                         "ERROR (exit code 10, verdict FALSE)")
        self.assertEqual(run(1, ["INTERNAL ERROR: x", "VERDICT: UNKNOWN (internal error: x)"]),
                         "ERROR (internal error)")


if __name__ == "__main__":
    unittest.main()
