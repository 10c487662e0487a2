//===- LoweringFuzzer.cpp - Models compiled, run, and checked op by op ----===//
//
// The differential target: a model that imports (HLO text, or MLIR: tgraph,
// TOSA) is compiled as tessera-compile compiles it, loaded and run on the
// model device, and judged by two properties the compiler promises:
//
// - every op the device computed agrees with the reference interpreter
//   applied to the device's own values of its operands (runner::checkOps,
//   `tessera-run --check_ops`): a lowering computes the op's numbers;
// - a run in the allocator's storage gives the same output bits as a run in
//   which every buffer has storage of its own (LoadOptions::privateStorage):
//   the liveness and the allocation never let two live values share bytes.
//
// The runtime must also load and run what the compiler wrote. A module the
// importer or the compiler rejects is not a finding (the other targets
// cover rejection); nor is a module over the size bounds below, which keep
// an input to milliseconds.
//
//===----------------------------------------------------------------------===//

#include "FuzzTargets.h"

#include "tessera/Compile/Compiler.h"
#include "tessera/Compile/Dumper.h"
#include "tessera/Import/HloImporter.h"
#include "tessera/InitAll.h"
#include "tessera/Interpreter/Interpreter.h"
#include "tessera/Runner/Runner.h"
#include "tessera/Runtime/Device.h"
#include "tessera/Runtime/ExecutableFile.h"
#include "tessera/Runtime/Program.h"
#include "tessera/Target/Presets.h"
#include "tessera/Trace/InputFile.h"
#include "tessera/Trace/ReportSink.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;
using namespace tessera;

