#!/usr/bin/env python3
"""Where a test run's time goes, from the timelines of every hpclab it started (HPCLAB_TIMELINE=<folder>/:
one file per process, its first line "# started <wall s> argv <command line>", then "<start s> <end s> <what>"
in seconds since that process started; util/timeline.h). Prints: the processes' summed phases, the children
they started by kind (summed seconds, count, and the wall seconds in which at least one ran, on one clock),
the GPU's alone turns, and the longest hpclab processes with where their time went.

  HPCLAB_TIMELINE=$PWD/tl/ ctest --preset default; scripts/test-timelines.py tl/ [how many longest, 25]
  scripts/test-timelines.py tl/ --merge > one.txt    (every line on one clock: scripts/timeline-table.py one.txt
                                                      tells what the GPU's drains waited for in the whole run)
"""
import collections
import importlib.util
import os
import re
import sys

# timeline-table.py's interval union (its name has a dash: loaded by path).
_spec = importlib.util.spec_from_file_location("timeline_table", os.path.join(os.path.dirname(__file__), "timeline-table.py"))
timeline_table = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(timeline_table)


def child_kind(what):
    """The kind of a child process or a turn by its timeline label, or None for a check's phase."""
    if what.startswith("nvcc"):
        return "nvcc"
    if what.startswith("cuobjdump"):
        return "cuobjdump"
    if what.startswith("compute-sanitizer"):
        return " ".join(what.split()[:2])  # its label names the tool: "compute-sanitizer racecheck ..."
    if what.startswith("ncu"):
        return "ncu"
    if what.startswith("GPU turn alone: held"):
        return "GPU turn alone held"
    if what.startswith("GPU turn alone: waiting"):
        return "GPU turn alone waiting"
    if what.startswith("GPU turn shared: waiting"):
        return "GPU turn shared waiting"
    if re.match(r"\S+-(file|baseline|solution|skeleton|given)\S*", what) or what.startswith("kernel-timer"):
        return "lab programs"
    return None


# The states of an hpclab process that hold a test's job slot and no CPU or GPU of its own.
SLOT_STATES = [
    ("waiting for a shared GPU turn", lambda w: w.startswith("GPU turn shared: waiting")),
    ("waiting for an alone GPU turn", lambda w: w.startswith("GPU turn alone: waiting")),
    ("holding an alone GPU turn", lambda w: w.startswith("GPU turn alone: held")),
]


def phase(what):
    """A check's phase ("check of <file>: build" and the like), by the words after its colon."""
    m = re.match(r"check of .*?: (.*)$", what)
    if not m:
        return None
    words = m.group(1)
    return "check: " + re.sub(r"\d+", "N", words)[:60]


def read(path):
    """The processes of one file: (wall start, command line, spans); several where a pid came back."""
    processes = []
    with open(path, errors="replace") as f:
        for line in f:
            m = re.match(r"# started ([0-9.]+) argv (.*)$", line.rstrip("\n"))
            if m:
                processes.append((float(m.group(1)), m.group(2).strip(), []))
                continue
            parts = line.split(None, 2)
            if processes and len(parts) == 3:
                try:
                    processes[-1][2].append((float(parts[0]), float(parts[1]), parts[2].rstrip("\n")))
                except ValueError:
                    pass
    return processes


def short_argv(argv):
    words = argv.split()
    if len(words) > 1:
        words[0] = os.path.basename(words[0])
    text = " ".join(w if "/" not in w else os.path.basename(w) for w in words)
    return text[:110]


def main():
    folder = sys.argv[1]
    longest = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2].isdigit() else 25
    processes = [p for n in sorted(os.listdir(folder)) for p in read(os.path.join(folder, n))]
    if not processes:
        sys.exit(f"{folder}: no timeline files")
    t0 = min(p[0] for p in processes)
    if "--merge" in sys.argv[2:]:
        lines = sorted((started - t0 + a, started - t0 + b, w) for started, _, spans in processes for a, b, w in spans)
        sys.stdout.writelines(f"{a:9.3f} {b:9.3f} {w}\n" for a, b, w in lines)
        return
    kinds = collections.defaultdict(lambda: [0.0, 0, []])
    phases = collections.defaultdict(lambda: [0.0, 0])
    rows = []
    slots = collections.Counter()
    for started, argv, spans in processes:
        whole = max((b for a, b, w in spans if w.startswith("hpclab: the process")), default=None)
        if whole is None:
            whole = max((b for a, b, w in spans), default=0.0)
        own = collections.Counter()
        for a, b, what in spans:
            k = child_kind(what)
            if k:
                kinds[k][0] += b - a
                kinds[k][1] += 1
                kinds[k][2].append((started - t0 + a, started - t0 + b))
                own[k] += b - a
            p = phase(what)
            if p:
                phases[p][0] += b - a
                phases[p][1] += 1
        rows.append((whole, short_argv(argv), own))
        if "hpclab" in os.path.basename(argv.split()[0]) and "tests" not in os.path.basename(argv.split()[0]):
            for state, test in SLOT_STATES:
                slots[state] += timeline_table.covered([(a, b) for a, b, w in spans if test(w)])
            slots["profile minus ncu: waiting for the counters"] += (
                timeline_table.covered([(a, b) for a, b, w in spans if w.endswith(": profile")]) -
                timeline_table.covered([(a, b) for a, b, w in spans if w.startswith("ncu")]))
            slots["the whole of each hpclab process"] += whole
    end = max(p[0] - t0 + max((b for a, b, w in p[2]), default=0) for p in processes)
    print(f"== {len(processes)} hpclab processes over {end:.1f} s of wall; their own wall summed "
          f"{sum(r[0] for r in rows):.1f} s")
    print("== children and turns by kind: summed s, count, wall s with at least one")
    for k, (s, n, iv) in sorted(kinds.items(), key=lambda kv: -kv[1][0]):
        print(f"{k:28s} {s:8.1f} {n:6d} {timeline_table.covered(iv):8.1f}")
    print("== where the hpclab processes' seconds went (each state's union in each process, summed)")
    for state, seconds in slots.most_common():
        print(f"{state:60s} {seconds:8.1f}")
    print("== checks' phases: summed s, count")
    for p, (s, n) in sorted(phases.items(), key=lambda kv: -kv[1][0])[:20]:
        print(f"{p:60s} {s:8.1f} {n:6d}")
    print(f"== the {longest} longest hpclab processes: wall s, command; its children's summed s by kind")
    for whole, argv, own in sorted(rows, key=lambda r: -r[0])[:longest]:
        top = ", ".join(f"{k} {s:.1f}" for k, s in own.most_common(4))
        print(f"{whole:7.1f} {argv}\n        {top}")


if __name__ == "__main__":
    main()
