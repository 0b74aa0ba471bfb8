#!/usr/bin/env bash
# The whole GPU check in one command, for a machine with a GPU: configure,
# build, run every test (CPU and GPU), then every lab's solution
# through the runner (the table of times and throughputs) and the rotation
# lab on its image. Logs and a summary go to $OUT (default: ./out).
#
#   scripts/gpu-suite.sh                 # architecture of the local GPU
#   CMAKE_CUDA_ARCHITECTURES=90 scripts/gpu-suite.sh
#   CTEST_ARGS="-L gpu" scripts/gpu-suite.sh   # extra ctest arguments
#   PARTS="loop tests" scripts/gpu-suite.sh     # some parts, in this order (default: all)
#
# Parts: tests (ctest), broken and hostile (those sets alone, their lines
# into $OUT as they come), runs (hpclab run of every lab), loop (the student
# loop measured: scripts/gpu-loop.sh), bench (hpclab bench: the table, and
# $OUT/bench-h100.json for docs/results/, the docs' one set of numbers),
# images (the rotation lab's output as $OUT/rotation-output.png, for
# docs/figures/), course (hpclab check of the
# solution of every lab with a bench/ folder: the course's own kernels must
# pass the thresholds a student meets against the tuned speed baseline; and
# of every variant in bench/ that needs no library: the tuned baselines and
# the going-further versions must pass), calibrate (the speed ratios the
# thresholds are set from), calibrate-cmd (hpclab calibrate itself: its
# table, and the course config it writes into $OUT; not a default part),
# grade (hpclab grade: the sample class, a
# generated class timed, killed and resumed), kit (the student kit exported,
# built, and checked with a correct and a slow file), gpus (hpclab grade
# --gpus on two GPUs: see part_gpus; not a default part), concurrent (correct
# files checked beside each other: scripts/concurrent-checks.sh), checktimes and
# brokentimes (the wall time of a check of each lab's solution, of each
# broken file), profile (each solution's measures under Nsight Compute; not
# a default part). One device call has ten minutes: the
# whole suite with the broken set takes about that, so split it with PARTS
# and CTEST_ARGS (-L broken / -LE broken).
#
# The docs' numbers and the rotation picture, in one call (then, on any
# machine: docs/performance.md, "Measuring again"):
#   HPCLAB_BUILD_COMMIT=$(git describe --always --dirty --abbrev=12 --exclude='*') \
#     PARTS="images bench" scripts/gpu-suite.sh   # images first: bench may use the rest
# HPCLAB_BUILD_COMMIT names the commit where the tree is a copy without
# .git (cmake/HpclabGitCommit.cmake); in a checkout git says it.
set -u -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
BUILD=${BUILD:-build/gpu-suite}
# The logs live outside $OUT and go there as one archive after each part (a
# device call brings back few files, and a call cut short keeps what was packed).
LOGS=${LOGS:-$PWD/$BUILD-logs/logs}
rm -rf "$LOGS"; mkdir -p "$LOGS" "$OUT"
pack() { tar -C "$(dirname "$LOGS")" -czf "$OUT/logs.tar.gz" logs; }
summary="$OUT/summary.txt"
: > "$summary"
say() { echo "$*" | tee -a "$summary"; }
# LABS="symbols streams": parts course, selftest, checktimes, brokentimes, calibrate, bench and
# the generated class of part class do those labs alone (default: every lab).
# The generated classes' gradings leave the big sizes out (GRADE_SIZES=--big
# puts them back): each is seconds to a minute a file with the GPU alone, and
# the pace these parts measure (docs/results/grading-h100.txt) is that of the
# sizes a check runs. The sample class is graded once as hpclab grade grades,
# big sizes included (224 s on an H200: docs/results/grading-big-h200.txt),
# then twice more without them.
GRADE_SIZES=${GRADE_SIZES:---no-big}
in_labs() { [ -z "${LABS:-}" ] || [[ " $LABS " == *" $1 "* ]]; }
seconds_since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}'; }  # $1: a date +%s.%N

say "== hpclab GPU suite, $(date -u '+%Y-%m-%d %H:%M UTC')"
if command -v nvidia-smi >/dev/null; then
  nvidia-smi > "$LOGS/nvidia-smi.txt" 2>&1
  say "GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv,noheader 2>/dev/null | head -1)"
fi
say "nvcc: $(nvcc --version 2>/dev/null | tail -1)"

# The sandbox's bwrap: Debian's package unpacked into .carry/ where the
# machine has none (apt-get download bubblewrap; dpkg -x).
if ! command -v bwrap >/dev/null && [ -x "$PWD/.carry/bwrap/usr/bin/bwrap" ]; then
  export HPCLAB_BWRAP="$PWD/.carry/bwrap/usr/bin/bwrap"
fi
say "sandbox: ${HPCLAB_BWRAP:-$(command -v bwrap || echo none)}"

PARTS=${PARTS:-tests runs loop course calibrate bench}
arch_args=()
[ -n "${CMAKE_CUDA_ARCHITECTURES:-}" ] && arch_args=(-DCMAKE_CUDA_ARCHITECTURES="$CMAKE_CUDA_ARCHITECTURES")
t0=$(date +%s)
# A fresh clone (part readme) builds for itself; the check-time parts after
# it use the clone's build (PARTS="readme checktimes" or "readme profile": one build, not two).
clone_parts_only=1
for p in $PARTS; do case $p in readme|checktimes|brokentimes|profile) ;; *) clone_parts_only=0 ;; esac; done
[[ " $PARTS " == *" readme "* ]] || clone_parts_only=0
if [ "$clone_parts_only" = 0 ]; then
  if ! cmake -S . -B "$BUILD" -G Ninja -DHPCLAB_CUDA=ON "${arch_args[@]}" > "$LOGS/configure.log" 2>&1; then
    say "configure FAILED:"; tail -30 "$LOGS/configure.log" | tee -a "$summary"; exit 1
  fi
  # BUILD_TARGET=hpclab: only what grading and checking need (not the tests).
  if ! cmake --build "$BUILD" -j "$(nproc)" --target "${BUILD_TARGET:-all}" > "$LOGS/build.log" 2>&1; then
    say "build FAILED:"; grep -E "error|FAILED" "$LOGS/build.log" | head -30 | tee -a "$summary"; exit 1
  fi
  say "configure + build: $(( $(date +%s) - t0 )) s"
fi
ctest_rc=0 run_rc=0 runs_rc=0 loop_rc=0 course_rc=0 bench_rc=0
hpclab="$BUILD/grader/hpclab"

part_tests() {
  t0=$(date +%s)
  # -V keeps every test's own output (each GPU run's line) in the log.
  ctest --test-dir "$BUILD" -V --no-tests=error -j "${CTEST_JOBS:-8}" ${CTEST_ARGS:-} > "$LOGS/ctest.log" 2>&1
  ctest_rc=$?
  say "ctest: exit $ctest_rc, $(( $(date +%s) - t0 )) s"
  grep -E "tests passed|tests failed|Total Test time" "$LOGS/ctest.log" | tee -a "$summary"
  grep -E "^ *[0-9]+/[0-9]+ Test +#[0-9]+: (gpu|compile)" "$LOGS/ctest.log" | sed 's/^ *[0-9]*\/[0-9]* //' \
    | tee -a "$summary"
  grep -E "^[0-9]+: (BAD|selftest .*FAILED)" "$LOGS/ctest.log" | head -40 | tee -a "$summary"
  grep -E "^ *[0-9]+ - .*\((Failed|Timeout|Not Run)\)" "$LOGS/ctest.log" | head -40 | tee -a "$summary"
}

