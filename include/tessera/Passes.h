//===- Passes.h - Tessera pass declarations ----------------------*- C++ -*-===//

#ifndef TESSERA_PASSES_H
#define TESSERA_PASSES_H

#include "tessera/Dialect/TGraph/Transforms/NormalizePrecision.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tessera {

/// What a printing pass prints (its `print=` or `format=` option). Each pass
/// lists the values it accepts with clEnumValN in Passes.td, so llvm::cl
/// rejects any other while parsing the pipeline, with the list of valid
/// ones, before a pass runs.
enum class PrintFormat { None, Text, Json, Summary, Dot, Svg };

/// When tgraph-check-compat fails the pipeline (its `fail-on=` option).
enum class CompatFailOn { None, Incompatible };

#define GEN_PASS_DECL
#include "Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Passes.h.inc"

} // namespace tessera

#endif // TESSERA_PASSES_H
