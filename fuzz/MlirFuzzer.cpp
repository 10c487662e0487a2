//===- MlirFuzzer.cpp - MLIR text through the tools' input path -----------===//
//
// What tessera-compile and tessera-opt do with a .mlir model before any
// pass: bound the bracket nesting, then parse (which verifies every op).
//
//===----------------------------------------------------------------------===//

#include "FuzzTargets.h"

#include "tessera/Dialect/TGraph/IR/TGraph.h"
#include "tessera/Dialect/Tile/IR/Tile.h"
#include "tessera/Trace/InputFile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

int tessera::fuzz::fuzzMlir(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  if (llvm::Error err = checkMlirNesting(text, "fuzz.mlir")) {
    llvm::consumeError(std::move(err));
    return 0;
  }
  // The dialects tessera::registerAllDialects registers (lib/InitAll),
  // listed here so the fuzzer does not link every pass.
  DialectRegistry registry;
  registry.insert<tgraph::TGraphDialect, tile::TileDialect, func::FuncDialect,
                  arith::ArithDialect, math::MathDialect, tensor::TensorDialect,
                  tosa::TosaDialect>();
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.mlir"), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  (void)module;
  return 0;
}
