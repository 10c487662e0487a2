//===- tessera-compile.cpp - The end-to-end compiler driver ---------------===//
//
//   tessera-compile MODEL... [--target T] [-o OUT] [--host-ops=RE]
//                   [--compat-fail-on=none|incompatible] [--events=FILE]
//                   [--<TESSERA_FLAGS flag>=VALUE ...]
//
// Imports each MODEL (.hlo: XLA HLO text; otherwise MLIR), runs the compile
// pipeline, writes the compiled program, and -- through the report sink and
// the dumper -- events, reports, dumps and the compile trace
// (docs/compile.md). Flags given here win over TESSERA_FLAGS. On any error
// the tool exits 1 and leaves no output, event or report file behind.
//
//===----------------------------------------------------------------------===//

#include "ToolFlags.h"

#include "tessera/Compile/Compiler.h"
#include "tessera/Compile/Program.h"
#include "tessera/Import/HloImporter.h"
#include "tessera/InitAll.h"
#include "tessera/Target/Presets.h"
#include "tessera/Trace/AtomicFile.h"
#include "tessera/Trace/ChromeTrace.h"
#include "tessera/Trace/DumpNames.h"
#include "tessera/Trace/Flags.h"
#include "tessera/Trace/PendingEventFile.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

using namespace llvm;
using namespace mlir;
using namespace tessera;

static constexpr StringLiteral kTool = "tessera-compile";

namespace {
/// tessera-compile's own options; everything else starting with '-' is a
/// TESSERA_FLAGS flag.
struct DriverArgs {
  std::vector<std::string> models;
  std::string output;
  std::string events;
  CompileOptions compile;
  std::vector<std::string> flagArgs;
  bool help = false;
};
} // namespace

static void printUsage(raw_ostream &os) {
  os << "usage: tessera-compile MODEL... [--target=T] [-o OUT] "
        "[--host-ops=RE]\n"
        "                       [--compat-fail-on=none|incompatible] "
        "[--events=FILE]\n"
        "                       [--FLAG=VALUE ...]\n"
        "\n"
        "  MODEL...               .hlo (XLA HLO text) or .mlir (tgraph); "
        "several\n"
        "                         models share the event file and trace\n"
        "  --target=T             target preset or JSON file (default: "
     << defaultTargetName()
     << ")\n"
        "  -o OUT                 the executable (docs/executable.md; default: "
        "<MODEL stem>.tessera)\n"
        "  --host-ops=RE          place ops whose op name matches RE on the "
        "host\n"
        "  --compat-fail-on=none|incompatible\n"
        "                         fail when an op cannot run on the target\n"
        "  --events=FILE          event file (with --profiling or "
        "--enable_events;\n"
        "                         default: OUT.events)\n"
        "  --FLAG=VALUE           any TESSERA_FLAGS flag; wins over the "
        "environment\n"
        "                         (--help-flags lists them)\n";
}

[[noreturn]] static void fail(const Twine &message) {
  errs() << kTool << ": error: " << message << "\n";
  errs().flush();
  std::exit(1);
}

/// Accepts `--name=value` and `--name value` (and `-o OUT`).
static bool takeValue(ArrayRef<std::string> args, size_t &i, StringRef name,
                      std::string &value) {
  StringRef arg = args[i];
  for (StringRef prefix : {"--", "-"}) {
    StringRef rest = arg;
    if (!rest.consume_front(prefix) || !rest.consume_front(name))
      continue;
    if (rest.consume_front("=")) {
      value = rest.str();
      return true;
    }
    if (rest.empty()) {
      if (i + 1 >= args.size())
        fail("--" + name + " needs a value");
      value = args[++i];
      return true;
    }
  }
  return false;
}

static DriverArgs parseArgs(ArrayRef<std::string> args) {
  DriverArgs out;
  std::string value;
  for (size_t i = 0; i < args.size(); ++i) {
    StringRef arg = args[i];
    if (arg == "--help" || arg == "-h") {
      out.help = true;
    } else if (arg == "--help-flags") {
      printFlagHelp(outs());
      std::exit(0);
    } else if (arg == "-o") {
      if (i + 1 >= args.size())
        fail("-o needs a file name");
      out.output = args[++i];
    } else if (arg.starts_with("-o=")) {
      out.output = arg.drop_front(3).str();
    } else if (takeValue(args, i, "target", value)) {
      out.compile.target = value;
    } else if (takeValue(args, i, "host-ops", value)) {
      out.compile.hostOps = value;
    } else if (takeValue(args, i, "compat-fail-on", value)) {
      out.compile.compatFailOn = value;
    } else if (takeValue(args, i, "events", value)) {
      out.events = value;
    } else if (arg.starts_with("-") && arg != "-") {
      out.flagArgs.push_back(arg.str());
    } else {
      out.models.push_back(arg.str());
    }
  }
  return out;
}

/// Reads MODEL into a module; diagnostics carry file:line:col.
static OwningOpRef<ModuleOp> loadModel(StringRef path, SourceMgr &sourceMgr,
                                       MLIRContext &context) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> file =
      MemoryBuffer::getFileOrSTDIN(path);
  if (std::error_code ec = file.getError()) {
    errs() << kTool << ": error: cannot read '" << path << "': " << ec.message()
           << "\n";
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(*file), SMLoc());
  if (path.ends_with(".hlo")) {
    loadImportDialects(context);
    return importHloText(sourceMgr, &context);
  }
  return parseSourceFile<ModuleOp>(sourceMgr, &context);
}

