set -o pipefail
B=build/gpu-suite; H=$B/grader/hpclab
cmake -S . -B $B -G Ninja -DHPCLAB_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/configure.log 2>&1 && cmake --build $B -j 16 > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
mkdir -p $OUT/c
compute-sanitizer --help | grep -iA2 "padding" | head -8
t0=$(date +%s)
timeout 200 $H check reduction --file tests/broken/reduction/tree_infinite_loop.cu --expect time_limit --no-timing > $OUT/c/loop.txt 2>&1; echo "infinite loop check: exit $?, $(( $(date +%s) - t0 )) s"
grep -E "=>|tasks pass|expected" $OUT/c/loop.txt
ps -eo pid,ppid,pgid,sid,stat,etime,cmd | grep -E "harness|reduction|sanitizer" | grep -v grep | head
nvidia-smi --query-compute-apps=pid,name --format=csv,noheader | head
t0=$(date +%s)
ctest --test-dir $B -L broken -j 6 --output-on-failure --timeout 300 > $OUT/c/broken.log 2>&1
echo "broken set: $(( $(date +%s) - t0 )) s"; grep -E "tests passed|\*\*\*" $OUT/c/broken.log | head -40
cp -r .hpclab/records $OUT/c/records
tar -C $OUT -czf $OUT/checks.tar.gz c && rm -rf $OUT/c
