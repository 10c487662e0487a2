#!/usr/bin/env python3
"""End-to-end compile benchmarks; writes BENCHMARKS.md.

Every figure is the median of --runs runs (wall time; peak RSS from the
kernel's rusage of the child), measured in one invocation so that ratios
compare runs on the same machine under the same load:

  full compile   tessera-compile with events, every report and the compile
                 trace on, per corpus model and preset;
  parse-print    the same module parsed, verified and printed by the stock
                 /usr/lib/llvm-19/bin/mlir-opt with libTesseraPlugin.so;
  scaling        synthetic graphs (bench/gen_hlo.py) of 1k / 10k / 100k ops;
  tracing        the full compile with reports and trace on vs all off;
  cache          a compile served by the executable cache vs a full one;
  quality        memory and padding figures from the compile's reports,
                 and (--quality-only, from the final tile program dump)
                 the most copy runs of one convolution weight exchange;
  reference      the upstream TOSA pipeline to loops on a TOSA model.

  python3 bench/run.py [--runs 3] [--quick] [--corpus ../shared/corpus]
  python3 bench/run.py --cache-only     the cache table alone, on stdout
  python3 bench/run.py --quality-only   the quality table alone (one
                                        compile per model and preset)
"""

import argparse
import datetime
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("TESSERA_BUILD_DIR", os.path.join(ROOT, "build"))
BIN = os.path.join(BUILD, "bin")
PLUGIN = os.path.join(BUILD, "lib", "libTesseraPlugin.so")
STOCK_OPT = "/usr/lib/llvm-19/bin/mlir-opt"
PRESETS = ["tile-1472", "core-8"]
# The scaling graphs (conv + transformer blocks): this table's, the
# scaling goal's (compile_goals.py) and the scaling profile's.
SCALING_GRAPH_ARGS = ["--mix", "mixed", "--width", "64", "--seq", "16",
                      "--image", "4"]
SCALING_GRAPH_TEXT = ("bench/gen_hlo.py --ops N " +
                      " ".join(SCALING_GRAPH_ARGS))


def run_once(cmd, stdout=subprocess.DEVNULL):
    """Wall seconds and peak RSS (MiB) of one run; raises on failure."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({code}):\n{err[-2000:]}")
    return wall, usage.ru_maxrss / 1024.0


def measure(cmd, runs):
    walls, rss = [], []
    for _ in range(runs):
        w, r = run_once(cmd)
        walls.append(w)
        rss.append(r)
    return statistics.median(walls), max(rss)


def progress(msg):
    print(msg, file=sys.stderr, flush=True)


def tool_output(cmd):
    """A tool's stdout; its stderr's tail in the error when it fails."""
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stderr[-2000:]}")
    return proc.stdout


def corpus_models(corpus):
    """The corpus's models (hlo/*.hlo, tosa/*.mlir), sorted per folder."""
    models = []
    for sub in ("hlo", "tosa"):
        folder = os.path.join(corpus, sub)
        if os.path.isdir(folder):
            models += sorted(os.path.join(folder, f) for f in os.listdir(folder)
                             if f.endswith((".hlo", ".mlir")))
    return models


def write_results(path, lines):
    """Writes a results file (markdown lines) and says so."""
    with open(path, "w") as f:
        f.write("\n".join(lines))
    progress(f"wrote {path}")


def scaling_graph(ops, path):
    """Writes the scaling graph of `ops` ops to `path`."""
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gen_hlo.py"),
                    "--ops", str(ops)] + SCALING_GRAPH_ARGS + ["-o", path],
                   check=True, stderr=subprocess.DEVNULL)


def compile_cmd(model, target, out, reports=True):
    cmd = [os.path.join(BIN, "tessera-compile"), model, "--target", target,
           "-o", os.path.join(out, "prog.mlirbc")]
    if reports:
        cmd += ["--profiling", "--report_directory=" + os.path.join(out, "r"),
                "--compile_trace=" + os.path.join(out, "trace.json"),
                "--events", os.path.join(out, "ev.events")]
    return cmd


