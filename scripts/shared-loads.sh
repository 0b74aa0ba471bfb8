#!/usr/bin/env bash
# Shared-memory loads per multiply-add in the compiled matmul kernels, as
# the GPU runs them: each file compiled with hpclab's flags for one
# architecture (sm_90, the H100's, unless ARCH says), its machine code
# (SASS, cuobjdump -sass) read, and for every kernel that multiplies, its
# LDS instructions (shared-memory loads of any width: nvcc fuses the loads
# of consecutive k into one 16-byte LDS.128) over its FFMA instructions
# (fp32 multiply-adds). Kernels with fewer than 16 FFMA (the naive ones,
# which use no shared memory) are left out. The walkthroughs' counts
# (docs/matmul.md, docs/matmul-further.md) are this script's output, kept
# in docs/results/shared-loads-sm90.txt; a test runs it again where
# cuobjdump is installed and compares.
#   scripts/shared-loads.sh [out-file]
set -euo pipefail
cd "$(dirname "$0")/.."
arch=${ARCH:-90}
nvcc=${NVCC:-nvcc}
cuobjdump=${CUOBJDUMP:-$(dirname "$(command -v "$nvcc")")/cuobjdump}
[ -x "$cuobjdump" ] || cuobjdump=$(command -v cuobjdump) || { echo "no cuobjdump (the CUDA Toolkit's)" >&2; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{
  echo "# scripts/shared-loads.sh: LDS per FFMA in the SASS of sm_$arch"
  for file in solutions/matmul/matmul.cu bench/matmul/tuned.cu; do
    "$nvcc" -std=c++17 -O3 -cubin -arch="sm_$arch" -Icommon -Ilabs/matmul -o "$work/k.cubin" "$file"
    "$cuobjdump" -sass "$work/k.cubin" | awk -v file="$file" '
      /Function :/ { kernel = $3 }
      /[^A-Z]LDS(\.|[ ;])/ { lds[kernel]++ }
      /[^A-Z]FFMA(\.|[ ;])/ { ffma[kernel]++ }
      END { for (k in ffma) if (ffma[k] >= 16) printf "%s %s: %.2f shared loads per multiply-add\n", file, k, lds[k] / ffma[k] }' | sort
  done
} > "${1:-/dev/stdout}"
