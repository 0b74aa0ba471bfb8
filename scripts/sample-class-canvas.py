#!/usr/bin/env python3
"""The sample class (examples/class) as Canvas's "Download Submissions" hands it out, for grading
end to end on a GPU (scripts/gpu-suite.sh, part grade): student k (in name order) gets the Canvas user
id 101+k, cy is marked LATE, every file becomes <name>[_LATE]_<user id>_<file id>_<file> in one flat
ZIP. Writes <out>/canvas.zip and <out>/expected.csv (examples/class/expected.csv with each student
named by their Canvas id: the folder hpclab lays the download out into).

    scripts/sample-class-canvas.py <out folder>
"""
import csv
import pathlib
import sys
import zipfile

root = pathlib.Path(__file__).resolve().parent.parent / "examples" / "class"
out = pathlib.Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
students = sorted(p.name for p in (root / "submissions").iterdir() if p.is_dir())
id_of = {who: str(101 + k) for k, who in enumerate(students)}
file_id = 9000
with zipfile.ZipFile(out / "canvas.zip", "w", zipfile.ZIP_DEFLATED) as z:
    for who in students:
        for f in sorted(p for p in (root / "submissions" / who).rglob("*") if p.is_file()):
            file_id += 1
            late = "_LATE" if who == "cy" else ""
            z.write(f, f"{who}{late}_{id_of[who]}_{file_id}_{f.name}")
with open(root / "expected.csv", newline="") as src, open(out / "expected.csv", "w", newline="") as dst:
    rows = list(csv.reader(src))
    w = csv.writer(dst, lineterminator="\n")
    w.writerow(rows[0])
    for r in rows[1:]:
        w.writerow([id_of[r[0]]] + r[1:])
print(f"{out / 'canvas.zip'}: {file_id - 9000} files of {len(students)} students; ids {id_of}")
