//===- TosaToTGraph.h - TOSA to tgraph patterns -----------------*- C++ -*-===//
//
// The patterns behind convert-tosa-to-tgraph: one per TOSA op family and
// per family of the dialects TOSA exports carry beside TOSA (math, arith
// and tensor ops on tensors), plus a catch-all that turns any other such op
// into tgraph.unknown. Apply them once per op (see
// passes/ConvertTosaToTGraph.cpp): the greedy and dialect conversion drivers
// would fold TOSA ops first. func.call is imported after them, by
// importCalls, once every callee body is tgraph.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_CONVERSION_TOSATOTGRAPH_H
#define TESSERA_CONVERSION_TOSATOTGRAPH_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"

namespace tessera {

/// The ops the import rewrites: every TOSA op, math / arith / tensor ops
/// with a tensor result, and func.call.
bool isImportedOp(mlir::Operation *op);

void populateTosaToTGraphPatterns(mlir::RewritePatternSet &patterns);

/// Replaces the func.calls of a module whose other ops are imported: a call
/// with one result becomes tgraph.call; otherwise (tgraph.call has exactly
/// one result) the callee's body is inlined, and a private callee left
/// without callers is erased. A call that cannot be imported becomes
/// tgraph.unknown with the reason.
void importCalls(llvm::ArrayRef<mlir::func::CallOp> calls,
                 mlir::PatternRewriter &rewriter);

} // namespace tessera

#endif // TESSERA_CONVERSION_TOSATOTGRAPH_H
