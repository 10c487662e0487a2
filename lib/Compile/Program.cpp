//===- Program.cpp - The compiled program's serialized form ---------------===//

#include "tessera/Compile/Program.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "llvm/Support/raw_ostream.h"

namespace tessera {

std::string serializeProgram(mlir::ModuleOp module) {
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  mlir::BytecodeWriterConfig config("tessera");
  // Writing to memory cannot fail for a verified module; a failure would
  // leave `bytes` empty, which the readers reject.
  (void)mlir::writeBytecodeToFile(module, os, config);
  return bytes;
}

} // namespace tessera
