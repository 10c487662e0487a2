//===- HloTypes.h - HLO's names of MLIR element types -----------*- C++ -*-===//
//
// HLO spells element types its own way (pred, s32, u8, bf16, f32, c64): the
// reports, the tensor map, the executable and the target's dtype tables all
// use those names. Every layer needs the mapping, so it lives with the
// dialect that imports HLO rather than with any one analysis.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_DIALECT_TGRAPH_IR_HLOTYPES_H
#define TESSERA_DIALECT_TGRAPH_IR_HLOTYPES_H

#include "mlir/IR/Types.h"

#include <string>

namespace tessera {

/// HLO's name of an element type (f32, bf16, s32, u8, pred, c64, ...);
/// a type HLO has no name for prints as MLIR spells it.
std::string hloDtypeName(mlir::Type elementType);

} // namespace tessera

#endif // TESSERA_DIALECT_TGRAPH_IR_HLOTYPES_H