part_runs() {
  say ""
  say "== every lab's solution (hpclab run --all --solution)"
  "$hpclab" run --all --solution --json "$OUT/solutions.json" 2>&1 | tee "$LOGS/run-all.log" | tee -a "$summary"
  run_rc=${PIPESTATUS[0]}

  say ""
  say "== the rotation lab on its image (written to \$OUT)"
  (cd "$OUT" && "$OLDPWD/$hpclab" run rotation --solution 2>&1) | tee "$LOGS/rotation.log" | tee -a "$summary"

  say ""
  say "== every lab through hpclab run: the skeleton as committed (must fail), and --solution"
  runs_rc=0
  labs=$(for j in labs/*/lab.json; do basename "$(dirname "$j")"; done)
  [ -n "$labs" ] || { say "no labs found"; runs_rc=1; }
  for lab in $labs; do
    "$hpclab" run "$lab" > "$LOGS/run-$lab.log" 2>&1; skel=$?
    "$hpclab" run "$lab" --solution > "$LOGS/run-$lab-solution.log" 2>&1; sol=$?
    verdict="ok"
    { [ $skel -eq 1 ] && [ $sol -eq 0 ]; } || { verdict="NOT AS EXPECTED"; runs_rc=1; }
    say "$(printf '%-10s skeleton exit %d, solution exit %d: %s' "$lab" $skel $sol "$verdict")"
  done
}

part_loop() {
  say ""
  OUT="$OUT" BUILD="$BUILD" scripts/gpu-loop.sh > "$LOGS/loop.log" 2>&1; loop_rc=$?
  cat "$OUT/loop/summary.txt" >> "$summary"
}

part_course() {
  say ""
  say "== hpclab check of the solutions (the course's versions) against the speed baselines"
  for d in bench/*/; do
    lab=$(basename "$d")
    in_labs "$lab" || continue
    "$hpclab" check "$lab" --solution --json "$LOGS/check-$lab-solution.json" > "$LOGS/check-$lab-solution.txt" 2>&1
    rc=$?
    say "$(printf '%-9s %-15s exit %d: ' "$lab" solution $rc)$(grep -E 'x the|tasks pass' "$LOGS/check-$lab-solution.txt" | head -3 | tr -s ' ' | tr '\n' ' ')"
    [ $rc -eq 0 ] || course_rc=1
  done
  say "== hpclab check of the variants in bench/ (the tuned speed baselines, going further; library ones need their library)"
  for f in bench/*/*.cu; do
    lab=$(basename "$(dirname "$f")"); v=$(basename "$f" .cu)
    in_labs "$lab" || continue
    grep -q "link=" "$f" && continue
    grep -q "hpclab-bench:.* kind=limit" "$f" && continue  # the copy: its outputs are not the task's
    # As ctest's gpu.<lab>.bench.<variant> (tests/CMakeLists.txt): a library's or the naive
    # variant's verdict is shown, not judged; a variant that breaks a lesson's rule on purpose
    # says the verdict check must give (// hpclab-expect:).
    judged=1; grep -qE "hpclab-bench:.* kind=(library|naive)( |$)" "$f" && judged=0
    expect=$(sed -n 's|^// hpclab-expect: \([a-z_]*\)$|\1|p' "$f" | head -1)
    tasks=$(sed -n 's/.*hpclab-bench:.* tasks=\([a-z0-9_,]*\).*/\1/p' "$f" | tr , ' ')
    for t in $tasks; do
      "$hpclab" check "$lab" --file "$f" --task "$t" --json "$LOGS/check-$lab-$v-$t.json" --expect "${expect:-pass}" \
        > "$LOGS/check-$lab-$v-$t.txt" 2>&1
      rc=$?
      say "$(printf '%-9s %-15s %-7s exit %d (expects %s): ' "$lab" "$v" "$t" $rc "$([ $judged = 1 ] && echo "${expect:-pass}" || echo nothing)")$(grep -E 'x the|tasks pass' "$LOGS/check-$lab-$v-$t.txt" | head -2 | tr -s ' ' | tr '\n' ' ')"
      [ $judged = 0 ] || [ $rc -eq 0 ] || course_rc=1
    done
  done
}

# The maintainer check of each lab (LABS): the solution passes every task at
# every size, big ones included where the GPU holds them; the skeleton fails.
part_selftest() {
  local j lab rc1 rc2 t0
  say ""
  say "== hpclab selftest <lab> --solution, then --skeleton"
  for j in labs/*/lab.json; do
    lab=$(basename "$(dirname "$j")")
    in_labs "$lab" || continue
    t0=$(date +%s)
    "$hpclab" selftest "$lab" --solution > "$LOGS/selftest-$lab-solution.txt" 2>&1; rc1=$?
    "$hpclab" selftest "$lab" --skeleton > "$LOGS/selftest-$lab-skeleton.txt" 2>&1; rc2=$?
    say "$(printf '%-10s solution exit %d, skeleton exit %d, %d s' "$lab" $rc1 $rc2 $(( $(date +%s) - t0 )))"
    [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] || { course_rc=1; grep -vE '^\s*$' "$LOGS/selftest-$lab-solution.txt" "$LOGS/selftest-$lab-skeleton.txt" | grep -iE 'fail|error|wrong|expected' | head -12 | tee -a "$summary"; }
  done
}

# The broken and the hostile sets, each its own part: their verdicts line by
# line straight into $OUT (a call cut short at its limit still brings back
# what ran), and what the GPU looks like after them.
part_set() {
  local set=$1 t0; t0=$(date +%s)
  say ""
  say "== the $set set (ctest -L $set)"
  local only=(); [ -n "${LABS:-}" ] && only=(-R "\\.($(echo $LABS | tr ' ' '|'))\\.")  # LABS: theirs alone
  ctest --test-dir "$BUILD" -L "$set" "${only[@]}" --no-tests=error -j "${CTEST_JOBS:-10}" --timeout 300 --output-on-failure \
    2>&1 | tee "$OUT/$set.txt" | grep -E "Test +#|=> |expected .*NO" > "$LOGS/$set-lines.txt"
  local rc=${PIPESTATUS[0]}
  [ "$rc" -eq 0 ] || ctest_rc=$rc
  say "$set: exit $rc, $(( $(date +%s) - t0 )) s; $(grep -cE 'Test +#.*Passed' "$OUT/$set.txt") passed"
  grep -E "Test +#.*(Failed|Timeout)" "$OUT/$set.txt" | tee -a "$summary"
  if command -v nvidia-smi >/dev/null; then
    say "GPU after the $set set: $(nvidia-smi --query-compute-apps=pid --format=csv,noheader | wc -l) compute processes, $(nvidia-smi --query-gpu=memory.used --format=csv,noheader) used"
  fi
}
part_broken() { part_set broken; }
part_hostile() { part_set hostile; }

# The wall time of a check of a correct file for every lab, in one call: what
# a student waits for after a save. The lab's first check builds its speed
# baseline (once: timed too, "first"); then the solution with a line added (a
# new file to compile, as after a save) is checked twice, in the sandbox and
# without it (HPCLAB_NO_SANDBOX=1: what the sandbox costs).
part_checktimes() {
  local lab saved t0 first sandboxed bare
  say ""
  say "== check times of a correct file: hpclab check <lab>, wall seconds (first check; after a save, sandboxed; the same without the sandbox)"
  for j in labs/*/lab.json; do
    lab=$(basename "$(dirname "$j")")
    in_labs "$lab" || continue
    t0=$(date +%s.%N)
    "$hpclab" check "$lab" --solution > "$LOGS/checktime-first-$lab.txt" 2>&1
    first=$(seconds_since "$t0")
    saved="$LOGS/saved/$lab/$lab.cu"; mkdir -p "$(dirname "$saved")"
    { cat "solutions/$lab/$lab.cu"; echo "// saved at $(date +%s.%N)"; } > "$saved"
    t0=$(date +%s.%N)
    HPCLAB_TIMELINE="$LOGS/timeline-$lab.txt" "$hpclab" check "$lab" --file "$saved" --json "$LOGS/checktime-$lab.json" \
      > "$LOGS/checktime-$lab.txt" 2>&1; rc=$?
    sandboxed=$(seconds_since "$t0")
    echo "// saved again at $(date +%s.%N)" >> "$saved"
    t0=$(date +%s.%N) bare="-"
    if [ "${CHECKTIMES_BARE:-1}" = 1 ]; then  # CHECKTIMES_BARE=0: not without the sandbox (a shorter call)
      HPCLAB_NO_SANDBOX=1 "$hpclab" check "$lab" --file "$saved" > "$LOGS/checktime-bare-$lab.txt" 2>&1
      bare=$(seconds_since "$t0")
    fi
    say "$(printf '%-10s first %5s s; after a save: exit %d %5s s, without the sandbox %5s s  ' "$lab" "$first" $rc "$sandboxed" "$bare")$(grep -E "^$lab: [0-9]+ of" "$LOGS/checktime-$lab.txt" | sed 's/ (seed.*//; s/^[a-z0-9]*: //')"
    # Where a check's seconds went (its --json "seconds"): what to trim first.
    python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["seconds"]; print("           seconds: " + ", ".join(f"{k} {v:.1f}" for k,v in s.items()))' \
      "$LOGS/checktime-$lab.json" 2>/dev/null | tee -a "$summary"
  done
  # Where the seconds of a check after a save went (HPCLAB_TIMELINE: every
  # child process and phase, seconds since hpclab started).
  for lab in ${TIMELINE_LABS:-matmul rotation stencil reduction}; do
    [ -f "$LOGS/timeline-$lab.txt" ] || continue
    say "-- timeline of the check of $lab after a save (start end what)"
    sort -n "$LOGS/timeline-$lab.txt" | tee -a "$summary"
  done
}

# The wall time of `hpclab check` of every file of the broken set (what a
# student waits for after saving a broken file), in one call: one line each.
part_brokentimes() {
  local f lab t0 rc log
  say ""
  say "== check times of the broken set: hpclab check <lab> --file <broken file>, wall seconds"
  for f in tests/broken/*/*.cu; do
    lab=$(basename "$(dirname "$f")")
    [ -z "${BROKEN_LABS:-}" ] || [[ " $BROKEN_LABS " == *" $lab "* ]] || continue  # BROKEN_LABS="matmul stencil": those alone
    in_labs "$lab" || continue
    # A mistake that shows only at a big size ("// sizes: big"): a plain check passes it, and its test
    # (tests/broken_tests.cmake.in) checks it with --big, which is slow by nature: said, not timed.
    if grep -qE '^// sizes: big *$' "$f"; then
      say "$(printf '%-10s %-28s not timed: its mistake shows only at a big size (its test checks with --big)' "$lab" "$(basename "$f" .cu)")"
      continue
    fi
    t0=$(date +%s.%N)
    log="$LOGS/brokentime-$lab-$(basename "$f" .cu).txt"
    "$hpclab" check "$lab" --file "$f" > "$log" 2>&1; rc=$?
    say "$(printf '%-10s %-28s exit %d  %5.1f s  expect %-16s got: %s' "$lab" "$(basename "$f" .cu)" $rc \
      "$(seconds_since "$t0")" "$(grep -oE 'expect: [a-z_]+' "$f" | head -1 | cut -d' ' -f2)" \
      "$(grep -E "^$lab: [0-9]+ of" "$log" | sed 's/ (seed.*//; s/^[a-z0-9]*: //')")"
  done
}

# What Nsight Compute measures of each solution (hpclab check --profile, no
# sanitizer): every timed task's measures, for the walkthroughs' "profile
# it" questions and the lesson's values the profile rules compare with.
part_profile() {
  local lab rc log
  say ""
  say "== the profiler's measures of every solution: hpclab check <lab> --solution --profile --no-sanitizer"
  for lab in $(ls labs); do
    in_labs "$lab" || continue
    grep -q '"profile"' "labs/$lab/lab.json" || continue  # a lab without rules: a program lab, or hello
    log="$LOGS/profile-$lab.txt"
    "$hpclab" check "$lab" --solution --profile --no-sanitizer > "$log" 2>&1; rc=$?
    say "-- $lab: exit $rc"
    grep -E "^Task |profiler|^       [a-z_]+ +[0-9a-z.]+ " "$log" | tee -a "$summary"
  done
}

# The ratios the thresholds are calibrated from: each solution (the course's
# version) checked CAL_REPS times against its speed baseline, and the broken
# files that must be too slow; one line per task: threshold, ratios, margin.
part_calibrate() {
  say ""
  say "== calibration: the solutions' speed ratios against the speed baselines, and the too-slow broken files"
  mkdir -p "$LOGS/calibrate"
  for j in labs/*/lab.json; do
    lab=$(basename "$(dirname "$j")")
    in_labs "$lab" || continue
    grep -q '"threshold"' "$j" || continue
    for i in $(seq "${CAL_REPS:-3}"); do
      "$hpclab" check "$lab" --solution --no-sanitizer --json "$LOGS/calibrate/$lab-solution-$i.json" \
        > "$LOGS/calibrate/$lab-solution-$i.txt" 2>&1
    done
  done
  for f in $(grep -l "expect: too_slow" tests/broken/*/*.cu); do
    lab=$(basename "$(dirname "$f")"); v=$(basename "$f" .cu)
    in_labs "$lab" || continue
    "$hpclab" check "$lab" --file "$f" --no-sanitizer --json "$LOGS/calibrate/$lab-broken-$v.json" \
      > "$LOGS/calibrate/$lab-broken-$v.txt" 2>&1
  done
  python3 - "$LOGS/calibrate" <<'PY' | tee -a "$summary"
import json, glob, os, sys, collections
rows = collections.defaultdict(list)
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    who = os.path.basename(f).rsplit("-", 1)[0] if "-solution-" in f else os.path.basename(f)[:-5]
    r = json.load(open(f))
    for t in r["tasks"]:
        tm = t.get("timing")
        if tm: rows[(r["lab"], t["task"], who)].append((tm["ratio"], tm["ratio_low"], tm["ratio_high"], tm["threshold"], t["verdict"]))
        else: rows[(r["lab"], t["task"], who)].append((None, None, None, None, t["verdict"]))
for (lab, task, who), v in sorted(rows.items()):
    ratios = [x[0] for x in v if x[0] is not None]
    th = next((x[3] for x in v if x[3] is not None), None)
    verdicts = ",".join(sorted(set(x[4] for x in v)))
    spread = f"{min(x[1] for x in v if x[1] is not None):.2f}..{max(x[2] for x in v if x[2] is not None):.2f}" if ratios else "-"
    med = sorted(ratios)[len(ratios)//2] if ratios else None
    print(f"{lab:<10} {task:<7} {who:<40} threshold {th if th is not None else '-':<5} ratio median {med if med is None else round(med,3)} "
          f"(all {[round(x,3) for x in ratios]}; spread {spread}) verdicts {verdicts}")
PY
  handshake_table
}

# The harness's cost per timed call (docs/results/handshake-<gpu>.txt), from
# the grade records of the parts course and calibrate that ran in this call.
handshake_table() {
  local tag; tag=$(gpu_tag); tag=${tag:-gpu}
  say ""
  say "== the harness's cost per timed call: \$OUT/handshake-$tag.txt"
  python3 scripts/handshake-table.py "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1 | sed 's/, / (driver /; s/$/)/')" \
    "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" "$LOGS"/check-*.json "$LOGS/calibrate" \
    > "$OUT/handshake-$tag.txt" && tee -a "$summary" < "$OUT/handshake-$tag.txt"
}

# hpclab calibrate itself: every lab with a threshold, CAL_REPS checks of
# each file, its table into the summary. It writes $OUT/course-config.json,
# not the checkout's, so that the parts after it keep lab.json's thresholds;
# where it wrote a threshold, that file is then the course's for a moment:
# hpclab list must show it, and the lab's solution must pass hpclab check.
part_calibrate-cmd() {
  local t0 rc lab config="$OUT/course-config.json"
  say ""
  say "== hpclab calibrate --reps ${CAL_REPS:-3} (every lab with a threshold), into \$OUT/course-config.json"
  rm -f "$config"; t0=$(date +%s)
  "$hpclab" calibrate --reps "${CAL_REPS:-3}" --config "$config" 2>&1 | tee "$LOGS/calibrate-cmd.txt" >> "$summary"
  rc=${PIPESTATUS[0]}
  say "calibrate: exit $rc, $(( $(date +%s) - t0 )) s"
  [ -f "$config" ] || { say "nothing written (every threshold confirmed, or refused)"; return 0; }
  say "written:"; tee -a "$summary" < "$config"
  [ -e course-config.json ] && { say "the checkout has its own course-config.json: not replaced, not checked"; return 0; }
  cp "$config" course-config.json
  for lab in $(python3 -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1])).get("thresholds", {})))' "$config"); do
    "$hpclab" list "$lab" | grep -E "speed: " | tee -a "$summary"
    "$hpclab" check "$lab" --solution --expect pass > "$LOGS/calibrate-cmd-check-$lab.txt" 2>&1; rc=$?
    say "$(printf '%-9s check --solution with the new thresholds: exit %d: ' "$lab" $rc)$(grep -E 'x the|tasks pass' "$LOGS/calibrate-cmd-check-$lab.txt" | tr -s ' ' | tr '\n' ' ')"
    [ $rc -eq 0 ] || course_rc=1  # the course's own version must pass the thresholds written for it
  done
  rm -f course-config.json
}

