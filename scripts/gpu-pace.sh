#!/usr/bin/env bash
# How fast this machine starts CUDA programs, the pace that bounds a class's
# grading (every check's process makes a CUDA context, and the driver makes
# them one at a time): N copies of a program that makes a context and runs
# one kernel, 1, 4, 8 and 16 at once, then under compute-sanitizer memcheck.
# One line per case: programs per second. Needs nvcc and a GPU.
#
#   N=48 scripts/gpu-pace.sh            # lines into $OUT/pace.txt too
set -u
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
N=${N:-48}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/ctx.cu" <<'CU'
__global__ void one(int* p) { *p = 1; }
int main()
{
    int* p = nullptr;
    if (cudaMalloc(&p, sizeof *p) != cudaSuccess) return 1;
    one<<<1, 1>>>(p);
    if (cudaDeviceSynchronize() != cudaSuccess) return 1;
    return cudaFree(p) == cudaSuccess ? 0 : 1;
}
CU
nvcc -O2 -cudart=static -arch="sm_${ARCH:-90}" "$tmp/ctx.cu" -o "$tmp/ctx" || exit 1
pace() {  # <label> <at once> <command...>
  local label=$1 at=$2; shift 2
  local t0 t1 fails
  t0=$(date +%s.%N)
  fails=$(seq "$N" | xargs -P "$at" -I{} sh -c '"$@" >/dev/null 2>&1 || echo x' _ "$@" | wc -l)
  t1=$(date +%s.%N)
  awk -v l="$label" -v a="$at" -v n="$N" -v f="$fails" -v t0="$t0" -v t1="$t1" \
    'BEGIN { printf "%-28s %2d at once: %d programs in %5.1f s, %5.2f per second, %.3f s each (%d failed)\n", l, a, n, t1-t0, n/(t1-t0), (t1-t0)/n, f }' \
    | tee -a "$OUT/pace.txt"
}
for at in 1 4 8 16; do pace "context + one kernel" "$at" "$tmp/ctx"; done
if command -v compute-sanitizer >/dev/null; then
  for at in 1 8; do pace "the same under memcheck" "$at" compute-sanitizer --tool memcheck "$tmp/ctx"; done
fi