int main(int argc, char **argv) {
  InitLLVM initLLVM(argc, argv);
  DriverArgs args = parseArgs(std::vector<std::string>(argv + 1, argv + argc));
  if (args.help) {
    printUsage(outs());
    return 0;
  }
  TesseraFlags flags = resolveFlagsOrExit(kTool, args.flagArgs);
  if (args.models.empty()) {
    printUsage(errs());
    fail("no MODEL given");
  }
  // Several models share one event file and compile trace (one module id
  // each); their outputs are named after them.
  if (args.models.size() > 1 && !args.output.empty())
    fail("-o names the output of a single MODEL; with several, each output "
         "is named <MODEL stem>.tessera");
  if (args.compile.compatFailOn != "none" &&
      args.compile.compatFailOn != "incompatible")
    fail("--compat-fail-on must be 'none' or 'incompatible', got '" +
         args.compile.compatFailOn + "'");
  ReportSinkOptions sinkOptions = ReportSinkOptions::fromFlags(flags);
  if (!args.events.empty() && !sinkOptions.writesEvents())
    fail("--events needs --profiling or --enable_events (nothing would be "
         "written to '" +
         args.events + "')");
  args.compile.showProgress =
      flags.showProgressBar || sys::Process::StandardErrIsDisplayed();

  Expected<TargetDescription> target = resolveTarget(
      args.compile.target.empty() ? defaultTargetName()
                                  : StringRef(args.compile.target));
  if (!target)
    fail(toString(target.takeError()));

  // Outputs: the program defaults to the model's stem in the current
  // folder (like a.out), the event file sits beside the (first) output.
  std::vector<std::string> outputs;
  for (const std::string &model : args.models)
    outputs.push_back(
        args.output.empty()
            ? (sys::path::stem(model) + "." + kExecutableExtension).str()
            : args.output);
  std::string eventsPath = args.events;
  if (eventsPath.empty())
    eventsPath = outputs[0] == "-"
                     ? (sys::path::stem(args.models[0]) + ".events").str()
                     : outputs[0] + ".events";

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  // One thread: pass begin/end events then nest strictly (the timeline and
  // the Chrome trace rely on it), and dumps are taken in pipeline order.
  context.disableMultithreading();

  std::unique_ptr<PendingEventFile> events;
  if (sinkOptions.writesEvents()) {
    Expected<std::unique_ptr<PendingEventFile>> opened =
        PendingEventFile::create(eventsPath);
    if (!opened)
      fail(toString(opened.takeError()));
    events = std::move(*opened);
  }
  std::string eventFolder = sys::path::parent_path(eventsPath).str();
  ReportSink sink(sinkOptions, events.get(),
                  eventFolder.empty() ? "." : eventFolder, kTool.str(), errs());
  Dumper dumper(flags, kTool.str(), errs());
  Compiler compiler(flags, args.compile, *target, sink, dumper, errs());

  // Every file written so far is taken back on failure: the report files
  // (through the sink), outputs and trace (listed here); the event file is
  // a temporary until committed and vanishes with `events`.
  std::vector<std::string> committed;
  auto abandon = [&](std::optional<Error> err) {
    if (err)
      errs() << kTool << ": error: " << toString(std::move(*err)) << "\n";
    for (const std::string &file : committed)
      sys::fs::remove(file);
    sink.removeWrittenFiles();
    return 1;
  };

  // Compile everything first, then write: a later model's failure must not
  // leave an earlier model's output behind.
  std::vector<std::string> programs;
  std::vector<std::pair<std::string, std::string>> vertexGraphs;
  for (const std::string &model : args.models) {
    // The importer and parser read the main buffer: one SourceMgr (and
    // diagnostic handler, for file:line:col) per model.
    SourceMgr sourceMgr;
    SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
    OwningOpRef<ModuleOp> module = loadModel(model, sourceMgr, context);
    if (!module)
      return abandon(std::nullopt);
    FailureOr<CompileOutput> compiled =
        compiler.compile(*module, sys::path::stem(model));
    if (failed(compiled))
      return abandon(std::nullopt);
    programs.push_back(std::move(compiled->executable));
    if (!flags.saveVertexGraph.empty())
      vertexGraphs.push_back(
          {(dumpModulePrefix(compiled->moduleId) + "." +
            sanitizeFileComponent(compiled->moduleName) + ".vertex_graph.dot"),
           std::move(compiled->vertexGraphDot)});
  }
  for (auto [output, program] : llvm::zip(outputs, programs)) {
    if (Error err = writeFileAtomically(output, program))
      return abandon(std::move(err));
    if (output != "-")
      committed.push_back(output);
  }
  if (!vertexGraphs.empty()) {
    if (std::error_code ec = sys::fs::create_directories(flags.saveVertexGraph))
      return abandon(createStringError(
          ec, "cannot create save_vertex_graph folder '%s': %s",
          flags.saveVertexGraph.c_str(), ec.message().c_str()));
    for (const auto &[name, dot] : vertexGraphs) {
      SmallString<256> path(flags.saveVertexGraph);
      sys::path::append(path, name);
      if (Error err = writeFileAtomically(path, dot))
        return abandon(std::move(err));
      committed.push_back(path.str().str());
    }
  }
  if (!flags.compileTrace.empty()) {
    // Small (a slice per pass): built in memory, written atomically.
    std::string trace;
    raw_string_ostream os(trace);
    writeCompileChromeTrace(os, compiler.spans(), kTool,
                            compiler.originUnixNs());
    if (Error err = writeFileAtomically(flags.compileTrace, trace))
      return abandon(std::move(err));
    committed.push_back(flags.compileTrace);
  }
  if (events)
    if (Error err = events->commit())
      return abandon(std::move(err));
  return 0;
}
