#!/usr/bin/env python3
"""Model-device benchmarks; writes bench/runtime-results.md.

bench/run.py copies that file into BENCHMARKS.md. Measured here:

  throughput   the TOSA corpus models (weights filled with seeded data by
               scripts/upstream/fill-elided.py, one file for both sides) on
               the model device, both presets, against upstream MLIR 19
               (mlir-opt-19 TOSA -> linalg -> loops -> LLVM, run by
               mlir-cpu-runner-19 -O3) on the same inputs; each side's
               per-run time is measured inside the process (tessera-run's
               run loop, rtclock around the call in upstream's wrapper), so
               neither the load nor the JIT is counted;
  threads      the same device runs on one thread: the tile-parallel
               speedup;
  load         tessera-run --load_only on the largest executables: load time
               (as tessera-run prints it) and the process's peak RSS.

  python3 bench/runtime.py [--runs 3] [--corpus ../shared/corpus]

Needs Debian's python3 with numpy for scripts/upstream (scripts/setup.sh).
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as common  # noqa: E402  (bench/run.py's helpers)

ROOT = common.ROOT
BIN = common.BIN
UPSTREAM = os.path.join(ROOT, "scripts", "upstream")
MODELS = [("resnet18_torchmlir.mlir", "forward", []),
          ("mobilenetv2_tf.mlir", "predict", ["--fill-splats"])]


def check(cmd, **kw):
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stderr[-2000:]}"
                           f"{proc.stdout[-2000:]}")
    return proc


def device_ms(exe, inputs, runs, threads=None):
    """Median over `runs` invocations of tessera-run's mean run time."""
    means = []
    for _ in range(runs):
        cmd = [os.path.join(BIN, "tessera-run"), exe, "--inputs=" + inputs,
               "--runs=3", "--allow_out_of_memory"]
        if threads:
            cmd.append(f"--threads={threads}")
        out = check(cmd).stdout
        m = re.search(r"^ran \d+ times?: mean ([0-9.]+) ms", out, re.M)
        means.append(float(m.group(1)))
    return statistics.median(means)


def upstream_ms(model, entry, inputs, outputs, runs):
    means = []
    for _ in range(runs):
        err = check(["/usr/bin/python3", os.path.join(UPSTREAM,
                                                       "run-upstream.py"),
                     model, "--entry", entry, "--inputs", inputs,
                     "--outputs", outputs, "--runs", "3", "--O3"]).stderr
        m = re.search(r"upstream: runs=\d+ mean_s=([0-9.e+-]+)", err)
        means.append(1000 * float(m.group(1)))
    return statistics.median(means)


def load_figures(exe, runs):
    """Load time as tessera-run prints it and peak RSS, from one process
    per sample."""
    loads, rss = [], []
    for _ in range(runs):
        with tempfile.TemporaryFile(mode="w+") as out:
            _, r = common.run_once([os.path.join(BIN, "tessera-run"), exe,
                                    "--load_only", "--allow_out_of_memory"],
                                   stdout=out)
            out.seek(0)
            m = re.search(r"steps \(([0-9.]+) (ms|s)\)", out.read())
        loads.append(float(m.group(1)) / (1 if m.group(2) == "ms" else 1e-3))
        rss.append(r)
    return statistics.median(loads), max(rss)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared",
                                                         "corpus"))
    parser.add_argument("-o", "--output",
                        default=os.path.join(ROOT, "bench",
                                             "runtime-results.md"))
    args = parser.parse_args()
    info = common.machine()
    tmp = tempfile.mkdtemp(prefix="tessera-bench-run-")
    throughput, threads, largest = [], [], []
    for name, entry, fill in MODELS:
        stem = name.split("_")[0]
        model = os.path.join(tmp, stem + ".mlir")
        inputs = os.path.join(tmp, stem + "-in")
        check(["/usr/bin/python3", os.path.join(UPSTREAM, "fill-elided.py"),
               "--seed", "0", *fill, os.path.join(args.corpus, "tosa", name),
               "-o", model])
        check(["/usr/bin/python3", os.path.join(UPSTREAM, "run-upstream.py"),
               model, "--entry", entry, "--make-inputs", inputs])
        common.progress(f"{stem}: upstream -O3")
        up = upstream_ms(model, entry, inputs, os.path.join(tmp, stem + "-up"),
                         args.runs)
        for target in common.PRESETS:
            exe = os.path.join(tmp, f"{stem}.{target}.tessera")
            check([os.path.join(BIN, "tessera-compile"), model, "--target",
                   target, "-o", exe])
            largest.append((os.path.getsize(exe), f"{stem} ({target})", exe))
            common.progress(f"{stem} on {target}: model device")
            dev = device_ms(exe, inputs, args.runs)
            one = device_ms(exe, inputs, args.runs, threads=1)
            throughput.append([stem, target, f"{dev:.0f}", f"{up:.0f}",
                               f"{1000 / dev:.2f}", f"{1000 / up:.2f}",
                               f"{up / dev:.2f}"])
            threads.append([stem, target, f"{one:.0f}", f"{dev:.0f}",
                            f"{one / dev:.2f}"])
    # The largest corpus executables as the compiler writes them (weights
    # elided), and the filled resnet18, which carries 47 MB of weights.
    for name in ["bert_small_train_neuron.hlo", "dlrm_mlperf_tf_tpu_before_opt.hlo"]:
        exe = os.path.join(tmp, name + ".tessera")
        check([os.path.join(BIN, "tessera-compile"),
               os.path.join(args.corpus, "hlo", name), "--target",
               "tile-1472", "-o", exe])
        largest.append((os.path.getsize(exe), f"{name} (tile-1472)", exe))
    load_rows = []
    for size, label, exe in sorted(largest, reverse=True)[:3]:
        common.progress(f"load {label}")
        ms, rss = load_figures(exe, args.runs)
        load_rows.append([label, f"{size / 2**20:.1f}", f"{ms:.0f}",
                          f"{rss:.0f}"])

    lines = [
        "## Model device",
        "",
        f"Written by `python3 bench/runtime.py --runs {args.runs}`; "
        "machine: " + ", ".join(f"{k} {v}" for k, v in info.items()) + ".",
        "",
        "Throughput: the TOSA corpus models with seeded weights "
        "(`scripts/upstream/fill-elided.py --seed 0`), on the same inputs, "
        "against upstream MLIR 19 (`mlir-opt-19` TOSA → linalg → loops → "
        "LLVM, `mlir-cpu-runner-19 -O3`). Per-run times measured inside "
        "each process (load and JIT not counted), median over "
        f"{args.runs} processes of 3 runs each. Goal: ≥ 1.0×.",
        "",
        common.table(["model", "preset", "device ms/run", "upstream ms/run",
                      "device runs/s", "upstream runs/s",
                      "device / upstream"], throughput),
        "",
        "Tile-parallel speedup: the same runs on one thread against one per "
        "core (`--threads=1`).",
        "",
        common.table(["model", "preset", "1 thread ms", "all cores ms",
                      "speedup"], threads),
        "",
        "Load: `tessera-run EXE --load_only` (read, checksum, validate, lay "
        "out the arenas, write constants, parse the graph module) on the "
        "largest executables; load time as tessera-run prints it, peak RSS "
        "of the process.",
        "",
        common.table(["executable", "MiB", "load ms", "peak RSS MiB"],
                     load_rows),
        "",
    ]
    common.write_results(args.output, lines)


if __name__ == "__main__":
    main()
