// The compatibility checker, with its target presets and JSON reports, runs
// inside the stock mlir-opt through the plugin as well.
// RUN: %stock_mlir_opt --load-dialect-plugin=%tessera_lib/libTesseraPlugin.so \
// RUN:   --load-pass-plugin=%tessera_lib/libTesseraPlugin.so \
// RUN:   --pass-pipeline='builtin.module(tgraph-check-compat{target=core-8 print=text})' \
// RUN:   %s -o /dev/null 2>&1 | FileCheck %s

// CHECK-NOT: Failed to load
// CHECK: Compatibility with core-8: 50.0% of 2 assessed ops (1 ok, 1 incompatible, 0 placed on host; 2 ops in all)
// CHECK: add.2: unsupported-dtype: f64 is not supported by core-8; fix: cast f64 to f32

func.func @main(%a: tensor<4xf32>, %b: tensor<4xf64>) {
  %0 = tgraph.add %a, %a : tensor<4xf32> loc("add.1")
  %1 = tgraph.add %b, %b : tensor<4xf64> loc("add.2")
  return
}