def tgraph_text(model, out):
    """The module as the stock mlir-opt reads it: imported tgraph for HLO,
    the file itself for TOSA (upstream dialects)."""
    if model.endswith(".mlir"):
        return model
    path = os.path.join(out, os.path.basename(model) + ".mlir")
    with open(path, "w") as f:
        subprocess.run([os.path.join(BIN, "tessera-translate"), "--import-hlo",
                        model], stdout=f, check=True)
    return path


def parse_print_cmd(path):
    return [STOCK_OPT, "--load-dialect-plugin=" + PLUGIN, path,
            "-o", os.devnull]


def op_count(report_dir):
    """tgraph ops of the compiled module, from the compilation report."""
    for root, _, files in os.walk(report_dir):
        if "graph.json" in files:
            with open(os.path.join(root, "graph.json")) as f:
                return json.load(f)["graph"]["ops"]
    return None


def memory_figures(report_dir):
    for root, _, files in os.walk(report_dir):
        if "memory.json" in files:
            with open(os.path.join(root, "memory.json")) as f:
                return json.load(f)
    return None


def compat_percent(report_dir):
    for root, _, files in os.walk(report_dir):
        if "compat.json" in files:
            with open(os.path.join(root, "compat.json")) as f:
                totals = json.load(f).get("totals", {})
            return totals.get("compatible_percent")
    return None


def machine():
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short",
                             "HEAD"], capture_output=True, text=True).stdout
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime(
            "%Y-%m-%d %H:%M UTC"),
        "cpu": cpu, "cores": os.cpu_count(), "memory": f"{mem:.0f} GiB",
        "os": platform.platform(), "load": "%.2f %.2f %.2f" % os.getloadavg(),
        "commit": commit.strip(),
    }


def table(header, rows):
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join("---" for _ in header) + "|"]
    for row in rows:
        out.append("| " + " | ".join(str(c) for c in row) + " |")
    return "\n".join(out)


