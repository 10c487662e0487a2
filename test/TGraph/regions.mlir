// Round trip of the ops with reducer, comparator and update regions.
// RUN: tessera-opt %s | tessera-opt | FileCheck %s
// RUN: tessera-opt %s --mlir-print-op-generic | tessera-opt | FileCheck %s

// CHECK-LABEL: func.func @reduce
func.func @reduce(%x: tensor<4x8xf32>, %y: tensor<4x8xi32>, %z: tensor<f32>, %zi: tensor<i32>) {
  // CHECK-NEXT: %[[SUM:.*]] = tgraph.reduce(%arg0) init(%arg2) dims = [1] {
  // CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
  // CHECK-NEXT:   %[[T:.*]] = tgraph.add %[[A]], %[[B]] : tensor<f32>
  // CHECK-NEXT:   tgraph.return %[[T]] : tensor<f32>
  // CHECK-NEXT: } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %s = tgraph.reduce(%x) init(%z) dims = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = tgraph.add %a, %b : tensor<f32>
    tgraph.return %t : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  // Two inputs reduce together to a tuple; the reducer takes the
  // accumulators first, then the elements.
  // CHECK:      tgraph.reduce(%arg0, %arg1) init(%arg2, %arg3) dims = [0, 1] {
  // CHECK-NEXT: ^bb0(%{{.*}}: tensor<f32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<f32>, %{{.*}}: tensor<i32>):
  // CHECK:        tgraph.return %{{.*}}, %{{.*}} : tensor<f32>, tensor<i32>
  // CHECK-NEXT: } : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> tuple<tensor<f32>, tensor<i32>>
  %am = tgraph.reduce(%x, %y) init(%z, %zi) dims = [0, 1] {
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %m = tgraph.maximum %a, %b : tensor<f32>
    %mi = tgraph.minimum %ai, %bi : tensor<i32>
    tgraph.return %m, %mi : tensor<f32>, tensor<i32>
  } : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> tuple<tensor<f32>, tensor<i32>>
  return
}

// CHECK-LABEL: func.func @pooling
func.func @pooling(%img: tensor<1x8x8x4xf32>, %g: tensor<1x4x4x4xf32>, %z: tensor<f32>) {
  // CHECK:      tgraph.reduce_window(%arg0) init(%arg2) {
  // CHECK:        tgraph.maximum
  // CHECK:      } {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
  %mp = tgraph.reduce_window(%img) init(%z) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = tgraph.maximum %a, %b : tensor<f32>
    tgraph.return %t : tensor<f32>
  } {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
  // 3x3 SAME average-pool window with base and window dilation:
  // padded (8-1)*2+1 + 2 = 17, window (3-1)*2+1 = 5, 17-5+1 = 13.
  // CHECK:      } {base_dilations = array<i64: 1, 2, 2, 1>, padding = array<i64: 0, 0, 1, 1, 1, 1, 0, 0>, window_dilations = array<i64: 1, 2, 2, 1>, window_dimensions = array<i64: 1, 3, 3, 1>} : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x13x13x4xf32>
  %ap = tgraph.reduce_window(%img) init(%z) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = tgraph.add %a, %b : tensor<f32>
    tgraph.return %t : tensor<f32>
  } {window_dimensions = array<i64: 1, 3, 3, 1>, base_dilations = array<i64: 1, 2, 2, 1>, window_dilations = array<i64: 1, 2, 2, 1>, padding = array<i64: 0, 0, 1, 1, 1, 1, 0, 0>} : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x13x13x4xf32>
  // The max-pool gradient.
  // CHECK:      tgraph.select_and_scatter %arg0, %arg1, %arg2 select {
  // CHECK:        tgraph.compare GE
  // CHECK:        tgraph.return %{{.*}} : tensor<i1>
  // CHECK-NEXT: } scatter {
  // CHECK:        tgraph.add
  // CHECK:      } {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x8x8x4xf32>, tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x8x8x4xf32>
  %ss = tgraph.select_and_scatter %img, %g, %z select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = tgraph.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    tgraph.return %t : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = tgraph.add %a, %b : tensor<f32>
    tgraph.return %t : tensor<f32>
  } {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x8x8x4xf32>, tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x8x8x4xf32>
  return
}

// CHECK-LABEL: func.func @scatter_sort
func.func @scatter_sort(%cache: tensor<128x64xf32>, %pos: tensor<1x1xi32>, %new: tensor<1x64xf32>, %k: tensor<16xf32>, %v: tensor<16xi32>) {
  // CHECK:      tgraph.scatter(%arg0) indices(%arg1) updates(%arg2) {
  // CHECK-NEXT: ^bb0(%{{.*}}: tensor<f32>, %[[NEW:.*]]: tensor<f32>):
  // CHECK-NEXT:   tgraph.return %[[NEW]] : tensor<f32>
  // CHECK-NEXT: } {index_vector_dim = 1 : i64, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, unique_indices, update_window_dims = array<i64: 1>} : (tensor<128x64xf32>, tensor<1x1xi32>, tensor<1x64xf32>) -> tensor<128x64xf32>
  %s = tgraph.scatter(%cache) indices(%pos) updates(%new) {
  ^bb0(%old: tensor<f32>, %upd: tensor<f32>):
    tgraph.return %upd : tensor<f32>
  } {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, unique_indices} : (tensor<128x64xf32>, tensor<1x1xi32>, tensor<1x64xf32>) -> tensor<128x64xf32>
  // Keys and values sorted together; the comparator sees both pairs.
  // CHECK:      tgraph.sort(%arg3, %arg4) dim = 0 {
  // CHECK-NEXT: ^bb0(%{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<i32>):
  // CHECK-NEXT:   %[[LT:.*]] = tgraph.compare LT
  // CHECK-NEXT:   tgraph.return %[[LT]] : tensor<i1>
  // CHECK-NEXT: } {is_stable} : (tensor<16xf32>, tensor<16xi32>) -> tuple<tensor<16xf32>, tensor<16xi32>>
  %sorted = tgraph.sort(%k, %v) dim = 0 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = tgraph.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    tgraph.return %lt : tensor<i1>
  } {is_stable} : (tensor<16xf32>, tensor<16xi32>) -> tuple<tensor<16xf32>, tensor<16xi32>>
  return
}
