"""Checks a tensor map read from stdin; prints '<model> <target>: ok' or the
first problem. Arguments: tile count, model name, target name."""
import json
import sys

tiles, model, target = int(sys.argv[1]), sys.argv[2], sys.argv[3]
text = sys.stdin.read()
try:
    doc = json.loads(text)
except ValueError as e:
    print(f"{model} {target}: not JSON: {e}")
    sys.exit(0)
problems = []
entries = 0
for computation, tensors in doc.get("mappings", {}).items():
    for t in tensors:
        entries += 1
        (hlo, index, shape, dtype, const, alias, total, listed, name) = t
        # Runs [first, last, each] (the default) stand for a pair per tile.
        per_tile = []
        for item in listed:
            if len(item) == 3:
                if item[1] < item[0]:
                    problems.append(f"{name}: run {item} ends before it starts")
                per_tile += [(tile, item[2])
                             for tile in range(item[0], item[1] + 1)]
            else:
                per_tile.append(tuple(item))
        seen = set()
        for tile, n in per_tile:
            if not 0 <= tile < tiles:
                problems.append(f"{name}: tile {tile} outside {tiles}")
            if tile in seen or n <= 0:
                problems.append(f"{name}: tile {tile} listed twice or empty")
            seen.add(tile)
        count = 1
        for d in shape:
            count *= d
        if sum(n for _, n in per_tile) != total or count != total:
            problems.append(f"{name}: {sum(n for _, n in per_tile)} mapped "
                            f"elements, shape has {count}, total {total}")
if entries == 0:
    problems.append("no tensors")
print(f"{model} {target}: " + ("ok" if not problems else problems[0]))
