#!/usr/bin/env bash
# SGEMM steps past register tiling, against cuBLAS (scripts/sgemm-steps.cu), on this machine's GPU
# (compute capability 8.0 or later: cp.async):
#   scripts/sgemm-steps.sh [n ...]        (default: 4096 2048; each a multiple of 256)
# Prints each kernel's best time of three interleaved rounds and its ratio to cuBLAS; exit 77 without a GPU.
set -eu
cd "$(dirname "$0")/.."
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d .) || true
[ -n "$cc" ] || { echo "sgemm-steps: no GPU here" >&2; exit 77; }
sizes=("$@"); [ ${#sizes[@]} -gt 0 ] || sizes=(4096 2048)
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
nvcc -O3 -std=c++17 -arch=sm_$cc -o "$dir/sgemm-steps" scripts/sgemm-steps.cu -lcublas
echo "# $(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader | head -1)"
for n in "${sizes[@]}"; do "$dir/sgemm-steps" "$n" 3; done
