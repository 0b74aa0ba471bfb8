#!/usr/bin/env python3
"""tests/test-costs.txt from a ctest log: each test's seconds in that run, the longest first, for the
tests that took a second or more. tests/test_costs.cmake gives each its COST, so that ctest starts the
longest first when it has no timings of its own yet (a fresh clone: the README's test command). Run
it on the log of the README's test command on the GPU machine (ctest prints "Test #N: name ... sec"):

  scripts/test-costs.py <ctest log> "<where and when it ran>" > tests/test-costs.txt
"""
import re
import sys

LINE = re.compile(r"Test +#\d+: (.+?) \.{2,}.*?\s([0-9.]+) sec")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    seconds = {}
    with open(sys.argv[1], encoding="utf-8", errors="replace") as log:
        for line in log:
            m = LINE.search(line)
            if m and float(m.group(2)) >= 1.0:
                seconds[m.group(1)] = float(m.group(2))
    if not seconds:
        sys.exit(f"{sys.argv[1]}: no test took a second or more (is it a ctest log?)")
    print(f"# Each test's seconds in one run of the README's test command: {sys.argv[2]}.")
    print("# Written by scripts/test-costs.py; read by tests/test_costs.cmake (each test's COST).")
    for name, s in sorted(seconds.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"{s:.1f}\t{name}")


if __name__ == "__main__":
    main()
