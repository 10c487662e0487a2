//===- HloOpcodeAttrs.h - which attributes each opcode takes ----*- C++ -*-===//

#ifndef TESSERA_LIB_IMPORT_HLOOPCODEATTRS_H
#define TESSERA_LIB_IMPORT_HLOOPCODEATTRS_H

#include "HloAst.h"
#include "HloParser.h"

namespace tessera::hlo {

/// As XLA's parser: fails, located, when `instr`'s opcode is not an HLO
/// opcode (nor the short form `<opcode>-start` / `-update` / `-done` of an
/// async wrapper), when it carries an attribute its opcode does not take
/// (`unexpected attribute "calls" for 'add'`, at the attribute), or when
/// it lacks one its opcode needs (`attribute dimensions is expected but
/// not seen`, at the opcode). Attributes every instruction may carry
/// (metadata, sharding, backend_config, ...) always pass, and so does
/// every attribute of an opcode the table does not list.
bool checkOpcodeAttributes(const Instruction &instr, DiagnosticSink &diags);

/// Whether `opcode` is XLA's short form of an async wrapper: `X-start`,
/// `X-update` or `X-done` for an opcode X without such a form of its own
/// (`reduce-scatter-start`, `fusion-done`). Sets the wrapped opcode X and
/// the kind (`start`, `update` or `done`).
bool isAsyncShortForm(llvm::StringRef opcode, llvm::StringRef &wrapped,
                      llvm::StringRef &kind);

/// Reports, at the opcode, that `instr` lacks the attribute `name` its
/// opcode needs; returns false.
bool missingAttribute(const Instruction &instr, llvm::StringRef name,
                      DiagnosticSink &diags);

} // namespace tessera::hlo

#endif // TESSERA_LIB_IMPORT_HLOOPCODEATTRS_H
