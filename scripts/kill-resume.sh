#!/usr/bin/env bash
# What issue 29 asks to measure on a GPU: a 40-file class graded once
# uninterrupted, then graded again into another folder with kill -9 at five
# random moments, the same command after each (the last one left to end).
# Compared: nothing doubled (one result per file), nothing lost (every file
# has one), the verdicts the same as the uninterrupted run's; and for each
# resume, what it found (results covered or left uncovered by the kill) and
# how many files it checked again. Needs a build of hpclab
# (scripts/gpu-suite.sh makes one; BUILD names it). Writes to
# $OUT/kill-resume/ (summary.txt, each run's output).
#
#   BUILD=build/gpu-suite scripts/kill-resume.sh
#   GRADE_ARGS="--no-sandbox" ... to pass more to each hpclab grade
set -u -o pipefail
cd "$(dirname "$0")/.." || exit 1
OUT=${OUT:-$PWD/out}
BUILD=${BUILD:-build/gpu-suite}
hpclab="$PWD/$BUILD/grader/hpclab"
dir="$OUT/kill-resume"
rm -rf "$dir"
mkdir -p "$dir"
summary="$dir/summary.txt"
: > "$summary"
say() { echo "$*" | tee -a "$summary"; }
[ -x "$hpclab" ] || { say "no hpclab at $hpclab: build first (scripts/gpu-suite.sh)"; exit 1; }

# The class: 10 students x 4 labs, the solutions with a comment of their own
# (each file its own content), and a few broken ones for other verdicts.
class="$dir/class"
for i in $(seq 0 9); do
    s=$(printf 's%02d' "$i")
    mkdir -p "$class/$s"
    for lab in hello vecadd3 reduction stencil; do
        { cat "solutions/$lab/$lab.cu"; echo "// $s"; } > "$class/$s/$lab.cu"
    done
done
echo "int x = ;" > "$class/s03/hello.cu"                                     # compile_error
{ cat "labs/vecadd3/vecadd3.cu"; echo "// s07 handed in the skeleton, edited"; } > "$class/s07/vecadd3.cu"
files=$(find "$class" -name '*.cu' | wc -l)

# The same command every time: grade <out folder> <log>. The killed runs
# spell it out below with exec, so that $! is hpclab itself, which kill -9
# must reach (not a subshell around it).
read -r -a extra <<< "${GRADE_ARGS:-}"
grade() { ( exec "$hpclab" grade "$class" --out "$1" --seed 2929 "${extra[@]}" > "$2" 2>&1 ); }
results_in() { find "$1/results" -name '*.json' 2>/dev/null | wc -l; }
uncovered_in() { grep -l '"covered": false' -r "$1/results" 2>/dev/null | wc -l; }

say "== $files files: the uninterrupted run"
start=$(date +%s.%N)
grade "$dir/whole" "$dir/whole.log"
whole_s=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}')
say "$(grep -m1 'files to grade' "$dir/whole.log")"
say "uninterrupted: $(printf %.0f "$whole_s") s, $(results_in "$dir/whole") results"

fails=0
declare -A before  # the results on disk as each run began
# Five distinct random points of progress, in order: kill k comes once
# target k results are on disk (each resume starts past the one before).
mapfile -t targets < <(shuf -i 1-$((files - 1)) -n 5 | sort -n)
for k in 1 2 3 4 5; do
    before[run$k]=$(results_in "$dir/killed")
    # By progress rather than by clock (a run that finds the programs
    # already built, as every run after the first does, takes a fraction of
    # the first's time): once the results on disk reach the target, kill -9.
    target=${targets[$((k - 1))]}
    ( exec "$hpclab" grade "$class" --out "$dir/killed" --seed 2929 "${extra[@]}" > "$dir/run$k.log" 2>&1 ) &
    pid=$!
    t0=$(date +%s.%N)
    while kill -0 "$pid" 2>/dev/null && [ "$(results_in "$dir/killed")" -lt "$target" ]; do sleep 0.1; done
    at="$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}') s (at $target results of $files)"
    if kill -9 "$pid" 2>/dev/null; then
        wait "$pid" 2>/dev/null
        say "kill $k at ${at}: $(results_in "$dir/killed") results on disk, $(uncovered_in "$dir/killed") of them not yet covered by a health check"
    else
        wait "$pid"
        say "kill $k at ${at}: the run had ended ($(results_in "$dir/killed") results)"
    fi
done
say "== the same command once more, to its end"
before[last]=$(results_in "$dir/killed")
grade "$dir/killed" "$dir/last.log"
for log in "$dir"/run*.log "$dir/last.log"; do
    name=$(basename "$log" .log)
    to_grade=$(grep -m1 -o '[0-9]* files to grade' "$log" | grep -o '^[0-9]*')
    found=$(grep -m1 -o '^[0-9]* results of an earlier run that ended before' "$log" | grep -o '^[0-9]*')
    kept=$(grep -m1 -o '^[0-9]* results of the earlier run kept' "$log" | grep -o '^[0-9]*')
    again=$(grep -m1 -o '^[0-9]* results of the earlier run graded again' "$log" | grep -o '^[0-9]*')
    # Redone: files that had a result when the run began and were checked again.
    redone=$(( ${to_grade:-0} + ${again:-0} - (files - ${before[$name]}) ))
    # A killed run never prints its totals: what became of the uncovered results it found shows in
    # the next kill's count of uncovered results (or in its own line, for the run left to end).
    if grep -q '^Graded ' "$log"; then fate="${kept:-0} kept, ${again:-0} checked again"; else fate="killed before its totals"; fi
    say "$name: began with ${before[$name]} results, ${found:-0} of them uncovered; checked ${to_grade:-?} files (redid $redone); the uncovered: $fate"
done

say "== compared with the uninterrupted run"
n_whole=$(results_in "$dir/whole"); n_killed=$(results_in "$dir/killed")
dups=$(find "$dir/killed/results" -name '*.json' | sed 's/.*results\///' | sort | uniq -d | wc -l)
say "results: $n_killed (uninterrupted $n_whole), doubled $dups, still uncovered $(uncovered_in "$dir/killed")"
[ "$n_killed" = "$n_whole" ] && [ "$dups" = 0 ] || fails=$((fails + 1))
if diff <(cut -d, -f1-4 "$dir/whole/verdicts.csv") <(cut -d, -f1-4 "$dir/killed/verdicts.csv") > "$dir/verdicts.diff"; then
    say "verdicts: identical ($(($(wc -l < "$dir/whole/verdicts.csv") - 1)) rows)"
else
    say "verdicts: DIFFERENT (see verdicts.diff):"; tee -a "$summary" < "$dir/verdicts.diff"
    fails=$((fails + 1))
fi
say "summary in $summary"
exit $fails
