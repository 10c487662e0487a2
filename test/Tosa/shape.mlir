// Shape and data-movement ops. Constant operands that only carry
// attributes (perms, paddings) are read and then dropped; weights stay,
// elided ones as `tgraph.constant elided`.
// RUN: tessera-opt %s --convert-tosa-to-tgraph | FileCheck %s

// CHECK-LABEL: func.func @reshape_transpose
func.func @reshape_transpose(%x: tensor<1x3x4x5xf32>) -> tensor<1x4x5x3xf32> {
  // CHECK-NOT: tgraph.constant
  // CHECK: %[[T:.*]] = tgraph.transpose %arg0, permutation = [0, 2, 3, 1] : (tensor<1x3x4x5xf32>) -> tensor<1x4x5x3xf32>
  // CHECK: %[[R:.*]] = tgraph.reshape %[[T]] : (tensor<1x4x5x3xf32>) -> tensor<4x15xf32>
  // CHECK: tgraph.reshape %[[R]] : (tensor<4x15xf32>) -> tensor<1x4x5x3xf32>
  %p = "tosa.const"() {value = dense<[0, 2, 3, 1]> : tensor<4xi32>} : () -> tensor<4xi32>
  %0 = "tosa.transpose"(%x, %p) : (tensor<1x3x4x5xf32>, tensor<4xi32>) -> tensor<1x4x5x3xf32>
  %1 = "tosa.reshape"(%0) {new_shape = array<i64: 4, 15>} : (tensor<1x4x5x3xf32>) -> tensor<4x15xf32>
  %2 = "tosa.reshape"(%1) {new_shape = array<i64: 1, 4, 5, 3>} : (tensor<4x15xf32>) -> tensor<1x4x5x3xf32>
  return %2 : tensor<1x4x5x3xf32>
}

// CHECK-LABEL: func.func @slice_concat
func.func @slice_concat(%x: tensor<4x8xf32>) -> tensor<4x11xf32> {
  // CHECK: %[[S:.*]] = tgraph.slice %arg0, start = [1, 2], limit = [3, 7], strides = [1, 1] : (tensor<4x8xf32>) -> tensor<2x5xf32>
  %0 = "tosa.slice"(%x) {start = array<i64: 1, 2>, size = array<i64: 2, 5>} : (tensor<4x8xf32>) -> tensor<2x5xf32>
  // CHECK: tgraph.concatenate(%arg0, %arg0) dim = 1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
  %1 = "tosa.concat"(%x, %x) {axis = 1 : i32} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
  %2 = "tosa.slice"(%1) {start = array<i64: 0, 0>, size = array<i64: 4, 11>} : (tensor<4x16xf32>) -> tensor<4x11xf32>
  return %2 : tensor<4x11xf32>
}

// CHECK-LABEL: func.func @pad_tile
func.func @pad_tile(%x: tensor<1x4x4x2xf32>, %y: tensor<2x3xf32>) -> (tensor<1x5x5x2xf32>, tensor<4x3xf32>) {
  // CHECK: %[[Z:.*]] = tgraph.constant dense<0.000000e+00> : tensor<f32>
  // CHECK: tgraph.pad %arg0, %[[Z]], low = [0, 0, 0, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0] : (tensor<1x4x4x2xf32>, tensor<f32>) -> tensor<1x5x5x2xf32>
  %pads = "tosa.const"() {value = dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %0 = "tosa.pad"(%x, %pads) : (tensor<1x4x4x2xf32>, tensor<4x2xi32>) -> tensor<1x5x5x2xf32>
  // tile [2,3] by [2,1]: broadcast to [2,2,1,3], reshape to [4,3].
  // CHECK: %[[B:.*]] = tgraph.broadcast_in_dim %arg1, dims = [1, 3] : (tensor<2x3xf32>) -> tensor<2x2x1x3xf32>
  // CHECK: tgraph.reshape %[[B]] : (tensor<2x2x1x3xf32>) -> tensor<4x3xf32>
  %1 = "tosa.tile"(%y) {multiples = array<i64: 2, 1>} : (tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0, %1 : tensor<1x5x5x2xf32>, tensor<4x3xf32>
}

// CHECK-LABEL: func.func @gather
func.func @gather(%v: tensor<2x10x4xf32>, %i: tensor<2x3xi32>) -> tensor<2x3x4xf32> {
  // CHECK: %[[N:.*]] = tgraph.iota dim = 0 : tensor<2x3x1xi32>
  // CHECK: %[[I:.*]] = tgraph.reshape %arg1 : (tensor<2x3xi32>) -> tensor<2x3x1xi32>
  // CHECK: %[[S:.*]] = tgraph.concatenate(%[[N]], %[[I]]) dim = 2 : (tensor<2x3x1xi32>, tensor<2x3x1xi32>) -> tensor<2x3x2xi32>
  // CHECK: tgraph.gather %arg0, %[[S]] {collapsed_slice_dims = array<i64: 0, 1>, index_vector_dim = 2 : i64, offset_dims = array<i64: 2>, slice_sizes = array<i64: 1, 1, 4>, start_index_map = array<i64: 0, 1>} : (tensor<2x10x4xf32>, tensor<2x3x2xi32>) -> tensor<2x3x4xf32>
  %0 = "tosa.gather"(%v, %i) : (tensor<2x10x4xf32>, tensor<2x3xi32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// CHECK-LABEL: func.func @constants
func.func @constants() -> (tensor<64x3x7x7xf32>, tensor<2xf32>) {
  // CHECK: %weights = tgraph.constant elided : tensor<64x3x7x7xf32>
  // CHECK: tgraph.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %0 = "tosa.const"() {value = dense_resource<__elided__> : tensor<64x3x7x7xf32>} : () -> tensor<64x3x7x7xf32> loc("weights")
  %1 = "tosa.const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  return %0, %1 : tensor<64x3x7x7xf32>, tensor<2xf32>
}

// pad_const gives the padding value; i64 paddings read as well as i32.
// CHECK-LABEL: func.func @pad_const
func.func @pad_const(%x: tensor<2x3xf32>, %c: tensor<f32>) -> tensor<4x3xf32> {
  // CHECK: tgraph.pad %arg0, %arg1, low = [1, 0], high = [1, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  %pads = "tosa.const"() {value = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>} : () -> tensor<2x2xi64>
  %0 = "tosa.pad"(%x, %pads, %c) : (tensor<2x3xf32>, tensor<2x2xi64>, tensor<f32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
