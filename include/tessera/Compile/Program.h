//===- Program.h - The compiled program's serialized form -------*- C++ -*-===//
//
// Until the tile lowering lands, the "executable" is the compiled tgraph
// module (with its compat verdicts) as MLIR bytecode. One function produces
// those bytes for every consumer (the -o output, --dump_as_proto,
// COMPILE_END.serialized_program), so they stay identical; the lowering
// issue replaces it with the tile program.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_COMPILE_PROGRAM_H
#define TESSERA_COMPILE_PROGRAM_H

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace tessera {

/// File extension of the serialized program (without the dot).
inline constexpr llvm::StringLiteral kProgramExtension = "mlirbc";

/// The serialized program of `module` (MLIR bytecode, producer "tessera").
std::string serializeProgram(mlir::ModuleOp module);

} // namespace tessera

#endif // TESSERA_COMPILE_PROGRAM_H
