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
#include "tessera/Compile/ExecutableCache.h"
#include "tessera/Compile/Program.h"
#include "tessera/Conversion/TGraphToTile/ChipPlacement.h"
#include "tessera/Import/HloImporter.h"
#include "tessera/Import/LongLineDiagnostics.h"
#include "tessera/InitAll.h"
#include "tessera/Target/Presets.h"
#include "tessera/Target/TargetJson.h"
#include "tessera/Trace/AtomicFile.h"
#include "tessera/Trace/ChromeTrace.h"
#include "tessera/Trace/DumpNames.h"
#include "tessera/Trace/Flags.h"
#include "tessera/Trace/InputFile.h"
#include "tessera/Trace/PendingEventFile.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Parallel.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#if defined(__linux__)
#include <sys/mman.h>
#endif
#include <optional>
#include <string>
#include <vector>

using namespace llvm;
using namespace mlir;
using namespace tessera;

static constexpr StringLiteral kTool = "tessera-compile";

// tessera-compile's own options, in llvm::cl; every other argument that
// starts with '-' is a TESSERA_FLAGS flag (--name=value or a bare bool),
// which cl hands over untouched through the sink, and TESSERA_FLAGS'
// parser checks. That parser stays hand-written: cl cannot take the same
// flags from the environment variable, where a value may be a quoted regex.
static cl::OptionCategory driverCategory("tessera-compile options");

static cl::list<std::string> models(cl::Positional, cl::desc("MODEL..."),
                                    cl::cat(driverCategory));
static cl::opt<std::string>
    output("o", cl::desc("the executable (docs/executable.md; default: "
                         "<MODEL stem>.tessera)"),
           cl::value_desc("OUT"), cl::cat(driverCategory));
static cl::opt<std::string>
    target("target",
           cl::desc("target preset or JSON file (default: tile-1472)"),
           cl::value_desc("T"), cl::cat(driverCategory));
static cl::opt<std::string>
    hostOps("host-ops",
            cl::desc("place ops whose op name matches RE on the host"),
            cl::value_desc("RE"), cl::cat(driverCategory));
static cl::opt<std::string> compatFailOn(
    "compat-fail-on",
    cl::desc("none | incompatible: fail when an op cannot run on the target"),
    cl::init("none"), cl::cat(driverCategory));
static cl::opt<PrecisionPolicy> precisionPolicy(
    "precision-policy",
    cl::desc("what bf16 is computed in on a target without it "
             "(docs/compat.md, \"Precision\")"),
    cl::values(clEnumValN(PrecisionPolicy::Keep, "keep",
                          "nothing: bf16 ops are incompatible"),
               clEnumValN(PrecisionPolicy::Bf16ToF32, "bf16-to-f32",
                          "f32; the model's converts to bf16 round (default)"),
               clEnumValN(PrecisionPolicy::Bf16ToF32Round, "bf16-to-f32-round",
                          "f32, every op's result rounded to bf16"),
               clEnumValN(PrecisionPolicy::Bf16ToF16, "bf16-to-f16",
                          "f16 (lossy: f16's range is 6.5e4)")),
    cl::init(PrecisionPolicy::Bf16ToF32), cl::cat(driverCategory));
static cl::opt<int64_t> recomputeDistance(
    "recompute_distance",
    cl::desc("recompute a cheap value (elementwise or broadcast of "
             "parameters and constants) before each use more than N ops "
             "after the one before, instead of keeping it live; 0: off "
             "(docs/memory.md, \"Memory-saving options\")"),
    cl::value_desc("N"), cl::init(0), cl::cat(driverCategory));
static cl::opt<int64_t>
    chips("chips",
          cl::desc("chips a replica's program spans on a multi-chip target; 0: "
                   "the sharding annotations', else the fewest that hold it "
                   "(docs/multichip.md)"),
          cl::init(0), cl::value_desc("N"), cl::cat(driverCategory));
static cl::opt<std::string> placement(
    "placement",
    cl::desc("how ops go to a replica's chips when no sharding annotation "
             "places them: auto (default), stages, spread or mixed "
             "(docs/multichip.md)"),
    cl::init("auto"), cl::value_desc("MODE"), cl::cat(driverCategory));
