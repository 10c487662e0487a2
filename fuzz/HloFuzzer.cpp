//===- HloFuzzer.cpp - XLA HLO text through the importer ------------------===//

#include "FuzzTargets.h"

#include "tessera/Import/HloImporter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

int tessera::fuzz::fuzzHlo(const uint8_t *data, size_t size) {
  // A context per input: what one input interns must not make the next
  // one's run differ, nor grow memory over millions of runs.
  MLIRContext context(MLIRContext::Threading::DISABLED);
  // Errors are the expected outcome of most inputs; printing them would
  // cost more than importing.
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz.hlo"),
      llvm::SMLoc());
  // The importer verifies what it built and returns null on any error.
  OwningOpRef<ModuleOp> module = importHloText(sourceMgr, &context);
  (void)module;
  return 0;
}
