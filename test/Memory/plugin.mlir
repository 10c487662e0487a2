// The memory passes run inside the stock mlir-opt through the plugin too
// (the memory library is in the plugin's object files).
// RUN: %stock_mlir_opt --load-dialect-plugin=%tessera_lib/libTesseraPlugin.so \
// RUN:   --load-pass-plugin=%tessera_lib/libTesseraPlugin.so \
// RUN:   --pass-pipeline='builtin.module(tile-print-allocation,tile-memory-report)' \
// RUN:   %s -o /dev/null 2>&1 | FileCheck %s

// CHECK-NOT: Failed to load
// CHECK: allocation of @p on core-8 (alignment 64): 0 tile(s) out of memory, worst peak / lower bound 1.0000
// CHECK: Memory report of @p on core-8
// CHECK: 0 tile(s) out of memory
tile.program @p target "core-8" tiles 8 {
  %a = tile.var "a" temporary mapping<[0, 0] x 64 from 0> : !tile.buffer<64xf32>
  tile.compute_set "fill" kind "fill" tiles [0, 0] outs(%a : !tile.buffer<64xf32>)
}
