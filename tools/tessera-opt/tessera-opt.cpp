//===- tessera-opt.cpp - the compiler engineer's driver -------------------===//
//
// mlir-opt with every Tessera dialect and pass. Accepts `.hlo` files
// directly: they are imported to tgraph first, so a pipeline can start from
// an XLA dump.
//
//===----------------------------------------------------------------------===//

#include "tessera/Import/HloImporter.h"
#include "tessera/InitAll.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

/// Imports an HLO file and returns it as MLIR text that keeps every
/// location, so diagnostics of later passes still point into the HLO.
static std::unique_ptr<llvm::MemoryBuffer>
importHloToBuffer(llvm::StringRef path, DialectRegistry &registry) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(path, &error);
  if (!file) {
    llvm::errs() << error << "\n";
    return nullptr;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  MLIRContext context(registry);
  tessera::loadImportDialects(context);
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = tessera::importHloText(sourceMgr, &context);
  if (!module)
    return nullptr;
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, OpPrintingFlags().enableDebugInfo());
  return llvm::MemoryBuffer::getMemBufferCopy(text, path);
}

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  DialectRegistry registry;
  tessera::registerAllDialects(registry);
  tessera::registerAllPasses();

  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "Tessera modular optimizer driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();

  std::unique_ptr<llvm::MemoryBuffer> input;
  std::string error;
  if (llvm::StringRef(inputFilename).ends_with(".hlo")) {
    input = importHloToBuffer(inputFilename, registry);
    if (!input)
      return 1;
  } else {
    input = openInputFile(inputFilename, &error);
    if (!input) {
      llvm::errs() << error << "\n";
      return 1;
    }
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
