//===- HloModuleChecks.h - the module header's attributes -------*- C++ -*-===//

#ifndef TESSERA_LIB_IMPORT_HLOMODULECHECKS_H
#define TESSERA_LIB_IMPORT_HLOMODULECHECKS_H

#include "HloAst.h"
#include "HloParser.h"

namespace tessera::hlo {

/// As XLA's parser: fails, located, on a header attribute HloModule does
/// not take, and on an input_output_alias or buffer_donor that does not
/// fit the entry computation's parameters and result. Needs every shape
/// (run after inferShapes).
bool checkModuleHeader(const Module &module, DiagnosticSink &diags);

/// Fails, located, on what XLA's parser (or verifier) refuses across an
/// instruction and its operands: an async chain that does not hold
/// together (HloAsync.h), a custom call with an unknown API version or
/// schedule, both to_apply= and called_computations=, or
/// operand_layout_constraints that do not match its operands, a missing
/// attribute that only the operands make necessary (a broadcast's
/// dimensions=, a conditional's computations). Run after inferShapes.
bool checkInstructions(const Module &module, DiagnosticSink &diags);

/// The same shape, layouts aside (tuples element by element).
bool sameShapeIgnoringLayout(const Shape &a, const Shape &b);

} // namespace tessera::hlo

#endif // TESSERA_LIB_IMPORT_HLOMODULECHECKS_H
