//===- InitAll.h - register every Tessera dialect and pass -------*- C++ -*-===//

#ifndef TESSERA_INITALL_H
#define TESSERA_INITALL_H

#include "mlir/IR/DialectRegistry.h"

namespace tessera {

/// The dialects Tessera's tools understand: tgraph, tile and the upstream
/// dialects its inputs use (func, arith, tensor, tosa).
void registerAllDialects(mlir::DialectRegistry &registry);

/// Every Tessera pass and pipeline.
void registerAllPasses();

} // namespace tessera

#endif // TESSERA_INITALL_H
