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

/// Fails, located at the opcode, on an async-start / async-update /
/// async-done that XLA's parser or verifier refuses (shape, operand,
/// calls=). Run after inferShapes.
bool checkAsyncOps(const Module &module, DiagnosticSink &diags);

} // namespace tessera::hlo

#endif // TESSERA_LIB_IMPORT_HLOMODULECHECKS_H
