#!/usr/bin/env bash
# N processes that each make a CUDA context, started together: the wall
# time of the lot, per process. Shows whether contexts are made one at a
# time across processes (wall grows with N) and what a context costs.
#   scripts/ctx-cost.sh [out-file]
set -u
cd "$(dirname "$0")/.."
bin=${TMPDIR:-/tmp}/ctx-cost
nvcc -O2 -o "$bin" scripts/ctx-cost.cu -lcuda -cudart static 2>&1 || exit 1
run() {  # $1 N, $2 mode, rest: env
  local n=$1 mode=$2; shift 2
  local t0 t1
  t0=$(date +%s.%N)
  for _ in $(seq "$n"); do env "$@" "$bin" "$mode" & done
  wait
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" -v n="$n" -v m="$mode" -v e="$*" 'BEGIN{printf "N=%-3d mode=%d %-28s wall %6.2f s  %5.3f s per process\n", n, m, e, b-a, (b-a)/n}'
}
# CTX_GPUS=2 (a machine with two): whether contexts on different GPUs are
# made one at a time too (the pace of hpclab grade --gpus 0,1): N processes
# on GPU 0 against N split over GPUs 0 and 1.
run_split() {  # $1 N, $2 mode: half the processes on GPU 0, half on GPU 1
  local n=$1 mode=$2 t0 t1 i
  t0=$(date +%s.%N)
  for i in $(seq "$n"); do CUDA_DEVICE_MAX_CONNECTIONS=1 CUDA_VISIBLE_DEVICES=$(( i % 2 )) "$bin" "$mode" & done
  wait
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" -v n="$n" -v m="$mode" 'BEGIN{printf "N=%-3d mode=%d %-28s wall %6.2f s  %5.3f s per process\n", n, m, "split over GPUs 0 and 1", b-a, (b-a)/n}'
}
# ENDS=1: one program's end (1 GiB on the device, 256 MB pinned), REPS times,
# three ways: "reset" (cudaDeviceReset, then exit: mode 4), "exit" (the
# runtime's teardown at exit, as the harness ends: mode 5), "kill" (SIGKILL
# from this script once it is ready: mode 6), each from its last line (or
# the kill) to its end as this script saw it; beside N idle contexts of other
# processes (mode 3) for each N of IDLE (default 0), L loops of nvcc
# compiling a lab's solution for each L of LOAD (default 0 14: a class's
# first minutes compile on 13 of 16 CPUs), and C loops of processes making
# and ending contexts (mode 2) for each C of CHURN (default 0 4); plain and,
# where HPCLAB_BWRAP names a bubblewrap and SANDBOX=1, in a sandbox made as
# hpclab's (sandbox.cpp). Which of the CUDA context's teardown, the machine's
# load, other contexts coming and going or the sandbox makes a class's timed
# programs end two to three times slower than one alone
# (docs/results/class-time-h200.txt, calls 13a-13c; call 14a: not the
# sandbox, 4 ms).
if [ "${ENDS:-0}" = 1 ]; then
  CTX_COST="$bin" IDLE="${IDLE:-0}" LOAD="${LOAD:-0 14}" CHURN="${CHURN:-0 4}" REPS="${REPS:-5}" python3 - <<'PY'
import glob, os, signal, statistics, subprocess, time
binary, reps = os.environ["CTX_COST"], int(os.environ["REPS"])
env = dict(os.environ, CUDA_DEVICE_MAX_CONNECTIONS="1")
bwrap = os.environ.get("HPCLAB_BWRAP", "") if os.environ.get("SANDBOX") == "1" else ""
sandbox = [bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--ro-bind", "/", "/",
           "--size", str(64 << 20), "--tmpfs", "/tmp", "--ro-bind", binary, binary, "--dev", "/dev", "--proc", "/proc"]
for node in sorted(glob.glob("/dev/nvidia*")):
    sandbox += ["--dev-bind-try", node, node]
wraps = [("plain", [])] + ([("bwrap", sandbox)] if bwrap else [])
compile_loop = "while :; do nvcc -c -o /tmp/ctx-load-$$.o solutions/aos_soa/aos_soa.cu -Icommon -Ilabs/aos_soa >/dev/null 2>&1; done"
churn_loop = f"while :; do {binary} 2; done"
med = lambda v: f"{statistics.median(v):6.1f}" if v else "     -"
now_ms = lambda: time.monotonic() * 1e3

def one_end(wrap, how):
    """From the program's last line (or the kill) to its end, ms; None if it failed."""
    mode = {"reset": "4", "exit": "5", "kill": "6"}[how]
    p = subprocess.Popen(wrap + [binary, mode], stdout=subprocess.PIPE, text=True, env=env, start_new_session=True)
    if how == "kill":
        if p.stdout.readline().strip() != "ready":
            p.wait()
            return None
        t0 = now_ms()
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        return now_ms() - t0
    out = p.stdout.read()
    p.wait()
    gone = now_ms()
    said = dict(line.rsplit(" ", 1) for line in out.splitlines() if " " in line)
    if p.returncode != 0 or "exiting at" not in said:
        return None
    return float(said.get("reset", 0)) + gone - float(said["exiting at"])

def loops(command, n):
    return [subprocess.Popen(["bash", "-c", command], start_new_session=True) for _ in range(n)]

for load in map(int, os.environ["LOAD"].split()):
    for churn in map(int, os.environ["CHURN"].split()):
        background = loops(compile_loop, load) + loops(churn_loop, churn)
        time.sleep(3 if background else 0)
        for n in map(int, os.environ["IDLE"].split()):
            holders = [subprocess.Popen([binary, "3"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                        env=env) for _ in range(n)]
            ready = sum(h.stdout.readline().strip() == "ready" for h in holders)
            for name, wrap in wraps:
                ends = {how: [e for e in (one_end(wrap, how) for _ in range(reps)) if e is not None]
                        for how in ("reset", "exit", "kill")}
                print(f"nvcc loops {load:2d}, context loops {churn}, idle contexts {n:2d} ({ready} ready), {name:5}: "
                      + ", ".join(f"{how} {med(v)} ms" for how, v in ends.items())
                      + f" (medians of {min(map(len, ends.values()))}+)", flush=True)
            for h in holders:
                h.stdin.close()
                h.wait()
        for b in background:
            os.killpg(b.pid, signal.SIGKILL)
            b.wait()
PY
  exit 0
fi
if [ "${CTX_GPUS:-1}" -ge 2 ]; then
  for mode in 1 2; do for n in 16 32 64; do
    run $n $mode CUDA_DEVICE_MAX_CONNECTIONS=1 CUDA_VISIBLE_DEVICES=0
    run_split $n $mode
  done; done
  exit 0
fi
for mode in 0 1 2; do for n in 1 8 32; do run $n $mode X=1; done; done
run 32 1 CUDA_MODULE_LOADING=EAGER
run 32 1 CUDA_DEVICE_MAX_CONNECTIONS=1
run 32 2 CUDA_VISIBLE_DEVICES=0
