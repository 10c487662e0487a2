#!/usr/bin/env python3
"""Lists a Tessera event file with the Python reading API (tessera_profile,
over the generated tessera_events_pb2 module).

The example of docs/events.md, kept runnable (test/Trace/python-reader.test
runs it). Usage:

    PYTHONPATH=<build>/python python3 read_events.py EVENTS
"""
import sys

import tessera_profile as tp
from tessera_profile import pb


def main():
    events = tp.read_events(sys.argv[1])
    damage = events.damage
    for i, event in enumerate(events):
        kind = pb.TraceEvent.Type.Name(event.type)
        line = "%d %s %s %d" % (i, kind, event.module_name, event.timestamp_ns)
        if event.HasField("compile_end"):
            report = event.compile_end.compilation_report
            line += " report=%dB passes=%s" % (
                len(report.data),
                ",".join(p.name for p in event.compile_end.pass_timeline))
        print(line)
    if damage:
        print("warning: " + damage, file=sys.stderr)


if __name__ == "__main__":
    main()
