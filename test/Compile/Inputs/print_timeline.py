"""Prints the compile events of an event file with their pass timelines."""
import sys

import tessera_profile as tp

events = tp.read_events(sys.argv[1])
assert events.damage is None, events.damage
for e in events:
    if e.HasField("compile_begin"):
        print("COMPILE_BEGIN", e.module_name,
              "module_id=%d" % e.compile_begin.module_id,
              "target=%s" % e.compile_begin.target)
    if e.HasField("compile_end"):
        end = e.compile_end
        reports = sum(end.HasField(f) for f in (
            "compilation_report", "tensor_map", "instruction_info",
            "compatibility_report"))
        print("COMPILE_END", e.module_name, "module_id=%d" % end.module_id,
              "duration_positive=%s" % (end.duration_ns > 0),
              "reports=%d" % reports)
        for p in end.pass_timeline:
            print("pass", p.name,
                  "start_ok=%s" % (0 <= p.start_ns <= end.duration_ns),
                  "duration_ok=%s" % (0 < p.duration_ns <= end.duration_ns),
                  "ops_before=%d" % p.ops_before, "ops_after=%d" % p.ops_after)
