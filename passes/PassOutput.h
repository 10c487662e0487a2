//===- PassOutput.h - Where a printing pass writes --------------*- C++ -*-===//
//
// The passes that print take `output=FILE` (default "-", stdout). A file is
// written atomically (tessera/Trace/AtomicFile.h): it appears, whole, only
// once the pass has written all of it, so a failed pass or a reader running
// alongside never sees half a report.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_PASSES_PASSOUTPUT_H
#define TESSERA_PASSES_PASSOUTPUT_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace tessera {

/// Runs `write` on stdout when `path` is "-", else on a temporary that is
/// renamed to `path` if `write` succeeded (`write` emits its own errors).
/// A file that cannot be written is an error at `op`, naming `pass`.
mlir::LogicalResult writePassOutput(
    mlir::Operation *op, llvm::StringRef pass, llvm::StringRef path,
    llvm::function_ref<mlir::LogicalResult(llvm::raw_ostream &)> write);

} // namespace tessera

#endif // TESSERA_PASSES_PASSOUTPUT_H
