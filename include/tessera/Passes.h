//===- Passes.h - Tessera pass declarations ----------------------*- C++ -*-===//

#ifndef TESSERA_PASSES_H
#define TESSERA_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tessera {

#define GEN_PASS_DECL
#include "Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Passes.h.inc"

} // namespace tessera

#endif // TESSERA_PASSES_H
