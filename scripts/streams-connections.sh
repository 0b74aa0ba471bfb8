#!/usr/bin/env bash
# What CUDA_DEVICE_MAX_CONNECTIONS does to the streams lab (issue 33): the
# solution's two tasks checked without the sanitizer, on hpclab's clock
# against the one-stream baseline, with the lab's programs given 8 hardware
# queues and 1, alternately (REPS checks each). The course is the same; only
# the streams lab.json's "device_max_connections" differs, in a copy of the
# course whose other entries are links to this one (HPCLAB_ROOT).
#
#   scripts/streams-connections.sh [hpclab] > docs/results/streams-connections-<gpu>.txt
set -u -o pipefail
cd "$(dirname "$0")/.."
hpclab=$(realpath "${1:-build/gpu-suite/grader/hpclab}")
reps=${REPS:-3}
subjects=(--solution)
for f in ${FILES:-}; do
  [ -f "$f" ] || { echo "streams-connections.sh: FILES names '$f', which is not a file" >&2; exit 2; }
  subjects+=("$(realpath "$f")")
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

course_with_queues() {  # $1: the queues; prints the copy's root
  local root="$tmp/q$1" e
  mkdir -p "$root/labs"
  for e in *; do [ "$e" = labs ] || ln -s "$PWD/$e" "$root/$e"; done
  for e in labs/*; do [ "$e" = labs/streams ] || ln -s "$PWD/$e" "$root/$e"; done
  cp -r labs/streams "$root/labs/streams"
  python3 - "$root/labs/streams/lab.json" "$1" <<'PY'
import json, sys
p, q = sys.argv[1], int(sys.argv[2])
j = json.load(open(p))
j["device_max_connections"] = q
json.dump(j, open(p, "w"), indent=2)
PY
  echo "$root"
}

echo "== streams: the solution${FILES:+ and $FILES} against bench/streams/onestream.cu with CUDA_DEVICE_MAX_CONNECTIONS 8 and 1"
echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
echo "queues rep task     solution_ms baseline_ms ratio (low..high)  verdict    (ms: medians of the timed calls; file: the solution's but where named)"
for q in 8 1; do roots[$q]=$(course_with_queues "$q"); done
for rep in $(seq "$reps"); do
  for subject in "${subjects[@]}"; do
  for q in 8 1; do
    json="$tmp/check-$q-$rep.json"
    if [ "$subject" = --solution ]; then what=(--solution); name=""; else what=(--file "$subject"); name=$(basename "$subject"); fi
    HPCLAB_ROOT="${roots[$q]}" "$hpclab" check streams "${what[@]}" --no-sanitizer --json "$json" > "$tmp/check-$q-$rep.txt" 2>&1
    python3 - "$json" "$q" "$rep" "$name" <<'PY' || { echo "queues $q rep $rep $name: no result"; tail -5 "$tmp/check-$q-$rep.txt"; }
import json, statistics, sys
r = json.load(open(sys.argv[1]))
nan = float("nan")
# every timed call on hpclab's clock: their medians
median = lambda v: statistics.median(v) if v else nan
for t in r["tasks"]:
    tm = t.get("timing") or {}
    print(f'{sys.argv[2]:>6} {sys.argv[3]:>3} {t["task"]:<8} {median(tm.get("student_ms")):11.3f} '
          f'{median(tm.get("baseline_ms")):11.3f} {tm.get("ratio", nan):5.2f} '
          f'({tm.get("ratio_low", nan):.2f}..{tm.get("ratio_high", nan):.2f})  {t["verdict"]:<10} {sys.argv[4]}')
PY
  done
  done
done
