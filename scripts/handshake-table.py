#!/usr/bin/env python3
"""The harness's own cost of a timed call, from hpclab's grade records.

Usage: scripts/handshake-table.py <GPU name> <commit> <record.json or folder>...

Every record's timed tasks carry "harness_ms" (the quickest of the baseline
program's empty calls, on hpclab's clock: the cost taken out of both
programs' times) and "empty_calls_ms" (all of them). Prints the table that
docs/results/handshake-<gpu>.txt keeps and docs/how-hpclab-checks.md shows:
one row per lab and timing size.
"""
import collections
import glob
import json
import os
import statistics
import sys


def records(paths):
    for p in paths:
        files = sorted(glob.glob(os.path.join(p, "**", "*.json"), recursive=True)) if os.path.isdir(p) else [p]
        for f in files:
            try:
                r = json.load(open(f))
            except (OSError, ValueError):
                continue
            if isinstance(r, dict) and "tasks" in r and "lab" in r:
                yield r


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    gpu, commit = sys.argv[1], sys.argv[2]
    rows = collections.defaultdict(lambda: {"cost": [], "empty": []})
    for r in records(sys.argv[3:]):
        for t in r["tasks"]:
            tm = t.get("timing") or {}
            if tm.get("harness_ms", 0) <= 0:
                continue
            size = " ".join(f"{k}={v}" for k, v in sorted(tm["size"].items()))
            rows[(r["lab"], size)]["cost"].append(tm["harness_ms"])
            rows[(r["lab"], size)]["empty"].extend(tm.get("empty_calls_ms", []))
    print("# The harness's own cost of a timed call on hpclab's clock: the baseline program's empty calls")
    print("# (go, the inputs made from the seed, a device sync, the commitment, done), from the grade")
    print(f"# records of scripts/gpu-suite.sh (parts course and calibrate) on an {gpu}, at commit {commit};")
    print("# made by scripts/handshake-table.py. Per lab and timing size: the checks, the cost taken out")
    print("# (the quickest empty call of each check: least .. greatest over the checks, and their median),")
    print("# and every empty call of those checks (least .. greatest): the spread of one handshake.")
    print("| lab | size | checks | cost taken out per call (ms) | median (ms) | every empty call (ms) |")
    print("|---|---|---|---|---|---|")
    for (lab, size), v in sorted(rows.items()):
        c, e = v["cost"], v["empty"] or v["cost"]
        print(f"| {lab} | {size} | {len(c)} | {min(c):.3f} .. {max(c):.3f} | {statistics.median(c):.3f} "
              f"| {min(e):.3f} .. {max(e):.3f} |")


if __name__ == "__main__":
    main()