namespace {

/// Bounds on what is compiled and run: ops in the module, elements of any
/// one tensor, trips of any loop (as the reference counts them). A mutation
/// that writes f32[99999999] is a compile of minutes, not a finding.
constexpr int64_t kMaxOps = 256;
constexpr int64_t kMaxElements = 4096;
constexpr int64_t kMaxTrips = 4096;
/// The seed of the inputs, the elided constants and the infeeds, as
/// tessera-run's --seed gives them.
constexpr uint64_t kSeed = 0;

bool withinBounds(ModuleOp module) {
  int64_t ops = 0;
  auto small = [](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return !tensor ||
           (tensor.hasStaticShape() && tensor.getNumElements() <= kMaxElements);
  };
  WalkResult walk = module.walk([&](Operation *op) {
    if (++ops > kMaxOps || !llvm::all_of(op->getResultTypes(), small))
      return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (!llvm::all_of(block.getArgumentTypes(), small))
          return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

/// With TESSERA_FUZZ_VERBOSE set, says what became of each input: which
/// stage turned it away, or how many ops were checked. For seeing that a
/// corpus reaches the checks at all.
int outcome(const llvm::Twine &what) {
  static const bool verbose = std::getenv("TESSERA_FUZZ_VERBOSE") != nullptr;
  if (verbose)
    llvm::errs() << "lowering: " << what << "\n";
  return 0;
}

[[noreturn]] void fail(const char *what, const llvm::Twine &detail) {
  llvm::errs() << detail << "\n";
  fuzz::propertyFailed(what);
}

/// A program loaded and run once: the outputs, and the device and its
/// record for the per-op check.
struct Ran {
  std::unique_ptr<runtime::Program> program;
  std::unique_ptr<runner::SeededDevice> device;
  runtime::RunRecord record;
  std::vector<HostTensor> outputs;
};

/// Loads `executable` and runs it once on `inputs`. Load and run failures
/// are findings: the runtime must run what the compiler wrote.
Ran loadAndRun(const exe::Executable &executable, bool privateStorage,
               runner::GraphModule &graph, llvm::ArrayRef<HostTensor> inputs) {
  Ran ran;
  runtime::LoadOptions load;
  load.privateStorage = privateStorage;
  // A program over a tile's memory runs with the overflow on the host: its
  // numbers are still the program's.
  load.allowOutOfMemory = true;
  llvm::Expected<std::unique_ptr<runtime::Program>> program =
      runtime::Program::load(executable, "fuzz.tessera", load);
  if (!program)
    fail("the runtime does not load what the compiler wrote",
         llvm::toString(program.takeError()));
  ran.program = std::move(*program);
  ran.device = std::make_unique<runner::SeededDevice>(*ran.program, graph,
                                                      kSeed, /*threads=*/1);
  llvm::Expected<std::vector<HostTensor>> outputs =
      ran.device->run(inputs, ran.record);
  if (!outputs)
    fail("the device does not run what the compiler wrote",
         llvm::toString(outputs.takeError()));
  ran.outputs = std::move(*outputs);
  return ran;
}

} // namespace

int tessera::fuzz::fuzzLowering(const uint8_t *data, size_t size) {
  static const TargetDescription *targets[2] = {nullptr, nullptr};
  if (!targets[0]) {
    registerAllPasses();
    static llvm::Expected<TargetDescription> tile = loadPreset("tile-1472");
    static llvm::Expected<TargetDescription> core = loadPreset("core-8");
    if (!tile || !core)
      fail("the presets do not load", "tile-1472 or core-8");
    targets[0] = &*core;
    targets[1] = &*tile;
  }
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });
  // HLO text, or else MLIR (tgraph, TOSA) as tessera-compile reads a
  // .mlir model: the nesting bounded, then parsed and verified.
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::SourceMgr hloSource;
  hloSource.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.hlo"), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = importHloText(hloSource, &context);
  llvm::SourceMgr mlirSource;
  if (!module) {
    if (llvm::Error err = checkMlirNesting(text, "fuzz.mlir")) {
      llvm::consumeError(std::move(err));
      return outcome("not imported");
    }
    mlirSource.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.mlir"), llvm::SMLoc());
    module = parseSourceFile<ModuleOp>(mlirSource, &context);
    if (!module)
      return outcome("not imported");
  }
  if (!withinBounds(*module))
    return outcome("over the bounds");

  // The same input always meets the same target: 8 cores, or 1,472 tiles
  // that spread a small tensor a few elements to a tile.
  const TargetDescription &target = *targets[size % 2];
  TesseraFlags flags;
  flags.compileThreads = 1;
  ReportSink sink(ReportSinkOptions::fromFlags(flags), nullptr, ".", "fuzz",
                  llvm::nulls());
  Dumper dumper(flags, "fuzz", llvm::nulls());
  CompileOptions options;
  options.target = target.name;
  options.countPassOps = false;
  Compiler compiler(flags, options, target, sink, dumper, llvm::nulls());
  FailureOr<CompileOutput> compiled = compiler.compile(*module, "fuzz");
  if (failed(compiled))
    return outcome("not compiled");

  llvm::Expected<exe::Executable> executable =
      runtime::decodeExecutable(compiled->executable, "fuzz.tessera");
  if (!executable)
    fail("the compiler wrote an executable that does not decode",
         llvm::toString(executable.takeError()));
  // One replica's program: a data-parallel one runs on several devices,
  // which the per-op check does not follow.
  if (executable->replicas() > 1)
    return outcome("several replicas");
  llvm::Expected<std::unique_ptr<runner::GraphModule>> graph =
      runner::GraphModule::parse(*executable, "fuzz.tessera");
  if (!graph)
    fail("the executable's graph module does not parse",
         llvm::toString(graph.takeError()));

  std::vector<HostTensor> inputs;
  for (const auto &[i, p] : llvm::enumerate(executable->parameters())) {
    std::optional<DType> dtype = parseDType(p.dtype());
    if (!dtype)
      fail("a parameter has an element type the runtime does not know",
           p.dtype());
    std::vector<int64_t> shape(p.shape().begin(), p.shape().end());
    inputs.push_back(
        runner::seededTensor(*dtype, shape, kSeed, runner::inputStream(i)));
  }

  // A module the reference cannot evaluate (a custom call or an opcode of
  // no defined semantics, a collective one replica cannot run) has no
  // numbers to check, and the device would ask the reference for them.
  {
    runner::InfeedSource infeed(kSeed);
    interp::Options reference = runner::referenceOptions(
        **graph, kSeed, /*computeInF64=*/false, infeed);
    // A loop of more trips than this is not a finding either (a seed's
    // while that never ends ran 16M trips, 38 s, in the reference), and
    // the device would take as long.
    reference.maxWhileIterations = kMaxTrips;
    llvm::Expected<std::vector<HostTensor>> evaluated =
        interp::interpretFunction((*graph)->entry(), inputs, reference);
    if (!evaluated) {
      return outcome("the reference cannot evaluate it: " +
                     llvm::toString(evaluated.takeError()));
    }
  }

  Ran allocated =
      loadAndRun(*executable, /*privateStorage=*/false, **graph, inputs);
  Ran isolated =
      loadAndRun(*executable, /*privateStorage=*/true, **graph, inputs);
  if (allocated.outputs.size() != isolated.outputs.size())
    fail("the two runs give different numbers of outputs", "");
  for (auto [k, pair] :
       llvm::enumerate(llvm::zip(allocated.outputs, isolated.outputs))) {
    auto &[shared, own] = pair;
    runner::BitsDiff diff = runner::diffBits(shared, own);
    if (diff.differ)
      fail("the allocator's storage changes an output",
           llvm::formatv("output {0} ({1}): {2} elements differ from a run "
                         "where every buffer has its own bytes, the first "
                         "at {3}",
                         k, shared.typeString(), diff.differ, diff.first)
               .str());
  }

  runner::OpCheckSummary summary =
      runner::checkOps(**graph, *isolated.program, isolated.device->device(),
                       isolated.record, inputs, kSeed);
  for (const runner::OpCheck &check : summary.checks)
    if (!check.pass && check.error.empty())
      fail("an op disagrees with the reference interpreter",
           llvm::formatv("op '{0}' ({1}): max abs err {2}, norm err {3} over "
                         "tolerance {4}",
                         check.name, check.location, check.worst.maxAbsErr,
                         check.worst.normErr, check.worst.tolerance)
               .str());
  return outcome(llvm::formatv("{0} ops checked on {1}, {2} skipped",
                               summary.checks.size(), target.name,
                               summary.skipped + summary.hostOps +
                                   summary.hiddenInputs + summary.noBuffer)
                     .str());
}
