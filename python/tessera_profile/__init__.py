"""Reading Tessera's event files from Python (docs/profiling.md, "Python").

In the spirit of the IPU's ``ipu.utils.extract_*`` helpers::

    import tessera_profile as tp

    events = tp.read_events("model.tessera.events")
    for r in tp.extract_execute_reports(events):
        print(r.module, r.run, r.data["total"]["cycles"])

Needs Debian's python3-protobuf (the generated ``tessera_events_pb2`` sits
beside this package in the build's ``python`` folder) and, for CBOR
reports, python3-cbor2.
"""

import collections
import json
import os

import tessera_events_pb2 as pb

__all__ = [
    "EventFile", "Report", "read_events", "decode_report", "report_roots",
    "extract_compile_reports", "extract_execute_reports",
    "extract_tensor_map", "extract_memory_reports", "tensor_tiles",
    "tile_runs", "convert_tensor_map", "expand_memory_report", "pb",
]

MAGIC = b"TESSEVT"
VERSION = 1

Report = collections.namedtuple("Report", "module event run data")
Report.__doc__ = """One extracted report: its module, the index of its event,
the 0-based run (execute reports; None otherwise) and the decoded data
(a dict for JSON and CBOR, a str for text)."""


class EventFile(list):
    """The complete records of an event file, as ``pb.TraceEvent``s.

    ``damage`` is None, or says where a cut-off or corrupt tail starts (the
    records before it are all here); ``folder`` resolves reports written to
    a report directory."""

    def __init__(self, events, path, damage):
        super().__init__(events)
        self.path = path
        self.folder = os.path.dirname(os.path.abspath(path))
        self.damage = damage


