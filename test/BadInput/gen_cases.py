#!/usr/bin/env python3
"""Writes the bad-input corpus (docs/limits.md, "The bad-input corpus").

  gen_cases.py OUT_DIR SEEDS_DIR

Every case is a malformed or hostile input to one of the tools, written
under OUT_DIR/<family>/, and a line of OUT_DIR/cases.json saying how to run
it and what must happen:

  argv      the command (tool name first; {case} is the case's folder)
  expect    "error": a non-zero exit (not a signal) and an error message
            naming `names` (the input's file name, by default), or
            "any": either exit, but no crash (the input is legal to some
            and not to others, or is accepted by design)
  keep      files that exist before the run and must be unchanged after
  absent    files that must not exist after the run (no partial output)

Inputs are derived from SEEDS_DIR's small valid files (mlp.hlo, a tgraph
module, an executable, an event file, a target) by truncation, byte
flips, token swaps and hand-written hostile forms; the generator is
deterministic (a fixed seed), so a failing case keeps its name.
"""

import json
import os
import random
import struct
import sys

OUT, SEEDS = sys.argv[1], sys.argv[2]
rng = random.Random(1234)
cases = []


def write(family, name, data):
    folder = os.path.join(OUT, family)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, name)
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)
    return path


def case(family, name, argv, expect="error", names=None, keep=(), absent=()):
    cases.append({"name": f"{family}/{name}", "argv": argv, "expect": expect,
                  "names": names if names is not None else [],
                  "keep": list(keep), "absent": list(absent)})


def seed(name, mode="r"):
    with open(os.path.join(SEEDS, name), mode) as f:
        return f.read()


