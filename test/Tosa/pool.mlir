// Pooling becomes reduce_window over NHWC. max pads with -inf; avg divides
// by the number of valid elements per window: a constant when there is no
// padding, else a second reduce_window summing ones over the input.
// RUN: tessera-opt %s --convert-tosa-to-tgraph | FileCheck %s

// CHECK-LABEL: func.func @max_pool
func.func @max_pool(%x: tensor<1x112x112x64xf32>) -> tensor<1x56x56x64xf32> {
  // CHECK: %[[NINF:.*]] = tgraph.constant dense<0xFF800000> : tensor<f32>
  // CHECK: tgraph.reduce_window(%arg0) init(%[[NINF]]) {
  // CHECK: tgraph.maximum %{{.*}}, %{{.*}} : tensor<f32>
  // CHECK: } {padding = array<i64: 0, 0, 1, 0, 1, 0, 0, 0>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x112x112x64xf32>, tensor<f32>) -> tensor<1x56x56x64xf32>
  %0 = "tosa.max_pool2d"(%x) {kernel = array<i64: 3, 3>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<1x112x112x64xf32>) -> tensor<1x56x56x64xf32>
  return %0 : tensor<1x56x56x64xf32>
}

// CHECK-LABEL: func.func @avg_pool_unpadded
func.func @avg_pool_unpadded(%x: tensor<1x7x7x8xf32>) -> tensor<1x1x1x8xf32> {
  // CHECK: %[[S:.*]] = tgraph.reduce_window(%arg0)
  // CHECK: tgraph.add %{{.*}}, %{{.*}} : tensor<f32>
  // CHECK: window_dimensions = array<i64: 1, 7, 7, 1>
  // CHECK: %[[N:.*]] = tgraph.constant dense<4.900000e+01> : tensor<1x1x1x8xf32>
  // CHECK: tgraph.divide %[[S]], %[[N]] : tensor<1x1x1x8xf32>
  %0 = "tosa.avg_pool2d"(%x) {acc_type = f32, kernel = array<i64: 7, 7>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x7x7x8xf32>) -> tensor<1x1x1x8xf32>
  return %0 : tensor<1x1x1x8xf32>
}

// With padding, border windows hold fewer valid elements.
// CHECK-LABEL: func.func @avg_pool_padded
func.func @avg_pool_padded(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  // CHECK: %[[S:.*]] = tgraph.reduce_window(%arg0)
  // CHECK: %[[ONES:.*]] = tgraph.constant dense<1.000000e+00> : tensor<1x4x4x2xf32>
  // CHECK: %[[N:.*]] = tgraph.reduce_window(%[[ONES]])
  // CHECK: padding = array<i64: 0, 0, 1, 1, 1, 1, 0, 0>
  // CHECK: tgraph.divide %[[S]], %[[N]] : tensor<1x4x4x2xf32>
  %0 = "tosa.avg_pool2d"(%x) {acc_type = f32, kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}
