# This file is part of qicc.
# SPDX-License-Identifier: MIT OR Apache-2.0
"""BenchExec tool-info module for qicc.

Owns how BenchExec runs qicc and reads its answer: the command line (`qicc verify` with the
task's data model, property file and time limit) and the mapping of qicc's verdict line and
exit code (0 TRUE, 10 FALSE, 5 UNKNOWN, 6 input error or unsupported property, 1 internal
error, 2 bad command line) to BenchExec's results.

Use it by its dotted module name with the repository root on PYTHONPATH:
    PYTHONPATH=. python3 -m benchexec.test_tool_info contrib.benchexec.qicc \
        --tool-directory target/release --no-container
    PYTHONPATH=. benchexec contrib/benchexec/qicc-shared.xml --tool-directory target/release
"""

import re

import benchexec.result as result
import benchexec.tools.template
from benchexec.tools.sv_benchmarks_util import ILP32, LP64, get_data_model_from_task

EXIT_TRUE = 0
EXIT_FALSE = 10
EXIT_UNKNOWN = 5
EXIT_INPUT_ERROR = 6
EXIT_INTERNAL = 1
EXIT_USAGE = 2

_VERDICT = re.compile(r"^VERDICT: (TRUE|FALSE|UNKNOWN)(?:\(([a-z-]+)\))?(?: \((.*)\))?")
# A FALSE names the violated property unless it is unreach-call: BenchExec's result for each.
_FALSE_RESULT = {
    None: result.RESULT_FALSE_REACH,
    "no-overflow": result.RESULT_FALSE_OVERFLOW,
    "valid-deref": result.RESULT_FALSE_DEREF,
    "valid-free": result.RESULT_FALSE_FREE,
    "valid-memtrack": result.RESULT_FALSE_MEMTRACK,
    "valid-memcleanup": result.RESULT_FALSE_MEMCLEANUP,
}
# qicc's one-line diagnostics: `file:line:col: error: message` (or `unsupported:`).
_DIAGNOSTIC = re.compile(r"^\S+:\d+:\d+: (?:error|unsupported): (.*)$")
# qicc answers within about 1.5 s of its own deadline; it should give its UNKNOWN
# (timeout) before BenchExec kills it at the limit.
_DEADLINE_MARGIN_S = 3


class Tool(benchexec.tools.template.BaseTool2):
    """qicc: Qicc's gambling on loop regions, Corral and Impulse for C programs."""

    def executable(self, tool_locator):
        return tool_locator.find_executable("qicc")

    def name(self):
        return "qicc"

    def version(self, executable):
        return self._version_from_tool(executable, line_prefix="qicc")

    def cmdline(self, executable, options, task, rlimits):
        cmd = [executable, "verify"]
        data_model = get_data_model_from_task(task, {ILP32: "--32", LP64: "--64"})
        if data_model and "--32" not in options and "--64" not in options:
            cmd.append(data_model)
        if task.property_file:
            cmd += ["--property", task.property_file]
        timeout = self._timeout(rlimits)
        if timeout is not None and "--timeout" not in options:
            cmd += ["--timeout", str(timeout)]
        # SV-COMP collects `witness.yml` from the run's working directory (format 2.0).
        if "--witness" not in options:
            cmd += ["--witness", "witness.yml"]
        return cmd + list(options) + [task.single_input_file]

    @staticmethod
    def _timeout(rlimits):
        """qicc's --timeout is wall-clock time: the wall-time limit, or the CPU-time limit
        shared by the cores qicc may keep busy (its default runs engines in parallel)."""
        limits = []
        if rlimits.walltime:
            limits.append(rlimits.walltime)
        if rlimits.cputime:
            limits.append(rlimits.cputime / max(1, rlimits.cpu_cores or 1))
        if not limits:
            return None
        return max(1, int(min(limits)) - _DEADLINE_MARGIN_S)

    def determine_result(self, run):
        verdict, violated, reason = None, None, None
        for line in run.output:
            m = _VERDICT.match(line)
            if m:
                verdict, violated, reason = m.group(1), m.group(2), m.group(3)
        code = run.exit_code.value
        if run.exit_code.signal is not None:
            return result.RESULT_TIMEOUT if run.was_timeout else (
                f"{result.RESULT_ERROR} (signal {run.exit_code.signal})"
            )
        if verdict == "TRUE" and code == EXIT_TRUE:
            return result.RESULT_TRUE_PROP
        if verdict == "FALSE" and code == EXIT_FALSE and violated in _FALSE_RESULT:
            return _FALSE_RESULT[violated]
        if verdict == "UNKNOWN" and code == EXIT_UNKNOWN:
            if run.was_timeout or (reason or "").startswith("time limit reached"):
                return result.RESULT_TIMEOUT
            return result.RESULT_UNKNOWN
        if run.was_timeout:
            return result.RESULT_TIMEOUT
        if code == EXIT_INPUT_ERROR:
            return f"{result.RESULT_ERROR} ({self._diagnostic(run) or 'input error'})"
        if code == EXIT_INTERNAL:
            return f"{result.RESULT_ERROR} (internal error)"
        if code == EXIT_USAGE:
            return f"{result.RESULT_ERROR} (bad command line)"
        # A verdict line that disagrees with the exit code (or none at all) is not an answer.
        return f"{result.RESULT_ERROR} (exit code {code}, verdict {verdict or 'missing'})"

    @staticmethod
    def _diagnostic(run):
        for line in run.output:
            m = _DIAGNOSTIC.match(line)
            if m:
                return m.group(1)
        return None
