//===- TesseraPlugin.cpp - Tessera as an mlir-opt plugin ------------------===//
//
//   mlir-opt --load-dialect-plugin=./lib/libTesseraPlugin.so \
//            --load-pass-plugin=./lib/libTesseraPlugin.so \
//            --pass-pipeline='builtin.module(tgraph-op-stats)' in.mlir
//
//===----------------------------------------------------------------------===//

#include "tessera/Dialect/TGraph/IR/TGraph.h"
#include "tessera/Dialect/Tile/IR/Tile.h"
#include "tessera/Passes.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Tessera", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            registry->insert<tessera::tgraph::TGraphDialect,
                             tessera::tile::TileDialect>();
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Tessera", LLVM_VERSION_STRING,
          []() { tessera::registerTesseraPasses(); }};
}
