#!/usr/bin/env bash
# Scratch: run broken vecadd3 variants through hpclab run (device only).
B=$1; OUTF=$2
cp labs/vecadd3/vecadd3.cu /tmp/orig.cu
for v in scratch/*.cu; do
  cp $v labs/vecadd3/vecadd3.cu
  echo "=== $(basename $v)" >> $OUTF
  timeout 120 $B run vecadd3 --n 1000 >> $OUTF 2>&1; echo "exit $?" >> $OUTF
done
cp /tmp/orig.cu labs/vecadd3/vecadd3.cu
