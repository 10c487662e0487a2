#!/usr/bin/env python3
"""Reads a Tessera event file with the generated tessera_events_pb2 module.

The example of docs/events.md, kept runnable (test/Trace/python-reader.test
runs it). Usage:

    PYTHONPATH=<build>/python python3 read_events.py EVENTS
"""
import sys

import tessera_events_pb2 as pb

MAGIC = b"TESSEVT"
VERSION = 1


def read_events(path):
    """Returns (events, damage): the complete records, and None or a string
    saying where a truncated/corrupt tail starts."""
    data = open(path, "rb").read()
    if data[:7] != MAGIC[: len(data)]:
        raise ValueError("%s: not a Tessera event file" % path)
    if len(data) < 8:
        return [], "header cut off at byte offset 0"
    if data[7] != VERSION:
        raise ValueError("%s: unsupported version %d" % (path, data[7]))
    events, pos = [], 8
    while pos < len(data):
        start, length, shift = pos, 0, 0
        while True:  # base-128 varint, at most 5 bytes
            if pos >= len(data) or shift > 28:
                return events, "bad length prefix at byte offset %d" % start
            byte = data[pos]
            pos += 1
            length |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
        if pos + length > len(data):
            return events, "record cut off at byte offset %d" % start
        event = pb.TraceEvent()
        try:
            event.ParseFromString(data[pos:pos + length])
        except Exception:  # google.protobuf.message.DecodeError
            return events, "invalid record at byte offset %d" % start
        events.append(event)
        pos += length
    return events, None


def main():
    events, damage = read_events(sys.argv[1])
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
