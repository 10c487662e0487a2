#!/usr/bin/env python3
"""Multi-chip benchmarks; writes bench/multichip-results.md.

Measured here (docs/multichip.md):

  pod-16     every corpus model compiled for pod-16 with the chip search
             on: wall time (median of --runs) against the same compile for
             tile-1472, the chips a replica needed, the replicas, whether a
             tile is still out of memory, and the placement's first words;
  replicas   the model device simulating the MNIST training step as its 8
             replicas (one device per replica, meeting at the all-reduces):
             mean wall time of a run and chip-runs simulated per second,
             against one replica of the same step on one chip.

  python3 bench/multichip.py [--runs 3] [--corpus ../shared/corpus]
"""

import argparse
import os
import re
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as common  # noqa: E402  (bench/run.py's helpers)

BIN = common.BIN
MODELS = ["hlo/bert_small_train_neuron.hlo", "hlo/gpt2_decode_neuron.hlo",
          "hlo/dlrm_mlperf_tf_tpu_before_opt.hlo", "hlo/ssd_mobilenet_v1_tf.hlo",
          "hlo/graphsage_tf.hlo", "hlo/mnist_mlp_jax_before_opt.hlo",
          "tosa/resnet18_torchmlir.mlir", "tosa/mobilenetv2_tf.mlir"]


run = common.tool_output


def compile_s(model, target, out, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run([os.path.join(BIN, "tessera-compile"), model, "--target", target,
             "-o", out])
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--corpus", default=os.path.join(common.ROOT, "..",
                                                     "shared", "corpus"))
    args = ap.parse_args()
    lines = ["### Multi-chip: the corpus on pod-16, replicas on the model "
             "device", "",
             f"`python3 bench/multichip.py --runs {args.runs}` "
             f"({time.strftime('%Y-%m-%d')}; median of {args.runs} compiles)."
             , "",
             "| model | tile-1472 compile | pod-16 compile | chips per replica "
             "| replicas | tiles out of memory | how |",
             "|---|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "m.tessera")
        for m in MODELS:
            path = os.path.join(args.corpus, m)
            common.progress(f"pod-16: {m}")
            one = compile_s(path, "tile-1472", exe, args.runs)
            pod = compile_s(path, "pod-16", exe, args.runs)
            out = run([os.path.join(BIN, "tessera-run"), exe, "--load_only",
                       "--allow_out_of_memory"])
            placed = re.search(r"^  placed on (.*)$", out, re.M)
            oom = len(re.findall(r"out of memory, running with", out))
            chips = re.search(r"(\d+) chips? \(", placed.group(1)) \
                if placed else None
            text = placed.group(1) if placed else "1 chip"
            reps_m = re.search(r"^  (\d+) replicas, each on", out, re.M)
            reps = reps_m.group(1) if reps_m else "1"
            how = re.match(r"\d+ chips? \(([^:)]*)", text)
            lines.append(
                f"| {os.path.basename(m)} | {one:.2f} s | {pod:.2f} s | "
                f"{chips.group(1) if chips else 1} | {reps} | {oom} | "
                f"{how.group(1) if how else 'one chip'} |")
        # Replicas on the model device.
        mnist = os.path.join(args.corpus, MODELS[5])
        run([os.path.join(BIN, "tessera-compile"), mnist, "--target", "pod-16",
             "-o", exe])
        out = run([os.path.join(BIN, "tessera-run"), exe,
                   f"--runs={args.runs}"])
        m8 = re.search(r"mean ([0-9.]+) ms.*\(([0-9.]+) chip-runs/s", out)
        single = os.path.join(tmp, "one.tessera")
        run([os.path.join(BIN, "tessera-compile"), mnist, "--target",
             "tile-1472", "-o", single])
        out1 = run([os.path.join(BIN, "tessera-run"), single,
                    f"--runs={args.runs}"])
        m1 = re.search(r"mean ([0-9.]+) ms", out1)
    lines += ["",
              "| MNIST training step on the model device | mean run | "
              "chip-runs simulated / s |", "|---|---|---|",
              f"| 8 replicas on pod-16 (all-reduces as steps) | "
              f"{float(m8.group(1)):.0f} ms | {float(m8.group(2)):.1f} |",
              f"| 1 replica on tile-1472 (all-reduces on the host) | "
              f"{float(m1.group(1)):.0f} ms | {1000 / float(m1.group(1)):.1f} |",
              ""]
    common.write_results(os.path.join(common.ROOT, "bench",
                                      "multichip-results.md"), lines)


if __name__ == "__main__":
    main()
