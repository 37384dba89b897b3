#!/usr/bin/env bash
# The Qicc paper's Table 1 with X = ESBMC: the study's scenarios (every kernel, every
# placement, safe and buggy twins; `qicc-study generate`) run by ESBMC alone (its SV-COMP
# k-induction configuration), by Qicc+ESBMC (`qicc verify --backend esbmc`) and by qicc's
# built-in default engine, side by side in one run of bench/run_tasks.py (per kernel: solved,
# wrong, time; and Qicc+ESBMC's time over ESBMC's on the tasks ESBMC decides in < 1 s).
#
# usage: bench/study_esbmc.sh [TIMEOUT] [run_tasks.py options...]
#   QICC=path/to/qicc (default target/release/qicc), OUT=dir for study.md/study.json
set -euo pipefail
cd "$(dirname "$0")/.."
timeout="${1:-10}"
shift || true
qicc="${QICC:-target/release/qicc}"
out="${OUT:-.}"
tasks="$(mktemp -d)"
trap 'rm -rf "$tasks"' EXIT
cargo run --release -q -p qicc-study -- generate --out "$tasks" --unsafe
python3 bench/run_tasks.py --qicc "$qicc" --tasks "$tasks" --engines qicc,qicc+esbmc,esbmc \
  --timeout "$timeout" --markdown "$out/study.md" --json "$out/study.json" "$@"
