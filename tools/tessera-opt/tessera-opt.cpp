//===- tessera-opt.cpp - the compiler engineer's driver -------------------===//
//
// mlir-opt with every Tessera dialect and pass. Accepts `.hlo` files
// directly: they are imported to tgraph first, so a pipeline can start from
// an XLA dump.
//
//===----------------------------------------------------------------------===//

#include "tessera/Import/HloImporter.h"
#include "tessera/Import/LongLineDiagnostics.h"
#include "tessera/InitAll.h"
#include "tessera/Target/Presets.h"
#include "tessera/Target/TargetJson.h"
#include "tessera/Trace/InputFile.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

// Target inspection: answered before any input is read, so they work without
// an input file (and never wait on stdin).
static llvm::cl::opt<bool>
    listTargets("list-targets",
                llvm::cl::desc("List the built-in target presets and exit"),
                llvm::cl::init(false));
static llvm::cl::opt<std::string> printTarget(
    "print-target",
    llvm::cl::desc("Print a target description (preset name or JSON file) "
                   "as canonical JSON and exit"),
    llvm::cl::value_desc("name|file"));

/// 638976 → "624 KiB", 16777216 → "16 MiB": the units datasheets use.
static std::string humanBytes(int64_t bytes) {
  if (bytes % (1 << 20) == 0)
    return std::to_string(bytes >> 20) + " MiB";
  if (bytes % (1 << 10) == 0)
    return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " B";
}

/// One line per preset: the numbers a user compares when choosing one.
static int listTargetPresets() {
  for (llvm::StringRef name : tessera::presetNames()) {
    llvm::Expected<tessera::TargetDescription> target =
        tessera::loadPreset(name);
    if (!target) {
      // A preset that does not parse is a build defect; say which.
      llvm::errs() << llvm::toString(target.takeError()) << "\n";
      return 1;
    }
    const tessera::MatrixUnit &mu = target->matrixUnit;
    llvm::outs() << llvm::left_justify(name, 10) << " chips=" << target->chips
                 << " tiles=" << target->totalTiles()
                 << " bytes/tile=" << target->sramBytesPerTile << " ("
                 << humanBytes(target->sramBytesPerTile) << ")"
                 << " clock=" << llvm::format("%.2f", target->clockHz / 1e9)
                 << "GHz"
                 << " matrix=" << mu.m << "x" << mu.n << "x" << mu.k << " ("
                 << llvm::join(mu.dtypes, ",") << ")";
    if (!target->chipLinks.empty())
      llvm::outs() << " links=" << target->chipLinks.size();
    llvm::outs() << (name == tessera::defaultTargetName() ? " [default]" : "")
                 << "\n";
  }
  return 0;
}

static int printTargetJson(llvm::StringRef nameOrPath) {
  llvm::Expected<tessera::TargetDescription> target =
      tessera::resolveTarget(nameOrPath);
  if (!target) {
    llvm::errs() << "tessera-opt: error: " << llvm::toString(target.takeError())
                 << "\n";
    return 1;
  }
  llvm::outs() << tessera::toJson(*target);
  return 0;
}

/// Imports HLO text (read from `path`) and returns it as MLIR text that keeps
/// every location, so diagnostics of later passes still point into the HLO.
static std::unique_ptr<llvm::MemoryBuffer>
importHloToBuffer(std::unique_ptr<llvm::MemoryBuffer> file,
                  llvm::StringRef path, DialectRegistry &registry) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  MLIRContext context(registry);
  tessera::loadImportDialects(context);
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  tessera::LongLineDiagnosticHandler longLines(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = tessera::importHloText(sourceMgr, &context);
  if (!module)
    return nullptr;
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, OpPrintingFlags().enableDebugInfo());
  return llvm::MemoryBuffer::getMemBufferCopy(text, path);
}

/// Dense constants with more elements than this print as
/// `dense_resource<__elided__>` unless the user passes
/// `--mlir-elide-elementsattrs-if-larger` (docs/tgraph.md): imported
/// weights would otherwise bury the graph. Splats always print in full.
static constexpr llvm::StringLiteral kElideFlag =
    "mlir-elide-elementsattrs-if-larger";
static constexpr llvm::StringLiteral kDefaultElideFlag =
    "--mlir-elide-elementsattrs-if-larger=16";

/// argv with the default elision flag appended when the user gave none.
static llvm::SmallVector<char *> withDefaultElision(int argc, char **argv) {
  llvm::SmallVector<char *> args(argv, argv + argc);
  bool given = llvm::any_of(args, [](llvm::StringRef arg) {
    return arg.ltrim('-').starts_with(kElideFlag);
  });
  // Right after the program name, so a `--` ending the options cannot turn
  // it into an input file name.
  if (!given)
    args.insert(args.begin() + 1, const_cast<char *>(kDefaultElideFlag.data()));
  return args;
}

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  DialectRegistry registry;
  tessera::registerAllDialects(registry);
  tessera::registerAllPasses();

  llvm::SmallVector<char *> args = withDefaultElision(argc, argv);
  argc = static_cast<int>(args.size());
  argv = args.data();
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "Tessera modular optimizer driver\n", registry);
  if (listTargets)
    return listTargetPresets();
  if (printTarget.getNumOccurrences())
    return printTargetJson(printTarget);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();

  // Bounded, and a device or folder refused (docs/limits.md).
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> read =
      tessera::readInputFile(inputFilename, tessera::kMaxModelBytes, "model");
  if (!read) {
    llvm::errs() << "tessera-opt: error: " << llvm::toString(read.takeError())
                 << "\n";
    return 1;
  }
  std::unique_ptr<llvm::MemoryBuffer> input = std::move(*read);
  std::string error;
  if (llvm::StringRef(inputFilename).ends_with(".hlo")) {
    input = importHloToBuffer(std::move(input), inputFilename, registry);
    if (!input)
      return 1;
  } else if (llvm::Error err =
                 tessera::checkMlirNesting(input->getBuffer(), inputFilename)) {
    // MLIR's parser recurses per nesting level: bound it before parsing.
    llvm::errs() << "tessera-opt: error: " << llvm::toString(std::move(err))
                 << "\n";
    return 1;
  }
  auto output = openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  output->keep();
  return 0;
}
