//===- Compiler.cpp - Compile one module: pipeline, sink, dumps -----------===//

#include "tessera/Compile/Compiler.h"

#include "tessera/Analysis/CompatReport.h"
#include "tessera/Analysis/InstructionInfo.h"
#include "tessera/Analysis/Tile/TensorMap.h"
#include "tessera/Analysis/Tile/VertexGraph.h"
#include "tessera/Compile/CompileReport.h"
#include "tessera/Compile/ExecutableWriter.h"
#include "tessera/Compile/PassTimeline.h"
#include "tessera/Compile/Program.h"
#include "tessera/Compile/Progress.h"
#include "tessera/Memory/MemoryReport.h"
#include "tessera/Memory/ReportForms.h"
#include "tessera/Memory/ShareCache.h"
#include "tessera/Support/Heap.h"
#include "tessera/Target/Presets.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Parallel.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <thread>

using namespace mlir;
using json = nlohmann::ordered_json;

namespace tessera {

std::string moduleNameOf(ModuleOp module, llvm::StringRef fallback) {
  if (auto name = module->getAttrOfType<StringAttr>("tgraph.module_name"))
    if (!name.getValue().empty())
      return name.getValue().str();
  if (std::optional<llvm::StringRef> name = module.getSymName())
    return name->str();
  return fallback.str();
}

/// Buffer shares (a buffer on a tile; the reports' per-tile work) from
/// which --reports_alongside=auto builds the reports on a thread of their
/// own: below, they take under a millisecond. Counting buffers instead
/// left out bert_small_train on tile-1472 (1,174 buffers, 746k shares),
/// whose reports took 80 ms after a 100 ms executable.
static constexpr int64_t kAlongsideShares = 4096;

/// Ops outside the tile program (the tgraph module the executable holds)
/// from which its bytecode is written on a thread of its own beside the
/// memory analysis's liveness: about 1.4 µs an op (14 ms for the 10k-op
/// graph), so a millisecond and a half here, against some 40 µs to start
/// and join a thread.
static constexpr int64_t kGraphAlongsideOps = 1024;

/// Whether the module holds at least `limit` ops outside its tile programs.
static bool graphHasOps(ModuleOp module, int64_t limit) {
  int64_t ops = 0;
  for (Operation &top : *module.getBody()) {
    if (isa<tile::ProgramOp>(top))
      continue;
    WalkResult walked = top.walk([&](Operation *) {
      return ++ops >= limit ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (walked.wasInterrupted())
      return true;
  }
  return false;
}

/// Reports a compile left to the process's exit (keepReportsUntilExit).
/// Never destroyed: not freeing them is the point.
static void keepUntilExit(std::vector<NamedReport> &&reports) {
  static std::mutex mutex;
  static auto *kept = new std::vector<NamedReport>();
  std::lock_guard<std::mutex> lock(mutex);
  for (NamedReport &report : reports)
    kept->push_back(std::move(report));
  reports.clear();
}

/// Why the passes, which resolve the target again from `name` (they also
/// run alone, in tessera-opt, where a name is all they have), would not
/// compile for `target`; empty when they would. A mismatch lowered the
/// program for one target and allocated it for another: an API user who
/// set only the description crashed in the memory analysis.
static std::string passTargetMismatch(llvm::StringRef name,
                                      const TargetDescription &target) {
  llvm::StringRef asked = name.empty() ? defaultTargetName() : name;
  llvm::Expected<TargetDescription> resolved = resolveTarget(asked);
  if (!resolved)
    return "the compile options' target: " +
           llvm::toString(resolved.takeError());
  if (*resolved == target)
    return "";
  return ("the compile options name target '" + asked + "' (" +
          llvm::Twine(resolved->totalTiles()) +
          " tiles) but the compiler was given '" + target.name + "' (" +
          llvm::Twine(target.totalTiles()) +
          " tiles): set CompileOptions::target to the description's preset "
          "or file")
      .str();
}

Compiler::Compiler(const TesseraFlags &flags, CompileOptions options,
                   const TargetDescription &target, ReportSink &sink,
                   Dumper &dumper, llvm::raw_ostream &progress)
    : flags(flags), options(std::move(options)), target(target), sink(sink),
      dumper(dumper), progress(progress),
      origin(std::chrono::steady_clock::now()), originUnix(unixTimeNs()),
      targetMismatch(passTargetMismatch(this->options.target, target)) {}

namespace {

/// Keeps the module as the model wrote it when precision normalization
/// changes its types, for the executable's `source_module`: `--check` then
/// compares the device with the reference on the model as written. The
/// copy is bytecode taken just before that pass and dropped when it
/// changed nothing.
class SourceModuleCapture : public PassInstrumentation {
public:
  explicit SourceModuleCapture(std::shared_ptr<std::string> bytes)
      : bytes(std::move(bytes)) {}

  void runBeforePass(Pass *pass, Operation *op) override {
    if (pass->getArgument() != "tgraph-normalize-precision")
      return;
    bytes->clear();
    // Only a module with bf16 can change; the others (most) pay a walk,
    // not a serialization.
    if (!holdsBFloat16(op))
      return;
    llvm::raw_string_ostream os(*bytes);
    if (failed(writeBytecodeToFile(op, os, BytecodeWriterConfig("tessera"))))
      bytes->clear();
  }
  void runAfterPass(Pass *pass, Operation *op) override {
    if (pass->getArgument() == "tgraph-normalize-precision" &&
        !op->hasAttr(kPrecisionAttr))
      bytes->clear();
  }

private:
  std::shared_ptr<std::string> bytes;
};

} // namespace

static int64_t nsBetween(std::chrono::steady_clock::time_point a,
                         std::chrono::steady_clock::time_point b) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(b - a).count();
}

llvm::Expected<CompileOutput>
Compiler::reuseCached(llvm::StringRef moduleName,
                      std::chrono::steady_clock::time_point start) {
  CompileBeginInfo info;
  info.moduleName = moduleName.str();
  info.moduleId = allocateModuleId();
  info.target = options.target.empty() ? target.name : options.target;
  if (llvm::Error err = sink.compileBegin(info))
    return std::move(err);
  auto end = std::chrono::steady_clock::now();
  CompileEndInfo endInfo;
  endInfo.durationNs = nsBetween(start, end);
  endInfo.cached = true;
  if (llvm::Error err = sink.compileEnd(info, endInfo))
    return std::move(err);

  CompileSpan span;
  span.moduleName = info.moduleName;
  span.target = target.name;
  span.moduleId = info.moduleId;
  span.startNs = nsBetween(origin, start);
  span.durationNs = endInfo.durationNs;
  span.cached = true;
  compileSpans.push_back(span);

  CompileOutput output;
  output.moduleName = info.moduleName;
  output.moduleId = info.moduleId;
  return output;
}

FailureOr<CompileOutput> Compiler::compile(ModuleOp module,
                                           llvm::StringRef fallbackName) {
  MLIRContext *context = module.getContext();
  if (!targetMismatch.empty()) {
    emitError(module.getLoc()) << targetMismatch;
    return failure();
  }
  CompileBeginInfo info;
  info.moduleName = moduleNameOf(module, fallbackName);
  info.moduleId = allocateModuleId();
  // What the user asked for (a preset name or a file path), so the event
  // says how to reproduce the compile; reports carry the resolved name.
  info.target = options.target.empty() ? target.name : options.target;

  auto start = std::chrono::steady_clock::now();
  if (llvm::Error err = sink.compileBegin(info)) {
    emitError(module.getLoc()) << llvm::toString(std::move(err));
    return failure();
  }

  std::vector<PipelineStep> steps = compilePipeline(options);
  std::vector<std::string> names;
  for (const PipelineStep &step : steps)
    names.push_back(step.name);
  dumper.beginModule(info.moduleId, info.moduleName, target.name, names);
  dumper.dumpBeforeOptimizations(module);

  // Instrumentations run in order before a pass and in reverse after it:
  // the timeline goes last so it is innermost and times the pass alone, not
  // the dumps and progress output around it.
  PassManager pm(context, ModuleOp::getOperationName());
  // The pass manager owns the progress lines and keeps them to the end of
  // the compile, which numbers the three steps after the passes too.
  ProgressInstrumentation *progressLines = nullptr;
  if (options.showProgress) {
    auto owner = std::make_unique<ProgressInstrumentation>(
        progress, steps.size() + 3, options.progressDelay);
    progressLines = owner.get();
    pm.addInstrumentation(std::move(owner));
  }
  if (std::unique_ptr<PassInstrumentation> dumps =
          dumper.createPassInstrumentation())
    pm.addInstrumentation(std::move(dumps));
  auto sourceModule = std::make_shared<std::string>();
  pm.addInstrumentation(std::make_unique<SourceModuleCapture>(sourceModule));
  auto timelineOwner = std::make_unique<PassTimelineInstrumentation>(
      start, options.countPassOps);
  std::shared_ptr<std::vector<PassTiming>> timeline = timelineOwner->shared();
  pm.addInstrumentation(std::move(timelineOwner));
  // tgraph-to-tile's search for the chips allocates the program it keeps;
  // that analysis is the one the executable and reports need.
  std::optional<memory::MemoryAnalysis> kept;
  Operation *keptProgram = nullptr;
  CompileOptions pipelineOptions = options;
  pipelineOptions.keepAnalysis = [&](Operation *program,
                                     memory::MemoryAnalysis &&analysis) {
    keptProgram = program;
    kept.emplace(std::move(analysis));
  };
  // The lowering runs on one thread (its folds aside): the buffers' shares,
  // the first part of the memory analysis, are worked out on another as it
  // makes them (bert_small_train: 35 of its 113 ms of memory analysis).
  std::optional<memory::ShareCache> shares;
  if (llvm::parallel::strategy.compute_thread_count() > 1) {
    shares.emplace(target);
    pipelineOptions.shares = &*shares;
  }
  for (const PipelineStep &step : steps)
    pm.addPass(step.create(pipelineOptions));
  // The model was verified as it was read (the importer's and the parser's
  // verifiers, whose errors point at the input). Verifying again after
  // every pass checks the passes, not the model: a developer's check, as
  // in LLVM's and Cranelift's release builds, and the test suite's (it
  // passes --verify_each). It grew faster than the program: 0.64 s of a
  // 4.65 s compile at 100k ops, 37 ms of 0.36 s at 10k.
  pm.enableVerifier(flags.verifyEach);

  LogicalResult result = pm.run(module);

  CompileSpan span;
  span.moduleName = info.moduleName;
  span.target = target.name;
  span.moduleId = info.moduleId;
  span.startNs = nsBetween(origin, start);
  // The span ends when the executable is written: what follows the passes
  // (a memory analysis the pass could not hand over, the reports, the
  // executable) is half of a large compile, and a trace without it would
  // not say where that half goes. Each is a timeline record after the
  // passes, with the op count the last pass left.
  auto endSpan = [&] {
    span.durationNs = nsBetween(start, std::chrono::steady_clock::now());
    span.passes = *timeline;
    compileSpans.push_back(span);
  };
  int64_t opsAtEnd = timeline->empty() ? 0 : timeline->back().opsAfter;
  // A phase's timeline record, `lane` 1 for one that ran on a thread of its
  // own alongside the compile's (PassTiming::lane).
  auto record = [&](const char *name,
                    std::chrono::steady_clock::time_point begin,
                    std::chrono::steady_clock::time_point end, unsigned lane) {
    PassTiming record;
    record.name = name;
    record.startNs = nsBetween(start, begin);
    record.durationNs = nsBetween(begin, end);
    record.opsBefore = record.opsAfter = opsAtEnd;
    record.lane = lane;
    timeline->push_back(std::move(record));
  };
  auto timePhase = [&](const char *name, auto &&body) {
    if (progressLines)
      progressLines->beginStep(name);
    auto begin = std::chrono::steady_clock::now();
    body();
    if (progressLines)
      progressLines->endStep();
    record(name, begin, std::chrono::steady_clock::now(), 0);
  };
  span.failed = failed(result);
  if (failed(result)) {
    endSpan();
    return failure();
  }

  // The analyses' results, as named reports for the sink. Building them
  // costs a walk; skip it when no report will be written.
  CompileEndInfo endInfo;
  CompatReport compat;
  // Every compile allocates: the executable places each buffer at the
  // allocator's offsets. The report is built from the same analysis only
  // when a report or a dump will show it.
  std::optional<json> memory;
  std::optional<memory::MemoryAnalysis> analysis;
  tile::ProgramOp program;
  module.walk([&](tile::ProgramOp p) {
    if (!program)
      program = p;
  });
  if (!program) {
    emitError(module.getLoc()) << "the compile produced no tile program";
    return failure();
  }
  // The pass's analysis holds while no pass after tgraph-to-tile could
  // have changed the program.
  std::optional<GraphModuleBytes> graphModule;
  if (kept && keptProgram == program.getOperation() &&
      steps.back().name == "tgraph-to-tile") {
    analysis = std::move(kept);
    if (progressLines)
      progressLines->skipStep();
  } else {
    // The executable's tgraph module is written now, while the heap is
    // smallest (writeGraphModule); on failure the writer tries again and
    // says why. A large one is written on a thread of its own beside the
    // analysis's liveness (kGraphAlongsideOps), when there are threads to
    // spare: the liveness keeps one core busy, and the module's bytecode
    // was a sixth to a third of the phase at 100k ops. The two read
    // disjoint parts of the module: the liveness only the tile program,
    // the writer only the ops outside it, which it moves into a module of
    // its own and back. The context's uniquers take locks meanwhile (the
    // writer makes attributes of the ops' properties). The writer's scratch
    // (50 MB at 100k ops, small blocks the analysis's tables do not reuse)
    // is given back when it is done.
    std::chrono::steady_clock::time_point graphBegin, graphEnd;
    bool beside = llvm::parallel::strategy.compute_thread_count() > 1 &&
                  graphHasOps(module, kGraphAlongsideOps);
    auto writeGraph = [&] {
      graphBegin = std::chrono::steady_clock::now();
      if (llvm::Expected<GraphModuleBytes> bytes = writeGraphModule(module))
        graphModule = std::move(*bytes);
      else
        llvm::consumeError(bytes.takeError());
      if (beside)
        releaseFreedHeap();
      graphEnd = std::chrono::steady_clock::now();
    };
    timePhase("memory-analysis", [&] {
      std::thread graphThread;
      bool wasThreaded = context->isMultithreadingEnabled();
      if (beside) {
        context->enableMultithreading();
        graphThread = std::thread(writeGraph);
      } else {
        writeGraph();
      }
      // Beside the liveness only: the allocation then keeps both cores
      // busy with large lists, whose indexes (30 MB each at 100k ops) met
      // the writer's scratch at its largest when it ran late (peak RSS 400
      // to 412 MB in a run of ten, against 380 otherwise).
      auto joinGraph = [&] {
        if (!graphThread.joinable())
          return;
        graphThread.join();
        context->disableMultithreading(!wasThreaded);
      };
      analysis = memory::analyzeMemory(program, target,
                                       shares ? &*shares : nullptr, joinGraph);
      joinGraph();
    });
    if (beside)
      record("graph-module", graphBegin, graphEnd, 1);
  }
  json compilation;
  // Without reports or dumps nothing reads the reports: no phase (the
  // compatibility and compilation reports were 0.16 s of a 100k-op compile
  // with reports off, growing faster than the ops).
  bool reporting = sink.options().writesReports() || dumper.dumpingModule();
  if (!reporting && progressLines)
    progressLines->skipStep();
  auto buildReports = [&] {
    compat = computeCompatReport(module, target.name);
    compilation = buildCompilationReport(module, info.moduleName, info.moduleId,
                                         target, compat);
    // The memory report and the tensor map are built one after the other,
    // each in tasks of its own when it is large (a task's own tasks would
    // run in that task's thread).
    memory = memory::buildMemoryReport(
        *analysis, flags.memoryReportTileFormat != "tiles",
        flags.memoryReportFormat == "complete" ? memory::ReportForm::Complete
                                               : memory::ReportForm::Compact);
    if (!sink.options().writesReports())
      return;
    endInfo.reports.push_back(
        {ReportKind::Compilation, compilation, writeCompilationReportText});
    endInfo.reports.push_back(
        {ReportKind::TensorMap,
         buildTensorMap(module, flags.tensorMapFormat == "tiles"
                                    ? TensorMapFormat::Tiles
                                    : TensorMapFormat::Runs),
         nullptr});
    endInfo.reports.push_back(
        {ReportKind::InstructionInfo, buildInstructionInfo(module), nullptr});
    endInfo.reports.push_back(
        {ReportKind::Compatibility, compatReportJson(compat), nullptr});
    // The dump's text summary reads the report after the sink; otherwise
    // the sink takes it rather than a deep copy.
    if (memory)
      endInfo.reports.push_back(
          {ReportKind::Memory,
           dumper.dumpingModule() ? json(*memory) : std::move(*memory),
           memory::writeMemorySummary});
  };
  // The reports and the executable both only read the program and the
  // analysis: with threads to spare the reports are built on a thread of
  // their own while this one writes the executable (the two were each a
  // fifth of a large compile, and neither kept two cores busy). The
  // context's uniquers take locks meanwhile: either side may look up or
  // make an attribute. The writer then cannot free the analysis early,
  // which only a compile with reports pays.
  bool alongside =
      reporting && flags.reportsAlongside != "never" &&
      llvm::parallel::strategy.compute_thread_count() > 1 &&
      (flags.reportsAlongside == "always" ||
       analysis->liveness.numShares() >= kAlongsideShares);
  // Taken before the reports start: writing it moves the module's ops out
  // and back. Should it fail, the writer tries again, and says why, with
  // nothing alongside.
  if (alongside && !graphModule) {
    if (llvm::Expected<GraphModuleBytes> bytes = writeGraphModule(module))
      graphModule = std::move(*bytes);
    else
      llvm::consumeError(bytes.takeError());
    alongside = graphModule.has_value();
  }
  std::thread reportThread;
  std::chrono::steady_clock::time_point reportsBegin, reportsEnd;
  bool wasThreaded = context->isMultithreadingEnabled();
  if (alongside) {
    context->enableMultithreading();
    reportsBegin = std::chrono::steady_clock::now();
    reportThread = std::thread([&] {
      buildReports();
      reportsEnd = std::chrono::steady_clock::now();
    });
  } else if (reporting) {
    timePhase("reports", buildReports);
  }
  CompileOutput output;
  output.moduleName = info.moduleName;
  output.moduleId = info.moduleId;
  std::optional<llvm::Expected<std::string>> executable;
  auto writeBody = [&] {
    // Only --serialized_graph shows the module's bytecode; taken always, it
    // was held twice through the rest of a large compile.
    if (sink.options().serializedGraph)
      endInfo.serializedProgram = serializeProgram(module);
    if (alongside) {
      executable.emplace(
          writeExecutable(module, program, *analysis, info.moduleName,
                          std::move(*sourceModule), std::move(graphModule)));
      return;
    }
    // Nothing after the executable reads the analysis: the writer frees it
    // before the parts of the executable that come last.
    executable.emplace(
        writeExecutable(module, program, std::move(*analysis), info.moduleName,
                        std::move(*sourceModule), std::move(graphModule)));
    analysis.reset();
  };
  if (!alongside) {
    timePhase("executable", writeBody);
  } else {
    // The records in begin order: the reports began first.
    if (progressLines)
      progressLines->beginStep("executable");
    auto begin = std::chrono::steady_clock::now();
    writeBody();
    auto end = std::chrono::steady_clock::now();
    if (progressLines) {
      progressLines->endStep();
      progressLines->beginStep("reports");
    }
    reportThread.join();
    if (progressLines)
      progressLines->endStep();
    context->disableMultithreading(!wasThreaded);
    record("reports", reportsBegin, reportsEnd, 1);
    record("executable", begin, end, 0);
    analysis.reset();
  }
  if (!*executable) {
    span.failed = true;
    endSpan();
    // At the op that cannot be written, when one is the cause.
    Location where = module.getLoc();
    std::string message;
    llvm::handleAllErrors(
        executable->takeError(),
        [&](const ExecutableOpError &e) {
          where = e.loc;
          message = e.message;
        },
        [&](const llvm::ErrorInfoBase &e) { message = e.message(); });
    emitError(where) << "cannot write the executable: " << message;
    return failure();
  }
  output.executable = std::move(**executable);
  if (!flags.saveVertexGraph.empty()) {
    llvm::raw_string_ostream os(output.vertexGraphDot);
    module.walk([&](tile::ProgramOp program) {
      writeVertexGraphDot(program, flags.vertexGraphMaxVertices, os);
    });
  }
  endSpan();
  endInfo.durationNs = span.durationNs;
  endInfo.passes = *timeline;
  if (llvm::Error err = sink.compileEnd(info, endInfo)) {
    emitError(module.getLoc()) << llvm::toString(std::move(err));
    return failure();
  }
  output.serializedProgram = std::move(endInfo.serializedProgram);
  if (options.keepReportsUntilExit)
    keepUntilExit(std::move(endInfo.reports));

  // Beside the final dump: the readable reports.
  if (dumper.dumpingModule()) {
    std::string summary, text, tensorMap, memoryText;
    llvm::raw_string_ostream summaryOs(summary), textOs(text),
        tensorMapOs(tensorMap), memoryOs(memoryText);
    if (memory)
      memory::writeMemorySummary(*memory, memoryOs);
    writeCompatSummary(compat, summaryOs);
    writeCompilationReportText(compilation, textOs);
    module.walk([&](tile::ProgramOp program) {
      writeTensorMapSummary(program, tensorMapOs);
    });
    dumper.dumpAfterOptimizations(module,
                                  {{"-compat-summary.txt", summary},
                                   {"-compilation-report.txt", text},
                                   {"-tensor-map-summary.txt", tensorMap},
                                   {"-memory-usage-report.txt", memoryText}});
  }
  return output;
}

} // namespace tessera
