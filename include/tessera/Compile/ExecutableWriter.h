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

#include <optional>
#include <string>
#include <vector>

namespace tessera {

/// A tgraph module's bytecode (writeGraphModule) in blocks of at most 1 MB,
/// in order: the executable's writer copies them into its payload as they
/// are, and they are never joined into one string (9.5 MB more at 100k ops,
/// at the end of the module's write, beside the memory analysis).
struct GraphModuleBytes {
  std::vector<std::string> blocks;
  size_t size = 0;
};

/// A reason writeExecutable cannot write a program that concerns one op (a
/// buffer's element type, a constant, a host op): the compile reports it
/// at that op's location, which is the model's line, rather than at the
/// module's.
class ExecutableOpError : public llvm::ErrorInfo<ExecutableOpError> {
public:
  static char ID;
  ExecutableOpError(mlir::Location loc, std::string message)
      : loc(loc), message(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override { os << message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  mlir::Location loc;
  std::string message;
};

/// The executable file (header and payload, docs/executable.md) of
/// `program` (a tile.program of `module`) as analysed by `analysis`.
/// `moduleName` is the name events use; `sourceModule` is the tgraph
/// module's bytecode before precision normalization, or "". Steps are
/// serialized as they are built, never held all at once. Fails, with a
/// message, on a program the runtime could not run (e.g. a constant
/// without data; an ExecutableOpError where one op is the cause).
/// `graphModule`, when given, is writeGraphModule(module) taken earlier (see
/// there); otherwise it is taken here, which moves the module's ops for a
/// while.
llvm::Expected<std::string>
writeExecutable(mlir::ModuleOp module, tile::ProgramOp program,
                const memory::MemoryAnalysis &analysis,
                llvm::StringRef moduleName, std::string sourceModule,
                std::optional<GraphModuleBytes> graphModule = std::nullopt);

/// The same, taking the analysis to free it as soon as the executable's
/// fields that read it are built, before the tgraph module's bytecode and
/// the file's bytes (a large compile's peak memory: issue 16). `analysis`
/// is left empty. `graphModule`, when given, is writeGraphModule(module)
/// taken earlier (see there).
llvm::Expected<std::string>
writeExecutable(mlir::ModuleOp module, tile::ProgramOp program,
                memory::MemoryAnalysis &&analysis, llvm::StringRef moduleName,
                std::string sourceModule,
                std::optional<GraphModuleBytes> graphModule = std::nullopt);

/// The executable's `graph_module`: `module` without its tile programs, as
/// MLIR bytecode. MLIR's writer needs several times the bytecode's size
/// while it runs (a 100k-op module: 9.5 MB of bytecode, ~50 MB more
/// resident); a compile takes it as the memory analysis starts, while its
/// heap is smallest, rather than on top of the analysis' leftovers and
/// the executable's bytes (issue 16). Nothing may change the tgraph ops
/// between this and writeExecutable.
llvm::Expected<GraphModuleBytes> writeGraphModule(mlir::ModuleOp module);

/// writeExecutable, read back as the runtime reads it (for tests and tools
/// that look into the message).
llvm::Expected<exe::Executable>
buildExecutable(mlir::ModuleOp module, tile::ProgramOp program,
                const memory::MemoryAnalysis &analysis,
                llvm::StringRef moduleName);

} // namespace tessera

#endif // TESSERA_COMPILE_EXECUTABLEWRITER_H
