set -o pipefail
B=build/gpu-suite; H=$B/grader/hpclab
cmake -S . -B $B -G Ninja -DHPCLAB_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/configure.log 2>&1 && cmake --build $B -j 16 > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
which compute-sanitizer; ls /usr/local/cuda/bin/compute-sanitizer /usr/local/cuda/compute-sanitizer 2>&1 | head -3
mkdir -p $OUT/c
for lab in vecadd3 hello vecadd0 vecadd1 vecadd2 stencil reduction matmul rotation; do
  timeout 300 $H check $lab --solution > $OUT/c/sol-$lab.txt 2>&1; echo "solution $lab exit $?"; grep -E "=>|tasks pass|speed" $OUT/c/sol-$lab.txt
  timeout 300 $H check $lab > $OUT/c/skel-$lab.txt 2>&1; echo "skeleton $lab exit $?"; grep -E "tasks pass" $OUT/c/skel-$lab.txt
done
cp -r .hpclab/records $OUT/c/records
tar -C $OUT -czf $OUT/checks.tar.gz c && rm -rf $OUT/c
