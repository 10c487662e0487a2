"""Checks that two tensor maps of one compile, one with runs and one with a
[tile, elements] pair per tile, describe the same mapping: each converted
into the other's form (tessera_profile.convert_tensor_map) is the other.
Prints '<label>: same mapping, N tensors, R runs for P tiles' or the first
difference. Arguments: runs map, tiles map (files, or event files with
--events), label."""
import json
import sys

import tessera_profile as tp


def load(path, events):
    if events:
        return tp.extract_tensor_map(tp.read_events(path))
    with open(path) as f:
        return json.load(f)


def first_difference(a, b):
    for computation in sorted(set(a["mappings"]) | set(b["mappings"])):
        x = a["mappings"].get(computation)
        y = b["mappings"].get(computation)
        if x is None or y is None:
            return f"computation {computation} is in one map only"
        if len(x) != len(y):
            return f"{computation}: {len(x)} tensors against {len(y)}"
        for ex, ey in zip(x, y):
            if ex != ey:
                return f"{computation}: {ex[-1]}: {ex[7][:4]} against {ey[7][:4]}"
    return None


args = [a for a in sys.argv[1:] if a != "--events"]
events = "--events" in sys.argv
runs, tiles, label = load(args[0], events), load(args[1], events), args[2]
problems = []
if runs.get("tile_format") != "runs" or tiles.get("tile_format") != "tiles":
    problems.append(f"tile_format {runs.get('tile_format')} and "
                    f"{tiles.get('tile_format')}, expected runs and tiles")
for want, got, name in [(tiles, tp.convert_tensor_map(runs, "tiles"),
                         "runs as tiles"),
                        (runs, tp.convert_tensor_map(tiles, "runs"),
                         "tiles as runs")]:
    diff = first_difference(want, got)
    if diff:
        problems.append(f"{name} differ: {diff}")
entries = [e for es in runs["mappings"].values() for e in es]
pairs = sum(len(e[7]) for es in tiles["mappings"].values() for e in es)
if problems:
    print(f"{label}: " + problems[0])
else:
    print(f"{label}: same mapping, {len(entries)} tensors, "
          f"{sum(len(e[7]) for e in entries)} runs for {pairs} tiles")
