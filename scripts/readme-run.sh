#!/usr/bin/env bash
# The README's two commands as a new user runs them on a GPU machine, timed:
# ./setup, then cmake --workflow --preset default, with a timeline file per
# hpclab process of the tests (HPCLAB_TIMELINE=<folder>/, util/timeline.h)
# read by scripts/test-timelines.py, and the tests' times longest first.
# One device call (about 400 s on an H200); its summary in $OUT/summary.txt,
# the logs and timelines in $OUT/logs.tar.gz (docs/results/test-times-h200.txt
# quotes its runs).
#
#   scripts/readme-run.sh                          # the machine as it comes
#   HPCLAB_BWRAP=$PWD/.carry/bwrap/usr/bin/bwrap scripts/readme-run.sh   # a bubblewrap unpacked beside
set -u -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
LOGS=$(mktemp -d)/readme-run; mkdir -p "$LOGS/tl"
S="$OUT/summary.txt"; : > "$S"
say() { echo "$*" | tee -a "$S"; }
pack() { tar -C "$(dirname "$LOGS")" -czf "$OUT/logs.tar.gz" readme-run; }
now() { date +%s.%N; }
since() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$1" "$(now)"; }
sandbox=${HPCLAB_BWRAP:+bubblewrap at $HPCLAB_BWRAP}
sandbox=${sandbox:-$(command -v bwrap || echo "no bubblewrap")}
say "== the README's two commands, $(date -u '+%F %T') UTC, $(git describe --always --dirty 2>/dev/null || echo 'no git');" \
    "$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || echo 'no GPU');" \
    "$(nproc) CPUs; sandbox: $sandbox"

t=$(now); ./setup > "$LOGS/setup.txt" 2>&1; rc=$?
say "./setup: exit $rc, $(since "$t") s"
grep -E "^setup: .* in all" "$LOGS/setup.txt" | tee -a "$S"
pack

t=$(now); HPCLAB_TIMELINE=$LOGS/tl/ cmake --workflow --preset default > "$LOGS/workflow.txt" 2>&1; rc=$?
say "cmake --workflow --preset default: exit $rc, $(since "$t") s"
grep -E "Total Test time|^hpclab tests:|skipped:|\*\*\*Failed|Failed  |Timeout" "$LOGS/workflow.txt" | head -30 | tee -a "$S"
# Each test's seconds, the longest first (scripts/test-costs.py's reading of a ctest log).
scripts/test-costs.py "this run" "$LOGS/workflow.txt" | grep -v "^#" > "$LOGS/test-times.txt"
say "the longest tests (s):"; head -25 "$LOGS/test-times.txt" | tee -a "$S"
scripts/test-timelines.py "$LOGS/tl/" 30 > "$LOGS/timelines.txt" 2>&1
sed -n 1,20p "$LOGS/timelines.txt" | tee -a "$S"
scripts/test-timelines.py "$LOGS/tl/" --merge > "$LOGS/one-clock.txt" 2>&1
say "the GPU's wall (scripts/timeline-table.py on the timelines merged):"
scripts/timeline-table.py "$LOGS/one-clock.txt" 2>&1 |
  grep -E "GPU idle|the GPU's wall|what the drains|no run's end|a racecheck run:|a lab program \(|a memcheck run:" | tee -a "$S"
pack
say "== end $(date -u '+%T')"
