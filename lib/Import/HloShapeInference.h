//===- HloShapeInference.h - result shapes the text leaves out ---*- C++
//-*-===//
//
// XLA's parser accepts instructions written without a result shape
// (`ROOT r = negate(x)`, `add(sqrt(x), y)`) for the opcodes whose shape
// follows from the operands and attributes, and refuses the others
// (`cannot infer shape for opcode: slice`). inferShapes gives every such
// instruction of the parsed module its shape before emission, so the
// emitter and its checks (signatures, long-form operands) see shapes only.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_LIB_IMPORT_HLOSHAPEINFERENCE_H
#define TESSERA_LIB_IMPORT_HLOSHAPEINFERENCE_H

#include "HloAst.h"
#include "HloParser.h"

namespace tessera::hlo {

/// Fills in the shape of every instruction with `hasShape == false`, in
/// dependency order (operands first, called computations' roots first).
/// Reports the first instruction whose shape cannot be inferred, at its
/// opcode, and returns false.
bool inferShapes(Module &module, DiagnosticSink &diags);

} // namespace tessera::hlo

#endif // TESSERA_LIB_IMPORT_HLOSHAPEINFERENCE_H
