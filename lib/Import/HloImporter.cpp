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
#include "llvm/Support/raw_ostream.h"

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

/// While the import runs, diagnostics at a very long line of the HLO (a
/// 1 MB name) are printed here with a window of the line around the
/// column, in the usual file:line:col form; the tools' own handlers would
/// echo the whole line. Shorter lines go on to those handlers unchanged.
class LongLineDiagnostics : public ScopedDiagnosticHandler {
public:
  LongLineDiagnostics(llvm::SourceMgr &sourceMgr, unsigned bufferId,
                      MLIRContext *context)
      : ScopedDiagnosticHandler(context) {
    setHandler([&sourceMgr, bufferId](Diagnostic &d) -> LogicalResult {
      constexpr unsigned kWindow = 120, kLongLine = 512;
      auto loc = d.getLocation()->findInstanceOf<FileLineColLoc>();
      const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(bufferId);
      if (!loc || loc.getFilename() != buffer->getBufferIdentifier())
        return failure();
      llvm::SMLoc at =
          sourceMgr.FindLocForLineAndColumn(bufferId, loc.getLine(), 1);
      if (!at.isValid())
        return failure();
      llvm::StringRef rest(at.getPointer(),
                           buffer->getBufferEnd() - at.getPointer());
      llvm::StringRef line =
          rest.take_until([](char c) { return c == '\n' || c == '\r'; });
      if (line.size() <= kLongLine)
        return failure();
      unsigned col = loc.getColumn() ? loc.getColumn() - 1 : 0;
      unsigned from = col > kWindow / 2 ? col - kWindow / 2 : 0;
      std::string window = (from ? "..." : "") +
                           line.substr(from, kWindow).str() +
                           (from + kWindow < line.size() ? "..." : "");
      // Written out here: SMDiagnostic would put the window's column, not
      // the line's, in the file:line:col.
      llvm::StringRef kind =
          d.getSeverity() == DiagnosticSeverity::Error     ? "error"
          : d.getSeverity() == DiagnosticSeverity::Warning ? "warning"
                                                           : "note";
      unsigned caret = col - from + (from ? 3 : 0);
      llvm::errs() << loc.getFilename().getValue() << ":" << loc.getLine()
                   << ":" << col + 1 << ": " << kind << ": " << d.str() << "\n"
                   << window << "\n"
                   << std::string(caret, ' ') << "^\n";
      return success();
    });
  }
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
  LongLineDiagnostics longLines(sourceMgr, bufferId, context);
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
