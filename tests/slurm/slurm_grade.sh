#!/usr/bin/env bash
# hpclab grade --slurm on a real one-node Slurm (Debian's slurmctld, slurmd
# and munge, started here in a folder of their own, with a stand-in GPU: a
# "gpu" generic resource of count 1 and no device, so the checks say
# not_run): the job array runs, the merge has every student; a chunk that
# never ran and one killed while it ran are named by merge, and submitting
# them again completes the book, the same as one uninterrupted grading.
#
#   slurm_grade.sh <hpclab> <course root> <work folder>
#
# Exit 77 (skipped) when Slurm is not installed or this is not root (the
# daemons need it), unless HPCLAB_REQUIRE_SLURM=1 (CI), where that fails.
set -uo pipefail
hpclab=$1 root=$2 work=$3

skip() {
  echo "slurm test: $1"
  if [ "${HPCLAB_REQUIRE_SLURM:-0}" = 1 ]; then echo "slurm test: HPCLAB_REQUIRE_SLURM=1: failing"; exit 1; fi
  [ -n "${HPCLAB_SKIP_LOG:-}" ] && echo "no Slurm test: $1" >> "$HPCLAB_SKIP_LOG"
  exit 77
}
for t in slurmctld slurmd sbatch squeue scontrol scancel munged; do
  command -v "$t" >/dev/null || [ -x "/usr/sbin/$t" ] || skip "$t is not installed (apt-get install slurmctld slurmd slurm-client munge)"
done
[ "$(id -u)" = 0 ] || skip "the daemons need root"
export PATH="$PATH:/usr/sbin"

fail() { echo "slurm test: FAILED: $*"; exit 1; }
rm -rf "$work"; mkdir -p "$work"/{state,spool,log,munge}
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  sleep 0.5
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
}
trap cleanup EXIT

# munge: its own key and socket, in the work folder.
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 0400 "$work/munge/munge.key"; chmod 0711 "$work/munge"
munged --force --foreground --key-file="$work/munge/munge.key" --socket="$work/munge/munge.sock" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/log/munged.log" --seed-file="$work/munge/seed" &
pids+=($!)

host=$(hostname -s)
port=$((20000 + RANDOM % 20000))
cat > "$work/slurm.conf" <<CONF
ClusterName=hpclabtest
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
GresTypes=gpu
NodeName=$host CPUs=$(nproc) Gres=gpu:1 State=UNKNOWN
PartitionName=grading Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF
# The stand-in GPU: a device file every machine has.
echo "NodeName=$host Name=gpu File=/dev/null" > "$work/gres.conf"
export SLURM_CONF="$work/slurm.conf"
# Each chunk of this test runs on all of the node's CPUs, one at a time, as on a GPU node.
sleep 1
slurmctld -D -i -f "$SLURM_CONF" > "$work/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" > "$work/log/slurmd.out" 2>&1 &
pids+=($!)

for _ in $(seq 60); do
  sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)' && break
  sleep 1
done
sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)' || {
  tail -n 20 "$work"/log/*.log "$work"/log/*.out; fail "the one-node Slurm did not come up"; }
echo "slurm test: a one-node Slurm is up ($host, port $port)"

# The class: the sample class, graded whole here as the reference book.
class="$root/examples/class/submissions"
export HPCLAB_ROOT=$root CUDA_VISIBLE_DEVICES=
"$hpclab" grade "$class" --out "$work/whole" --seed 77 --no-sandbox > "$work/log/whole.out" 2>&1 \
  || { cat "$work/log/whole.out"; fail "the uninterrupted grading failed"; }

# Wait for every task of job $1 to leave the queue.
wait_job() {
  for _ in $(seq 600); do
    [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
    sleep 1
  done
  squeue; fail "job $1 did not end in 10 minutes"
}

# 1. The array as hpclab submits it: every chunk runs; the merge has every student.
out="$work/graded"
"$hpclab" grade "$class" --out "$out" --seed 77 --no-sandbox --slurm --chunks 3 --cpus 1 --time 00:20:00 --submit \
  > "$work/log/submit.out" 2>&1 || { cat "$work/log/submit.out"; fail "hpclab grade --slurm --submit failed"; }
job=$(sed -n 's/^Submitted: job \([0-9]*\).*/\1/p' "$work/log/submit.out")
[ -n "$job" ] || { cat "$work/log/submit.out"; fail "no job id in hpclab's output"; }
echo "slurm test: job array $job submitted"
wait_job "$job"
"$hpclab" merge "$out" > "$work/log/merge1.out" 2>&1 || { cat "$work/log/merge1.out" "$out"/slurm/*.log; fail "merge after the array"; }
grep -q "Every chunk is complete." "$work/log/merge1.out" || fail "merge does not say every chunk is complete"
cmp -s "$out/gradebook.csv" "$work/whole/gradebook.csv" || { diff "$out/gradebook.csv" "$work/whole/gradebook.csv"; fail "the merged book differs from the uninterrupted one"; }
echo "slurm test: the array's merged gradebook is the uninterrupted one ($(($(wc -l < "$out/gradebook.csv") - 1)) students)"

# 2. A chunk that never runs (cancelled while pending) and one killed while it
#    runs: merge names them, and the command it prints completes the book.
out="$work/partial"
"$hpclab" grade "$class" --out "$out" --seed 77 --no-sandbox --slurm --chunks 3 --cpus 1 --time 00:20:00 > /dev/null \
  || fail "hpclab grade --slurm failed"
job=$(sbatch --parsable --hold "$out/slurm/grade.sbatch") || fail "sbatch --hold"
scancel "${job}_1"
scontrol release "${job}_0" "${job}_2"
for _ in $(seq 100); do
  [ "$(squeue -h -j "${job}_2" -o '%T' 2>/dev/null)" = RUNNING ] && break
  sleep 0.1
done
scancel --signal=KILL "${job}_2" 2>/dev/null
wait_job "$job"
"$hpclab" merge "$out" > "$work/log/merge2.out" 2>&1
rc=$?
cat "$work/log/merge2.out" | tail -4
[ $rc = 1 ] || fail "merge of a partial array exited $rc, not 1"
resubmit=$(grep -o 'sbatch --array=[0-9,]* .*grade.sbatch' "$work/log/merge2.out") || fail "merge printed no sbatch command"
case "$resubmit" in *--array=1*) ;; *) fail "merge did not name chunk 1: $resubmit" ;; esac
job=$(${resubmit/sbatch/sbatch --parsable}) || fail "resubmitting: $resubmit"
wait_job "$job"
"$hpclab" merge "$out" > "$work/log/merge3.out" 2>&1 || { cat "$work/log/merge3.out"; fail "merge after the resubmission"; }
cmp -s "$out/gradebook.csv" "$work/whole/gradebook.csv" || { diff "$out/gradebook.csv" "$work/whole/gradebook.csv"; fail "the completed book differs from the uninterrupted one"; }
echo "slurm test: a cancelled and a killed chunk, submitted again ($resubmit), complete the book"
echo "slurm test: PASSED"
