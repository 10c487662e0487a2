// The plugin holds the object files of every library its passes call:
// tgraph-normalize-precision (lib/Dialect/TGraph/Transforms) runs inside the
// stock mlir-opt too. (The plugin links no library, so a missing one shows
// only when a pass calls into it.)
// RUN: %stock_mlir_opt --load-dialect-plugin=%tessera_lib/libTesseraPlugin.so \
// RUN:   --load-pass-plugin=%tessera_lib/libTesseraPlugin.so \
// RUN:   --pass-pipeline='builtin.module(tgraph-normalize-precision{target=tile-1472})' \
// RUN:   %s 2>&1 | FileCheck %s

// CHECK-NOT: Failed to load
// CHECK: tgraph.precision = #tgraph.precision<policy = "bf16-to-f32", from = bf16, to = f32, ops = 1
// CHECK: tgraph.exponential %{{.*}} : tensor<4xf32>

func.func @main(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %e = tgraph.exponential %x : tensor<4xbf16>
  return %e : tensor<4xbf16>
}
