#!/usr/bin/env python3
"""Where a grading's wall time goes, from its HPCLAB_TIMELINE file (one line per process, phase or
GPU turn: "<start s> <end s> <what>", util/timeline.h): per kind, the summed seconds, the wall
seconds some process of that kind ran (the union of their intervals), and how many; then the GPU's
idle seconds (no lab program, sanitizer run or alone turn) and the checks' phases summed.

  scripts/timeline-table.py <timeline.txt>     (scripts/gpu-suite.sh GRADE_TIMELINE=1 writes one)
"""
import collections
import re
import sys


def kind(what):
    if what.startswith(("nvcc", "cuobjdump")):
        return "compile (nvcc, cuobjdump)"
    if what.startswith("compute-sanitizer"):
        return "sanitizer runs"
    if "GPU turn alone: held" in what:
        return "GPU alone (the timed calls)"
    if re.match(r"\S+-(file|baseline|solution)\S*", what) or what.startswith("kernel-timer"):
        return "lab programs (correctness, timed)"
    return None


def covered(intervals):
    total, cur = 0.0, None
    for a, b in sorted(intervals):
        if cur is None or a > cur[1]:
            total += cur[1] - cur[0] if cur else 0.0
            cur = [a, b]
        else:
            cur[1] = max(cur[1], b)
    return total + (cur[1] - cur[0] if cur else 0.0)


def main(path):
    rows = []
    for line in open(path, encoding="utf-8", errors="replace"):
        parts = line.split(None, 2)
        try:
            rows.append((float(parts[0]), float(parts[1]), parts[2].strip()))
        except (ValueError, IndexError):
            continue
    if not rows:
        sys.exit(f"{path}: no timeline lines")
    span = max(b for _, b, _ in rows) - min(a for a, _, _ in rows)
    spans = collections.defaultdict(list)
    phases = collections.defaultdict(float)
    for a, b, what in rows:
        if (k := kind(what)):
            spans[k].append((a, b))
        if (m := re.match(r"check of \S+: (.*)", what)):
            phases[m.group(1)] += b - a
    print(f"span of the timeline: {span:.0f} s")
    print(f"{'kind':36} {'summed s':>9} {'wall s':>7} {'count':>6}")
    for k, iv in sorted(spans.items()):
        print(f"{k:36} {sum(b - a for a, b in iv):9.0f} {covered(iv):7.0f} {len(iv):6d}")
    on_gpu = covered([x for k, iv in spans.items() if not k.startswith("compile") for x in iv])
    print(f"GPU idle (no lab program, sanitizer run or alone turn): {span - on_gpu:.0f} s")
    print("the checks' phases, summed s: " + ", ".join(f"{k} {v:.0f}" for k, v in sorted(phases.items())))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
