#!/usr/bin/env python3
"""Execution-profile benchmarks; writes bench/profile-results.md.

bench/run.py copies that file into BENCHMARKS.md. Measured here:

  overhead  the same model-device runs with no profile, with the cycle
            clock at profile_execution=device and =tile (execution report
            built and written), and with --trace_json: tessera-run's mean
            per-run time (measured inside the process around the runs, so
            load is not counted), the configurations interleaved round by
            round and compared pair by pair, so the ratio holds when the
            machine's speed drifts. Models: a corpus MLP and resnet18 (real
            work per step), and bench/gen_loop.py's loop (tiny steps on
            1,472 tiles: the clock's worst case).
  trace     writing a trace of >= 10M events (bench/gen_loop.py's loop
            with enough trips): events, file size, wall time and peak RSS
            against the same run with the clock but no trace, the writer's
            events per second, and peak RSS at a tenth of the events (flat
            if the trace streams).

  python3 bench/profile.py [--rounds 5] [--events 10000000]
"""

import argparse
import os
import re
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as common  # noqa: E402  (bench/run.py's helpers)

ROOT = common.ROOT
BIN = common.BIN
CONFIGS = [("none", []),
           ("device", ["--profiling", "--profile_execution=device"]),
           ("tile", ["--profiling", "--profile_execution=tile"]),
           ("trace", ["--trace_json={tmp}/overhead-trace.json"])]


check = common.tool_output


def run_ms(exe, extra, runs, tmp):
    out = check([os.path.join(BIN, "tessera-run"), exe, f"--runs={runs}",
                 *[a.format(tmp=tmp) for a in extra]])
    return float(re.search(r"^ran \d+ times?.*: mean ([0-9.]+) ms", out,
                           re.M).group(1))


def overhead(label, exe, runs, rounds, tmp):
    """Median ms per config and median ratio to 'none', pair by pair."""
    times = {name: [] for name, _ in CONFIGS}
    for r in range(rounds):
        common.progress(f"overhead: {label}, round {r + 1}/{rounds}")
        for name, extra in CONFIGS:
            times[name].append(run_ms(exe, extra, runs, tmp))
    row = [label, f"{statistics.median(times['none']):.1f}"]
    for name, _ in CONFIGS[1:]:
        ratios = [t / n for t, n in zip(times[name], times["none"])]
        row.append(f"{statistics.median(ratios):.3f} "
                   f"({min(ratios):.3f}–{max(ratios):.3f})")
    return row


def loop_exe(tmp, trips, name):
    mlir = os.path.join(tmp, name + ".mlir")
    exe = os.path.join(tmp, name + ".tessera")
    check([sys.executable, os.path.join(ROOT, "bench", "gen_loop.py"),
           "--trips", str(trips), "-o", mlir])
    check([os.path.join(BIN, "tessera-compile"), mlir, "-o", exe])
    return exe


def trace_run(exe, tmp, trace):
    """(wall s, peak RSS MiB, events) of one run, with or without a trace;
    the clock runs in both (device level, no report)."""
    cmd = [os.path.join(BIN, "tessera-run"), exe, "--synthetic_data"]
    cmd += [f"--trace_json={trace}"] if trace else ["--log_cycle_count=0"]
    with tempfile.TemporaryFile(mode="w+") as out:
        wall, rss = common.run_once(cmd, stdout=out)
        out.seek(0)
        m = re.search(r"^trace: .*, (\d+) events", out.read(), re.M)
    return wall, rss, int(m.group(1)) if m else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--events", type=int, default=10_000_000)
    parser.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared",
                                                         "corpus"))
    parser.add_argument("-o", "--output",
                        default=os.path.join(ROOT, "bench",
                                             "profile-results.md"))
    args = parser.parse_args()
    info = common.machine()
    tmp = tempfile.mkdtemp(prefix="tessera-bench-profile-")

    models = [("mnist_mlp (tile-1472)",
               os.path.join(args.corpus, "hlo",
                            "mnist_mlp_jax_before_opt.hlo"), 5),
              ("resnet18 (tile-1472)",
               os.path.join(args.corpus, "tosa", "resnet18_torchmlir.mlir"),
               2)]
    rows = []
    for label, model, runs in models:
        exe = os.path.join(tmp, label.split()[0] + ".tessera")
        check([os.path.join(BIN, "tessera-compile"), model, "-o", exe])
        rows.append(overhead(label, exe, runs, args.rounds, tmp))
    small = loop_exe(tmp, 200, "loop200")
    rows.append(overhead("gen_loop 200 trips (tile-1472)", small, 3,
                         args.rounds, tmp))

    # Events per trip from a short run, then enough trips for the target.
    _, _, per200 = trace_run(small, tmp, os.path.join(tmp, "probe.json"))
    # 1% over: the metadata events do not grow with the trips.
    trips = -(-args.events * 202 // per200)
    big = loop_exe(tmp, trips, "loopbig")
    tenth = loop_exe(tmp, -(-trips // 10), "looptenth")
    trace = os.path.join(tmp, "big.json")
    common.progress(f"trace: {trips} trips, no trace")
    base_wall, base_rss, _ = trace_run(big, tmp, None)
    common.progress(f"trace: {trips} trips, with the trace")
    wall, rss, events = trace_run(big, tmp, trace)
    size = os.path.getsize(trace)
    os.remove(trace)
    common.progress("trace: a tenth of the trips")
    _, tenth_rss, tenth_events = trace_run(tenth, tmp, trace)
    os.remove(trace)
    writer = events / (wall - base_wall) if wall > base_wall else None
    trace_rows = [[f"{events:,}", f"{size / 2**20:,.0f}", f"{base_wall:.1f}",
                   f"{wall:.1f}", f"{events / wall:,.0f}",
                   "—" if writer is None else f"{writer:,.0f}",
                   f"{base_rss:.0f}", f"{rss:.0f}",
                   f"{tenth_rss:.0f} ({tenth_events:,} events)"]]

    lines = [
        "## Execution profiles",
        "",
        f"Written by `python3 bench/profile.py --rounds {args.rounds}`; "
        "machine: " + ", ".join(f"{k} {v}" for k, v in info.items()) + ".",
        "",
        "Overhead: tessera-run's mean per-run time on the model device with "
        "no profile, against the cycle clock at `--profile_execution=device`"
        " and `=tile` (with `--profiling`: the execution report is built "
        "and written) and against `--trace_json` (the clock and the trace "
        f"writer), interleaved over {args.rounds} rounds; ratios are "
        "medians pair by pair (min–max). Goals: tile ≤ 1.05×, device ≤ "
        "1.01×.",
        "",
        common.table(["model", "none ms/run", "device / none",
                      "tile / none", "trace / none"], rows),
        "",
        f"Trace writing: `bench/gen_loop.py --trips {trips}` (8 elementwise "
        "ops a trip over all 1,472 tiles), one run on synthetic data with "
        "`--trace_json`, against the same run with the clock on and no "
        "trace; whole-process wall time and peak RSS. Writer events/s: the "
        "events over the time the trace added.",
        "",
        common.table(["events", "file MiB", "no trace s", "trace s",
                      "events/s (whole run)", "writer events/s",
                      "peak RSS MiB, no trace", "peak RSS MiB, trace",
                      "peak RSS MiB, a tenth"], trace_rows),
        "",
    ]
    common.write_results(args.output, lines)


if __name__ == "__main__":
    main()