# The GPU as a file name: h100, h200, ... (the docs' results are bench-h100.json).
gpu_tag() {
  nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 \
    | grep -oiE '\b[A-Z]{1,2}[0-9]{2,4}[A-Z]?\b' | head -1 | tr 'A-Z' 'a-z'
}

part_bench() {
  local tag; tag=$(gpu_tag); tag=${tag:-gpu}
  say ""
  say "== hpclab bench (every lab with a sweep): \$OUT/bench-$tag.json"
  [ "$tag" = h100 ] || say "NOTE: not an H100: the docs' results are docs/results/bench-h100.json; this is bench-$tag.json"
  t0=$(date +%s)
  # shellcheck disable=SC2086  # LABS: a list of lab ids
  timeout "${BENCH_TIMEOUT:-420}" "$hpclab" bench ${LABS:-} --json "$OUT/bench-$tag.json" --csv "$OUT/bench-$tag.csv" \
    > "$LOGS/bench.txt" 2> "$LOGS/bench.err"
  bench_rc=$?
  cat "$LOGS/bench.txt" >> "$summary"
  say "bench: exit $bench_rc, $(( $(date +%s) - t0 )) s; $(grep -o '"commit": "[^"]*"' "$OUT/bench-$tag.json")"
  # What the docs will show, rendered here once: a file that cannot be is known now.
  "$hpclab" bench --report "$OUT/bench-$tag.json" --markdown > "$LOGS/bench.md" 2>&1 \
    && "$hpclab" bench --report "$OUT/bench-$tag.json" --plot "$LOGS/bench-figures" > /dev/null 2>&1 \
    || { say "bench --report cannot render it: $(tail -2 "$LOGS/bench.md")"; bench_rc=1; }
}

# The rotation lab's output as the walkthrough shows it: the solution's
# tiled kernel on labs/rotation/chelsea.pgm, written as a PNG, and compared
# with what the CPU reference makes of the same image.
part_images() {
  local rc
  say ""
  say "== the rotation walkthrough's picture: \$OUT/rotation-output.png"
  "$hpclab" run rotation --solution --task tiled --output "$LOGS/rotation-output.pgm" > "$LOGS/images.txt" 2>&1; rc=$?
  "$hpclab" image labs/rotation/chelsea.pgm "$LOGS/rotation-cpu.pgm" --reference rotation >> "$LOGS/images.txt" 2>&1
  "$hpclab" image "$LOGS/rotation-output.pgm" "$OUT/rotation-output.png" >> "$LOGS/images.txt" 2>&1 || rc=1
  cmp -s "$LOGS/rotation-output.pgm" "$LOGS/rotation-cpu.pgm" && say "the GPU's rotation is the CPU reference's, pixel for pixel" \
    || { say "the GPU's rotation DIFFERS from the CPU reference's"; rc=1; }
  say "images: exit $rc; $(grep -E 'Check:|Wrote' "$LOGS/images.txt" | tr -s ' ' | tr '\n' ' ')"
  [ $rc -eq 0 ] || run_rc=$rc
}

# A generated class of $1 students x every lab in folder $2: solutions, one
# student in five with files from the broken set, each file made unique as
# students' files are (the same files for the same $1, in any call).
make_class() {
  local n=$1 class=$2 i lab file broken
  rm -rf "$class"; mkdir -p "$class"
  for i in $(seq -w 1 "$n"); do
    mkdir -p "$class/s$i"
    for j in labs/*/lab.json; do
      lab=$(basename "$(dirname "$j")")
      in_labs "$lab" || continue
      file="solutions/$lab/$lab.cu"
      mapfile -t broken < <(LC_ALL=C ls tests/broken/"$lab"/*.cu 2>/dev/null)
      if [ $(( 10#$i % 5 )) -eq 0 ] && [ ${#broken[@]} -gt 0 ]; then file=${broken[$(( 10#$i / 5 % ${#broken[@]} ))]}; fi
      { cat "$file"; echo "/* student s$i */"; } > "$class/s$i/$lab.cu"
    done
  done
}

# Class grading (issue 12): the sample class to its expected verdicts, then
# a generated class (GRADE_STUDENTS students x every lab: solutions, one file
# in five from the broken set, each file made unique as students' files are)
# graded with its time split; then the same grading killed with SIGKILL after
# GRADE_KILL_S seconds and run again, and a regrade: their gradebooks and
# verdicts against the uninterrupted run's.
part_grade() {
  local n=${GRADE_STUDENTS:-40} class="$BUILD-logs/class" t0 rc
  if [ "${GRADE_SAMPLE:-1}" = 1 ]; then
  say ""
  say "== hpclab grade: the sample class"
  t0=$(date +%s)
  "$hpclab" grade examples/class/submissions --out "$LOGS/sample" --again --expect examples/class/expected.csv \
    > "$LOGS/grade-sample.txt" 2>&1; rc=$?
  [ $rc -eq 0 ] || ctest_rc=$rc
  grep -E "^(expected|student|[a-z]+ +[0-9.]+ / )" "$LOGS/grade-sample.txt" | tee -a "$summary"
  say "sample class: exit $rc, $(( $(date +%s) - t0 )) s"
  say "GPU after it: $(nvidia-smi --query-compute-apps=pid --format=csv,noheader 2>/dev/null | wc -l) compute processes, $(nvidia-smi --query-gpu=memory.used --format=csv,noheader 2>/dev/null) used"
  # Issue 15 on one GPU: --gpus 0 (a pinned worker) gives the book no option gives.
  "$hpclab" grade examples/class/submissions --out "$LOGS/sample-seed" --seed 11 $GRADE_SIZES > "$LOGS/grade-sample-seed.txt" 2>&1
  "$hpclab" grade examples/class/submissions --out "$LOGS/sample-gpus0" --seed 11 --gpus 0 $GRADE_SIZES > "$LOGS/grade-sample-gpus0.txt" 2>&1
  cmp -s "$LOGS/sample-seed/gradebook.csv" "$LOGS/sample-gpus0/gradebook.csv" && say "--gpus 0 against no option: the same gradebook" \
    || { say "--gpus 0 against no option: gradebooks DIFFER"; diff "$LOGS/sample-seed/verdicts.csv" "$LOGS/sample-gpus0/verdicts.csv" | head | tee -a "$summary"; }
  # The same class as Canvas's "Download Submissions" ZIP (issue 34): the same verdicts under the
  # students' Canvas ids, cy's late mark in the gradebook.
  python3 scripts/sample-class-canvas.py "$LOGS/canvas" > /dev/null
  t0=$(date +%s)
  "$hpclab" grade "$LOGS/canvas/canvas.zip" --out "$LOGS/canvas/grades" --again --expect "$LOGS/canvas/expected.csv" \
    > "$LOGS/grade-canvas.txt" 2>&1; rc=$?
  [ $rc -eq 0 ] || ctest_rc=$rc
  grep -E "^(Unpacked|Canvas download|Found|expected|[0-9]+ entries)" "$LOGS/grade-canvas.txt" | tee -a "$summary"
  say "sample class as a Canvas ZIP: exit $rc, $(( $(date +%s) - t0 )) s; gradebook rows: $(tail -n +2 "$LOGS/canvas/grades/gradebook.csv" 2>/dev/null | cut -d, -f1 | tr '\n' ' ')"
  grep -i "late" "$LOGS/canvas/grades/gradebook.csv" | head -3 | tee -a "$summary"
  cp "$LOGS/canvas/grades/gradebook.csv" "$OUT/canvas-gradebook.csv" 2>/dev/null
  cp "$LOGS/canvas/grades/report.md" "$OUT/canvas-report.md" 2>/dev/null
  fi

  [ "$n" -gt 0 ] || return 0  # GRADE_STUDENTS=0: the sample class alone
  make_class "$n" "$class"
  say ""
  say "== hpclab grade: $n students x $(( $(find "$class" -mindepth 2 -name "*.cu" | wc -l) / n )) labs"
  t0=$(date +%s)
  # Each line with the second it came (a call cut at its limit still shows the pace).
  # GRADE_TIMELINE=1: every process, phase and GPU turn of the grading on one time line (logs.tar.gz).
  [ "${GRADE_TIMELINE:-0}" = 1 ] && export HPCLAB_TIMELINE="$LOGS/timeline-class.txt"
  # With it, the CPUs' use every 2 s (vmstat: user, system, idle, waiting %): whether a stretch is the CPUs' or the GPU's.
  local vmstat_pid=""
  if [ "${GRADE_TIMELINE:-0}" = 1 ] && command -v vmstat >/dev/null; then
    vmstat -n 2 > "$LOGS/vmstat-class.txt" 2>&1 & vmstat_pid=$!
  fi
  # GRADE_JOBS: compiles at once (grade's --jobs; default the CPU cores). A class's first 100 s graded 46 files,
  # 300 to 400 s 142 (call 12d, docs/results/class-time-h200.txt), with the compiles at the start.
  timeout -s INT "${GRADE_TIMEOUT:-3600}" "$hpclab" grade "$class" --out "$LOGS/graded" --seed 5 $GRADE_SIZES ${GRADE_CHECKS_AT_ONCE:+--checks-at-once "$GRADE_CHECKS_AT_ONCE"} ${GRADE_JOBS:+--jobs "$GRADE_JOBS"} 2>&1 \
    | while IFS= read -r line; do printf '%(%s)T %s\n' -1 "$line"; done | tee "$OUT/grade-class.txt" > "$LOGS/grade-class.txt"
  rc=${PIPESTATUS[0]}
  unset HPCLAB_TIMELINE
  [ -z "$vmstat_pid" ] || { kill "$vmstat_pid"; awk 'NR > 3 {n++; us += $13; sy += $14; id += $15}  # line 3: since boot
    END {if (n) printf "the CPUs over the class (vmstat, %d samples of 2 s): user %.0f%%, system %.0f%%, idle %.0f%%\n", n, us/n, sy/n, id/n}' \
    "$LOGS/vmstat-class.txt" | tee -a "$summary"; }
  say "class: exit $rc, $(( $(date +%s) - t0 )) s wall"
  tar -C "$LOGS/graded" -czf "$OUT/graded.tar.gz" results verdicts.csv gradebook.csv 2>/dev/null
  grep -E "^[0-9]+ (Found|Course seed|Graded|The GPU|  [a-z])" "$LOGS/grade-class.txt" | cut -d' ' -f2- | tee -a "$summary"
  say "verdicts: $(tail -n +2 "$LOGS/graded/verdicts.csv" | cut -d, -f4 | sort | uniq -c | tr -s ' ' | tr '\n' ';')"
  [ -z "${GRADE_NO_KILL:-}" ] || return 0

  say ""
  say "== killed after ${GRADE_KILL_S:-60} s, then the same command"
  timeout -s KILL "${GRADE_KILL_S:-60}" "$hpclab" grade "$class" --out "$LOGS/killed" --seed 5 $GRADE_SIZES ${GRADE_CHECKS_AT_ONCE:+--checks-at-once "$GRADE_CHECKS_AT_ONCE"} > "$LOGS/grade-killed.txt" 2>&1
  say "killed: exit $? with $(find "$LOGS/killed/results" -name '*.json' 2>/dev/null | wc -l) results written; $(pgrep -x hpclab | wc -l) hpclab processes left a moment after"
  t0=$(date +%s)
  "$hpclab" grade "$class" --out "$LOGS/killed" --seed 5 $GRADE_SIZES ${GRADE_CHECKS_AT_ONCE:+--checks-at-once "$GRADE_CHECKS_AT_ONCE"} > "$LOGS/grade-resumed.txt" 2>&1
  say "resumed: exit $?, $(( $(date +%s) - t0 )) s; $(grep -E '^Course seed' "$LOGS/grade-resumed.txt")"
  cmp -s "$LOGS/killed/gradebook.csv" "$LOGS/graded/gradebook.csv" && say "gradebook after kill -9 + resume: IDENTICAL" \
    || { say "gradebook after kill -9 + resume: DIFFERS"; diff "$LOGS/killed/gradebook.csv" "$LOGS/graded/gradebook.csv" | head -10 | tee -a "$summary"; }
  # The two gradings are a regrade of one another: every task's verdict the same (speeds may differ a little).
  cmp -s <(cut -d, -f1-4 "$LOGS/killed/verdicts.csv") <(cut -d, -f1-4 "$LOGS/graded/verdicts.csv") \
    && say "regrade (the resumed grading against the uninterrupted one): every verdict IDENTICAL ($(tail -n +2 "$LOGS/graded/verdicts.csv" | wc -l) task verdicts)" \
    || { say "regrade: verdicts DIFFER"; diff <(cut -d, -f1-4 "$LOGS/killed/verdicts.csv") <(cut -d, -f1-4 "$LOGS/graded/verdicts.csv") | head -10 | tee -a "$summary"; }
  say "GPU after the gradings: $(nvidia-smi --query-compute-apps=pid --format=csv,noheader 2>/dev/null | wc -l) compute processes, $(nvidia-smi --query-gpu=memory.used --format=csv,noheader 2>/dev/null) used"
}

# Grading on several GPUs (issue 15), on a machine with two or more. Steps
# (GPUS_STEPS, default all in this order): warm (the generated class of
# GRADE_STUDENTS, 40, compiled with no GPU: the build cache both gradings
# then find), two (graded with --gpus 0,1), one (--gpus 0), compare (wall
# times, gradebooks, verdicts, each GPU's files), fault (the first ten
# students on both GPUs, GPU 1's memory taken FAULT_AFTER_S seconds in by
# scripts/gpu-fault.cu: a stand-in fault), probe (the hostile set's
# other_gpu on both GPUs, in the sandbox and without). The gradings live in
# $BUILD-logs/gpus, so that the steps of consecutive calls on one warm
# machine meet: a call has ten minutes, so "warm two" then "one compare
# fault probe".
grade_gpus() {  # $1: name (the out folder, the log, the wall time), $2: class folder, rest: options
  local name=$1 cls=$2 t0 rc; shift 2
  rm -rf "$m/$name"; t0=$(date +%s.%N)
  # Every process and GPU turn on a time line (which GPU's turn, and a timed
  # program not ready when its preparing turn ran out), in logs.tar.gz.
  HPCLAB_TIMELINE="$LOGS/timeline-$name.txt" "$hpclab" grade "$cls" --out "$m/$name" --seed 5 $GRADE_SIZES "$@" 2>&1 \
    | while IFS= read -r line; do printf '%(%s)T %s\n' -1 "$line"; done > "$LOGS/grade-$name.txt"
  rc=${PIPESTATUS[0]}
  seconds_since "$t0" > "$m/$name.wall"
  say "$name ($*): exit $rc, $(cat "$m/$name.wall") s wall"
  grep -E "^[0-9]+ (Course seed|Graded|The GPU|GPU [0-9]+ after|Out of service|Chunk [0-9]+ on GPU|  (Graded|The GPU's time|Out of service))" "$LOGS/grade-$name.txt" | cut -d' ' -f2- | tee -a "$summary"
  grep -hoE "files checked on .*: compile" "$m/$name/report.md" 2>/dev/null | sed 's/: compile$//' | tee -a "$summary"
  say "$name: $(grep -c 'not ready at its gate' "$LOGS/timeline-$name.txt" 2>/dev/null) timed programs not ready when their preparing turn ran out (their uploads then beside others' timed calls)"
}
verdicts_of() { tail -n +2 "$1" | cut -d, -f1-4 | sort; }  # student, lab, task, verdict
# Results per local chunk, each graded on its own GPU (chunk k on the k-th GPU of --gpus).
files_per_chunk() { local c; for c in "$1"/chunks/*/; do printf 'chunk %s: %s; ' "$(basename "$c")" "$(find "$c/results" -name '*.json' 2>/dev/null | wc -l)"; done; }

part_gpus() {
  local m="$BUILD-logs/gpus" n=${GRADE_STUDENTS:-40} step count t0 rc fpid i
  count=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
  say ""
  say "== hpclab grade --gpus: $count GPUs here"
  nvidia-smi -L 2>/dev/null | tee -a "$summary"
  [ "$count" -ge 2 ] || { say "two GPUs needed: nothing graded"; return 0; }
  mkdir -p "$m"
  for step in ${GPUS_STEPS:-warm two one compare fault probe}; do
    case $step in
      warm)
        make_class "$n" "$m/class"
        t0=$(date +%s)
        CUDA_VISIBLE_DEVICES= "$hpclab" grade "$m/class" --out "$m/warm" --seed 5 > "$LOGS/grade-warm.txt" 2>&1; rc=$?
        rm -rf "$m/warm"
        say "the class's $(find "$m/class" -name '*.cu' | wc -l) files compiled with no GPU (the build cache): exit $rc, $(( $(date +%s) - t0 )) s" ;;
      two) grade_gpus two "$m/class" --gpus 0,1 ;;
      one) grade_gpus one "$m/class" --gpus 0 ;;
      compare)
        [ -f "$m/one.wall" ] && [ -f "$m/two.wall" ] || { say "compare: one and two are not both graded"; continue; }
        say "one GPU $(cat "$m/one.wall") s, two GPUs $(cat "$m/two.wall") s: $(awk -v a="$(cat "$m/one.wall")" -v b="$(cat "$m/two.wall")" 'BEGIN{printf "%.2f", a/b}')x faster on two"
        cmp -s "$m/one/gradebook.csv" "$m/two/gradebook.csv" && say "gradebooks: IDENTICAL" \
          || { say "gradebooks: DIFFER"; diff "$m/one/gradebook.csv" "$m/two/gradebook.csv" | head -10 | tee -a "$summary"; }
        cmp -s <(verdicts_of "$m/one/verdicts.csv") <(verdicts_of "$m/two/verdicts.csv") \
          && say "verdicts: every one IDENTICAL ($(verdicts_of "$m/one/verdicts.csv" | wc -l) task verdicts)" \
          || { say "verdicts: DIFFER"; diff <(verdicts_of "$m/one/verdicts.csv") <(verdicts_of "$m/two/verdicts.csv") | head -20 | tee -a "$summary"; }
        say "two GPUs, files per GPU: $(files_per_chunk "$m/two")"
        say "verdicts (two GPUs): $(verdicts_of "$m/two/verdicts.csv" | cut -d, -f4 | sort | uniq -c | tr -s ' ' | tr '\n' ';')"
        tar -C "$m" -czf "$OUT/gpus-books.tar.gz" one/verdicts.csv one/gradebook.csv one/report.md two/verdicts.csv two/gradebook.csv two/report.md 2>/dev/null ;;
      diag)  # where a machine's time goes: the first ten students on both GPUs, then on GPU 0, CPUs and GPUs sampled
        rm -rf "$m/ten"; mkdir -p "$m/ten"
        for i in $(seq -w 1 10); do cp -r "$m/class/s$i" "$m/ten/"; done
        for i in two one; do
          top -b -d 2 -w 250 > "$LOGS/top-ten-$i.txt" 2>&1 & local tpid=$!
          nvidia-smi --query-gpu=index,utilization.gpu,memory.used --format=csv,noheader -lms 1000 > "$LOGS/smi-ten-$i.txt" 2>&1 & local spid=$!
          grade_gpus "ten-$i" "$m/ten" --gpus "$([ $i = two ] && echo 0,1 || echo 0)"
          kill $tpid $spid 2>/dev/null; wait $tpid $spid 2>/dev/null
          say "ten-$i: CPUs (top, every 2 s): $(awk '/^%Cpu/{n++; us+=$2; sy+=$4; id+=$8} END{if(n) printf "user %.0f%%, system %.0f%%, idle %.0f%% on average over %d samples", us/n, sy/n, id/n, n}' "$LOGS/top-ten-$i.txt")"
          say "ten-$i: CPU by command (summed %CPU over the samples / samples): $(awk '/^ *[0-9]+ /{cpu[$12]+=$9} /^%Cpu/{n++} END{for(c in cpu) printf "%s %.0f\n", c, cpu[c]/n}' "$LOGS/top-ten-$i.txt" | sort -k2 -rn | head -8 | tr '\n' ';')"
          say "ten-$i: GPU busy (nvidia-smi, every 1 s): $(awk -F', ' '{u[$1]+=$2; n[$1]++} END{for(g in u) printf "GPU %s %.0f%% ", g, u[g]/n[g]}' "$LOGS/smi-ten-$i.txt")"
        done ;;
      fault)
        rm -rf "$m/fault-class"; mkdir -p "$m/fault-class"
        mapfile -t ten < <(LC_ALL=C ls "$m/class" | head -10)  # the first ten students (fewer in a smaller class)
        for i in "${ten[@]}"; do cp -r "$m/class/$i" "$m/fault-class/"; done  # their builds are cached
        nvcc -O2 -cudart static -o "$m/gpu-fault" scripts/gpu-fault.cu > "$LOGS/gpu-fault-build.txt" 2>&1 || { say "gpu-fault does not build"; continue; }
        ( sleep "${FAULT_AFTER_S:-15}"; exec env CUDA_VISIBLE_DEVICES=1 "$m/gpu-fault" 300 ) > "$LOGS/gpu-fault.txt" 2>&1 &
        fpid=$!
        grade_gpus fault "$m/fault-class" --gpus 0,1
        kill "$fpid" 2>/dev/null; pkill -f "$m/gpu-fault" 2>/dev/null; wait "$fpid" 2>/dev/null
        say "the stand-in fault: $(head -1 "$LOGS/gpu-fault.txt") (GPU 1's memory taken ${FAULT_AFTER_S:-15} s in)"
        # Local chunks (one per GPU): chunk 1 ran on GPU 1, whose mark sits in its own folder.
        say "fault: $(find "$m/fault/chunks" -path '*/results/*' -name '*.json' | wc -l) results for $(find "$m/fault-class" -name '*.cu' | wc -l) files; marked out of service: $(cd "$m/fault/chunks" 2>/dev/null && ls -d */gpus/* 2>/dev/null | tr '\n' ' ')"
        say "fault, files per chunk (chunk k on GPU k): $(files_per_chunk "$m/fault")"
        # What docs/instructors.md tells an instructor to do: the broken GPU's chunk graded on
        # another GPU with its own command, then one gradebook from both chunks.
        t0=$(date +%s)
        "$hpclab" grade "$m/fault-class" --out "$m/fault/chunks/1" --chunk 1/2 --seed 5 --gpus 0 > "$LOGS/grade-fault-redo.txt" 2>&1; rc=$?
        say "chunk 1 graded again on GPU 0: exit $rc, $(( $(date +%s) - t0 )) s; $(grep -m1 -E 'files to grade' "$LOGS/grade-fault-redo.txt")"
        "$hpclab" merge "$m/fault" > "$LOGS/merge-fault.txt" 2>&1; rc=$?
        say "hpclab merge: exit $rc; $(grep -E '^(Merged|Every chunk)' "$LOGS/merge-fault.txt" | tr '\n' ' ')"
        for i in one two; do  # the ten students' verdicts in the whole class's gradings
          [ -f "$m/$i/verdicts.csv" ] || continue
          cmp -s <(grep -E "^($(IFS='|'; echo "${ten[*]}")),"  "$m/$i/verdicts.csv" | cut -d, -f1-4 | sort) <(verdicts_of "$m/fault/verdicts.csv") \
            && say "fault: the ${#ten[@]} students' verdicts IDENTICAL to theirs in grading '$i' ($(verdicts_of "$m/fault/verdicts.csv" | wc -l) task verdicts)" \
            || { say "fault: verdicts DIFFER from grading '$i'"; diff <(grep -E "^($(IFS='|'; echo "${ten[*]}"))," "$m/$i/verdicts.csv" | cut -d, -f1-4 | sort) <(verdicts_of "$m/fault/verdicts.csv") | head -20 | tee -a "$summary"; }
        done
        say "GPUs after: $(nvidia-smi --query-gpu=index,memory.used --format=csv,noheader | tr '\n' ';') $(nvidia-smi --query-compute-apps=pid --format=csv,noheader | wc -l) compute processes" ;;
      probe)
        rm -rf "$m/probe-class"
        for i in $(seq -w 1 16); do mkdir -p "$m/probe-class/p$i"; { cat tests/hostile/vecadd3/other_gpu.cu; echo "/* p$i */"; } > "$m/probe-class/p$i/vecadd3.cu"; done
        grade_gpus probe "$m/probe-class" --gpus 0,1 --checks-at-once 2 --no-timing --no-sanitizer
        say "probe in the sandbox: $(verdicts_of "$m/probe/verdicts.csv" | cut -d, -f4 | sort | uniq -c | tr -s ' ' | tr '\n' ';') files per GPU: $(files_per_chunk "$m/probe")"
        grade_gpus probe-nosandbox "$m/probe-class" --gpus 0,1 --checks-at-once 2 --no-timing --no-sanitizer --no-sandbox
        say "probe without the sandbox: $(verdicts_of "$m/probe-nosandbox/verdicts.csv" | cut -d, -f4 | sort | uniq -c | tr -s ' ' | tr '\n' ';') $(grep -m1 -h 'wrong' "$m/probe-nosandbox/verdicts.csv" | cut -d, -f9 | head -c 200)" ;;
      *) say "gpus: no step '$step' (warm two one compare diag fault probe)" ;;
    esac
    pack
  done
}

# The README's two commands, as a newcomer runs them on this machine as it
# is: in a fresh copy of this tree (its files, without build outputs, made a
# git checkout of one commit: a device machine's copy of the tree may carry
# an older .git than its files, so `git clone .` could test other code),
# ./setup then the test workflow; their wall times and last lines, the whole
# output streamed into $OUT/readme.txt. HPCLAB_COMMIT names what was sent.
part_readme() {
  local clone="$PWD/$BUILD-logs/clone" t0 rc
  rm -rf "$clone"; mkdir -p "$clone"
  tar --exclude=./build --exclude=./.carry --exclude=./out --exclude=./.git --exclude=./.hpclab -cf - . | tar -xf - -C "$clone"
  # A downloaded copy has no .git (README_GIT=1: a clone of one commit instead).
  [ "${README_GIT:-0}" = 1 ] && (cd "$clone" && git init -q && git add -A && git -c user.name=hpclab -c user.email=hpclab@localhost commit -qm copy)
  say ""
  say "== the README's two commands in a fresh copy of the tree, $([ "${README_GIT:-0}" = 1 ] && echo "a git repository of one commit" || echo "no .git"); sandbox: $(command -v bwrap || echo "no bwrap") (${HPCLAB_COMMIT:-commit not given})"
  t0=$(date +%s)
  (cd "$clone" && ./setup) 2>&1 | tee -a "$OUT/readme.txt" > "$LOGS/readme-setup.txt"; rc=${PIPESTATUS[0]}
  say "./setup: exit $rc, $(( $(date +%s) - t0 )) s; its last lines:"
  tail -12 "$LOGS/readme-setup.txt" | tee -a "$summary"
  [ $rc -eq 0 ] || ctest_rc=$rc
  t0=$(date +%s)
  (cd "$clone" && cmake --workflow --preset default) 2>&1 | tee -a "$OUT/readme.txt" > "$LOGS/readme-workflow.txt"
  rc=${PIPESTATUS[0]}
  say "cmake --workflow --preset default: exit $rc, $(( $(date +%s) - t0 )) s; its last lines:"
  tail -8 "$LOGS/readme-workflow.txt" | tee -a "$summary"
  grep -E "\*\*\*Failed|\*\*\*Timeout|Not Run" "$LOGS/readme-workflow.txt" | head -20 | tee -a "$summary"
  say "hostile set: $(grep -cE 'Test +#[0-9]+: hostile\..*Passed' "$LOGS/readme-workflow.txt") passed; broken set: $(grep -cE 'Test +#[0-9]+: broken\..*Passed' "$LOGS/readme-workflow.txt") passed; the slowest tests:"
  grep -E "Test +#" "$LOGS/readme-workflow.txt" | awk '{for(i=1;i<=NF;i++) if($i=="sec") print $(i-1), $4}' | sort -rn | head -5 | tee -a "$summary"
  if command -v nvidia-smi >/dev/null; then
    say "GPU after the tests: $(nvidia-smi --query-compute-apps=pid --format=csv,noheader | wc -l) compute processes, $(nvidia-smi --query-gpu=memory.used --format=csv,noheader) used"
  fi
  [ $rc -eq 0 ] || ctest_rc=$rc
  [ "$clone_parts_only" = 1 ] && hpclab="$clone/build/default/grader/hpclab"  # for the parts after this one
}

# Issue 33: CUDA_DEVICE_MAX_CONNECTIONS 8 against 1 for the streams lab (its
# lab.json says 8), on hpclab's clock: scripts/streams-connections.sh.
part_connections() {
  say ""
  REPS=${CAL_REPS:-3} scripts/streams-connections.sh "$hpclab" 2>&1 | tee "$LOGS/streams-connections.txt" | tee -a "$summary"
}

# Issue 32: the program lab's tolerances (lab.json "program": time_factor,
# launch_fraction) from PROGRAM_REPS checks of the solution: each printed time
# against hpclab's own timing of the same kernel in the same check.
part_programcal() {
  local i
  say ""
  say "== the program lab's solution, ${PROGRAM_REPS:-8} checks: printed times over hpclab's own (events)"
  mkdir -p "$LOGS/programcal"
  for i in $(seq "${PROGRAM_REPS:-8}"); do
    "$hpclab" check program --solution > "$LOGS/programcal/check-$i.txt" 2>&1
  done
  python3 - "$LOGS/programcal" <<'PY' | tee -a "$summary"
import glob, os, re, sys
unit = {"s": 1.0, "ms": 1e-3, "us": 1e-6}
print("check verdict   launch/events  sync/events  events/events  (hpclab: events s, sync s, launch s)")
for f in sorted(glob.glob(os.path.join(sys.argv[1], "check-*.txt")), key=lambda f: int(re.findall(r"\d+", f)[-1])):
    t = open(f).read()
    got = {}
    for label in ("Time without synchronization", "Time with cudaDeviceSynchronize", "Time with CUDA events"):
        m = re.search(r"\| " + re.escape(label) + r": *([0-9.eE+-]+) *(ms|us|s)\b", t)
        got[label] = float(m.group(1)) * unit[m.group(2)] if m else None
    m = re.search(r"own timing of the same kernel on this GPU: ([0-9.]+) s \(events\), ([0-9.]+) s \(cudaDeviceSynchronize\), ([0-9.]+) s", t)
    v = re.search(r"^program: ([A-Z_ ]+) \(", t, re.M)
    if not m:
        print(os.path.basename(f), "no measurement:", (v.group(1) if v else "?")); continue
    ev, sy, la = map(float, m.groups())
    r = lambda x: f"{x / ev:13.4f}" if x is not None else "            -"
    print(f'{os.path.basename(f):<10} {(v.group(1) if v else "?"):<9}{r(got["Time without synchronization"])}'
          f'{r(got["Time with cudaDeviceSynchronize"])}{r(got["Time with CUDA events"])}  ({ev:.6f}, {sy:.6f}, {la:.6f})')
PY
}

# The generated class alone (GRADE_SAMPLE=0 skips the sample class).
part_class() { GRADE_NO_KILL=1 GRADE_SAMPLE=0 part_grade; }

# Correct files checked beside each other (scripts/concurrent-checks.sh): each
# lab's solution COPIES times at once, then every lab's at once; no check of
# a correct file may be accused (tampering, too slow). LABS: those alone.
part_concurrent() {
  local labs=() rc
  for j in labs/*/lab.json; do
    lab=$(basename "$(dirname "$j")"); in_labs "$lab" && labs+=("$lab")
  done
  say ""
  LOGS="$LOGS/concurrent" scripts/concurrent-checks.sh "$hpclab" "${labs[@]}" 2>&1 | tee "$OUT/concurrent.txt" \
    | tee -a "$summary"
  rc=${PIPESTATUS[0]}
  [ "$rc" -eq 0 ] || course_rc=$rc
}

# The student kit (issue 13): exported for this GPU's architecture, built
# with its own README's commands, then checked there with a correct file (the
# solution, copied in as a student would write it) and a broken one.
part_kit() {
  local kit="$BUILD-logs/kit" t0 rc arch
  arch=${CMAKE_CUDA_ARCHITECTURES:-90}
  say ""
  say "== the student kit"
  rm -rf "$kit"
  t0=$(date +%s)
  "$hpclab" export-student-kit "$kit" --architectures "$arch" > "$LOGS/kit-export.txt" 2>&1; rc=$?
  say "export: exit $rc, $(( $(date +%s) - t0 )) s; $(grep -E '^Kit written' "$LOGS/kit-export.txt")"
  [ $rc -eq 0 ] || { ctest_rc=$rc; return; }
  t0=$(date +%s)
  (cd "$kit" && ./setup --no-run && cmake --workflow --preset default) > "$LOGS/kit-build.txt" 2>&1; rc=$?
  say "kit's ./setup --no-run + cmake --workflow: exit $rc, $(( $(date +%s) - t0 )) s; $(grep -E '^hpclab tests|tests passed' "$LOGS/kit-build.txt" | tail -1)"
  cp solutions/vecadd3/vecadd3.cu "$kit/labs/vecadd3/vecadd3.cu"
  (cd "$kit" && ./hpclab check vecadd3 --expect pass) > "$LOGS/kit-check-pass.txt" 2>&1; rc=$?
  say "kit: check of a correct vecadd3: exit $rc; $(grep -E '=> |expected' "$LOGS/kit-check-pass.txt" | tr '\n' ' ')"
  [ $rc -eq 0 ] || ctest_rc=$rc
  cp tests/broken/vecadd3/one_thread_per_block.cu "$kit/labs/vecadd3/vecadd3.cu"
  (cd "$kit" && ./hpclab check vecadd3 --expect too_slow) > "$LOGS/kit-check-broken.txt" 2>&1; rc=$?
  say "kit: check of a slow vecadd3: exit $rc; $(grep -E '=> |expected|speed at' "$LOGS/kit-check-broken.txt" | tr '\n' ' ')"
  [ $rc -eq 0 ] || ctest_rc=$rc
  (cd "$kit" && ./hpclab reset vecadd3 && ./hpclab list | head -1) >> "$LOGS/kit-check-broken.txt" 2>&1
}

for p in $PARTS; do
  declare -F "part_$p" > /dev/null || { say "no part '$p' (tests broken hostile runs loop course checktimes brokentimes calibrate calibrate-cmd connections programcal bench images grade class concurrent gpus kit readme)"; exit 2; }
  "part_$p"
  pack
done
say ""
say "parts: $PARTS; ctest exit $ctest_rc, run --all exit $run_rc, every lab's run: $runs_rc, loop: $loop_rc, course: $course_rc, bench: $bench_rc"
[ "$ctest_rc" -eq 0 ] && [ "$run_rc" -eq 0 ] && [ "$runs_rc" -eq 0 ] && [ "$loop_rc" -eq 0 ] && [ "$course_rc" -eq 0 ] \
  && [ "$bench_rc" -eq 0 ]
