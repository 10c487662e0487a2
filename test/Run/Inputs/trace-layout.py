"""Checks the time layout of a tessera-run --trace_json trace.

usage: trace-layout.py TRACE.json CYCLES_PER_NS

Per chip: runs do not overlap and start no earlier than the host's run;
every step lies inside its run at its start_cycle and lasts its cycles
(cycles round to whole ns, ns to the trace's 1/1024 us grid: a start is
within 1.5 ns of its cycle, a duration, rounded at both ends, within 2); a run's steps add up
to its cycles; graph op and tile op slices lie inside their run. Prints one
line per chip, and every violation (then exits 1).
"""
import json
import sys
from collections import defaultdict

trace = json.load(open(sys.argv[1]))
cycles_per_ns = float(sys.argv[2])
threads, processes = {}, {}
for e in trace["traceEvents"]:
    if e["ph"] == "M" and e["name"] == "thread_name":
        threads[(e["pid"], e["tid"])] = e["args"]["name"]
    if e["ph"] == "M" and e["name"] == "process_name":
        processes[e["pid"]] = e["args"]["name"]

by_track = defaultdict(list)
for e in trace["traceEvents"]:
    if e["ph"] in ("X", "i"):
        e = dict(e, end=e["ts"] + e.get("dur", 0))
        by_track[(e["pid"], threads[(e["pid"], e["tid"])])].append(e)

errors = []
host_runs = sorted(by_track[(1, "runtime")], key=lambda e: e["ts"])
host_runs = [e for e in host_runs if e["cat"] == "run"]
for pid in sorted(p for p in processes
                  if processes[p].startswith(("chip", "replica"))):
    chip = processes[pid]
    runs = sorted(by_track[(pid, "Runs")], key=lambda e: e["ts"])
    steps = by_track[(pid, "Steps")]
    ops = by_track[(pid, "Graph ops")]
    tiles = [e for (p, name), evs in by_track.items()
             if p == pid and name.startswith("Tile ops") for e in evs]
    for i, run in enumerate(runs):
        if i and runs[i - 1]["end"] > run["ts"]:
            errors.append(f"{chip}: {run['name']} starts before the last ends")
        host = host_runs[i]
        if run["ts"] < host["ts"]:
            errors.append(f"{chip}: {run['name']} starts before the host's")

    def run_of(e):
        for run in runs:
            if run["ts"] <= e["ts"] and e["end"] <= run["end"]:
                return run
        errors.append(f"{chip}: {e['name']} at {e['ts']} is in no run")
        return None

    cycles = defaultdict(int)
    for s in steps:
        run = run_of(s)
        if not run:
            continue
        a = s["args"]
        cycles[run["name"]] += a["cycles"]
        at = (s["ts"] - run["ts"]) * 1000
        if abs(at - a["start_cycle"] / cycles_per_ns) > 1.5:
            errors.append(f"{chip}: {s['name']} at {at} ns, cycle "
                          f"{a['start_cycle']}")
        if abs((s["end"] - s["ts"]) * 1000 - a["cycles"] / cycles_per_ns) > 2:
            errors.append(f"{chip}: {s['name']} lasts {s['end'] - s['ts']} us,"
                          f" {a['cycles']} cycles")
    for run in runs:
        # A chip sees only the steps it took part in, plus every sync and
        # transfer: on one chip, all of them.
        if len(processes) == 2 and cycles[run["name"]] != run["args"]["cycles"]:
            errors.append(f"{chip}: {run['name']}'s steps add up to "
                          f"{cycles[run['name']]} cycles, not "
                          f"{run['args']['cycles']}")
    for e in ops + tiles:
        run_of(e)
    print(f"{chip}: {len(runs)} runs, {len(steps)} steps, {len(ops)} graph "
          f"ops, {len(tiles)} tile slices")
for e in errors:
    print("ERROR:", e)
sys.exit(1 if errors else 0)