def truncations(data, count):
    """`count` prefixes of `data`, spread over its length (never whole)."""
    n = len(data)
    return sorted({max(0, (n * k) // (count + 1)) for k in range(1, count + 1)})


# --- HLO text: tessera-translate and tessera-compile ----------------------
hlo = seed("mlp.hlo")
for cut in truncations(hlo, 24):
    p = write("hlo", f"cut{cut}.hlo", hlo[:cut])
    case("hlo", f"cut{cut}", ["tessera-translate", "--import-hlo", p, "-o",
                              os.devnull], names=[os.path.basename(p)])
tokens = hlo.replace("(", " ( ").replace(")", " ) ").replace(",", " , ").split(" ")
garbage = ["", "%", "f32[", "]", "{", "}", "(", ")", "=", "ROOT", "-1",
           "99999999999999999999", "f32[-3]", "\x00", "\u00e9\u00e9", "nan",
           "dimensions={7}", "add(", "HloModule"]
for i in range(60):
    t = list(tokens)
    k = rng.randrange(len(t))
    t[k] = rng.choice(garbage)
    text = " ".join(t)
    if text == hlo:
        continue
    p = write("hlo", f"token{i}.hlo", text)
    case("hlo", f"token{i}", ["tessera-translate", "--import-hlo", p, "-o",
                              os.devnull], expect="any")
hostile_hlo = {
    "int64-elements": "HloModule m\nENTRY e { ROOT p = f32[9223372036854775807] parameter(0) }\n",
    "bytes-overflow": "HloModule m\nENTRY e { ROOT p = f32[2305843009213693952] parameter(0) }\n",
    "negative-dim": "HloModule m\nENTRY e { ROOT p = f32[-4] parameter(0) }\n",
    "rank-5000": "HloModule m\nENTRY e { ROOT p = f32[" + ",".join(["1"] * 5000) + "] parameter(0) }\n",
    "empty": "",
    "header-only": "HloModule m\n",
    "no-root": "HloModule m\nENTRY e { p = f32[4] parameter(0) }\n",
    "undefined-operand": "HloModule m\nENTRY e { ROOT a = f32[4] add(x, y) }\n",
    "self-call": "HloModule m\nc { ROOT r = f32[] call(), to_apply=c }\nENTRY e { ROOT r = f32[] call(), to_apply=c }\n",
    "deep-tuple": "HloModule m\nENTRY e { ROOT p = " + "(" * 3000 + "f32[]" + ")" * 3000 + " parameter(0) }\n",
    "long-name": "HloModule m\nENTRY e { ROOT " + "x" * 1000000 + " = f32[4] parameter(0) }\n",
    "slash-op-name": "HloModule m\nENTRY e { ROOT p = f32[4] parameter(0), metadata={op_name=\"" + "/" * 1000000 + "\"} }\n",
    "nul-bytes": "HloModule m\x00\x00\nENTRY e { ROOT p = f32[4] parameter(0) }\n",
    "bad-utf8": b"HloModule \xff\xfe\nENTRY e { ROOT p = f32[4] parameter(0) }\n",
    "wrong-operand-count": "HloModule m\nENTRY e { p = f32[4] parameter(0) ROOT a = f32[4] add(p) }\n",
    "shape-mismatch": "HloModule m\nENTRY e { p = f32[4] parameter(0) q = f32[5] parameter(1) ROOT a = f32[4] add(p, q) }\n",
    "bad-dtype": "HloModule m\nENTRY e { ROOT p = f33[4] parameter(0) }\n",
    "duplicate-param": "HloModule m\nENTRY e { p = f32[4] parameter(0) q = f32[4] parameter(0) ROOT a = f32[4] add(p, q) }\n",
    "constant-overflow": "HloModule m\nENTRY e { ROOT c = s8[] constant(300) }\n",
    "literal-mismatch": "HloModule m\nENTRY e { ROOT c = f32[3] constant({1, 2}) }\n",
    # A read past a cuBLAS call's (result, workspace) tuple, which the
    # importer folds away before the verifier sees it (a crash the lowering
    # fuzz target found).
    "library-tuple-index": "HloModule m\nENTRY e { a = f32[8,16] parameter(0) b = f32[16,12] parameter(1) "
                           "g = (f32[8,12], s8[0]) custom-call(a, b), custom_call_target=\"__cublas$gemm\", "
                           "backend_config={\"gemm_backend_config\":{\"alpha_real\":1,\"beta\":0,"
                           "\"dot_dimension_numbers\":{\"lhs_contracting_dimensions\":[\"1\"],"
                           "\"rhs_contracting_dimensions\":[\"0\"]}}} "
                           "ROOT r = f32[8,12] get-tuple-element(g), index=5 }\n",
    # Errors on a 1 MB line, naming a 1 MB token: the message must not
    # echo either whole (the 64 KiB stderr bound).
    "long-undefined-operand": "HloModule m\nENTRY e { ROOT a = f32[4] add(" + "x" * 1000000 + ", y) }\n",
    "long-line-error": "HloModule m\nENTRY e { ROOT p = f32[4] parameter(0), metadata={op_name=\"" + "x" * 1000000 + "\"} junk }\n",
}
chain = ["HloModule m"]
for i in range(20000):
    chain.append(f"c{i} {{ p = f32[] parameter(0) ROOT r = f32[] call(p), to_apply=c{i + 1} }}")
chain.append("c20000 { ROOT p = f32[] parameter(0) }")
chain.append("ENTRY e { p = f32[] parameter(0) ROOT r = f32[] call(p), to_apply=c0 }")
hostile_hlo["call-chain-20000"] = "\n".join(chain) + "\n"
# Legal, if hostile: XLA takes the last instruction as ROOT, has no rank
# limit below its int64 element count, and names may be long; the tools
# must accept them without a crash, a hang or an echo of the input.
legal_hlo = {"rank-5000", "no-root", "long-name", "slash-op-name",
             "call-chain-20000"}
for name, text in hostile_hlo.items():
    p = write("hlo", name + ".hlo", text)
    expect = "any" if name in legal_hlo else "error"
    out = os.path.join(OUT, "hlo", name + ".tessera")
    case("hlo", name, ["tessera-translate", "--import-hlo", p, "-o",
                       os.devnull], expect=expect, names=[os.path.basename(p)])
    case("hlo", name + "-compile", ["tessera-compile", p, "-o", out],
         expect=expect, names=[os.path.basename(p)],
         absent=[] if name in legal_hlo else [out])
for special in ["/dev/zero", "/dev/null", OUT]:
    case("hlo", "special" + special.replace("/", "-"),
         ["tessera-translate", "--import-hlo", special, "-o", os.devnull],
         names=[special])
case("hlo", "missing", ["tessera-translate", "--import-hlo",
                        os.path.join(OUT, "no-such.hlo"), "-o", os.devnull],
     names=["no-such.hlo"])

# --- MLIR input: tessera-opt and tessera-compile ---------------------------
mlir = seed("model.mlir")
for cut in truncations(mlir, 20):
    # A prefix may end after a comment or a whole op: any outcome.
    p = write("mlir", f"cut{cut}.mlir", mlir[:cut])
    case("mlir", f"cut{cut}", ["tessera-opt", p, "-o", os.devnull],
         expect="any")
hostile_mlir = {
    "deep-tuple": "func.func @main(%x: " + "tuple<" * 5000 + "f32" + ">" * 5000 + ") { return }\n",
    "deep-array": "module attributes {a = " + "[" * 5000 + "]" * 5000 + "} {}\n",
    "unknown-op": "func.func @main() { \"tgraph.frobnicate\"() : () -> () return }\n",
    "wrong-types": "func.func @main(%a: tensor<4xf32>, %b: tensor<5xf32>) -> tensor<4xf32> {\n  %0 = tgraph.add %a, %b : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n",
    "unregistered": "func.func @main() { %0 = \"nope.op\"() : () -> i32 return }\n",
    "binary": bytes(range(256)) * 4,
    "no-entry": "func.func private @f() { return }\n",
    # Past the nesting bound (docs/limits.md): MLIR's parser would
    # overflow its stack.
    "tuple-100000": "func.func @main(%x: " + "tuple<" * 100000 + "f32" + ">" * 100000 + ") { return }\n",
    "array-100000": "module attributes {a = " + "[" * 100000 + "]" * 100000 + "} {}\n",
}
# tessera-opt only parses and verifies: a deep but valid type, or a module
# without an entry, is fine there; tessera-compile needs an entry.
legal_mlir = {"deep-tuple", "no-entry"}
for name, text in hostile_mlir.items():
    p = write("mlir", name + ".mlir", text)
    out = os.path.join(OUT, "mlir", name + ".tessera")
    case("mlir", name, ["tessera-opt", p, "-o", os.devnull],
         expect="any" if name in legal_mlir else "error",
         names=[os.path.basename(p)])
    case("mlir", name + "-compile", ["tessera-compile", p, "-o", out],
         expect="any" if name == "deep-tuple" else "error",
         names=[os.path.basename(p)],
         absent=[] if name == "deep-tuple" else [out])

# --- Target JSON: tessera-opt --print-target -------------------------------
target = json.loads(seed("target.json"))
bad_values = {
    "chips": [0, -1, 5000, "two", 1.5, None],
    "tiles_per_chip": [0, 10**9, 10**12, -5, "many"],
    "sram_bytes_per_tile": [0, -1, 2**63, "big"],
    "alignment_bytes": [3, 0, 2**62, -8],
    "clock_hz": [0, -1, "fast"],
    "vector_width": [{"f32": 2**40}, {"f32": 0}, {"nope": 2}, []],
    "layout_tile": [[0, 4], [-1], "x", [1, 2, 3, 4, 5, 6, 7, 8, 9]],
    "dtypes": [["f99"], "f32", [], [1]],
    "name": ["", 5, None],
}
for field, values in bad_values.items():
    for i, v in enumerate(values):
        t = dict(target)
        t[field] = v
        p = write("target", f"{field}-{i}.json", json.dumps(t))
        case("target", f"{field}-{i}", ["tessera-opt", f"--print-target={p}"],
             names=[os.path.basename(p)])
for field in ["tiles_per_chip", "sram_bytes_per_tile", "name"]:
    t = {k: v for k, v in target.items() if k != field}
    p = write("target", f"missing-{field}.json", json.dumps(t))
    case("target", f"missing-{field}", ["tessera-opt", f"--print-target={p}"],
         expect="any")
t = dict(target)
t["tiles_per_chipp"] = 4
p = write("target", "typo.json", json.dumps(t))
case("target", "typo", ["tessera-opt", f"--print-target={p}"],
     names=["typo.json"])
text = json.dumps(target)
for cut in truncations(text, 12):
    p = write("target", f"cut{cut}.json", text[:cut])
    case("target", f"cut{cut}", ["tessera-opt", f"--print-target={p}"],
         names=[os.path.basename(p)])
p = write("target", "deep.json", "[" * 100000 + "]" * 100000)
case("target", "deep", ["tessera-opt", f"--print-target={p}"], names=["deep.json"])
for special in ["/dev/zero", OUT]:
    case("target", "special" + special.replace("/", "-"),
         ["tessera-opt", f"--print-target={special}"], names=[special])

# --- TESSERA_FLAGS and flag files: tessera-compile -------------------------
model = os.path.join(SEEDS, "mlp.hlo")
bad_flags = ["--no_such_flag", "--profiling=maybe", "--max_report_size=abc",
             "--max_report_size=-5", "--max_report_size=99999999999999999999999",
             "--report_format=xml", "--dump_pass_re=(", "--profile_execution=all",
             "--report_every_nth_execution=-1", "/dev/zero",
             os.path.join(OUT, "no-such.flags"), "--show_progress_bar=2",
             "--=1", "'unterminated", "--max_report_size", OUT]
for i, flag in enumerate(bad_flags):
    out = os.path.join(OUT, "flags", f"f{i}.tessera")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    case("flags", f"env{i}", ["env", "TESSERA_FLAGS=" + flag, "tessera-compile",
                              model, "-o", out], names=["TESSERA_FLAGS"],
         absent=[out])
self_include = write("flags", "self.flags", os.path.join(OUT, "flags", "self.flags") + "\n")
case("flags", "self-include", ["env", "TESSERA_FLAGS=" + self_include,
                               "tessera-compile", model, "-o", os.devnull],
     names=["self.flags"])
fan = []
for i in range(10):
    fan.append(write("flags", f"fan{i}.flags", "\n".join(
        os.path.join(OUT, "flags", f"fan{j}.flags") for j in range(10)) + "\n"))
case("flags", "fan-out", ["env", "TESSERA_FLAGS=" + fan[0],
                          "tessera-compile", model, "-o", os.devnull],
     names=["fan"])
p = write("flags", "binary.flags", bytes(range(256)))
case("flags", "binary-file", ["env", "TESSERA_FLAGS=" + p,
                              "tessera-compile", model, "-o", os.devnull],
     names=["binary.flags"])

# --- Event files: tessera-prof -------------------------------------------
events = seed("run.events", "rb")
for cut in truncations(events, 30):
    p = write("events", f"cut{cut}.events", events[:cut])
    case("events", f"cut{cut}", ["tessera-prof", p, "events"], expect="any")
    case("events", f"cut{cut}-export",
         ["tessera-prof", p, "export", "--ndjson=" + os.path.join(OUT, "events", f"cut{cut}.ndjson")],
         expect="any")
for i in range(30):
    b = bytearray(events)
    k = rng.randrange(len(b))
    b[k] ^= 1 << rng.randrange(8)
    p = write("events", f"flip{i}.events", bytes(b))
    case("events", f"flip{i}", ["tessera-prof", p, "summary"], expect="any")
header = events[:16]
hostile_events = {
    "bad-magic": b"NOTANEVENTFILE!!" + events[16:],
    "huge-length": header + b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01" + b"x" * 32,
    "zero-records": header + b"\x00" * 4096,
    "garbage": bytes(rng.randrange(256) for _ in range(4096)),
    "empty": b"",
}
for name, data in hostile_events.items():
    p = write("events", name + ".events", data)
    for command in (["events"], ["overview"], ["tensor-map"], ["sql", "SELECT COUNT(*) FROM events"]):
        # A readable header with damage after it is a success with a
        # warning (docs/events.md); a file that is not an event file is not.
        case("events", f"{name}-{command[0]}", ["tessera-prof", p, *command],
             expect="error" if name in ("bad-magic", "garbage") else "any")
for special in ["/dev/zero", OUT]:
    case("events", "special" + special.replace("/", "-"),
         ["tessera-prof", special, "events"], expect="any")

# --- Executables: tessera-run ----------------------------------------------
exe = seed("model.tessera", "rb")
for cut in truncations(exe, 20):
    p = write("exe", f"cut{cut}.tessera", exe[:cut])
    case("exe", f"cut{cut}", ["tessera-run", p], names=[os.path.basename(p)])
for i in range(20):
    b = bytearray(exe)
    k = rng.randrange(len(b))
    b[k] ^= 1 << rng.randrange(8)
    p = write("exe", f"flip{i}.tessera", bytes(b))
    case("exe", f"flip{i}", ["tessera-run", p], names=[os.path.basename(p)])
for special in ["/dev/zero", "/dev/null", OUT]:
    case("exe", "special" + special.replace("/", "-"), ["tessera-run", special],
         names=[special])

# --- .npy inputs: tessera-run --inputs -------------------------------------
def npy(descr, shape, payload, magic=b"\x93NUMPY", version=b"\x01\x00"):
    head = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
    head = head.encode() + b" " * (63 - (len(head) + 10) % 64) + b"\n"
    return magic + version + struct.pack("<H", len(head)) + head + payload


npys = {
    "wrong-dtype": npy("<i4", "(8, 16)", b"\0" * 512),
    "wrong-shape": npy("<f4", "(16, 8)", b"\0" * 512),
    "short-data": npy("<f4", "(8, 16)", b"\0" * 100),
    "bad-magic": npy("<f4", "(8, 16)", b"\0" * 512, magic=b"NOTNPY"),
    "bad-version": npy("<f4", "(8, 16)", b"\0" * 512, version=b"\x09\x00"),
    "huge-shape": npy("<f4", "(9223372036854775807, 16)", b""),
    "bad-header": b"\x93NUMPY\x01\x00\x10\x00{'descr': '<f4\n",
    "empty": b"",
}
exe_path = os.path.join(SEEDS, "model.tessera")
for name, data in npys.items():
    folder = os.path.join(OUT, "npy", name)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "arg0.npy"), "wb") as f:
        f.write(data)
    case("npy", name, ["tessera-run", exe_path, "--inputs=" + folder],
         names=["arg0.npy"])

# --- Output paths: tessera-compile -o ------------------------------------
os.makedirs(os.path.join(OUT, "out"), exist_ok=True)
victim = write("out", "model-copy.hlo", hlo)
case("out", "output-is-input", ["tessera-compile", victim, "-o", victim],
     names=["model-copy.hlo"], keep=[victim])
case("out", "output-is-folder", ["tessera-compile", model, "-o", os.path.join(OUT, "out")])
case("out", "output-in-missing-folder",
     ["tessera-compile", model, "-o", os.path.join(OUT, "out", "no", "such", "x.tessera")])
case("out", "output-dev-full", ["tessera-compile", model, "-o", "/dev/full"])
case("out", "events-is-output",
     ["tessera-compile", model, "-o", os.path.join(OUT, "out", "a.tessera"),
      "--profiling", "--events=" + os.path.join(OUT, "out", "a.tessera")],
     absent=[os.path.join(OUT, "out", "a.tessera")])
prior = write("out", "prior.tessera", "previous output\n")
bad_model = os.path.join(OUT, "hlo", "undefined-operand.hlo")
case("out", "failed-compile-keeps-prior", ["tessera-compile", bad_model, "-o", prior],
     keep=[prior])
case("out", "empty-output-name", ["tessera-compile", model, "-o", ""])

with open(os.path.join(OUT, "cases.json"), "w") as f:
    json.dump(cases, f, indent=0)
print(f"{len(cases)} cases")
