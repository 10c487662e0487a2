"""Checks that a compact memory report (tessera-compile's default) and a
complete one (--memory_report_format=complete) of the same compile
describe the same data: the compact one expanded by the Python reader
(tessera_profile.expand_memory_report) is the complete one but for what
the compact form leaves out (docs/memory.md, "Compact and complete
reports"), and the complete one's per-step costs sum per op to the compact
one's `cost.ops`. Prints '<label>: same report, ...' or the first
difference. Arguments: compact events, complete events, label."""
import collections
import sys

import tessera_profile as tp


def memory(path, expand):
    reports = tp.extract_memory_reports(tp.read_events(path), expand=expand)
    return reports[-1].data


def first_difference(a, b, where="report"):
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                return f"{where}.{key} is in one report only"
            d = first_difference(a[key], b[key], f"{where}.{key}")
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{where}: {len(a)} entries against {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{where}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{where}: {a!r} against {b!r}"


compact_path, complete_path, label = sys.argv[1:4]
raw = memory(compact_path, expand=False)
complete = memory(complete_path, expand=False)
problems = []
if raw.get("format") != "compact" or complete.get("format") != "complete":
    problems.append(f"format {raw.get('format')} and "
                    f"{complete.get('format')}, expected compact and complete")
# The compact shapes are there (the comparison is not of two copies).
if "columns" not in raw["buffers"] or "steps" in raw["cost"]:
    problems.append("the compact report is not compact")

# Per op, the sum of the complete report's steps.
sums = collections.defaultdict(collections.Counter)
for s in complete["cost"]["steps"]:
    if s["kind"] in ("sync", "repeat", "if"):
        continue
    sums[s["op"]]["steps"] += 1
    for key in ("cycles", "flops", "padded_flops", "bytes_moved"):
        sums[s["op"]][key] += s[key]
expanded = tp.expand_memory_report(raw)
for op in expanded["cost"]["ops"]:
    for key, value in sums.pop(op["op"], {}).items():
        if op[key] != value:
            problems.append(f"cost.ops {op['op']} {key}: {op[key]}, "
                            f"its steps sum to {value}")
if sums:
    problems.append(f"steps of ops not in cost.ops: {sorted(sums)[:3]}")

expected = dict(complete, format="compact")
expected["cost"] = {k: v for k, v in complete["cost"].items() if k != "steps"}
difference = first_difference(expanded, expected)
if difference:
    problems.append(difference)
if problems:
    print(f"{label}: differ: " + "; ".join(problems[:3]))
    sys.exit(1)
live = sum(len(o.get("live_at_peak", [])) for o in expanded["out_of_memory"])
print(f"{label}: same report, {len(expanded['buffers'])} buffers, "
      f"{len(expanded['memory_viewer']['heap'])} points, "
      f"{len(expanded['out_of_memory'])} out-of-memory entries with "
      f"{live} live buffers")
