#!/usr/bin/env bash
# The whole GPU check in one command, for a machine with a GPU: configure,
# build, run every test (CPU and GPU), then every lab's reference solution
# through the runner (the table of times and throughputs) and the rotation
# lab on its image. Logs and a summary go to $OUT (default: ./out).
#
#   scripts/gpu-suite.sh                 # architecture of the local GPU
#   CMAKE_CUDA_ARCHITECTURES=90 scripts/gpu-suite.sh
#   CTEST_ARGS="-L gpu" scripts/gpu-suite.sh   # extra ctest arguments
set -u -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
BUILD=${BUILD:-build/gpu-suite}
mkdir -p "$OUT/logs"
summary="$OUT/summary.txt"
: > "$summary"
say() { echo "$*" | tee -a "$summary"; }

say "== hpclab GPU suite, $(date -u '+%Y-%m-%d %H:%M UTC')"
if command -v nvidia-smi >/dev/null; then
  nvidia-smi > "$OUT/logs/nvidia-smi.txt" 2>&1
  say "GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv,noheader 2>/dev/null | head -1)"
fi
say "nvcc: $(nvcc --version 2>/dev/null | tail -1)"

arch_args=()
[ -n "${CMAKE_CUDA_ARCHITECTURES:-}" ] && arch_args=(-DCMAKE_CUDA_ARCHITECTURES="$CMAKE_CUDA_ARCHITECTURES")
t0=$(date +%s)
if ! cmake -S . -B "$BUILD" -G Ninja -DHPCLAB_CUDA=ON "${arch_args[@]}" > "$OUT/logs/configure.log" 2>&1; then
  say "configure FAILED:"; tail -30 "$OUT/logs/configure.log" | tee -a "$summary"; exit 1
fi
if ! cmake --build "$BUILD" -j "$(nproc)" > "$OUT/logs/build.log" 2>&1; then
  say "build FAILED:"; grep -E "error|FAILED" "$OUT/logs/build.log" | head -30 | tee -a "$summary"; exit 1
fi
say "configure + build: $(( $(date +%s) - t0 )) s"

t0=$(date +%s)
# GPU tests take the GPU one at a time (RESOURCE_LOCK gpu); the rest run beside them.
ctest --test-dir "$BUILD" --output-on-failure --no-tests=error -j "$(nproc)" ${CTEST_ARGS:-} \
  > "$OUT/logs/ctest.log" 2>&1
ctest_rc=$?
say "ctest: exit $ctest_rc, $(( $(date +%s) - t0 )) s"
grep -E "tests passed|tests failed|Total Test time" "$OUT/logs/ctest.log" | tee -a "$summary"
grep -E "\*\*\*(Failed|Skipped|Timeout|Exception)|Not Run| Failed " "$OUT/logs/ctest.log" | head -40 | tee -a "$summary"
grep -cE "Skipped" "$OUT/logs/ctest.log" | sed 's/^/skipped lines: /' | tee -a "$summary"

hpclab="$BUILD/grader/hpclab"
say ""
say "== every lab's reference solution (hpclab run --all --solution)"
"$hpclab" run --all --solution --json "$OUT/solutions.json" 2>&1 | tee "$OUT/logs/run-all.log" | tee -a "$summary"
run_rc=${PIPESTATUS[0]}

say ""
say "== the rotation lab on its image"
(cd "$OUT" && "$OLDPWD/$hpclab" run rotation --solution 2>&1) | tee "$OUT/logs/rotation.log" | tee -a "$summary"

tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$OUT/logs"
say ""
say "ctest exit $ctest_rc, run --all exit $run_rc"
[ "$ctest_rc" -eq 0 ] && [ "$run_rc" -eq 0 ]
