#!/usr/bin/env bash
# How one file's speed verdict varies from check to check: the file checked
# REPS times, one line per check and timed task, from the check's --json:
# verdict, ratio (spread), the student's calls (quickest/median ms), the
# baseline's, and the harness's cost taken out of each call (ms). A threshold
# is set where the course's own version stays clear of it in every check.
#
#   HPCLAB=build/default/grader/hpclab REPS=4 scripts/timing-spread.sh vecadd3 solutions/vecadd3/vecadd3.cu
set -u -o pipefail
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { echo "usage: $0 <lab> <file.cu>" >&2; exit 2; }
HPCLAB=${HPCLAB:-build/default/grader/hpclab}
REPS=${REPS:-4}
LOGS=${LOGS:-$(mktemp -d)}
mkdir -p "$LOGS"
for r in $(seq "$REPS"); do
  json="$LOGS/spread-$1-$(basename "$2" .cu)-$r.json"
  "$HPCLAB" check "$1" --file "$2" --json "$json" > "${json%.json}.txt" 2>&1
  python3 - "$json" "$1 $(basename "$2") $r" <<'PY'
import json, sys
def med(v): return sorted(v)[len(v) // 2]
try:
    tasks = json.load(open(sys.argv[1]))["tasks"]
except (OSError, ValueError, KeyError) as e:
    sys.exit(print(f"{sys.argv[2]}: no record ({e})"))
for t in tasks:
    x = t.get("timing")
    if not x or not x["student_ms"] or not x["baseline_ms"]: continue
    s, b = x["student_ms"], x["baseline_ms"]
    print(f"{sys.argv[2]}: {t['task']} {t['verdict']} {x['ratio']:.2f}x ({x['ratio_low']:.2f}..{x['ratio_high']:.2f};"
          f" needs {x['threshold']:.2f}x) student {min(s):.3f}/{med(s):.3f} baseline {min(b):.3f}/{med(b):.3f}"
          f" harness {x['harness_ms']:.3f} ms, {len(s)} calls")
PY
done
