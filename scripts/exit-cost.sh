#!/usr/bin/env bash
# What a lab program's end costs, from the moment it has written everything
# back to the moment hpclab sees it gone. A timed program's end falls in the
# turn that has the GPU alone, so its milliseconds hold up every other
# check's timing. Each check of a solution runs with HPCLAB_PROFILE set to a
# mode (harness_main.cpp, end_program), and every program's "done at" is set
# against hpclab's "ended at", on the same clock:
#   1         as hpclab runs: the orderly exit (atexit functions, destructors,
#             the runtime's teardown of the CUDA context)
#   _exit     std::_Exit: none of them, the driver frees what is left
#   teardown  the orderly exit, with the runtime's teardown (cudaDeviceReset) timed alone
#
#   HPCLAB=build/default/grader/hpclab REPS=3 LABS="streams aos_soa" scripts/exit-cost.sh
set -u -o pipefail
cd "$(dirname "$0")/.."
HPCLAB=${HPCLAB:-build/default/grader/hpclab}
REPS=${REPS:-3}
LABS=${LABS:-streams aos_soa matmul vecadd3 reduction}
LOGS=${LOGS:-$(mktemp -d)}
mkdir -p "$LOGS"
for lab in $LABS; do
  for mode in 1 _exit teardown; do
    for r in $(seq "$REPS"); do
      HPCLAB_PROFILE=$mode "$HPCLAB" check "$lab" --solution > "$LOGS/exit-$lab-$mode-$r.txt" 2>&1
    done
  done
done
python3 - "$LOGS" $LABS <<'PY'
import glob, re, statistics, sys
logs, labs = sys.argv[1], sys.argv[2:]
ended = re.compile(r"hpclab profile: the program of (\S+) (.*) ended at (\d+)")
print("lab/task size, calls: median ms from the program's last 'done at' to hpclab's 'ended at' (n programs),"
      " by mode; with teardown: cudaDeviceReset's own ms, then the rest")
rows = {}
for lab in labs:
    for mode in ("1", "_exit", "teardown"):
        for path in sorted(glob.glob(f"{logs}/exit-{lab}-{mode}-*.txt")):
            lines = open(path, errors="replace").read().splitlines()
            for i, line in enumerate(lines):
                m = ended.search(line)
                if not m: continue
                block = []
                for nxt in lines[i + 1:]:
                    if not nxt.startswith("  hpclab profile: program"): break
                    block.append(nxt)
                done = [float(x) for b in block for x in re.findall(r"done at (\d+)", b)]
                calls = re.findall(r"(\d+) calls", " ".join(block))
                reset = [float(x) for b in block for x in re.findall(r"teardown (\d+) ms", b)]
                if not done: continue
                key = (f"{m.group(1)} {m.group(2)}", "+".join(calls))
                r = rows.setdefault(key, {})
                r.setdefault(mode, []).append(float(m.group(3)) - max(done))
                if reset: r.setdefault("reset", []).append(reset[0])
def med(v): return f"{statistics.median(v):6.0f} ({len(v)})" if v else "     -    "
for (what, calls), r in sorted(rows.items()):
    print(f"{what:40s} {calls:>8s}: orderly {med(r.get('1', []))}  _Exit {med(r.get('_exit', []))}  "
          f"teardown: reset {med(r.get('reset', []))} then {med(r.get('teardown', []))}")
PY
