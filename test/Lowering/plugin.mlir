// tgraph-to-tile runs inside the stock mlir-opt through the plugin too (the
// lowering library is in the plugin's object files).
// RUN: %stock_mlir_opt --load-dialect-plugin=%tessera_lib/libTesseraPlugin.so \
// RUN:   --load-pass-plugin=%tessera_lib/libTesseraPlugin.so \
// RUN:   --pass-pipeline='builtin.module(tgraph-check-compat{target=core-8},tgraph-to-tile)' \
// RUN:   %s 2>&1 | FileCheck %s

// CHECK-NOT: Failed to load
// CHECK: tile.program @main.tile target "core-8" tiles 8 attributes {entry = @main}
// CHECK: tile.compute_set "negate.1" kind "elementwise.negate" tiles [0, 1]
// CHECK: tile.host_copy outfeed

func.func @main(%x: tensor<64xf32> loc("x")) -> tensor<64xf32> {
  %n = tgraph.negate %x : tensor<64xf32> loc("negate.1")
  return %n : tensor<64xf32>
}
