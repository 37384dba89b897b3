#!/bin/sh
# A soundness-fuzzing campaign: fresh random programs (crates/qicc-fuzz) through every engine
# and mode until the time cap, then a table of verdicts; failing programs go to --out
# (default target/fuzz-failures). Exit code 1 if any engine contradicted the ground truth.
#
#   bench/fuzz_campaign.sh [TOTAL_SECONDS [START_SEED [more qicc-fuzz options...]]]
#
# e.g. bench/fuzz_campaign.sh 3600 5000000 --timeout 5 --profile normal
set -eu
cd "$(dirname "$0")/.."
cap=${1:-1200}
start=${2:-$(date +%s)}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
cargo build --release -q -p qicc-fuzz
# The campaign stops starting programs at the cap; the outer timeout is a safety net.
exec timeout $((cap + 120)) target/release/qicc-fuzz --seeds 100000000 --start "$start" \
    --time-cap "$cap" "$@"
