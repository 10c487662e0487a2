//===- HloImporter.cpp - XLA HLO text to tgraph ---------------------------===//
//
// Glue: parse the main buffer into an AST (HloParser), then emit MLIR
// (HloEmitter). Both report through one DiagnosticSink that turns source
// pointers into FileLineColLoc diagnostics, so every error names
// file:line:col of the offending token.
//
//===----------------------------------------------------------------------===//

#include "tessera/Import/HloImporter.h"
#include "HloAsync.h"
#include "HloEmitter.h"
#include "HloModuleChecks.h"
#include "HloParser.h"
#include "HloShapeInference.h"

#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

namespace {

/// Reports parser and emitter errors as MLIR diagnostics located in the
/// HLO buffer (named by the SourceMgr's buffer identifier).
class MlirDiagnosticSink : public tessera::hlo::DiagnosticSink {
public:
  MlirDiagnosticSink(llvm::SourceMgr &sourceMgr, unsigned bufferId,
                     MLIRContext *context)
      : sourceMgr(sourceMgr), bufferId(bufferId),
        fileName(StringAttr::get(
            context,
            sourceMgr.getMemoryBuffer(bufferId)->getBufferIdentifier())) {}

  void error(llvm::SMLoc loc, const llvm::Twine &message) override {
    auto [line, col] = sourceMgr.getLineAndColumn(loc, bufferId);
    emitError(FileLineColLoc::get(fileName, line, col), clipped(message.str()));
  }

  /// Messages quote the input (names, tokens); a 1 MB name is shown by
  /// its ends.
  static std::string clipped(std::string message) {
    constexpr size_t kHead = 400, kTail = 100;
    if (message.size() <= kHead + kTail + 64)
      return message;
    return message.substr(0, kHead) + " ... (" +
           std::to_string(message.size() - kHead - kTail) +
           " characters left out) ... " +
           message.substr(message.size() - kTail);
  }

private:
  llvm::SourceMgr &sourceMgr;
  unsigned bufferId;
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
                        module) ||
      !hlo::inferShapes(module, diags) ||
      !hlo::checkModuleHeader(module, diags) ||
      !hlo::checkInstructions(module, diags))
    return nullptr;
  // Async chains become the operation they run (HloAsync.h).
  hlo::fuseAsyncPairs(module);
  return hlo::emitModule(module, sourceMgr, bufferId, context, diags);
}