def fmt(x, digits=2):
    return "—" if x is None else f"{x:.{digits}f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true",
                        help="1k/10k scaling only, one run each")
    parser.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared",
                                                         "corpus"))
    parser.add_argument("-o", "--output",
                        default=os.path.join(ROOT, "BENCHMARKS.md"))
    parser.add_argument("--cache-only", action="store_true",
                        help="measure the executable cache only and print "
                        "its table")
    parser.add_argument("--quality-only", action="store_true",
                        help="compile each model once and print the quality "
                        "table")
    args = parser.parse_args()
    runs = 1 if args.quick else args.runs
    work = tempfile.mkdtemp(prefix="tessera-bench-")
    info = machine()
    models = corpus_models(args.corpus)
    if not models:
        progress(f"note: no corpus at {args.corpus}; corpus tables are empty")
    if args.cache_only:
        print(table(CACHE_HEADER, cache_rows(models, work, runs)))
        shutil.rmtree(work, ignore_errors=True)
        return
    if args.quality_only:
        rows = [quality_row(*quality_of(model, target, work))
                for model in models for target in PRESETS]
        print(table(QUALITY_HEADER, rows))
        print()
        print(worst_ratio_sentence(rows))
        shutil.rmtree(work, ignore_errors=True)
        return

    # Full compile vs parse-print, and the quality figures of each compile.
    compile_rows, quality_rows = [], []
    for model in models:
        name = os.path.basename(model)
        text = tgraph_text(model, work)
        pp, pp_rss = measure(parse_print_cmd(text), runs)
        for target in PRESETS:
            progress(f"compile {name} on {target}")
            out = os.path.join(work, name + "." + target)
            shutil.rmtree(out, ignore_errors=True)
            os.makedirs(out)
            wall, rss = measure(compile_cmd(model, target, out), runs)
            ops = op_count(os.path.join(out, "r"))
            compile_rows.append([
                name, target, ops, fmt(wall), f"{rss:.0f}",
                f"{ops / wall:,.0f}" if ops else "—", fmt(pp, 3),
                fmt(wall / pp, 1)])
            mem = memory_figures(os.path.join(out, "r"))
            quality_rows.append(quality_row(name, target, mem,
                                            compat_percent(
                                                os.path.join(out, "r"))))

    rows_cache = cache_rows(models, work, runs)

    # Scaling on synthetic graphs.
    sizes = [1000, 10000] if args.quick else [1000, 10000, 100000]
    scaling_rows, times = [], {}
    for n in sizes:
        path = os.path.join(work, f"synthetic_{n}.hlo")
        scaling_graph(n, path)
        progress(f"scaling: {n} ops")
        out = os.path.join(work, f"s{n}")
        os.makedirs(out, exist_ok=True)
        wall, rss = measure(compile_cmd(path, "tile-1472", out, reports=False),
                            1 if n >= 100000 else runs)
        times[n] = wall
        scaling_rows.append([f"{n:,}", fmt(wall), f"{rss:.0f}",
                             f"{n / wall:,.0f}"])
    ratio = (times[100000] / times[10000]) if 100000 in times else None

    # Tracing overhead, same model, reports + trace on vs off.
    overhead_rows = []
    for model in [m for m in models if "resnet18" in m or "bert" in m]:
        name = os.path.basename(model)
        out = os.path.join(work, "overhead." + name)
        os.makedirs(out, exist_ok=True)
        progress(f"tracing overhead: {name}")
        on, _ = measure(compile_cmd(model, "tile-1472", out), runs)
        off, _ = measure(compile_cmd(model, "tile-1472", out, reports=False),
                         runs)
        overhead_rows.append([name, fmt(off), fmt(on), fmt(on / off)])

    # The upstream TOSA pipeline to loops, as a reference point.
    reference_rows = []
    for model in [m for m in models if m.endswith(".mlir")][:1]:
        # tosa-to-linalg-pipeline's TOSA validation rejects the corpus
        # files' f32 constants, so its conversion passes are listed.
        pipeline = ("builtin.module(func.func(tosa-to-linalg-named,"
                    "tosa-to-linalg,tosa-to-arith,tosa-to-tensor),"
                    "one-shot-bufferize{bufferize-function-boundaries},"
                    "func.func(convert-linalg-to-loops))")
        cmd = [STOCK_OPT, "--pass-pipeline=" + pipeline, model, "-o",
               os.devnull]
        progress(f"upstream pipeline: {os.path.basename(model)}")
        try:
            wall, rss = measure(cmd, runs)
            reference_rows.append([os.path.basename(model), fmt(wall),
                                   f"{rss:.0f}",
                                   "`mlir-opt-19 --pass-pipeline='" +
                                   pipeline + "' MODEL -o /dev/null`"])
        except RuntimeError as e:
            reference_rows.append([os.path.basename(model), "failed", "—",
                                   str(e).splitlines()[0]])

    memory_timings = "corpus absent"
    if models:
        progress("memory passes over the corpus")
        memory_timings = subprocess.run(
            ["bash", os.path.join(ROOT, "bench", "memory-corpus.sh"), BUILD,
             args.corpus], capture_output=True, text=True).stdout
    write_report(args, info, runs, compile_rows, quality_rows, scaling_rows,
                 ratio, overhead_rows, reference_rows, memory_timings,
                 rows_cache)
    shutil.rmtree(work, ignore_errors=True)


CACHE_MODEL = "bert_small_train_neuron.hlo"


def cache_rows(models, work, runs):
    """Full compile vs a hit of --executable_cache_dir, on the largest
    corpus model; the cache is filled by one compile first."""
    rows = []
    for model in [m for m in models if os.path.basename(m) == CACHE_MODEL]:
        cache = os.path.join(work, "exe-cache")
        shutil.rmtree(cache, ignore_errors=True)
        out = os.path.join(work, "cache.tessera")
        full = [os.path.join(BIN, "tessera-compile"), model, "--target",
                "tile-1472", "-o", out]
        cached = full + ["--executable_cache_dir=" + cache]
        progress(f"executable cache: {CACHE_MODEL}")
        run_once(cached)
        full_s, _ = measure(full, runs)
        cached_s, _ = measure(cached, runs)
        rows.append([CACHE_MODEL, "tile-1472", fmt(full_s), fmt(cached_s, 3),
                     fmt(cached_s / full_s, 3)])
    return rows


