set -o pipefail
B=build/gpu-suite; H=$B/grader/hpclab
cmake -S . -B $B -G Ninja -DHPCLAB_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/configure.log 2>&1 && cmake --build $B -j 16 > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
mkdir -p $OUT/c
t0=$(date +%s)
ctest --test-dir $B -L broken -j 8 --output-on-failure --timeout 300 > $OUT/c/broken.log 2>&1
echo "broken set: $(( $(date +%s) - t0 )) s"; grep -E "tests passed|Failed|Timeout|\*\*\*" $OUT/c/broken.log | head -40
# the student's loop: an edit, then a check (the split of the time)
echo "// an edit" >> solutions/vecadd3/vecadd3.cu
cp solutions/vecadd3/vecadd3.cu labs/vecadd3/vecadd3.cu
$H check vecadd3 > $OUT/c/edit-check.txt 2>&1; echo "edited vecadd3 check exit $?"; grep -E "tasks pass|speed" $OUT/c/edit-check.txt
for i in 1 2 3 4 5; do $H check vecadd3 --solution --json $OUT/c/v3-$i.json > $OUT/c/v3-$i.txt 2>&1; grep -E "tasks pass" $OUT/c/v3-$i.txt; done
for i in 1 2 3 4 5; do $H check matmul --solution --json $OUT/c/mm-$i.json > $OUT/c/mm-$i.txt 2>&1; grep -E "tasks pass" $OUT/c/mm-$i.txt; done
tar -C $OUT -czf $OUT/checks.tar.gz c && rm -rf $OUT/c
