//===- ExecutableWriter.h - A tile program as an executable ------*- C++ -*-===//
//
// Turns a module's lowered tile.program, with its memory analysis (the
// per-tile offsets of the allocator), into the self-contained executable the
// runtime loads (proto/tessera_executable.proto, docs/executable.md). Every
// buffer, step and vertex parameter is taken from the tile IR's declared
// structure; the tgraph module rides along for host ops and for checking a
// run against the reference interpreter.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_COMPILE_EXECUTABLEWRITER_H
#define TESSERA_COMPILE_EXECUTABLEWRITER_H

#include "tessera/Memory/MemoryAnalysis.h"
#include "tessera/Runtime/ExecutableFile.h"

#include "mlir/IR/BuiltinOps.h"

namespace tessera {

/// The executable file (header and payload, docs/executable.md) of
/// `program` (a tile.program of `module`) as analysed by `analysis`.
/// `moduleName` is the name events use; `sourceModule` is the tgraph
/// module's bytecode before precision normalization, or "". Steps are
/// serialized as they are built, never held all at once. Fails, with a
/// message, on a program the runtime could not run (e.g. a constant
/// without data).
llvm::Expected<std::string>
writeExecutable(mlir::ModuleOp module, tile::ProgramOp program,
                const memory::MemoryAnalysis &analysis,
                llvm::StringRef moduleName, std::string sourceModule);

/// The same, taking the analysis to free it as soon as the executable's
/// fields that read it are built, before the tgraph module's bytecode and
/// the file's bytes (a large compile's peak memory: issue 16). `analysis`
/// is left empty.
llvm::Expected<std::string> writeExecutable(mlir::ModuleOp module,
                                            tile::ProgramOp program,
                                            memory::MemoryAnalysis &&analysis,
                                            llvm::StringRef moduleName,
                                            std::string sourceModule);

/// writeExecutable, read back as the runtime reads it (for tests and tools
/// that look into the message).
llvm::Expected<exe::Executable>
buildExecutable(mlir::ModuleOp module, tile::ProgramOp program,
                const memory::MemoryAnalysis &analysis,
                llvm::StringRef moduleName);

} // namespace tessera

#endif // TESSERA_COMPILE_EXECUTABLEWRITER_H