CACHE_HEADER = ["model", "preset", "full compile s", "cache hit s",
                "hit / full"]
CACHE_TEXT = (
    "`tessera-compile MODEL --target tile-1472 -o OUT` against the same "
    "command with `--executable_cache_dir=DIR` once DIR holds the entry "
    "(a hit: the model is read and hashed, the entry read and verified, "
    "nothing compiled). Target: hit / full ≤ 0.05.")


QUALITY_HEADER = ["model", "preset", "peak / bound (worst tile)",
                  "max tile bytes", "max / mean", "padding waste %",
                  "tiles out of memory", "compatible %",
                  "conv weight exchange runs (worst)"]

EXCHANGE_RE = re.compile(
    r'tile\.exchange "([^"]*)" \S+ -> \S+ copies \[([^\]]*)\]')


def conv_weight_runs(dump_dir):
    """The most copy runs of one convolution weight exchange (`NAME.weights`
    or `NAME.weights.replicate`) in the compiled tile program, or None."""
    worst = None
    for root, _, files in os.walk(dump_dir):
        for f in files:
            if not f.endswith(".after_optimizations.mlir"):
                continue
            with open(os.path.join(root, f)) as text:
                for line in text:
                    m = EXCHANGE_RE.search(line)
                    if not m or ".weights" not in m.group(1):
                        continue
                    runs = (m.group(2).count(",") + 1) // 8
                    worst = max(worst or 0, runs)
    return worst


def quality_of(model, target, work):
    """One compile with reports: (name, target, memory report, compat %)."""
    name = os.path.basename(model)
    progress(f"quality {name} on {target}")
    out = os.path.join(work, name + "." + target)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    run_once(compile_cmd(model, target, out) +
             ["--dump_to=" + os.path.join(out, "dumps")])
    report = os.path.join(out, "r")
    return (name, target, memory_figures(report), compat_percent(report),
            conv_weight_runs(os.path.join(out, "dumps")))


def quality_row(name, target, mem, compat, weight_runs=None):
    runs = "—" if weight_runs is None else f"{weight_runs:,}"
    if not mem:
        return [name, target, "—", "—", "—", "—", "—", fmt(compat, 1), runs]
    s = mem["summary"]
    worst = s["worst_peak_to_lower_bound"]
    peak = s["max_tile_including_gaps"]["bytes"]
    mean = s["mean_used_tile_bytes"]
    pad = s["padding"]
    waste = 100.0 * pad["extra_bytes"] / pad["padded_bytes"] \
        if pad["padded_bytes"] else 0.0
    return [name, target, f"{worst['ratio']:.4f} (tile {worst['tile']})",
            f"{peak:,}", fmt(peak / mean if mean else None, 2),
            fmt(waste, 1), s["tiles_out_of_memory"], fmt(compat, 1), runs]


def worst_ratio_sentence(quality_rows):
    worst = None
    for row in quality_rows:
        if row[2] == "—":
            continue
        ratio = float(row[2].split()[0])
        if worst is None or ratio > worst[0]:
            worst = (ratio, row[0], row[1], row[2])
    if worst is None:
        return "No memory reports (corpus absent)."
    return (f"**Worst allocator peak / lower bound over the corpus: "
            f"{worst[0]:.4f}** ({worst[1]} on {worst[2]}, {worst[3]}).")


