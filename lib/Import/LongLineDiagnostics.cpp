//===- LongLineDiagnostics.cpp - Errors on very long input lines ----------===//

#include "tessera/Import/LongLineDiagnostics.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"

using namespace mlir;

namespace tessera {

/// The buffer of `sourceMgr` named `name`, or 0.
static unsigned findBuffer(const llvm::SourceMgr &sourceMgr,
                           llvm::StringRef name) {
  for (unsigned id = 1, e = sourceMgr.getNumBuffers(); id <= e; ++id)
    if (sourceMgr.getMemoryBuffer(id)->getBufferIdentifier() == name)
      return id;
  return 0;
}

LongLineDiagnosticHandler::LongLineDiagnosticHandler(llvm::SourceMgr &sourceMgr,
                                                     MLIRContext *context,
                                                     llvm::raw_ostream &os)
    : ScopedDiagnosticHandler(context) {
  setHandler([&sourceMgr, &os](Diagnostic &d) -> LogicalResult {
    auto loc = d.getLocation()->findInstanceOf<FileLineColLoc>();
    if (!loc)
      return failure();
    unsigned bufferId = findBuffer(sourceMgr, loc.getFilename().getValue());
    if (!bufferId)
      return failure();
    llvm::SMLoc at =
        sourceMgr.FindLocForLineAndColumn(bufferId, loc.getLine(), 1);
    if (!at.isValid())
      return failure();
    const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(bufferId);
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
        : d.getSeverity() == DiagnosticSeverity::Remark  ? "remark"
                                                         : "note";
    unsigned caret = col - from + (from ? 3 : 0);
    os << loc.getFilename().getValue() << ":" << loc.getLine() << ":" << col + 1
       << ": " << kind << ": " << d.str() << "\n"
       << window << "\n"
       << std::string(caret, ' ') << "^\n";
    os.flush();
    return success();
  });
}

} // namespace tessera
