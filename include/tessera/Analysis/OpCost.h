//===- OpCost.h - FLOPs and bytes of tgraph ops -----------------*- C++ -*-===//
//
// Cost figures counted like XLA's HloCostAnalysis, shared by the op-stats
// pass, the compatibility checker and (later) the tile cost model.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_ANALYSIS_OPCOST_H
#define TESSERA_ANALYSIS_OPCOST_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Types.h"

#include <cstdint>

namespace tessera {

/// Bytes one element of `type` occupies (sub-byte types round up to 1).
int64_t elementBytes(mlir::Type elementType);

/// Bytes of a value of `type`: a ranked tensor, a tuple of them, or a token
/// (0). Dynamic dimensions count as their size 1 lower bound.
int64_t valueBytes(mlir::Type type);

/// Floating-point (or integer) operations of one op.
int64_t opFlops(mlir::Operation *op);

/// Bytes an op reads plus bytes it writes.
int64_t opBytes(mlir::Operation *op);

} // namespace tessera

#endif // TESSERA_ANALYSIS_OPCOST_H
