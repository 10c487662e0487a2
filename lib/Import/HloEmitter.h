//===- HloEmitter.h - in-memory HLO module to tgraph MLIR -------*- C++ -*-===//
//
// Turns the parser's AST into a module of `func.func`s of `tgraph` ops.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_LIB_IMPORT_HLOEMITTER_H
#define TESSERA_LIB_IMPORT_HLOEMITTER_H

#include "HloAst.h"
#include "HloParser.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

namespace tessera::hlo {

/// Emits `module` (parsed from buffer `bufferId` of `sourceMgr`). Errors
/// go to `diags`; on error the result is null.
mlir::OwningOpRef<mlir::ModuleOp>
emitModule(const Module &module, llvm::SourceMgr &sourceMgr, unsigned bufferId,
           mlir::MLIRContext *context, DiagnosticSink &diags);

} // namespace tessera::hlo

#endif // TESSERA_LIB_IMPORT_HLOEMITTER_H
