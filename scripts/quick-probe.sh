# quick timing-stability probe (not committed)
h=build/gpu-suite/grader/hpclab
for i in 1 2 3 4 5; do $h check vecadd3 --solution --quiet --json $OUT/v$i.json | tail -1; done
for i in 1 2 3; do $h check reduction --solution --quiet --task atomic --json $OUT/r$i.json | tail -1; done
$h check reduction --file bench/reduction/course.cu --task atomic --quiet --json $OUT/rc.json | tail -1
$h check vecadd3 --file bench/vecadd3/course.cu --quiet --json $OUT/vc.json | tail -1
for i in 1 2 3; do cp solutions/vecadd3/vecadd3.cu /tmp/s.cu; echo "/* $i $(date +%s%N) */" >> /tmp/s.cu; /usr/bin/time -f "wall %e s" $h check vecadd3 --file /tmp/s.cu --quiet 2>&1 | tail -2; done
cd $OUT && tar czf j.tgz *.json && rm *.json
