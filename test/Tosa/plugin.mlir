// The TOSA importer runs inside the stock mlir-opt through the plugin (the
// TOSA dialect is the host's own). The CHECK lines need output only the
// plugin produces: a load failure is not fatal in mlir-opt.
// RUN: %stock_mlir_opt --load-dialect-plugin=%tessera_lib/libTesseraPlugin.so \
// RUN:   --load-pass-plugin=%tessera_lib/libTesseraPlugin.so \
// RUN:   --pass-pipeline='builtin.module(convert-tosa-to-tgraph)' %s 2>&1 | FileCheck %s

// CHECK-NOT: Failed to load
// CHECK: %relu.constant = tgraph.constant dense<0.000000e+00> : tensor<f32>
// CHECK: %relu.constant_0 = tgraph.constant dense<6.000000e+00> : tensor<f32>
// CHECK: %relu = tgraph.clamp %relu.constant, %arg0, %relu.constant_0
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "tosa.clamp"(%x) {max_fp = 6.000000e+00 : f32, max_int = 6 : i64, min_fp = 0.000000e+00 : f32, min_int = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32> loc("relu")
  return %0 : tensor<4xf32>
}

// The dialects exports carry beside TOSA are the host's too: math.erf and
// tensor.extract_slice import inside the stock mlir-opt as well.
// CHECK-LABEL: func.func @exported
// CHECK-NEXT: %gelu_erf = tgraph.erf %arg0 : tensor<4xf32>
// CHECK-NEXT: %cls = tgraph.slice %gelu_erf, start = [1], limit = [3], strides = [1]
func.func @exported(%x: tensor<4xf32>) -> tensor<2xf32> {
  %0 = math.erf %x : tensor<4xf32> loc("gelu_erf")
  %1 = tensor.extract_slice %0[1] [2] [1] : tensor<4xf32> to tensor<2xf32> loc("cls")
  return %1 : tensor<2xf32>
}