static cl::opt<std::string>
    events("events",
           cl::desc("event file (with --profiling or --enable_events; "
                    "default: OUT.events)"),
           cl::value_desc("FILE"), cl::cat(driverCategory));
static cl::opt<bool>
    helpFlags("help-flags",
              cl::desc("list every TESSERA_FLAGS flag (--FLAG=VALUE here "
                       "wins over the environment)"),
              cl::cat(driverCategory));
static cl::opt<bool> helpShort("h", cl::desc("the same as --help"),
                               cl::Hidden, cl::cat(driverCategory));
static cl::list<std::string> flagArgs(cl::Sink,
                                      cl::desc("--FLAG=VALUE ..."));

static constexpr const char kOverview[] =
    "compiles models (.hlo: XLA HLO text; .mlir: tgraph) to executables "
    "for a tile target (docs/compile.md); several models share the event "
    "file and trace. Any TESSERA_FLAGS flag may be given as --FLAG=VALUE "
    "(--help-flags lists them).\n";

[[noreturn]] static void fail(const Twine &message) {
  errs() << kTool << ": error: " << message << "\n";
  errs().flush();
  std::exit(1);
}

/// A path as the file system will see it, for comparing outputs with
/// inputs and with each other before any work: absolute, without "." and
/// "..", and the same file as another name when both exist.
static bool sameFile(StringRef a, StringRef b) {
  bool equal = false;
  if (!sys::fs::equivalent(a, b, equal) && equal)
    return true;
  auto normal = [](StringRef p) {
    SmallString<256> out(p);
    sys::fs::make_absolute(out);
    sys::path::remove_dots(out, /*remove_dot_dot=*/true);
    return std::string(out);
  };
  return normal(a) == normal(b);
}

/// Fails when an output would overwrite a model or another output: the
/// model or the first output would be lost, and only after the work.
static void checkOutputsApart(
    ArrayRef<std::string> inputs,
    ArrayRef<std::pair<std::string, std::string>> outputs) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    const auto &[what, path] = outputs[i];
    if (path == "-")
      continue;
    for (const std::string &model : inputs)
      if (sameFile(path, model))
        fail(what + " '" + path + "' is the model '" + model +
             "': it would be overwritten");
    for (size_t j = 0; j < i; ++j)
      if (outputs[j].second != "-" && sameFile(path, outputs[j].second))
        fail(what + " and " + outputs[j].first + " are the same file '" +
             path + "'");
  }
}

/// A compiled module left to the process's exit. Never destroyed: not
/// freeing it is the point (see the call).
static void leaveToExit(OwningOpRef<ModuleOp> module) {
  static auto *kept = new std::vector<OwningOpRef<ModuleOp>>();
  kept->push_back(std::move(module));
}

/// Parses MODEL's bytes (read from `path`) into a module; diagnostics
/// carry file:line:col.
static OwningOpRef<ModuleOp> loadModel(StringRef path,
                                       std::unique_ptr<MemoryBuffer> file,
                                       SourceMgr &sourceMgr,
                                       MLIRContext &context) {
  sourceMgr.AddNewSourceBuffer(std::move(file), SMLoc());
  if (path.ends_with(".hlo")) {
    loadImportDialects(context);
    return importHloText(sourceMgr, &context);
  }
  return parseSourceFile<ModuleOp>(sourceMgr, &context);
}

/// Drops the resident pages of the model's mapped bytes once it is
/// imported: nothing reads them afterwards but a diagnostic quoting its
/// line, and a page touched again is read back from the page cache. The
/// mapping stayed resident through the whole compile (13 MB of a 100k-op
/// model's peak RSS, issue 16).
static void releaseModelPages(const SourceMgr &sourceMgr) {
#if defined(__linux__)
  const MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(1);
  if (buffer->getBufferKind() != MemoryBuffer::MemoryBuffer_MMap)
    return;
  uintptr_t page = sys::Process::getPageSizeEstimate();
  uintptr_t begin = reinterpret_cast<uintptr_t>(buffer->getBufferStart());
  uintptr_t end = reinterpret_cast<uintptr_t>(buffer->getBufferEnd());
  begin = (begin + page - 1) & ~(page - 1);
  end &= ~(page - 1);
  if (end > begin)
    (void)madvise(reinterpret_cast<void *>(begin), end - begin, MADV_DONTNEED);
#endif
}

