//===- PassOutput.cpp - Where a printing pass writes ----------------------===//

#include "PassOutput.h"

#include "tessera/Trace/AtomicFile.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;

LogicalResult tessera::writePassOutput(
    Operation *op, llvm::StringRef pass, llvm::StringRef path,
    llvm::function_ref<LogicalResult(llvm::raw_ostream &)> write) {
  // `write` has reported its own failure; the error below only makes
  // writeFileAtomically drop the temporary.
  bool writeFailed = false;
  llvm::Error error =
      writeFileAtomically(path, [&](llvm::raw_ostream &os) -> llvm::Error {
        if (succeeded(write(os)))
          return llvm::Error::success();
        writeFailed = true;
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "the report failed");
      });
  if (writeFailed) {
    llvm::consumeError(std::move(error));
    return failure();
  }
  if (error)
    return op->emitError() << pass << ": " << llvm::toString(std::move(error));
  return success();
}
