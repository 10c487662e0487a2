//===- Program.h - The compiled program's serialized form -------*- C++ -*-===//
//
// The compiled module (tgraph functions, compat verdicts and the tile
// program) as MLIR bytecode: what --dump_as_proto and
// COMPILE_END.serialized_program carry, for compiler engineers. The
// executable the runtime loads is another format (ExecutableWriter.h).
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_COMPILE_PROGRAM_H
#define TESSERA_COMPILE_PROGRAM_H

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace tessera {

/// File extension of the serialized module dumps (without the dot).
inline constexpr llvm::StringLiteral kProgramExtension = "mlirbc";
/// File extension of the executable tessera-compile writes by default.
inline constexpr llvm::StringLiteral kExecutableExtension = "tessera";

/// The serialized program of `module` (MLIR bytecode, producer "tessera").
std::string serializeProgram(mlir::ModuleOp module);

} // namespace tessera

#endif // TESSERA_COMPILE_PROGRAM_H
