//===- InitAll.h - register every Tessera dialect and pass -------*- C++ -*-===//

#ifndef TESSERA_INITALL_H
#define TESSERA_INITALL_H

#include "mlir/IR/DialectRegistry.h"

namespace tessera {

/// The dialects Tessera's tools understand: tgraph, tile and the upstream
/// dialects its inputs use (func, and the tosa, math, arith and tensor ops
/// that TOSA exports carry).
void registerAllDialects(mlir::DialectRegistry &registry);

/// Every Tessera pass and pipeline.
void registerAllPasses();

} // namespace tessera

#endif // TESSERA_INITALL_H
