#!/usr/bin/env python3
"""Reading a large tensor map: `tessera-prof EVENTS tensor-map` streams the
map with a SAX parser; this measures it on a ~190 MB map.

A compile with --report_directory stores its tensor map as a file beside
the events; the script replaces that file with a generated map of the same
format (docs/compile.md: per computation, [hlo, leaf, shape, dtype,
constant, alias, elements, [[tile, elements], ...], name] per tensor), each
tensor spread over all 1,472 tiles of tile-1472, and times the totals view
and the one-tile view: wall time, MB/s, peak RSS, against the map's size.
For scale, the peak RSS of reading the same file as a document with
Python's json module (a DOM reader).

Writes bench/tensor-map-results.md (bench/run.py copies it into
BENCHMARKS.md).

  python3 bench/tensor_map.py [--mb 190]
"""

import argparse
import glob
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as common  # noqa: E402  (bench/run.py's helpers)

ROOT = common.ROOT
BIN = common.BIN
TILES = 1472


def write_map(path, megabytes):
    """A tensor map of about `megabytes` MB; returns (tensors, bytes)."""
    target = megabytes * 1_000_000
    written, tensors = 0, 0
    with open(path, "w") as f:
        f.write('{"mappings": {"main": [\n')
        while written < target:
            per_tile = 700 + tensors % 50
            tiles = ",".join(f"[{t},{per_tile}]" for t in range(TILES))
            entry = (f'{"," if tensors else ""}["t{tensors}", 0, [{TILES}, '
                     f'{per_tile}], "f32", false, false, {TILES * per_tile}, '
                     f'[{tiles}], "t{tensors}"]\n')
            f.write(entry)
            written += len(entry)
            tensors += 1
        f.write("]}}\n")
    return tensors, os.path.getsize(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mb", type=int, default=190)
    parser.add_argument("-o", "--output",
                        default=os.path.join(ROOT, "bench",
                                             "tensor-map-results.md"))
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="tessera-bench-tensormap-")
    reports = os.path.join(tmp, "reports")
    exe = os.path.join(tmp, "red.tessera")
    common.run_once([os.path.join(BIN, "tessera-compile"),
                     os.path.join(ROOT, "test", "Run", "Inputs",
                                  "cycles-reduce.mlir"),
                     "-o", exe, "--profiling",
                     f"--report_directory={reports}"])
    (map_path,) = glob.glob(os.path.join(reports, "*", "tensor_map.json"))
    common.progress(f"tensor map: writing {args.mb} MB")
    tensors, size = write_map(map_path, args.mb)
    events = exe + ".events"
    rows = []
    for label, extra in [("totals", []), ("one tile (--tile=7)",
                                          ["--tile=7"])]:
        common.progress(f"tensor map: {label}")
        wall, rss = common.measure([os.path.join(BIN, "tessera-prof"),
                                    events, "tensor-map", *extra], 3)
        rows.append([f"tessera-prof tensor-map {' '.join(extra)}".strip(),
                     f"{size / 2**20:,.0f}", f"{tensors:,}", f"{wall:.1f}",
                     f"{size / 1e6 / wall:,.0f}", f"{rss:.0f}"])
    common.progress("tensor map: Python json.load, for scale")
    wall, rss = common.run_once(
        ["/usr/bin/python3", "-c",
         f"import json; json.load(open({map_path!r}))"])
    rows.append(["python3 json.load (a DOM, for scale)",
                 f"{size / 2**20:,.0f}", f"{tensors:,}", f"{wall:.1f}",
                 f"{size / 1e6 / wall:,.0f}", f"{rss:.0f}"])
    os.remove(map_path)

    info = common.machine()
    lines = [
        "### Reading a large tensor map",
        "",
        f"`python3 bench/tensor_map.py --mb {args.mb}` ({info['cpu']}, "
        f"{info['cores']} cores, commit {info['commit']}): a "
        f"generated tensor map of {tensors:,} tensors, each on all "
        f"{TILES:,} tiles, stored as a report file; median of 3 "
        "processes, whole-process wall time and peak RSS. Goal: not "
        "several times the map's size in RAM.",
        "",
        common.table(["command", "map MiB", "tensors", "s", "MB/s",
                      "peak RSS MiB"], rows),
        "",
    ]
    common.write_results(args.output, lines)


if __name__ == "__main__":
    main()
