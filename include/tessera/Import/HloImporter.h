//===- HloImporter.h - XLA HLO text to tgraph -------------------*- C++ -*-===//

#ifndef TESSERA_IMPORT_HLOIMPORTER_H
#define TESSERA_IMPORT_HLOIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

namespace tessera {

/// Imports the XLA HLO text in the main buffer of `sourceMgr` as a module of
/// `tgraph` ops: each computation becomes a `func.func` (ENTRY is the public
/// `@main`), reducers and comparators become regions. Errors are emitted as
/// MLIR diagnostics located at file:line:col of the HLO text, to the
/// context's handlers (tools add a LongLineDiagnosticHandler so an error on
/// a line of megabytes is not echoed whole); on error the result is null
/// and nothing is left half-built.
mlir::OwningOpRef<mlir::ModuleOp> importHloText(llvm::SourceMgr &sourceMgr,
                                                mlir::MLIRContext *context);

/// Loads the dialects the importer creates ops of.
void loadImportDialects(mlir::MLIRContext &context);

} // namespace tessera

#endif // TESSERA_IMPORT_HLOIMPORTER_H
