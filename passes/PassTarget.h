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

/// A pass with a `target` option (`targetName`), `Base` its generated
/// base: the target is resolved once, in initialize(), into `target`. A
/// pass with more to initialize calls TargetPass::initialize first.
template <typename Derived, template <typename> class Base>
class TargetPass : public Base<Derived> {
public:
  using BaseT = Base<Derived>;
  using BaseT::BaseT;

  mlir::LogicalResult initialize(mlir::MLIRContext *context) override {
    return resolvePassTarget(context, this->getArgument(),
                             static_cast<Derived &>(*this).targetName, target);
  }

protected:
  TargetDescription target;
};

} // namespace tessera

#endif // TESSERA_PASSES_PASSTARGET_H
