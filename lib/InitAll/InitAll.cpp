//===- InitAll.cpp - register every Tessera dialect and pass --------------===//

#include "tessera/InitAll.h"

#include "tessera/Dialect/TGraph/IR/TGraph.h"
#include "tessera/Dialect/Tile/IR/Tile.h"
#include "tessera/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"

void tessera::registerAllDialects(mlir::DialectRegistry &registry) {
  registry
      .insert<tgraph::TGraphDialect, tile::TileDialect, mlir::func::FuncDialect,
              mlir::arith::ArithDialect, mlir::math::MathDialect,
              mlir::tensor::TensorDialect, mlir::tosa::TosaDialect>();
}

void tessera::registerAllPasses() { registerTesseraPasses(); }
