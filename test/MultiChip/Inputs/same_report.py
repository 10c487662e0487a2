"""Compares two memory reports (tessera-prof EVENTS extract memory-report)
field by field, but for the placement sentence, which says how each
compile chose its chips.

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
print(f"{len(a['buffers'])} buffers, the same report")
