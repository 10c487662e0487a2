#!/usr/bin/env python3
"""Runs the bad-input corpus gen_cases.py wrote, and judges every case.

  run_cases.py BIN_DIR CASES_DIR

Each case runs with a time limit (20 s) and an address-space limit
(4 GiB; under AddressSanitizer a 4 GiB resident-memory limit), in
CASES_DIR as its working folder. A case fails when the tool
  - dies of a signal or hits a limit (a crash, an abort, a hang, unbounded
    memory), or a sanitizer reports an error,
  - exits 0 on an input the case says is an error, or prints no
    "error:" line, or a message that does not name the input,
  - writes more than 64 KiB to stderr (an echo of the whole input),
  - changes a file it must keep or leaves one that must be absent (a
    partial or clobbered output).
Prints one line per failing case and a summary; exits 1 if any failed.
"""

import hashlib
import json
import os
import resource
import subprocess
import sys

BIN, CASES = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
TIME_LIMIT = 20
MEMORY_LIMIT = 4 << 30
STDERR_LIMIT = 64 << 10


# Under AddressSanitizer (scripts/sanitize.sh) the address-space limit
# would stop ASan's shadow memory from being mapped: ASan bounds the
# resident memory instead, and its reports count as crashes.
SANITIZED = "ASAN_OPTIONS" in os.environ
if SANITIZED:
    os.environ["ASAN_OPTIONS"] += ":hard_rss_limit_mb=%d" % (MEMORY_LIMIT >> 20)


def limit():
    if not SANITIZED:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def resolve(argv):
    out = []
    for i, a in enumerate(argv):
        if a.startswith("tessera-"):
            a = os.path.join(BIN, a)
        out.append(a)
    return out


with open(os.path.join(CASES, "cases.json")) as f:
    cases = json.load(f)
failures = {"crash": [], "hang": [], "clobbered": [], "wrong": []}
for c in cases:
    kept = {p: digest(p) for p in c["keep"]}
    try:
        proc = subprocess.run(resolve(c["argv"]), cwd=CASES, capture_output=True,
                              timeout=TIME_LIMIT, preexec_fn=limit)
    except subprocess.TimeoutExpired:
        failures["hang"].append(f"{c['name']}: over {TIME_LIMIT} s")
        continue
    err = proc.stderr.decode("utf-8", errors="replace")
    sanitizer = "ERROR: AddressSanitizer" in err or "runtime error:" in err
    if proc.returncode < 0 or proc.returncode >= 128 or sanitizer:
        failures["crash"].append(
            f"{c['name']}: exit {proc.returncode}: {err.strip()[-300:]}")
        continue
    if any(os.path.exists(p) and digest(p) != h for p, h in kept.items()) or \
            any(not os.path.exists(p) for p in kept):
        failures["clobbered"].append(f"{c['name']}: changed {c['keep']}")
        continue
    if any(os.path.exists(p) for p in c["absent"]):
        failures["clobbered"].append(f"{c['name']}: left {c['absent']}")
        continue
    # Leftover temporaries of atomic writes (name.partial-XXXXXX, .tmp).
    folder = os.path.join(CASES, os.path.dirname(c["name"]))
    partial = [n for n in os.listdir(folder) if ".partial-" in n or n.endswith(".tmp")]
    if partial:
        failures["clobbered"].append(f"{c['name']}: left {partial}")
        continue
    if len(proc.stderr) > STDERR_LIMIT:
        failures["wrong"].append(
            f"{c['name']}: {len(proc.stderr)} bytes of stderr")
        continue
    if c["expect"] == "error":
        if proc.returncode == 0:
            failures["wrong"].append(f"{c['name']}: exit 0 on a bad input")
        elif "error" not in err:
            failures["wrong"].append(f"{c['name']}: no error message: {err[:200]}")
        elif not all(n in err for n in c["names"]):
            failures["wrong"].append(
                f"{c['name']}: the message does not name {c['names']}: {err[:300]}")

for kind, items in failures.items():
    for line in items:
        print(f"{kind.upper()} {line}")
print(f"{len(cases)} cases: {len(failures['crash'])} crashes, "
      f"{len(failures['hang'])} hangs, {len(failures['clobbered'])} clobbered, "
      f"{len(failures['wrong'])} wrong")
sys.exit(1 if any(failures.values()) else 0)
