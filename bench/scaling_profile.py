#!/usr/bin/env python3
"""Where the compile scales worse than the graph: instructions and cache
misses of the scaling pair, by phase, counted rather than timed.

compile_goals.py's time(large) / time(10k) moves by about ±0.5 from run
to run on a shared machine, more than most changes to the compile move
it. This counts instead: valgrind's callgrind runs tessera-compile on the
two bench/gen_hlo.py graphs of the scaling goal (reports off, tile-1472)
with its cache simulation, an L2-sized last level (--l2; by default
this host's per-core L2 as sysfs gives it, 2 MiB on the Intel Xeon host
of BENCHMARKS.md, whose lscpu sums its two cores' to "4 MiB"; the 10k
graph's hot tables fit in it, the 100k graph's do not). Each phase's instructions (Ir) and simulated
L2 misses (data reads and writes that miss the last level) are its
inclusive costs, the calls it makes included, summed over threads.

The counts barely move between runs of one binary (two runs at e09bba0:
instructions within 0.04%, misses within 3%; the allocator's functions
move more, as its threads interleave differently on the one simulated
cache), so a change's effect on how the compile scales is read without
the machine's noise: an instruction ratio above the ops' (10 for the
default pair) is work that grows faster than the graph (an algorithm), a
miss ratio above it a working set outgrowing the cache (layout and table
sizes). The simulation has no prefetcher: a sequential pass counts a
miss per line, which the hardware's prefetching mostly hides, and a
pointer chase (a hash table's probe, an attribute's storage) counts one
that nothing hides. The wall-time ratio is roughly the instruction ratio
plus the misses' cost; which of them to work on is read per phase.

  python3 bench/scaling_profile.py [--small 10000] [--large 100000]
                                   [--l2 BYTES] [--top 15]

Needs valgrind (scripts/setup.sh --profile). Takes some 8 minutes on
one core, the 100k graph most of them (about 100 times its compile's
time). Writes bench/scaling-profile-results.md.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as common  # noqa: E402  (bench/run.py's helpers)

ROOT = common.ROOT
TARGET = "tile-1472"

# Phases by the function whose inclusive cost is the phase's (the largest
# entry matching, by regex over callgrind's demangled names). The
# allocator places lists on helper threads too, whose costs are under the
# pool's task loop, not under analyzeMemory; the uniquer and the verifier
# are counted across the phases that call them.
PHASES = [
    ("whole process", r"^PROGRAM TOTALS$"),
    ("import (HLO text to tgraph)", r"tessera::importHloText\("),
    ("passes and executable", r"tessera::Compiler::compile\(mlir::ModuleOp"),
    ("  compatibility", r"CompatPass::runOnOperation\(\)"),
    ("  lowering to tile", r"TGraphToTilePass::runOnOperation\(\)"),
    ("  memory analysis (main thread)", r"tessera::memory::analyzeMemory\("),
    ("    liveness", r"tessera::memory::computeLiveness\("),
    ("  allocation on helper threads", r"llvm::StdThreadPool::processTasks\("),
    ("  executable", r"tessera::writeExecutable\("),
    # Written as the memory analysis starts (beside it, on a thread of its
    # own, for a large module: Compiler.cpp), while the heap is small.
    ("  graph module bytecode", r"tessera::writeGraphModule"),
    ("across phases: storage uniquer",
     r"mlir::StorageUniquer::getParametricStorageTypeImpl\("),
    ("across phases: verifier", r"^mlir::verify\(mlir::Operation\*"),
]


def callgrind(binary, model, out_dir, l2, tag):
    """Runs one compile under callgrind; returns the profile's path."""
    profile = os.path.join(out_dir, f"callgrind.{tag}.out")
    cmd = ["valgrind", "--tool=callgrind", "--cache-sim=yes",
           f"--LL={l2},16,64", f"--callgrind-out-file={profile}", binary,
           model, "--target", TARGET, "-o", os.path.join(out_dir, f"{tag}.tx")]
    common.progress(f"callgrind: {os.path.basename(model)} (a few minutes)")
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stderr[-2000:]}")
    return profile


# A cost column: "1,234 ( 0.5%)", or "." for none.
COLUMN = r"(?:([\d,]+) \(\s*[\d.]+%\)|\.)"
ROW = re.compile(r"^\s*" + r"\s+".join([COLUMN] * 3) + r"\s+(\S.*)$")


def costs(profile, inclusive):
    """(name, [Ir, L2 read misses, L2 write misses]) per function."""
    text = subprocess.run(
        ["callgrind_annotate", f"--inclusive={'yes' if inclusive else 'no'}",
         "--show=Ir,DLmr,DLmw", "--threshold=100", profile],
        capture_output=True, text=True, check=True).stdout
    rows = []
    for line in text.splitlines():
        m = ROW.match(line)
        if not m:
            continue
        values = [int(x.replace(",", "")) if x else 0 for x in m.groups()[:3]]
        # "file:function [object]": the function alone.
        name = re.sub(r"\s*\[[^\]]*\]$", "", m.group(4))
        name = re.sub(r"^(\?\?\?|[^ :]*\.\w+):", "", name)
        rows.append((name, values))
    return rows


# Rows that are sums of others: how the work splits between the threads
# depends on the size (at 10k ops the main thread places most lists).
SUMS = [("  memory analysis, all threads",
         ["  memory analysis (main thread)",
          "  allocation on helper threads"])]


