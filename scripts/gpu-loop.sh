#!/usr/bin/env bash
# The student loop on a GPU, measured: what issue "the student loop" asks to
# quote. Needs a build of hpclab (scripts/gpu-suite.sh makes one; BUILD
# names it). Writes to $OUT/loop/:
#   repeat-<lab>-<i>.json   five consecutive `hpclab check <lab> --solution`
#   edit-<i>.json           `hpclab check vecadd3` right after an edit
#   watch.txt               `hpclab watch` on a lab that passes, then next
# and a summary to $OUT/loop/summary.txt. It edits labs/vecadd3/vecadd3.cu
# (the solution, then a comment per edit) and puts the skeleton back after.
#
#   BUILD=build/gpu-suite scripts/gpu-loop.sh
set -u -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
BUILD=${BUILD:-build/gpu-suite}
hpclab="$PWD/$BUILD/grader/hpclab"
dir="$OUT/loop"
mkdir -p "$dir"
summary="$dir/summary.txt"
: > "$summary"
say() { echo "$*" | tee -a "$summary"; }
[ -x "$hpclab" ] || { say "no hpclab at $hpclab: build first (scripts/gpu-suite.sh)"; exit 1; }

student=labs/vecadd3/vecadd3.cu
cp "$student" "$dir/skeleton.keep"
restore() { cp "$dir/skeleton.keep" "$student"; rm -f "$dir/skeleton.keep"; }
trap restore EXIT
fails=0

say "== where a check's time goes (HPCLAB_PROFILE=1 hpclab check vecadd3 --solution)"
HPCLAB_PROFILE=1 "$hpclab" check vecadd3 --solution --quiet > "$dir/profile.txt" 2>&1
grep -A1 "hpclab profile" "$dir/profile.txt" | grep -v "^--" | tail -12 | tee -a "$summary"
tail -1 "$dir/profile.txt" | tee -a "$summary"

say ""
say "== five consecutive checks of the reference solution"
for lab in ${REPEAT_LABS:-vecadd3 matmul}; do
  for i in 1 2 3 4 5; do
    "$hpclab" check "$lab" --solution --quiet --json "$dir/repeat-$lab-$i.json" > "$dir/repeat-$lab-$i.txt" 2>&1
    rc=$?; [ $rc -eq 0 ] || fails=$((fails + 1))
    say "$lab run $i: exit $rc $(tail -1 "$dir/repeat-$lab-$i.txt")"
  done
done

# The spread of each timed task's ratio over the five checks (coefficient of variation).
for lab in ${REPEAT_LABS:-vecadd3 matmul}; do
  for i in 1 2 3 4 5; do
    grep -oE '"(task|ratio)": *("[a-z0-9_]+"|[-0-9.e+]+)' "$dir/repeat-$lab-$i.json" | tr -d '" ' | tr '\n' ' '; echo
  done | awk -v lab="$lab" '{ task = ""; for (i = 1; i <= NF; i++) { split($i, kv, ":");
      if (kv[1] == "task") task = kv[2]; if (kv[1] == "ratio") { n[task]++; s[task] += kv[2]; q[task] += kv[2] * kv[2];
      v[task] = v[task] sprintf(" %.3f", kv[2]) } } }
    END { for (t in n) { m = s[t] / n[t]; sd = sqrt(q[t] / n[t] - m * m);
      printf "%s/%s ratio over %d checks:%s; mean %.3f, CV %.2f%%\n", lab, t, n[t], v[t], m, 100 * sd / m } }' | tee -a "$summary"
done

say ""
say "== hpclab check vecadd3 after an edit (the solution, one comment changed each time)"
cp solutions/vecadd3/vecadd3.cu "$student"
"$hpclab" check vecadd3 --quiet > /dev/null 2>&1  # builds the reference once, as a student's first check does
for i in 1 2 3 4 5; do
  echo "/* edit $i $(date +%s%N) */" >> "$student"
  t0=$(date +%s%N)
  "$hpclab" check vecadd3 --json "$dir/edit-$i.json" > "$dir/edit-$i.txt" 2>&1
  rc=$?
  t1=$(date +%s%N)
  [ $rc -eq 0 ] || fails=$((fails + 1))
  say "edit $i: exit $rc, $(( (t1 - t0) / 1000000 )) ms wall; $(grep -E 'tasks pass' "$dir/edit-$i.txt")"
done

say ""
say "== hpclab watch vecadd3 on a passing file, then next, then quit"
cp solutions/vecadd3/vecadd3.cu "$student"
( sleep 20; echo next; sleep 15; echo quit ) | timeout 60 "$hpclab" watch vecadd3 > "$dir/watch.txt" 2>&1
say "watch exit $?"
grep -E "passes|stencil|wrong|fail" "$dir/watch.txt" | head -8 | tee -a "$summary"
grep -q "vecadd3 passes! Type next for the next lab, stencil" "$dir/watch.txt" || { say "watch: no pass line"; fails=$((fails + 1)); }
say "$("$hpclab" list | grep -E "vecadd3|stencil")"
say "loop: $fails failure(s)"
# The records and outputs in one file (a device call brings back few files).
tar -C "$OUT" -czf "$OUT/loop.tar.gz" loop && rm -f "$dir"/*.json "$dir"/*.txt.keep
find "$dir" -name '*.txt' ! -name summary.txt -delete
[ $fails -eq 0 ]
