#!/usr/bin/env python3
"""tessera-prof streaming a long log; writes bench/prof-stream-results.md.

A sample event file of >= --events events (`tessera-prof write-sample
--runs`: a compile, then three events a run) is converted to a Chrome trace
and to NDJSON, each written three ways:

  disk     a file in the temporary folder (what a user gets; bounded by
           the disk's write rate);
  memory   a file in /dev/shm (the tool's own rate, the copy into the page
           cache included);
  null     /dev/null (formatting alone).

Median wall time and peak RSS of --runs processes each. For scale, the
same number of bytes written to each place by a plain loop of 1 MiB
writes: the ceiling no formatter can pass there.

  python3 bench/prof_stream.py [--runs 3] [--events 10000000]
"""

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as common  # noqa: E402  (bench/run.py's helpers)

PROF = os.path.join(common.BIN, "tessera-prof")


def plain_write(path, size):
    """Seconds to write `size` bytes to `path` in 1 MiB blocks, synced to
    the page cache only (as the tools do)."""
    block = b"x" * (1 << 20)
    start = time.perf_counter()
    with open(path, "wb") as f:
        left = size
        while left > 0:
            left -= f.write(block[:min(left, len(block))])
    wall = time.perf_counter() - start
    if path != os.devnull:
        os.remove(path)
    return wall


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--events", type=int, default=10_000_000)
    parser.add_argument("-o", "--output",
                        default=os.path.join(common.ROOT, "bench",
                                             "prof-stream-results.md"))
    args = parser.parse_args()
    info = common.machine()
    tmp = tempfile.mkdtemp(prefix="tessera-bench-prof-")
    shm = tempfile.mkdtemp(prefix="tessera-bench-prof-", dir="/dev/shm") \
        if os.path.isdir("/dev/shm") else None
    try:
        log = os.path.join(tmp, "long.events")
        runs = -(-args.events // 3)
        common.progress(f"write-sample --runs={runs}")
        common.run_once([PROF, "write-sample", log, f"--runs={runs}"])
        events = 6 + 3 * runs
        places = [("disk", tmp), ("memory", shm), ("null", None)]
        rows, sizes = [], {}
        for label, cmd in [("trace (Chrome JSON)", ["trace", "-o"]),
                           ("export --ndjson", ["export", "--ndjson="])]:
            for place, folder in places:
                if place == "memory" and not folder:
                    continue
                out = os.path.join(folder, "out") if folder else os.devnull
                argv = cmd[:-1] + [cmd[-1], out] if cmd[-1] == "-o" \
                    else cmd[:-1] + [cmd[-1] + out]
                common.progress(f"{label} to {place} ({events:,} events)")
                walls, rss = [], 0.0
                for _ in range(args.runs):
                    wall, peak = common.run_once([PROF, log, *argv])
                    walls.append(wall)
                    rss = max(rss, peak)
                    if folder:
                        sizes[label] = os.path.getsize(out)
                        os.remove(out)
                wall = statistics.median(walls)
                rows.append([label, place, f"{events:,}",
                             f"{sizes[label] / 2**20:,.0f}",
                             f"{wall:.2f} ({min(walls):.2f}–{max(walls):.2f})",
                             f"{events / wall:,.0f}", f"{rss:.0f}"])
        ceiling = []
        for label, size in sizes.items():
            for place, folder in places[:2]:
                if not folder:
                    continue
                wall = statistics.median(
                    plain_write(os.path.join(folder, "plain"), size)
                    for _ in range(args.runs))
                ceiling.append([label, place, f"{size / 2**20:,.0f}",
                                f"{wall:.2f}", f"{size / wall / 1e6:,.0f}",
                                f"{events / wall:,.0f}"])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if shm:
            shutil.rmtree(shm, ignore_errors=True)

    lines = [
        "## tessera-prof streaming a long log",
        "",
        f"Written by `python3 bench/prof_stream.py --runs {args.runs}`; "
        "machine: " + ", ".join(f"{k} {v}" for k, v in info.items()) + ".",
        "",
        f"`tessera-prof write-sample --runs={runs}` (a compile, then three "
        "events a run) converted to a Chrome trace and to NDJSON (two rows "
        "an event: the event and its run or transfer), written to a file on "
        "disk, to a file in memory (/dev/shm) and to /dev/null; median "
        f"(min–max) of {args.runs} processes, whole-process wall time and "
        "peak RSS. Goals: ≥ 2M events/s, ≤ 256 MB.",
        "",
        common.table(["command", "to", "events", "output MiB", "s",
                      "events/s", "peak RSS MiB"], rows),
        "",
        "The ceiling: the same bytes written by a plain loop of 1 MiB "
        "writes, no formatting; events/s if a converter cost nothing.",
        "",
        common.table(["output of", "to", "MiB", "s", "MB/s",
                      "events/s at most"], ceiling),
        "",
    ]
    common.write_results(args.output, lines)


if __name__ == "__main__":
    main()
