//===- PassTarget.h - the target a pass's `target` option names -*- C++ -*-===//

#ifndef TESSERA_PASSES_PASSTARGET_H
#define TESSERA_PASSES_PASSTARGET_H

#include "tessera/Target/Presets.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"

namespace tessera {

/// Resolves a pass's `target` option (a preset or JSON file; the default
/// preset when empty) in its initialize(); on failure emits an error
/// naming the pass.
inline mlir::LogicalResult resolvePassTarget(mlir::MLIRContext *context,
                                             llvm::StringRef passName,
                                             llvm::StringRef option,
                                             TargetDescription &target) {
  llvm::Expected<TargetDescription> resolved =
      resolveTarget(option.empty() ? defaultTargetName() : option);
  if (!resolved)
    return mlir::emitError(mlir::UnknownLoc::get(context))
           << passName << ": " << llvm::toString(resolved.takeError());
  target = std::move(*resolved);
  return mlir::success();
}

} // namespace tessera

#endif // TESSERA_PASSES_PASSTARGET_H