/// jemalloc's settings, read when it serves malloc (TESSERA_JEMALLOC, the
/// default build). One arena for every thread, as with glibc below: with
/// an arena per thread, the allocation's two threads built their 20 MB
/// indexes in fresh arenas rather than in the memory the lowering had just
/// freed, and the 100k-op compile's peak rose from 390 to 397 MiB. Pages
/// its decay has released lazily (MADV_FREE) are not released again
/// eagerly: reusing them then cost a page fault each, 20k of
/// ssd_mobilenet_v1's 58k, and the kernel still reclaims them under
/// pressure; the compile gives freed memory back itself where its peak is
/// decided (releaseFreedHeap). No arena of its own for blocks of 8 MiB and
/// more (`oversize_threshold:0`): that arena gives freed pages back at
/// once, so each large temporary (a fold's keys, the liveness' tables, an
/// allocator index, the executable's parts) was faulted in afresh; at 100k
/// ops that was 74k of 260k page faults (system time 0.96 -> 0.70 s).
/// MALLOC_CONF, when set, is read after this and wins.
extern "C" const char *malloc_conf;
const char *malloc_conf = "narenas:1,muzzy_decay_ms:-1,oversize_threshold:0";

int main(int argc, char **argv) {
#if defined(__GLIBC__)
  // (With jemalloc, the default build, glibc's settings below have no
  // effect: it serves no allocation.)
  // A compile allocates and frees many temporaries of a few MB (copy
  // pieces, sort keys, interval lists). With glibc's defaults each came
  // from a fresh mmap and the heap's top went back to the system on free,
  // so their pages were faulted in again and again: ssd_mobilenet_v1 took
  // 105k page faults and 0.2 s of system time in a 0.52 s compile. Kept
  // in the heap (up to 32 MB a block, 64 MB of free top), the compile
  // takes 47k faults and 0.42 s; the analysis still gives its memory back
  // where it matters for the peak (malloc_trim), and the 100k-op compile's
  // peak is unchanged (docs/compile.md, "Threads and memory").
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
  // One arena for every thread: the compile's tasks (folds, plans, the
  // allocation's threads, the memory report's sections) free most of what
  // they allocate, and in an arena of their own that memory served no
  // other thread. The 100k-op compile's peak fell from 430 to 403 MiB and
  // the 10k-op compile's from 70 to 55 MiB, its time unchanged (the
  // per-thread caches serve most small blocks without the arena's lock).
  // glibc's own setting, when given, wins.
  if (!getenv("MALLOC_ARENA_MAX") && !getenv("GLIBC_TUNABLES"))
    mallopt(M_ARENA_MAX, 1);
#endif
  InitLLVM initLLVM(argc, argv);
  cl::HideUnrelatedOptions(driverCategory);
  cl::ParseCommandLineOptions(argc, argv, kOverview);
  if (helpShort) {
    cl::PrintHelpMessage(/*Hidden=*/false, /*Categorized=*/true);
    return 0;
  }
  if (helpFlags) {
    printFlagHelp(outs());
    return 0;
  }
  std::vector<std::string> flagArguments(flagArgs.begin(), flagArgs.end());
  TesseraFlags flags = resolveFlagsOrExit(kTool, flagArguments);
  if (models.empty())
    fail("no MODEL given (--help lists the options)");
  // An option given with an empty value is a mistake (a shell variable
  // that was not set), not a request for the default.
  if (output.getNumOccurrences() && output.empty())
    fail("-o needs a file name");
  if (target.getNumOccurrences() && target.empty())
    fail("--target needs a preset name or a target JSON file");
  if (events.getNumOccurrences() && events.empty())
    fail("--events needs a file name");
  if (hostOps.getNumOccurrences() && hostOps.empty())
    fail("--host-ops needs a regular expression");
  CompileOptions compile;
  compile.target = target;
  compile.hostOps = hostOps;
  compile.compatFailOn = compatFailOn;
  compile.precisionPolicy = precisionPolicy;
  if (chips < 0)
    fail("--chips needs a count of chips (0: automatic), got " +
         std::to_string(chips));
  compile.chips = chips;
  if (!isPlacementMode(placement))
    fail("--placement must be " + kPlacementModes.str() + ", got '" +
         placement + "'");
  compile.placement = placement;
  // This process exits after its compiles: their reports' memory goes
  // back with it rather than object by object.
  compile.keepReportsUntilExit = true;
  if (recomputeDistance < 0)
    fail("--recompute_distance needs a count of ops (0: off), got " +
         std::to_string(recomputeDistance));
  compile.recomputeDistance = recomputeDistance;
  // Several models share one event file and compile trace (one module id
  // each); their outputs are named after them.
  if (models.size() > 1 && !output.empty())
    fail("-o names the output of a single MODEL; with several, each output "
         "is named <MODEL stem>.tessera");
  if (compile.compatFailOn != "none" && compile.compatFailOn != "incompatible")
    fail("--compat-fail-on must be 'none' or 'incompatible', got '" +
         compile.compatFailOn + "'");
  ReportSinkOptions sinkOptions = ReportSinkOptions::fromFlags(flags);
  // The pass timeline's op counts show only in the COMPILE_END event and
  // the compile trace.
  compile.countPassOps =
      sinkOptions.writesEvents() || !flags.compileTrace.empty();
  if (!events.empty() && !sinkOptions.writesEvents())
    fail("--events needs --profiling or --enable_events (nothing would be "
         "written to '" +
         events + "')");
  compile.showProgress =
      flags.showProgressBar || sys::Process::StandardErrIsDisplayed();
  // On a terminal alone only a compile that takes a while shows progress;
  // asked for, every compile does, at once.
  if (!flags.showProgressBar)
    compile.progressDelay = std::chrono::milliseconds(2000);
  // The compile's parallel work (the tiles' allocation, the buffers'
  // shares, the exchanges' checks and copy folding) runs on LLVM's
  // executor, whose size is fixed at its first use.
  if (flags.compileThreads != 0)
    parallel::strategy = hardware_concurrency(flags.compileThreads);

  Expected<TargetDescription> target = resolveTarget(
      compile.target.empty() ? defaultTargetName() : StringRef(compile.target));
  if (!target)
    fail(toString(target.takeError()));

  // Outputs: the program defaults to the model's stem in the current
  // folder (like a.out), the event file sits beside the (first) output.
  std::vector<std::string> outputs;
  for (const std::string &model : models)
    outputs.push_back(
        output.empty()
            ? (sys::path::stem(model) + "." + kExecutableExtension).str()
            : output);
  std::string eventsPath = events;
  if (eventsPath.empty())
    eventsPath = outputs[0] == "-"
                     ? (sys::path::stem(models[0]) + ".events").str()
                     : outputs[0] + ".events";
  {
    std::vector<std::pair<std::string, std::string>> written;
    for (auto [model, out] : llvm::zip_equal(models, outputs))
      written.push_back({output.empty()
                             ? "the output of '" + model + "' (named after it)"
                             : std::string("-o"),
                         out});
    if (sinkOptions.writesEvents())
      written.push_back({"the event file", eventsPath});
    if (!flags.compileTrace.empty())
      written.push_back({"--compile_trace", flags.compileTrace});
    std::vector<std::string> inputs(models.begin(), models.end());
    checkOutputsApart(inputs, written);
  }

  std::optional<ExecutableCache> cache;
  if (!flags.executableCacheDir.empty()) {
    Expected<ExecutableCache> opened = ExecutableCache::open(
        flags.executableCacheDir, flags.executableCacheMaxBytes);
    if (!opened)
      fail(toString(opened.takeError()));
    cache.emplace(std::move(*opened));
  }
  // A hit runs no pipeline, so it has none of the pipeline's by-products:
  // when the flags ask for dumps, the vertex graph or the serialized module,
  // the model is compiled (and its entry stored) instead of looked up.
  bool cacheLookups = cache && flags.dumpTo.empty() &&
                      flags.saveVertexGraph.empty() && !flags.serializedGraph;
  std::string targetJson = toJson(*target);

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
  Compiler compiler(flags, compile, *target, sink, dumper, errs());

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
  // Each model's executable: compiled, or a cache hit's entry as read.
  struct Program {
    std::string compiled;
    std::unique_ptr<MemoryBuffer> cached;
    StringRef bytes() const {
      return cached ? cached->getBuffer() : StringRef(compiled);
    }
  };
  std::vector<Program> programs;
  std::vector<std::pair<std::string, std::string>> vertexGraphs;
  for (const std::string &model : models) {
    auto start = std::chrono::steady_clock::now();
    Expected<std::unique_ptr<MemoryBuffer>> file =
        readInputFile(model, kMaxModelBytes, "model");
    if (!file)
      return abandon(file.takeError());
    // The key hashes the bytes as read, not the imported module: a hit
    // then skips the import too, and the executable records every op's
    // file:line, so a textual change that moves a line changes it anyway.
    std::string cacheKey;
    if (cache) {
      ExecutableCacheKeyInputs key;
      key.compilerId = compilerBuildId();
      key.modelPath = model;
      key.modelBytes = (*file)->getBuffer();
      key.targetJson = targetJson;
      key.hostOps = compile.hostOps;
      key.compatFailOn = compile.compatFailOn;
      key.precisionPolicy = precisionPolicyName(compile.precisionPolicy);
      key.chips = compile.chips;
      key.placement = compile.placement;
      key.recomputeDistance = compile.recomputeDistance;
      key.flags = &flags;
      cacheKey = computeExecutableCacheKey(key);
    }
    if (cacheLookups) {
      Expected<std::optional<ExecutableCache::Hit>> hit =
          cache->lookup(cacheKey);
      if (!hit) {
        errs() << kTool << ": warning: damaged executable cache entry: "
               << toString(hit.takeError()) << "; compiling '" << model
               << "' and replacing it\n";
      } else if (*hit) {
        errs() << kTool << ": '" << model
               << "': executable cache hit, no compile: " << (*hit)->path
               << "\n";
        Expected<CompileOutput> reused =
            compiler.reuseCached((*hit)->moduleName, start);
        if (!reused)
          return abandon(reused.takeError());
        programs.push_back({std::string(), std::move((*hit)->file)});
        continue;
      }
    }
    // The importer and parser read the main buffer: one SourceMgr (and
    // diagnostic handler, for file:line:col) per model.
    SourceMgr sourceMgr;
    SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
    LongLineDiagnosticHandler longLines(sourceMgr, &context);
    // MLIR's parser recurses per nesting level: bound it before parsing.
    if (!StringRef(model).ends_with(".hlo"))
      if (Error err = checkMlirNesting((*file)->getBuffer(), model))
        return abandon(std::move(err));
    OwningOpRef<ModuleOp> module =
        loadModel(model, std::move(*file), sourceMgr, context);
    if (!module)
      return abandon(std::nullopt);
    releaseModelPages(sourceMgr);
    FailureOr<CompileOutput> compiled =
        compiler.compile(*module, sys::path::stem(model));
    if (failed(compiled))
      return abandon(std::nullopt);
    // The cache is an optimisation: failing to fill it fails no compile.
    if (cache)
      if (Error err = cache->store(cacheKey, compiled->executable))
        errs() << kTool
               << ": warning: executable cache: " << toString(std::move(err))
               << "\n";
    programs.push_back({std::move(compiled->executable), nullptr});
    if (!flags.saveVertexGraph.empty())
      vertexGraphs.push_back(
          {(dumpModulePrefix(compiled->moduleId) + "." +
            sanitizeFileComponent(compiled->moduleName) + ".vertex_graph.dot"),
           std::move(compiled->vertexGraphDot)});
    // The last model's module is left to the exit, as its reports are
    // (CompileOptions::keepReportsUntilExit): nothing reads it once the
    // executable is built, and destroying a 100k-op graph's 600k ops took
    // 0.19 s before the file was written. Earlier models' modules are
    // freed as usual, so a list of models does not pile them up.
    if (&model == &models[models.size() - 1])
      leaveToExit(std::move(module));
  }
  for (auto [output, program] : llvm::zip(outputs, programs)) {
    if (Error err = writeFileAtomically(output, program.bytes()))
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
