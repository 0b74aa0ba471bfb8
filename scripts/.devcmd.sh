set -o pipefail
B=build/gpu-suite; H=$B/grader/hpclab
cmake -S . -B $B -G Ninja -DHPCLAB_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/configure.log 2>&1 && cmake --build $B -j 16 > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
t0=$(date +%s)
timeout 150 $H check reduction --file tests/broken/reduction/tree_infinite_loop.cu --expect time_limit --no-timing > $OUT/loop.txt 2>&1; echo "infinite loop check: exit $?, $(( $(date +%s) - t0 )) s"
grep -E "=>|tasks pass|expected|FAIL" $OUT/loop.txt | head
ps -eo pid,stat,etime,cmd | grep -E "lab-programs|sanitizer" | grep -v grep | head -5
t0=$(date +%s)
$H check reduction --solution --no-timing > $OUT/after.txt 2>&1; echo "the next check, right after: exit $?, $(( $(date +%s) - t0 )) s"
ctest --test-dir $B -R "broken\.(reduction\.tree|vecadd3\.one_thread|stencil|matmul\.tiled_missing)" -j 6 --output-on-failure --timeout 300 > $OUT/broken.log 2>&1
grep -E "tests passed|Test +#" $OUT/broken.log
