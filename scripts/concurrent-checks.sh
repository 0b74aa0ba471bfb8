#!/usr/bin/env bash
# No accusation from load (issue 44's invariant 9): correct files checked
# while other checks share the GPU, as at a lab machine a class shares. For
# each lab, COPIES (default 8) checks of its solution at once, each a separate
# hpclab (as eight students' would be); then every lab's solution at once.
# Every check must end pass or inconclusive: never tampering, too_slow or any
# other failure of a correct file. Prints one line per round and exits 1 when
# a correct file was accused.
#
#   scripts/concurrent-checks.sh <hpclab> [lab ...]      # default: every lab
#   COPIES=8 LOGS=out/concurrent scripts/concurrent-checks.sh build/default/grader/hpclab
#
# Its output for a GPU is kept in docs/results/concurrent-checks-<gpu>.txt.
set -u -o pipefail
cd "$(dirname "$0")/.."
hpclab=${1:?usage: scripts/concurrent-checks.sh <hpclab> [lab ...]}
shift
labs=("$@")
if [ ${#labs[@]} -eq 0 ]; then
  for j in labs/*/lab.json; do labs+=("$(basename "$(dirname "$j")")"); done
fi
COPIES=${COPIES:-8}
LOGS=${LOGS:-out/concurrent}
mkdir -p "$LOGS"
accused=0

# Each check's verdicts from its record: "<task>=<verdict> ...".
verdicts_of() {
  python3 -c '
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except Exception as e:
    print("no-record"); sys.exit()
print(" ".join("%s=%s" % (t["task"], t["verdict"]) for t in r.get("tasks", [])) or r.get("verdict", "?"))' "$1"
}

# A round: the named checks at once; one line with each check's verdicts.
round() {
  local name=$1; shift
  local pids=() i=0 t0 line verdicts
  t0=$(date +%s.%N)
  for lab in "$@"; do
    i=$((i + 1))
    "$hpclab" check "$lab" --solution --json "$LOGS/$name-$i-$lab.json" > "$LOGS/$name-$i-$lab.txt" 2>&1 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
  line=$(printf '%-12s %2d checks at once, %5.1f s:' "$name" $# "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{print b-a}')")
  i=0
  for lab in "$@"; do
    i=$((i + 1))
    verdicts=$(verdicts_of "$LOGS/$name-$i-$lab.json")
    line+=" [$lab $verdicts]"
    for v in $verdicts; do
      case "${v#*=}" in pass|inconclusive) ;; *) accused=1 ;; esac
    done
  done
  echo "$line"
}

echo "== correct files checked beside each other (scripts/concurrent-checks.sh), $(date -u '+%Y-%m-%d %H:%M UTC')"
command -v nvidia-smi > /dev/null && echo "GPU: $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | head -1)"
for lab in "${labs[@]}"; do
  copies=()
  for ((k = 0; k < COPIES; k++)); do copies+=("$lab"); done
  round "$lab" "${copies[@]}"
done
round "every-lab" "${labs[@]}"
if [ "$accused" = 0 ]; then
  echo "every check of a correct file: pass or inconclusive"
else
  echo "A CORRECT FILE WAS ACCUSED (a verdict other than pass or inconclusive above; logs in $LOGS)"
fi
exit "$accused"