def phase_costs(rows):
    found = {}
    for label, pattern in PHASES:
        matches = [v for n, v in rows if re.search(pattern, n)]
        # Recursion lists a function more than once: its largest entry.
        found[label] = max(matches, key=lambda v: v[0]) if matches else None
    for label, parts in SUMS:
        values = [found[p] for p in parts]
        found[label] = (None if None in values else
                        [sum(v[i] for v in values) for i in range(3)])
    return found


def per_core_l2():
    """This host's L2 per core in bytes (sysfs: the level-2 cache of cpu0),
    or 2 MiB where sysfs does not say."""
    units = {"K": 1 << 10, "M": 1 << 20}
    base = "/sys/devices/system/cpu/cpu0/cache"
    try:
        for index in sorted(os.listdir(base)):
            folder = os.path.join(base, index)
            if not index.startswith("index") or \
                    open(os.path.join(folder, "level")).read().strip() != "2":
                continue
            text = open(os.path.join(folder, "size")).read().strip()
            return int(text[:-1]) * units[text[-1]] if text[-1] in units \
                else int(text)
    except (OSError, ValueError, IndexError, KeyError):
        pass
    return 2 << 20


def ratio(a, b):
    return f"{b / a:.2f}" if a else "-"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", type=int, default=10000)
    parser.add_argument("--large", type=int, default=100000)
    parser.add_argument("--l2", type=int, default=per_core_l2(),
                        help="simulated last-level cache bytes (16-way; "
                        "default: this host's per-core L2)")
    parser.add_argument("--top", type=int, default=15,
                        help="functions listed by misses beyond linear")
    parser.add_argument("-o", "--output",
                        default=os.path.join(ROOT, "bench",
                                             "scaling-profile-results.md"))
    args = parser.parse_args()
    for tool in ("valgrind", "callgrind_annotate"):
        if not shutil.which(tool):
            sys.exit(f"scaling_profile: {tool} not found "
                     "(bash scripts/setup.sh --profile installs it)")
    binary = os.path.join(common.BIN, "tessera-compile")
    work = tempfile.mkdtemp(prefix="tessera-scaling-profile-")
    try:
        profiles = []
        for n in (args.small, args.large):
            model = os.path.join(work, f"synthetic_{n}.hlo")
            common.scaling_graph(n, model)
            profiles.append(callgrind(binary, model, work, args.l2, str(n)))
        incl = [phase_costs(costs(p, True)) for p in profiles]
        self_costs = [dict(costs(p, False)) for p in profiles]
    finally:
        shutil.rmtree(work, ignore_errors=True)

    scale = args.large / args.small
    info = common.machine()
    lines = [
        "### Scaling profile: counted, not timed",
        "",
        f"Written by `python3 bench/scaling_profile.py --small {args.small} "
        f"--large {args.large}` at commit {info['commit']} "
        f"({info['date']}). callgrind with a simulated {args.l2 >> 20} MiB "
        "16-way last-level cache; the graphs are compile_goals.py's scaling "
        f"pair (`{common.SCALING_GRAPH_TEXT}`), compiled for tile-1472 "
        "with reports off. Inclusive costs, summed over threads; L2 misses "
        "are data reads and writes "
        f"that miss the simulated cache. A linear phase reads {scale:g}.",
        "",
        "| phase | Ir small | Ir large | Ir ratio | L2 misses small | "
        "L2 misses large | miss ratio |",
        "|---|---|---|---|---|---|---|",
    ]
    order = [label for label, _ in PHASES]
    for label, parts in SUMS:
        order.insert(order.index(parts[-1]) + 1, label)
    for label in order:
        a, b = incl[0][label], incl[1][label]
        if a is None or b is None:
            lines.append(f"| {label.strip()} | not found | | | | | |")
            continue
        ma, mb = a[1] + a[2], b[1] + b[2]
        indent = "&nbsp;" * (len(label) - len(label.lstrip()))
        lines.append(f"| {indent}{label.strip()} | {a[0]:,} | {b[0]:,} | "
                     f"{ratio(a[0], b[0])} | {ma:,} | {mb:,} | "
                     f"{ratio(ma, mb)} |")
    excess = []
    for name, b in self_costs[1].items():
        if name == "PROGRAM TOTALS":
            continue
        a = self_costs[0].get(name, [0, 0, 0])
        extra = (b[1] + b[2]) - scale * (a[1] + a[2])
        excess.append((extra, name, a, b))
    excess.sort(key=lambda r: r[0], reverse=True)
    lines += [
        "",
        f"Functions by their own L2 misses beyond {scale:g} times the "
        "smaller graph's (self costs):",
        "",
        "| misses beyond linear | Ir ratio | misses small | misses large | "
        "function |",
        "|---|---|---|---|---|",
    ]
    for extra, name, a, b in excess[:args.top]:
        short = name if len(name) <= 110 else name[:107] + "..."
        lines.append(f"| {extra:,.0f} | {ratio(a[0], b[0])} | "
                     f"{a[1] + a[2]:,} | {b[1] + b[2]:,} | "
                     f"`{short.replace('|', '&#124;')}` |")
    print("\n".join(lines))
    common.write_results(args.output, lines + [""])


if __name__ == "__main__":
    main()
