"""Checks a Chrome trace JSON: loads it, prints the M events and slices, and
verifies that the X slices on each thread nest properly (what Perfetto
requires of slices on one track)."""
import json
import sys

trace = json.load(open(sys.argv[1]))
events = trace["traceEvents"]
for e in events:
    if e["ph"] == "M":
        print(e["name"], e["args"]["name"] if "name" in e["args"] else "")
slices = [e for e in events if e["ph"] == "X"]
for e in slices:
    print("slice", e["name"])
    assert e["ts"] >= 0 and e["dur"] >= 0, e
stack = []
for e in sorted(slices, key=lambda e: (e["tid"], e["ts"], -e["dur"])):
    end = e["ts"] + e["dur"]
    while stack and (stack[-1][0] != e["tid"] or stack[-1][1] <= e["ts"]):
        stack.pop()
    if stack and end > stack[-1][1] + 1e-9:
        sys.exit("overlap: %s ends after its parent" % e["name"])
    stack.append((e["tid"], end))
print("nested ok: %d slices" % len(slices))
