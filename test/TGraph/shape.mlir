// Round trip of the shape and data-movement ops.
// RUN: tessera-opt %s | tessera-opt | FileCheck %s
// RUN: tessera-opt %s --mlir-print-op-generic | tessera-opt | FileCheck %s

// CHECK-LABEL: func.func @shapes
func.func @shapes(%x: tensor<4x8xf32>, %v: tensor<8xf32>) {
  // CHECK-NEXT: tgraph.broadcast_in_dim %arg1, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
  %b = tgraph.broadcast_in_dim %v, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
  // CHECK-NEXT: tgraph.reshape %arg0 : (tensor<4x8xf32>) -> tensor<32xf32>
  %r = tgraph.reshape %x : (tensor<4x8xf32>) -> tensor<32xf32>
  // CHECK-NEXT: tgraph.transpose %arg0, permutation = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %t = tgraph.transpose %x, permutation = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  // CHECK-NEXT: tgraph.reverse %arg0, dims = [0, 1] : tensor<4x8xf32>
  %rv = tgraph.reverse %x, dims = [0, 1] : tensor<4x8xf32>
  // CHECK-NEXT: tgraph.iota dim = 1 : tensor<4x8xi32>
  %io = tgraph.iota dim = 1 : tensor<4x8xi32>
  return
}

// CHECK-LABEL: func.func @slices
func.func @slices(%x: tensor<4x8xf32>, %u: tensor<1x8xf32>, %i: tensor<i32>, %j: tensor<i32>) {
  // CHECK-NEXT: tgraph.slice %arg0, start = [0, 2], limit = [4, 8], strides = [1, 2] : (tensor<4x8xf32>) -> tensor<4x3xf32>
  %s = tgraph.slice %x, start = [0, 2], limit = [4, 8], strides = [1, 2] : (tensor<4x8xf32>) -> tensor<4x3xf32>
  // CHECK-NEXT: tgraph.dynamic_slice %arg0[%arg2, %arg3], sizes = [1, 8] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x8xf32>
  %ds = tgraph.dynamic_slice %x[%i, %j], sizes = [1, 8] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x8xf32>
  // CHECK-NEXT: tgraph.dynamic_update_slice %arg0, %arg1[%arg2, %arg3] : (tensor<4x8xf32>, tensor<1x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
  %dus = tgraph.dynamic_update_slice %x, %u[%i, %j] : (tensor<4x8xf32>, tensor<1x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @concat_pad
func.func @concat_pad(%a: tensor<2x8xf32>, %b: tensor<3x8xf32>, %z: tensor<f32>, %d: tensor<?x8xf32>) {
  // CHECK-NEXT: tgraph.concatenate(%arg0, %arg1) dim = 0 : (tensor<2x8xf32>, tensor<3x8xf32>) -> tensor<5x8xf32>
  %c = tgraph.concatenate(%a, %b) dim = 0 : (tensor<2x8xf32>, tensor<3x8xf32>) -> tensor<5x8xf32>
  // A dynamic input makes the concatenated dimension dynamic.
  // CHECK-NEXT: tgraph.concatenate(%arg0, %arg3) dim = 0 : (tensor<2x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  %cd = tgraph.concatenate(%a, %d) dim = 0 : (tensor<2x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  // low 1 + high 2 + 2 rows = 5; 8 columns with 1 between each = 15.
  // CHECK-NEXT: tgraph.pad %arg0, %arg2, low = [1, 0], high = [2, 0], interior = [0, 1] : (tensor<2x8xf32>, tensor<f32>) -> tensor<5x15xf32>
  %p = tgraph.pad %a, %z, low = [1, 0], high = [2, 0], interior = [0, 1] : (tensor<2x8xf32>, tensor<f32>) -> tensor<5x15xf32>
  // Negative edge padding crops: 8 - 3 - 1 = 4.
  // CHECK-NEXT: tgraph.pad %arg0, %arg2, low = [0, -3], high = [0, -1], interior = [0, 0] : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x4xf32>
  %crop = tgraph.pad %a, %z, low = [0, -3], high = [0, -1], interior = [0, 0] : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x4xf32>
  return
}

// CHECK-LABEL: func.func @gather
func.func @gather(%table: tensor<1000x64xf32>, %ids: tensor<8x1xi32>, %ids2: tensor<2x3x2xi32>, %x: tensor<4x5x6xf32>) {
  // Embedding lookup: one row per index.
  // CHECK-NEXT: tgraph.gather %arg0, %arg1 {collapsed_slice_dims = array<i64: 0>, index_vector_dim = 1 : i64, offset_dims = array<i64: 1>, slice_sizes = array<i64: 1, 64>, start_index_map = array<i64: 0>} : (tensor<1000x64xf32>, tensor<8x1xi32>) -> tensor<8x64xf32>
  %g = tgraph.gather %table, %ids {offset_dims = array<i64: 1>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 64>} : (tensor<1000x64xf32>, tensor<8x1xi32>) -> tensor<8x64xf32>
  // Batch dims 2x3, offset dims placed first and last: [2 (slice of dim 1),
  // 2, 3, 6 (slice of dim 2)].
  // CHECK-NEXT: tgraph.gather %arg3, %arg2 {{.*}}indices_are_sorted{{.*}} : (tensor<4x5x6xf32>, tensor<2x3x2xi32>) -> tensor<2x2x3x6xf32>
  %g2 = tgraph.gather %x, %ids2 {offset_dims = array<i64: 0, 3>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0, 1>, index_vector_dim = 2 : i64, slice_sizes = array<i64: 1, 2, 6>, indices_are_sorted} : (tensor<4x5x6xf32>, tensor<2x3x2xi32>) -> tensor<2x2x3x6xf32>
  return
}
