# -*- Python -*-
import os
import sys

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "Tessera"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".hlo", ".test"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "unit", "Inputs",
                   "node_modules"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tessera_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%tessera_lib", config.tessera_lib_dir))
config.substitutions.append(("%tessera_src", config.tessera_src_root))
config.substitutions.append(("%stock_mlir_opt", config.stock_mlir_opt))
# `lit --param corpus=DIR` points the conformance tests at another folder.
config.tessera_corpus_dir = lit_config.params.get("corpus",
                                                  config.tessera_corpus_dir)
config.substitutions.append(("%corpus", config.tessera_corpus_dir))
# The python running lit, for the checker scripts in Inputs/ folders.
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%tessera_bin", config.tessera_tools_dir))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.tessera_tools_dir, config.llvm_tools_dir]
tools = ["tessera-opt", "tessera-translate", "tessera-prof", "tessera-run",
         "tessera-fuzz-replay",
         # Every test's compile verifies the IR after each pass, as
         # tessera-opt does by default: tessera-compile verifies only the
         # model it reads unless asked (docs/compile.md, "The pipeline").
         ToolSubst("tessera-compile", extra_args=["--verify_each"])]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# The tools link LLVM statically (TESSERA_STATIC_LLVM, docs/building.md).
if config.tessera_static_llvm:
    config.available_features.add("static-llvm")
# tessera-compile allocates through jemalloc (TESSERA_JEMALLOC; not in the
# sanitizer builds).
if config.tessera_jemalloc:
    config.available_features.add("jemalloc")

# Conformance tests read ../shared/corpus; a user's clone has none, so they
# are reported UNSUPPORTED (with this reason) instead of silently passing.
if os.path.isdir(config.tessera_corpus_dir):
    config.available_features.add("corpus")
else:
    lit_config.note("corpus folder %s is absent: conformance tests are skipped"
                    % config.tessera_corpus_dir)

# The cross-check against upstream MLIR (scripts/upstream) needs MLIR 19's
# mlir-cpu-runner and Debian's python3 with numpy; scripts/setup.sh
# installs both. Without them those tests are reported UNSUPPORTED.
config.substitutions.append(
    ("%upstream", os.path.join(config.tessera_src_root, "scripts", "upstream")))
import shutil
import subprocess
has_numpy = os.path.exists("/usr/bin/python3") and subprocess.run(
    ["/usr/bin/python3", "-c", "import numpy"], capture_output=True).returncode == 0
# Checks written with numpy (an independent computation of what a program
# must give) run under Debian's python3, which scripts/setup.sh equips.
if has_numpy:
    config.available_features.add("numpy")
    config.substitutions.append(("%numpy_python", "/usr/bin/python3"))
if shutil.which("mlir-cpu-runner-19") and has_numpy:
    config.available_features.add("upstream-mlir")
else:
    lit_config.note("mlir-cpu-runner-19 or Debian's python3-numpy is missing: "
                    "the upstream MLIR cross-check is skipped")

# The trace client tests (test/TraceClients) load Chrome traces in Chrome
# DevTools' trace engine and in speedscope. They need Debian's nodejs (18 or
# newer; scripts/setup.sh installs it) and the npm packages that
# scripts/trace-clients.sh installs into BUILD/trace-clients (scripts/test.sh
# runs it before ctest). Without them those tests are reported UNSUPPORTED.
trace_clients_dir = os.path.join(config.tessera_obj_root, "trace-clients")
node = shutil.which("node") or shutil.which("nodejs")
node_major = 0
if node:
    probe = subprocess.run([node, "-p", "process.versions.node.split('.')[0]"],
                           capture_output=True, text=True)
    if probe.returncode == 0 and probe.stdout.strip().isdigit():
        node_major = int(probe.stdout.strip())
trace_clients = [os.path.join(trace_clients_dir, "node_modules", p, "package.json")
                 for p in ("@paulirish/trace_engine", "speedscope")]
if node_major >= 18 and all(os.path.exists(p) for p in trace_clients):
    config.available_features.add("trace-clients")
    config.substitutions.append(
        ("%check_trace", "%s %s --clients=%s" % (
            node, os.path.join(config.tessera_src_root, "test", "TraceClients",
                               "check-trace.mjs"), trace_clients_dir)))
    # The HTML report's test drives Debian's headless Chromium with
    # playwright-core (installed with the trace clients).
    chromium = shutil.which("chromium")
    if chromium and os.path.exists(os.path.join(
            trace_clients_dir, "node_modules", "playwright-core", "package.json")):
        config.available_features.add("chromium")
        config.substitutions.append(
            ("%check_html", "%s %s --clients=%s --chromium=%s" % (
                node, os.path.join(config.tessera_src_root, "test",
                                   "TraceClients", "check-html.mjs"),
                trace_clients_dir, chromium)))
    else:
        lit_config.note("chromium or playwright-core is missing (scripts/setup.sh "
                        "and scripts/trace-clients.sh install them): the HTML "
                        "report's browser test is skipped")
else:
    lit_config.note("node >= 18 or the trace clients in %s are missing "
                    "(scripts/trace-clients.sh installs them): the trace client "
                    "tests are skipped" % trace_clients_dir)

