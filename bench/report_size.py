#!/usr/bin/env python3
"""Report size (issue 16): the default reports' total bytes against the
model's text bytes, per corpus model on tile-1472 and core-8.

Each model is compiled as bench/run.py's full compile does (`--profiling
--report_directory=DIR`, events and the compile trace beside it) into a
fresh folder, so the executable cache (off unless
--executable_cache_dir is given) never answers instead of the pipeline.
The reports are the files of the report directory. For the largest
report, the bytes of its largest sections (each JSON value's compact
serialization, two levels deep) say what dominates.

Writes bench/report-size-results.md (bench/run.py copies it into
BENCHMARKS.md).

  python3 bench/report_size.py [--corpus ../shared/corpus]
      [--targets tile-1472,core-8] [--flags '--memory_report_format=...']
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as common  # noqa: E402  (bench/run.py's helpers)

ROOT = common.ROOT


def report_files(folder):
    """(path relative to the report directory, bytes) of every report."""
    out = []
    for root, _, files in os.walk(folder):
        for f in files:
            p = os.path.join(root, f)
            out.append((os.path.relpath(p, folder), os.path.getsize(p)))
    return sorted(out, key=lambda e: -e[1])


def json_bytes(value):
    return len(json.dumps(value, separators=(",", ":")))


def largest_sections(path, count=3):
    """The `count` largest sections of a JSON report, two levels deep,
    as 'key.sub' with their bytes."""
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return []
    sections = []
    if not isinstance(doc, dict):
        return sections
    for key, value in doc.items():
        if isinstance(value, dict) and value:
            for sub, inner in value.items():
                sections.append((key + "." + sub, json_bytes(inner)))
        else:
            sections.append((key, json_bytes(value)))
    return sorted(sections, key=lambda s: -s[1])[:count]


def measure(model, target, work, extra_flags):
    out = os.path.join(work, "out")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    env = dict(os.environ)
    if extra_flags:
        env["TESSERA_FLAGS"] = (env.get("TESSERA_FLAGS", "") + " " +
                                extra_flags).strip()
    subprocess.run(common.compile_cmd(model, target, out), check=True,
                   env=env, stdout=subprocess.DEVNULL)
    folder = os.path.join(out, "r")
    files = report_files(folder)
    total = sum(size for _, size in files)
    largest, largest_size = files[0] if files else ("-", 0)
    sections = largest_sections(os.path.join(folder, largest))
    return total, largest, largest_size, sections


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus",
                        default=os.path.join(ROOT, "..", "shared", "corpus"))
    parser.add_argument("--targets", default="tile-1472,core-8")
    parser.add_argument("--flags", default="",
                        help="TESSERA_FLAGS added to every compile")
    parser.add_argument("--output",
                        default=os.path.join(ROOT, "bench",
                                             "report-size-results.md"))
    args = parser.parse_args()

    rows, worst = [], None
    with tempfile.TemporaryDirectory(prefix="tessera-report-size-") as work:
        for model in common.corpus_models(args.corpus):
            name = os.path.basename(model)
            size = os.path.getsize(model)
            for target in args.targets.split(","):
                common.progress(f"{name} on {target}")
                total, largest, largest_size, sections = measure(
                    model, target, work, args.flags)
                ratio = total / size
                if worst is None or ratio > worst[0]:
                    worst = (ratio, name, target)
                rows.append([name, target, f"{size:,}", f"{total:,}",
                             f"{ratio:.1f}", f"{largest} ({largest_size:,})",
                             ", ".join(f"{k} {b:,}" for k, b in sections)])

    flags = f" with `TESSERA_FLAGS={args.flags}`" if args.flags else ""
    command = "python3 bench/report_size.py"
    if args.flags:
        command += " --flags " + repr(args.flags)
    commit = common.machine()["commit"]
    lines = [
        "### Report size",
        "",
        f"`{command}` (commit {commit}): every corpus model compiled as "
        "`tessera-compile MODEL --target T -o OUT --profiling "
        "--report_directory=DIR --compile_trace=FILE --events FILE`" + flags +
        ", into a fresh folder (no executable cache); the reports are the "
        "files of DIR; bytes of the largest report's largest sections are "
        "their compact JSON. Goal: reports / model text ≤ 10× on the worst "
        "model.",
        "",
        common.table(["model", "target", "model bytes", "report bytes",
                      "reports / model", "largest report (bytes)",
                      "its largest sections (bytes)"], rows),
        "",
        f"Worst: {worst[0]:.1f}× ({worst[1]} on {worst[2]}).",
        "",
    ]
    common.write_results(args.output, lines)


if __name__ == "__main__":
    main()