def read_events(path):
    """Reads an event file (docs/events.md: an 8-byte header, then one
    varint-length-prefixed TraceEvent per record). Raises ValueError when
    the file is not an event file at all."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:len(MAGIC)] != MAGIC[:min(len(data), len(MAGIC))]:
        raise ValueError("%s: not a Tessera event file" % path)
    if len(data) < len(MAGIC) + 1:
        return EventFile([], path, "header cut off at byte offset 0")
    if data[len(MAGIC)] != VERSION:
        raise ValueError("%s: unsupported event file version %d"
                         % (path, data[len(MAGIC)]))
    events, pos = [], len(MAGIC) + 1
    while pos < len(data):
        start, length, shift = pos, 0, 0
        while True:  # base-128 varint, at most 5 bytes
            if pos >= len(data) or shift > 28:
                return EventFile(events, path,
                                 "bad length prefix at byte offset %d" % start)
            byte = data[pos]
            pos += 1
            length |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
        if pos + length > len(data):
            return EventFile(events, path,
                             "record cut off at byte offset %d" % start)
        event = pb.TraceEvent()
        try:
            event.ParseFromString(data[pos:pos + length])
        except Exception:  # google.protobuf.message.DecodeError
            return EventFile(events, path,
                             "invalid record at byte offset %d" % start)
        events.append(event)
        pos += length
    return EventFile(events, path, None)


#: Folders besides an event file's own whose report files may be read
#: (``tessera-prof --report-root=DIR``); append to trust one.
report_roots = []


def _inside(path, folder):
    root = os.path.realpath(folder)
    return os.path.commonpath([path, root]) == root and path != root


def decode_report(report, folder="."):
    """The data of a ``pb.Report``: read from its path (relative to
    ``folder``) or its bytes, decoded by its format. Returns None for a
    report dropped for its size. Event files are data: a path that leads
    (after "..", absolute paths and symbolic links) outside ``folder`` and
    every folder in ``report_roots`` raises PermissionError."""
    if report.dropped:
        return None
    if report.WhichOneof("content") == "path":
        path = report.path
        if not os.path.isabs(path):
            path = os.path.join(folder, path)
        resolved = os.path.realpath(path)
        if not any(_inside(resolved, f) for f in [folder] + report_roots):
            raise PermissionError(
                "the event file names the report %r, outside its folder "
                "%r: reports are read only from there (add the folder to "
                "tessera_profile.report_roots to trust it)"
                % (report.path, folder))
        with open(path, "rb") as f:
            raw = f.read()
    else:
        raw = report.data
    if report.format == pb.REPORT_FORMAT_CBOR:
        try:
            import cbor2
        except ImportError as e:
            raise ImportError("CBOR reports need cbor2 (Debian's "
                              "python3-cbor2)") from e
        return cbor2.loads(raw)
    if report.format == pb.REPORT_FORMAT_TEXT:
        return raw.decode("utf-8", errors="replace")
    return json.loads(raw)


def _folder(events):
    return getattr(events, "folder", ".")


def _compile_field(events, field, module):
    out = []
    for i, e in enumerate(events):
        if e.type != pb.TraceEvent.COMPILE_END:
            continue
        if module is not None and e.module_name != module:
            continue
        if not e.compile_end.HasField(field):
            continue
        out.append(Report(e.module_name, i, None, decode_report(
            getattr(e.compile_end, field), _folder(events))))
    return out


def extract_compile_reports(events, module=None):
    """The compilation report of every COMPILE_END (of ``module``)."""
    return _compile_field(events, "compilation_report", module)


def extract_memory_reports(events, module=None, expand=True):
    """The memory report (docs/memory.md) of every COMPILE_END: in the
    complete form (``expand_memory_report``) unless ``expand`` is False,
    which gives it as written."""
    reports = _compile_field(events, "memory_report", module)
    if not expand:
        return reports
    return [r._replace(data=expand_memory_report(r.data)) for r in reports]


# At most this many values come out of one expand_memory_report(): reports
# come from event files, and a run of a few bytes could stand for billions.
_MAX_EXPANDED = 1 << 25


def _take(budget, n):
    """Takes n values from budget ([values left]); ValueError past it."""
    if n < 0 or n > budget[0]:
        raise ValueError("memory report: a table or curve expands to more "
                         "than %d values; the report is damaged"
                         % _MAX_EXPANDED)
    budget[0] -= n


# The keys of a `buffers` entry that a buffer listed again repeats.
_BRIEF_KEYS = ("name", "hlo", "op_name", "shape", "dtype", "category",
               "size", "unpadded_size", "expansion", "extra", "live_range")


def _from_table(table, budget):
    """A column table {"columns", "values"} back to its list of objects (a
    column of repeating values is {"runs": [[value, count], ...]}; a column
    "a.b" is key b of object a)."""
    if not isinstance(table, dict) or "columns" not in table:
        return table
    columns = []
    for column in table["values"]:
        if isinstance(column, dict):
            _take(budget, sum(n for _, n in column["runs"]))
            column = [v for v, n in column["runs"] for _ in range(n)]
        columns.append(column)
    rows = min((len(c) for c in columns), default=0)
    out = []
    for r in range(rows):
        entry = {}
        for name, column in zip(table["columns"], columns):
            outer, dot, inner = name.partition(".")
            if dot:
                entry.setdefault(outer, {})[inner] = column[r]
            else:
                entry[name] = column[r]
        out.append(entry)
    return out


def _curve(changes, points, column, budget):
    """[[point, padded, unpadded], ...] where a curve changes, back to its
    value at each of ``points`` points (column 1 padded, 2 unpadded)."""
    _take(budget, points)
    out = []
    for i, change in enumerate(changes):
        end = changes[i + 1][0] if i + 1 < len(changes) else points
        out += [change[column]] * max(0, min(end, points) - change[0])
    return out


def expand_memory_report(report):
    """A memory report in the complete form, whichever form it was written
    in (docs/memory.md, "Compact and complete reports"): a compact one
    (``format`` "compact", tessera-compile's default) gets its tables as
    lists, its heap curves at every point and its buffers listed again in
    full. What compact leaves out stays out: ``cost.steps`` (``cost.ops``
    is its sum per op). Other values come back as they are. A damaged
    report that would expand past ``_MAX_EXPANDED`` values raises
    ValueError."""
    if not isinstance(report, dict) or report.get("format") != "compact":
        return report
    budget = [_MAX_EXPANDED]
    r = dict(report)
    for key in ("tiles", "buffers", "out_of_memory"):
        if key in r:
            r[key] = _from_table(r[key], budget)
    if isinstance(r.get("cost"), dict) and "ops" in r["cost"]:
        r["cost"] = dict(r["cost"],
                         ops=_from_table(r["cost"]["ops"], budget))
    buffers = r.get("buffers") or []

    def brief(i):
        return {k: buffers[i][k] for k in _BRIEF_KEYS if k in buffers[i]}

    viewer = r.get("memory_viewer")
    if isinstance(viewer, dict):
        v = dict(viewer)
        points = v.pop("points", 0)
        if "heap" in v and "points" in viewer:
            padded = _curve(v["heap"], points, 1, budget)
            unpadded = _curve(v["heap"], points, 2, budget)
            steps = _from_table(v.pop("heap_steps", []), budget)
            v["heap"] = [
                dict({"point": p}, **(steps[p] if p < len(steps) else {}),
                     padded=a, unpadded=b)
                for p, (a, b) in enumerate(zip(padded, unpadded))]
        if "tile_heaps" in v:
            v["tile_heaps"] = [
                {"tile": t["tile"],
                 "padded": _curve(t["changes"], points, 1, budget),
                 "unpadded": _curve(t["changes"], points, 2, budget)}
                if "changes" in t else t for t in v["tile_heaps"]]
        for key in ("buffers_at_peak_by_program_order",
                    "buffers_at_peak_by_size"):
            if key in v:
                v[key] = [brief(b) if isinstance(b, int) else b
                          for b in v[key]]
        r["memory_viewer"] = v

    def live(b):
        if not isinstance(b, list):
            return b
        e = brief(b[0])
        e.update(bytes_on_tile=b[1], live_range_on_tile=[b[2], b[3]],
                 offset=b[4], written_by=buffers[b[0]].get("written_by", []))
        return e

    if "out_of_memory" in r:
        r["out_of_memory"] = [
            dict(o, live_at_peak=[live(b) for b in o["live_at_peak"]])
            if "live_at_peak" in o else o for o in r["out_of_memory"]]
    return r


def extract_tensor_map(events, module=None, tile_format=None):
    """The tensor map of the last compile (of ``module``), or None.

    Its entries list their tiles in the form the compile wrote
    (``tile_format`` in the map: "runs" by default, "tiles" with
    ``--tensor_map_format=tiles``); pass ``tile_format`` to get that form
    whichever was written (see ``convert_tensor_map``)."""
    maps = _compile_field(events, "tensor_map", module)
    if not maps:
        return None
    data = maps[-1].data
    return convert_tensor_map(data, tile_format) if tile_format else data


def tensor_tiles(tiles):
    """(tile, elements) for each tile of an entry's tiles field, from
    either form: [tile, elements] pairs or [first_tile, last_tile,
    elements_each] runs."""
    for item in tiles:
        if len(item) == 2:
            yield item[0], item[1]
        elif len(item) == 3:
            first, last, each = item
            if last < first:
                raise ValueError("tile run %r ends before it starts" % (item,))
            for tile in range(first, last + 1):
                yield tile, each
        else:
            raise ValueError("tile entry %r is neither [tile, elements] nor "
                             "[first_tile, last_tile, elements_each]"
                             % (item,))


def tile_runs(pairs):
    """[tile, elements] pairs (tile order) as [first_tile, last_tile,
    elements_each] runs of consecutive tiles holding the same count."""
    runs = []
    for tile, n in pairs:
        if runs and runs[-1][1] + 1 == tile and runs[-1][2] == n:
            runs[-1][1] = tile
        else:
            runs.append([tile, tile, n])
    return runs


def convert_tensor_map(doc, tile_format):
    """A copy of tensor map ``doc`` whose entries list their tiles as
    "runs" or "tiles" (docs/tile-dialect.md, "Tensor map")."""
    if tile_format not in ("runs", "tiles"):
        raise ValueError("tile_format must be 'runs' or 'tiles', not %r"
                         % (tile_format,))
    out = {k: v for k, v in doc.items() if k != "mappings"}
    out["tile_format"] = tile_format
    out["mappings"] = {}
    for computation, entries in doc.get("mappings", {}).items():
        converted = []
        for entry in entries:
            pairs = [[t, n] for t, n in tensor_tiles(entry[7])]
            entry = list(entry)
            entry[7] = tile_runs(pairs) if tile_format == "runs" else pairs
            converted.append(entry)
        out["mappings"][computation] = converted
    return out


def extract_execute_reports(events, module=None):
    """The execution report (docs/execution.md) of every EXECUTE that has
    one, with its run."""
    out = []
    for i, e in enumerate(events):
        if e.type != pb.TraceEvent.EXECUTE:
            continue
        if module is not None and e.module_name != module:
            continue
        if not e.execute.HasField("execution_report"):
            continue
        out.append(Report(e.module_name, i, e.execute.run_index,
                          decode_report(e.execute.execution_report,
                                        _folder(events))))
    return out
