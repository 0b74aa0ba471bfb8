#!/usr/bin/env bash
# Whether programs on GPU 0 slow timed calls on GPU 1 (issue 15; see
# scripts/gpu-crosstalk.cu): the victim's calls timed with GPU 0 quiet, then
# while processes keep making CUDA contexts on GPU 0 (a grading's pace: a
# check starts several programs), then while programs already started there
# allocate, copy and free. Every process with CUDA_DEVICE_MAX_CONNECTIONS=1,
# as hpclab runs them. Needs two GPUs.
#   scripts/gpu-crosstalk.sh [seconds per measurement, 4]
set -u
cd "$(dirname "$0")/.."
s=${1:-4}
dir=${TMPDIR:-/tmp}
export CUDA_DEVICE_MAX_CONNECTIONS=1
nvcc -O2 -o "$dir/gpu-crosstalk" scripts/gpu-crosstalk.cu -cudart static || exit 1
nvcc -O2 -o "$dir/ctx-cost" scripts/ctx-cost.cu -lcuda -cudart static || exit 1
victim() {  # $1: what the other GPU does
  for what in kernel tree; do
    printf '%-44s ' "GPU 1 $1:"
    CUDA_VISIBLE_DEVICES=1 "$dir/gpu-crosstalk" "$what" "$s"
  done
}
storm() {  # contexts made on GPU 0, 8 processes at a time, until killed
  while :; do
    for _ in 1 2 3 4 5 6 7 8; do CUDA_VISIBLE_DEVICES=0 "$dir/ctx-cost" 1 & done
    wait
  done
}
victim "GPU 0 quiet"
storm & spid=$!
sleep 1
victim "GPU 0 making contexts (8 at a time)"
kill "$spid"; wait "$spid" 2>/dev/null; sleep 1
pids=()
for _ in 1 2 3 4; do CUDA_VISIBLE_DEVICES=0 "$dir/gpu-crosstalk" busy $(( 2 * s + 4 )) & pids+=($!); done
sleep 2
victim "GPU 0 running 4 programs (malloc, copy, free)"
wait "${pids[@]}"
victim "GPU 0 quiet again"
