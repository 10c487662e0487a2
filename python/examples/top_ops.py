#!/usr/bin/env python3
"""The top ops of every profiled run in an event file, from Python.

    PYTHONPATH=build/python python3 python/examples/top_ops.py EVENTS [N]

The example of docs/profiling.md ("Python"), run by
test/Trace/python-api.test.
"""
import sys

import tessera_profile as tp


def main():
    events = tp.read_events(sys.argv[1])
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    if events.damage:
        print("warning: " + events.damage, file=sys.stderr)
    for compile_report in tp.extract_compile_reports(events):
        print("compiled %s" % compile_report.module)
    for r in tp.extract_execute_reports(events):
        if r.data is None:
            print("%s run %d: report dropped" % (r.module, r.run + 1))
            continue
        total = r.data["total"]["cycles"]
        print("%s run %d: %d cycles" % (r.module, r.run + 1, total))
        for op in r.data["ops"][:top]:
            print("  %-24s %-16s %8d  %5.1f%%" % (
                op["hlo"], op["category"], op["cycles"],
                100.0 * op["cycles"] / max(total, 1)))


if __name__ == "__main__":
    main()
