//===- HloOpcodeAttrs.h - which attributes each opcode takes ----*- C++ -*-===//

#ifndef TESSERA_LIB_IMPORT_HLOOPCODEATTRS_H
#define TESSERA_LIB_IMPORT_HLOOPCODEATTRS_H

#include "HloAst.h"
#include "HloParser.h"

namespace tessera::hlo {

/// As XLA's parser: fails, at the attribute, when `instr` carries an
/// attribute its opcode does not take (`unexpected attribute "calls" for
/// 'add'`). Attributes every instruction may carry (metadata, sharding,
/// backend_config, ...) always pass, and so does every attribute of an
/// opcode the table does not list.
bool checkOpcodeAttributes(const Instruction &instr, DiagnosticSink &diags);

} // namespace tessera::hlo

#endif // TESSERA_LIB_IMPORT_HLOOPCODEATTRS_H
