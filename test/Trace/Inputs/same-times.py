"""Prints, for the slices of one name in a merged trace, each one's process,
and whether they start within TOLERANCE us of each other.

usage: same-times.py MERGED.json NAME TOLERANCE_US
"""
import json
import sys

trace = json.load(open(sys.argv[1]))
name, tolerance = sys.argv[2], float(sys.argv[3])
processes = {e["pid"]: e["args"]["name"] for e in trace["traceEvents"]
             if e["ph"] == "M" and e["name"] == "process_name"}
starts = sorted((processes[e["pid"]], e["ts"]) for e in trace["traceEvents"]
                if e["ph"] == "X" and e["name"] == name)
for process, ts in starts:
    print("%s: %s" % (process, name))
spread = max(ts for _, ts in starts) - min(ts for _, ts in starts)
print("%d slices, %s" % (len(starts), "aligned" if spread <= tolerance
                         else "NOT aligned: %.3f us apart" % spread))
