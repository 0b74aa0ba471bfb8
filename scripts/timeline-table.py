#!/usr/bin/env python3
"""Where a grading's wall time goes, from its HPCLAB_TIMELINE file (one line per process, phase or
GPU turn: "<start s> <end s> <what>", util/timeline.h): per kind, the summed seconds, the wall
seconds some process of that kind ran (the union of their intervals), and how many; then the GPU's
idle seconds (no lab program, sanitizer run or alone turn) and the checks' phases summed; then the
GPU's wall split three ways (an alone turn held; alone turns waiting for the shared turns to drain;
neither) and, per lab, its timed programs: their calls (first go to last done) and their ends; then
the alone turns' tails (their last timed call done to the turn's end), and how much of that came while
no other alone turn waited (what a tail open to shared runs could give them); then what the drains
waited for: each stretch in which an alone turn waited and none was held, by the run whose end ended it.

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


def merged(intervals):
    """The intervals merged where they overlap, in order."""
    out = []
    for a, b in sorted(intervals):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


def median(values):
    """The middle value (the upper of the two middle ones of an even count)."""
    return sorted(values)[len(values) // 2]


def covered(intervals):
    return sum(b - a for a, b in merged(intervals))


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
    gpu_states(rows, span)
    timed_programs(rows)
    turn_tails(rows)
    started_in_turns(rows)
    drains(rows)


def gpu_states(rows, span):
    """The wall split: an alone turn held; some alone turn waiting (the shared turns drain); neither."""
    held = covered([(a, b) for a, b, w in rows if "GPU turn alone: held" in w])
    either = covered([(a, b) for a, b, w in rows if "GPU turn alone: " in w])
    print(f"the GPU's wall: an alone turn held {held:.0f} s, alone turns waiting for the shared turns to "
          f"drain {either - held:.0f} s, neither {span - either:.0f} s")


def timed_programs(rows):
    """Per lab, the timed programs (lines task_runner writes once a program's timed calls are over)."""
    calls, ends = collections.defaultdict(list), collections.defaultdict(list)
    for a, b, what in rows:
        if (m := re.match(r"\d+ timed calls \(([\d.]+) s between them\) of (\w+)/", what)):
            calls[m.group(2)].append((b - a, float(m.group(1))))
        elif (m := re.match(r"the end after its timed calls of (\w+)/", what)):
            ends[m.group(1)].append(b - a)
    if not calls:
        return
    print(f"{'timed programs':14} {'count':>6} {'calls s':>8} {'between':>8} {'ends s':>7} {'end each':>9}")
    for lab in sorted(calls):
        c, e = calls[lab], ends[lab] or [0.0]
        print(f"{lab:14} {len(c):6d} {sum(x for x, _ in c):8.1f} {sum(y for _, y in c):8.1f} {sum(e):7.1f} "
              f"{sum(e) / len(e):9.3f}")
    print(f"{'all':14} {sum(map(len, calls.values())):6d} {sum(x for v in calls.values() for x, _ in v):8.1f} "
          f"{sum(y for v in calls.values() for _, y in v):8.1f} {sum(sum(v) for v in ends.values()):7.1f}")
    # The ends while the files compiled and after: a class compiles its files beside the first checks
    # (the last "nvcc -c": a wave's health check may build its canary later).
    compiled = max((b for a, b, w in rows if w.startswith("nvcc -c")), default=0.0)
    every_end = [(b, b - a) for a, b, w in rows if w.startswith("the end after its timed calls")]
    during = [d for b, d in every_end if b <= compiled]
    after = [d for b, d in every_end if b > compiled]
    if during and after:
        print(f"the ends while the files compiled (to {compiled:.0f} s): {sum(during) / len(during):.3f} s each over "
              f"{len(during)}; after: {sum(after) / len(after):.3f} s each over {len(after)}")


def turn_tails(rows):
    """Each held alone turn from its last timed call done to its end: its programs ending."""
    held = sorted((a, b) for a, b, w in rows if "GPU turn alone: held" in w)
    waiting = [(a, b) for a, b, w in rows if "GPU turn alone: waiting" in w]
    calls = sorted((a, b, m.group(1)) for a, b, w in rows if (m := re.match(r"\d+ timed calls .* of (\w+)/", w)))
    tails, unwaited, by_lab = [], [], collections.defaultdict(list)
    for a, b in held:
        done = [(y, lab) for x, y, lab in calls if a <= x <= b]
        if not done or max(done)[0] > b:
            continue
        last, lab = max(done)
        tails.append(b - last)
        by_lab[lab].append(b - last)  # the lab of the turn's last timed program
        if not any(x <= last < y for x, y in waiting):
            unwaited.append(b - last)
    if tails:
        print(f"the alone turns' tails (last call done to the turn's end): {sum(tails):.1f} s over {len(tails)} "
              f"turns; {sum(unwaited):.1f} s over {len(unwaited)} of them while no other alone turn waited")
        medians = ", ".join(f"{lab} {median(v):.3f}" for lab, v in sorted(by_lab.items()))
        print(f"  by the lab of the turn's last timed program, the median tail in s: {medians}")


def started_in_turns(rows):
    """The lab programs that started inside an alone turn: their time in it before their first timed call."""
    turns = [(a, b) for a, b, w in rows if "GPU turn alone: held" in w]
    gos = sorted(a for a, _, w in rows if re.match(r"\d+ timed calls", w))
    if not gos:  # a timeline from before the timed calls were noted
        return
    count, seconds = 0, 0.0
    for a, b, what in rows:
        if kind(what) != "lab programs (correctness, timed)" or what.startswith(("kernel-timer", "program-")):
            continue
        inside = [(x, y) for x, y in turns if x <= a < y]
        if inside:
            first_go = next((g for g in gos if a <= g <= b), b)
            count, seconds = count + 1, seconds + min(first_go, inside[0][1]) - a
    print(f"lab programs started inside an alone turn: {count}, {seconds:.1f} s of the turns before their first call")


def intervals_minus(spans, cuts):
    """The parts of the (merged) spans that no cut covers."""
    out = []
    for a, b in spans:
        cur = a
        for c, d in cuts:
            if d <= cur or c >= b:
                continue
            if c > cur:
                out.append((cur, c))
            cur = max(cur, d)
        if cur < b:
            out.append((cur, b))
    return out


def drain_holder(what):
    if what.startswith("compute-sanitizer racecheck"):
        return "a racecheck run"
    if what.startswith("compute-sanitizer memcheck"):
        return "a memcheck run"
    if what.startswith("compute-sanitizer"):
        return "another sanitizer run"
    if kind(what) == "lab programs (correctness, timed)":
        return "a lab program (correctness or timed)"
    return None


def drains(rows):
    """Each stretch in which an alone turn waited and none was held, by the run whose end ended it (none:
    a timed program getting ready, whose preparing turn ends at its gate, not at its end)."""
    held = merged([(a, b) for a, b, w in rows if "GPU turn alone: held" in w])
    waiting = merged([(a, b) for a, b, w in rows if "GPU turn alone: waiting" in w])
    stretches = [(a, b) for a, b in intervals_minus(waiting, held) if b - a > 0.005]
    runs = [(a, b, h) for a, b, w in rows if (h := drain_holder(w))]
    seconds, count, lengths = collections.defaultdict(float), collections.Counter(), collections.defaultdict(list)
    for a, b in stretches:
        ending = [r for r in runs if r[0] < b and b - 0.03 <= r[1] <= b + 0.05]
        holder = max(ending, key=lambda r: r[1]) if ending else None
        name = holder[2] if holder else "no run's end (a timed program getting ready)"
        seconds[name] += b - a
        count[name] += 1
        if holder:
            lengths[name].append(holder[1] - holder[0])
    if not stretches:
        return
    each = sorted(b - a for a, b in stretches)
    print(f"what the drains waited for ({len(stretches)} stretches, {sum(each):.1f} s, each {median(each):.2f} s "
          f"in the median, up to {each[-1]:.2f} s; the run whose end ended each):")
    for name, s in sorted(seconds.items(), key=lambda kv: -kv[1]):
        n = lengths[name]
        runs_said = f", those runs {median(n):.2f} s in the median, up to {max(n):.2f} s" if n else ""
        print(f"  {name}: {s:.1f} s over {count[name]} drains{runs_said}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
