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
# The timed programs alone (one exchange, five calls or more): their ends
# are the ones inside the turn that has the GPU alone.
import glob, re, statistics, sys
logs, labs = sys.argv[1], sys.argv[2:]
ended = re.compile(r"hpclab profile: the program of (\S+) (\S+) ended at (\d+)")
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
                steps = [b for b in block if "exchange" in b]
                calls = re.search(r"start \d+ ms, (\d+) calls", block[0]) if block else None
                if len(steps) != 1 or not calls or int(calls.group(1)) < 5: continue
                done = max(float(x) for b in block for x in re.findall(r"done at (\d+)", b))
                r = rows.setdefault(f"{m.group(1)} {m.group(2)}", {})
                r.setdefault(mode, []).append(float(m.group(3)) - done)
                r.setdefault("back", []).append(float(re.search(r" back (\d+)", steps[0]).group(1)))
                for x in re.findall(r"teardown (\d+) ms", " ".join(block)): r.setdefault("reset", []).append(float(x))
def med(v): return f"{statistics.median(v):5.0f} ({len(v)})" if v else "    -    "
print("timed program          median ms (programs) from its last 'done at' to hpclab's 'ended at', by mode;"
      " teardown: cudaDeviceReset's own ms, then the rest; the outputs' copy back before 'done at'")
for what, r in sorted(rows.items()):
    print(f"{what:34s} orderly {med(r.get('1', []))}  _Exit {med(r.get('_exit', []))}  "
          f"teardown: reset {med(r.get('reset', []))} then {med(r.get('teardown', []))}  copy back {med(r.get('back', []))}")
PY
