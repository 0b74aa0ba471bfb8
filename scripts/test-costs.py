#!/usr/bin/env python3
"""tests/test-costs.txt from ctest logs: each test's seconds, the mean over the logs that ran it, the
longest first, for the tests that took a second or more. tests/test_costs.cmake gives each its COST, so
that ctest starts the longest first when it has no timings of its own yet (a fresh clone: the README's
test command). A test's seconds depend on what ran beside it, so several runs say more than one. Run it
on logs of the README's test command on the GPU machine (ctest prints "Test #N: name ... sec"):

  scripts/test-costs.py "<where and when they ran>" <ctest log>... > tests/test-costs.txt
"""
import re
import statistics
import sys

LINE = re.compile(r"Test +#\d+: (.+?) \.{2,}.*?\s([0-9.]+) sec")


def seconds_in(path):
    seconds = {}
    with open(path, encoding="utf-8", errors="replace") as log:
        for line in log:
            m = LINE.search(line)
            if m:
                seconds[m.group(1)] = float(m.group(2))
    if not seconds:
        sys.exit(f"{path}: no test times in it (is it a ctest log?)")
    return seconds


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    runs = [seconds_in(path) for path in sys.argv[2:]]
    names = set().union(*runs)
    mean = {n: statistics.mean(r[n] for r in runs if n in r) for n in names}
    print(f"# Each test's seconds, the mean of {len(runs)} run(s) of the README's test command: {sys.argv[1]}.")
    print("# Written by scripts/test-costs.py; read by tests/test_costs.cmake (each test's COST).")
    for name, s in sorted(mean.items(), key=lambda kv: (-kv[1], kv[0])):
        if s >= 1.0:
            print(f"{s:.1f}\t{name}")


if __name__ == "__main__":
    main()