def write_report(args, info, runs, compile_rows, quality_rows, scaling_rows,
                 ratio, overhead_rows, reference_rows, memory_timings,
                 rows_cache):
    cmd = "python3 bench/run.py" + (" --quick" if args.quick else
                                    f" --runs {args.runs}")
    lines = [
        "# Benchmarks",
        "",
        "Written by `" + cmd + "` (`bash scripts/bench.sh` builds first and "
        "runs it). Times are medians of " + str(runs) + " run(s), wall clock; "
        "RSS is the peak resident set of the process. Nothing here is "
        "asserted by a test.",
        "",
        "Machine: " + ", ".join(f"{k} {v}" for k, v in info.items()) + ".",
        "",
        "## Full compile and parse-print",
        "",
        "Full compile: `tessera-compile MODEL --target T -o OUT --profiling "
        "--report_directory DIR --compile_trace FILE --events FILE` (import, "
        "compatibility, lowering, tensor map, instruction info and every "
        "report, events on). Parse-print: `/usr/lib/llvm-19/bin/mlir-opt "
        "--load-dialect-plugin=build/lib/libTesseraPlugin.so MODULE.mlir -o "
        "/dev/null` on the same module (the imported tgraph text for HLO, "
        "the TOSA file itself), measured in the same run. Target: full "
        "compile ≤ 10× parse-print.",
        "",
        table(["model", "preset", "ops", "compile s", "RSS MiB", "ops/s",
               "parse-print s", "compile / parse-print"], compile_rows),
        "",
        "### Executable cache",
        "",
        CACHE_TEXT,
        "",
        table(CACHE_HEADER, rows_cache),
        "",
        "## Scaling",
        "",
        f"`{SCALING_GRAPH_TEXT}` "
        "(conv + transformer blocks), compiled for tile-1472 with reports "
        "off. The 100k graph is run once. Target: time(100k) / time(10k) "
        "≤ 10.5.",
        "",
        table(["ops", "compile s", "RSS MiB", "ops/s"], scaling_rows),
        "",
        "time(100k) / time(10k) = " + fmt(ratio) + ".",
        "",
        "## Tracing overhead",
        "",
        "The full compile above with every report, events and the compile "
        "trace on, against the same compile with all of them off. Target: "
        "≤ 1.10×.",
        "",
        table(["model", "off s", "on s", "on / off"], overhead_rows),
        "",
        "## Quality",
        "",
        "From each full compile's memory and compatibility reports "
        "([docs/memory.md](docs/memory.md)): the allocator's peak over the "
        "liveness lower bound on the worst tile, the most loaded tile's "
        "bytes (including gaps and program overheads) and its ratio to the "
        "mean used tile, padding waste (extra bytes over padded bytes of "
        "all buffers), tiles out of memory, compatible ops. Targets: peak / "
        "bound ≤ 1.05, max / mean ≤ 1.25.",
        "",
        table(QUALITY_HEADER, quality_rows),
        "",
        worst_ratio_sentence(quality_rows),
        "",
        "Memory pass timings, per model and preset (`bash "
        "bench/memory-corpus.sh build ../shared/corpus`):",
        "",
        "```",
        memory_timings.rstrip(),
        "```",
        "",
        "## Reference: upstream TOSA pipeline",
        "",
        table(["model", "s", "RSS MiB", "command"], reference_rows),
        "",
    ]
    # The issue-16 goal rows come from bench/compile_goals.py, the model
    # device's figures from bench/runtime.py, the execution profiles' from
    # bench/profile.py, tessera-prof's streaming from bench/prof_stream.py,
    # the tensor map's from bench/tensor_map.py, the multi-chip figures from
    # bench/multichip.py, the LSTM seq2seq step's from bench/lstm_seq2seq.py,
    # the report sizes from bench/report_size.py, the scaling pair's counted
    # costs from bench/scaling_profile.py. Sections edited by hand in
    # BENCHMARKS.md are edited in these files too, or a rerun loses them.
    for name in ["compile-goals-results.md", "scaling-profile-results.md",
                 "report-size-results.md",
                 "runtime-results.md",
                 "profile-results.md", "prof-stream-results.md",
                 "tensor-map-results.md", "multichip-results.md",
                 "lstm-seq2seq-results.md"]:
        path = os.path.join(ROOT, "bench", name)
        if os.path.exists(path):
            with open(path) as f:
                lines += [f.read()]
    findings = os.path.join(ROOT, "bench", "findings.md")
    if os.path.exists(findings):
        with open(findings) as f:
            lines += [f.read()]
    write_results(args.output, lines)


if __name__ == "__main__":
    main()
