//===- MixedOperands.h - dots and convolutions of two float types -*- C++
//-*-===//
//
// XLA lets a dot or a convolution multiply floats of different precision
// (`f32 dot(f32, f16)`): the products are taken in the wider type. The
// matrix unit's vertices (matmul-partial, conv-partial) read both operands
// in one type, so such an op is computed with its narrower operand
// converted first. The conversion only widens, so it is exact, and the
// compiler makes it itself (tgraph-legalize-for-target); the compatibility
// checker reads the same plan, so it calls incompatible exactly what that
// pass has not yet fixed.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_ANALYSIS_MIXEDOPERANDS_H
#define TESSERA_ANALYSIS_MIXEDOPERANDS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

namespace tessera {

/// For a tgraph dot_general or convolution whose two operands are floats of
/// different types, the type both are computed in: the wider, or f32 for
/// f16 with bf16 (each holds values the other cannot). Null otherwise.
mlir::FloatType mixedOperandType(mlir::Operation *op);

} // namespace tessera

#endif // TESSERA_ANALYSIS_MIXEDOPERANDS_H
