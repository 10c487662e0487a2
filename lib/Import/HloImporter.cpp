//===- HloImporter.cpp - XLA HLO text to tgraph ---------------------------===//
//
// Glue: parse the main buffer into an AST (HloParser), then emit MLIR
// (HloEmitter). Both report through one DiagnosticSink that turns source
// pointers into FileLineColLoc diagnostics, so every error names
// file:line:col of the offending token.
//
//===----------------------------------------------------------------------===//

#include "tessera/Import/HloImporter.h"
#include "HloEmitter.h"
#include "HloParser.h"

#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;

namespace {

/// Reports parser and emitter errors as MLIR diagnostics located in the
/// HLO buffer (named by the SourceMgr's buffer identifier).
class MlirDiagnosticSink : public tessera::hlo::DiagnosticSink {
public:
  MlirDiagnosticSink(llvm::SourceMgr &sourceMgr, unsigned bufferId,
                     MLIRContext *context)
      : sourceMgr(sourceMgr), bufferId(bufferId), context(context),
        fileName(StringAttr::get(
            context,
            sourceMgr.getMemoryBuffer(bufferId)->getBufferIdentifier())) {}

  void error(llvm::SMLoc loc, const llvm::Twine &message) override {
    auto [line, col] = sourceMgr.getLineAndColumn(loc, bufferId);
    emitError(FileLineColLoc::get(fileName, line, col), message);
  }

private:
  llvm::SourceMgr &sourceMgr;
  unsigned bufferId;
  MLIRContext *context;
  StringAttr fileName;
};

} // namespace

void tessera::loadImportDialects(MLIRContext &context) {
  context.loadDialect<tgraph::TGraphDialect, func::FuncDialect>();
}

OwningOpRef<ModuleOp> tessera::importHloText(llvm::SourceMgr &sourceMgr,
                                             MLIRContext *context) {
  loadImportDialects(*context);
  unsigned bufferId = sourceMgr.getMainFileID();
  MlirDiagnosticSink diags(sourceMgr, bufferId, context);
  hlo::Module module;
  if (!hlo::parseModule(sourceMgr.getMemoryBuffer(bufferId)->getBuffer(), diags,
                        module))
    return nullptr;
  return hlo::emitModule(module, sourceMgr, bufferId, context, diags);
}
