"""Compares two memory reports (tessera-prof EVENTS extract memory-report)
field by field, but for the placement sentence, which says how each
compile chose its chips. Both compact or both complete.

usage: same_offsets.py A.json B.json
"""
import json
import sys

a, b = (json.load(open(p)) for p in sys.argv[1:3])
for r in (a, b):
    r["pod"].pop("placement", None)
diff = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
if diff:
    print("the reports differ in", ", ".join(diff))
    sys.exit(1)
buffers = a["buffers"]
if isinstance(buffers, dict):
    # The compact form's column table (docs/memory.md): its first column's
    # values, plain or as [value, count] runs.
    column = buffers["values"][0]
    buffers = ([v for v, n in column["runs"] for _ in range(n)]
               if isinstance(column, dict) else column)
print(f"{len(buffers)} buffers, the same report")
