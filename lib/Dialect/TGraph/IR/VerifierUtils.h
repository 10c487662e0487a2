//===- VerifierUtils.h - helpers shared by the tgraph verifiers -*- C++ -*-===//
//
// Private to lib/Dialect/TGraph/IR: the shape and region checks that
// TGraphVerifiers.cpp and TGraphRegionVerifiers.cpp both use.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_LIB_DIALECT_TGRAPH_IR_VERIFIERUTILS_H
#define TESSERA_LIB_DIALECT_TGRAPH_IR_VERIFIERUTILS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

namespace tessera::tgraph::detail {

mlir::RankedTensorType tensorOf(mlir::Value v);
mlir::RankedTensorType tensorOf(mlir::Type t);
bool isScalar(mlir::Type t);

/// Two dimension sizes agree when equal or when either is dynamic.
bool dimsAgree(int64_t a, int64_t b);

/// Checks that `dims` are distinct and within [0, rank).
mlir::LogicalResult verifyDimList(mlir::Operation *op, llvm::StringRef what,
                                  llvm::ArrayRef<int64_t> dims, int64_t rank);

/// Checks `actual` against `expected` (kDynamic entries match anything).
mlir::LogicalResult verifyShape(mlir::Operation *op,
                                mlir::RankedTensorType actual,
                                llvm::ArrayRef<int64_t> expected);

/// Data movement keeps the element type.
mlir::LogicalResult verifyKeepsElementType(mlir::Operation *op,
                                           mlir::RankedTensorType operand,
                                           mlir::RankedTensorType result);

/// A region whose block takes `count` scalar tensors and ends in
/// tgraph.return.
mlir::LogicalResult verifyScalarRegion(mlir::Operation *op,
                                       mlir::Region &region,
                                       llvm::StringRef what, unsigned count);

/// The result of a region op over N inputs: the one tensor, or a tuple of N.
llvm::SmallVector<mlir::Type> flattenResult(mlir::Type result);

/// Checks that `region` (already checked by verifyScalarRegion) returns
/// exactly `types`.
mlir::LogicalResult verifyRegionReturns(mlir::Operation *op,
                                        mlir::Region &region,
                                        llvm::StringRef what,
                                        mlir::TypeRange types);

/// Output size of one dimension of a windowed op (HLO's window shape rule).
int64_t windowedSize(int64_t in, int64_t window, int64_t stride,
                     int64_t baseDilation, int64_t windowDilation,
                     int64_t padLow, int64_t padHigh);

} // namespace tessera::tgraph::detail

#endif // TESSERA_LIB_DIALECT_TGRAPH_IR_VERIFIERUTILS_H
