// reduce_* becomes a tgraph.reduce over the axis (which drops it) and a
// reshape restoring TOSA's kept size-1 dimension. Inits are the identities.
// RUN: tessera-opt %s --convert-tosa-to-tgraph | FileCheck %s

// CHECK-LABEL: func.func @reduce_sum
func.func @reduce_sum(%x: tensor<1x7x7x32xf32>) -> tensor<1x7x1x32xf32> {
  // CHECK: %[[Z:.*]] = tgraph.constant dense<0.000000e+00> : tensor<f32>
  // CHECK: %[[R:.*]] = tgraph.reduce(%arg0) init(%[[Z]]) dims = [2] {
  // CHECK: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
  // CHECK: %[[T:.*]] = tgraph.add %[[A]], %[[B]] : tensor<f32>
  // CHECK: tgraph.return %[[T]] : tensor<f32>
  // CHECK: } : (tensor<1x7x7x32xf32>, tensor<f32>) -> tensor<1x7x32xf32>
  // CHECK: tgraph.reshape %[[R]] : (tensor<1x7x32xf32>) -> tensor<1x7x1x32xf32>
  %0 = "tosa.reduce_sum"(%x) {axis = 2 : i32} : (tensor<1x7x7x32xf32>) -> tensor<1x7x1x32xf32>
  return %0 : tensor<1x7x1x32xf32>
}

// CHECK-LABEL: func.func @reduce_others
func.func @reduce_others(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>) -> (tensor<1x8xf32>, tensor<4x1xi32>, tensor<4x1xf32>) {
  // CHECK: tgraph.constant dense<0xFF800000> : tensor<f32>
  // CHECK: tgraph.reduce(%arg0) {{.*}} dims = [0]
  // CHECK: tgraph.maximum
  // CHECK: -> tensor<8xf32>
  // CHECK: tgraph.reshape {{.*}} -> tensor<1x8xf32>
  %0 = "tosa.reduce_max"(%x) {axis = 0 : i32} : (tensor<4x8xf32>) -> tensor<1x8xf32>
  // CHECK: tgraph.constant dense<2147483647> : tensor<i32>
  // CHECK: tgraph.reduce(%arg1) {{.*}} dims = [1]
  // CHECK: tgraph.minimum
  %1 = "tosa.reduce_min"(%i) {axis = 1 : i32} : (tensor<4x8xi32>) -> tensor<4x1xi32>
  // CHECK: tgraph.constant dense<1.000000e+00> : tensor<f32>
  // CHECK: tgraph.reduce(%arg0) {{.*}} dims = [1]
  // CHECK: tgraph.multiply
  %2 = "tosa.reduce_prod"(%x) {axis = 1 : i32} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %0, %1, %2 : tensor<1x8xf32>, tensor<4x1xi32>, tensor<4x1xf32>
}

// argmax: a two-operand reduce of (value, iota index) keeping the larger
// value and, on ties, the smaller index (TOSA returns the first maximum).
// CHECK-LABEL: func.func @argmax
func.func @argmax(%x: tensor<2x10xf32>) -> tensor<2xi32> {
  // CHECK: %[[I:.*]] = tgraph.iota dim = 1 : tensor<2x10xi32>
  // CHECK: %[[NINF:.*]] = tgraph.constant dense<0xFF800000> : tensor<f32>
  // CHECK: %[[Z:.*]] = tgraph.constant dense<0> : tensor<i32>
  // CHECK: %[[R:.*]] = tgraph.reduce(%arg0, %[[I]]) init(%[[NINF]], %[[Z]]) dims = [1] {
  // CHECK: ^bb0(%[[AV:.*]]: tensor<f32>, %[[AI:.*]]: tensor<i32>, %[[V:.*]]: tensor<f32>, %[[IX:.*]]: tensor<i32>):
  // CHECK: %[[GT:.*]] = tgraph.compare GT, %[[V]], %[[AV]]
  // CHECK: %[[EQ:.*]] = tgraph.compare EQ, %[[V]], %[[AV]]
  // CHECK: %[[LT:.*]] = tgraph.compare LT, %[[IX]], %[[AI]]
  // CHECK: %[[TIE:.*]] = tgraph.and %[[EQ]], %[[LT]] : tensor<i1>
  // CHECK: %[[TAKE:.*]] = tgraph.or %[[GT]], %[[TIE]] : tensor<i1>
  // CHECK: %[[NV:.*]] = tgraph.select %[[TAKE]], %[[V]], %[[AV]] : tensor<i1>, tensor<f32>
  // CHECK: %[[NI:.*]] = tgraph.select %[[TAKE]], %[[IX]], %[[AI]] : tensor<i1>, tensor<i32>
  // CHECK: tgraph.return %[[NV]], %[[NI]] : tensor<f32>, tensor<i32>
  // CHECK: } : (tensor<2x10xf32>, tensor<2x10xi32>, tensor<f32>, tensor<i32>) -> tuple<tensor<2xf32>, tensor<2xi32>>
  // CHECK: %[[A:.*]] = tgraph.get_tuple_element %[[R]][1] : (tuple<tensor<2xf32>, tensor<2xi32>>) -> tensor<2xi32>
  // CHECK: return %[[A]]
  %0 = "tosa.argmax"(%x) {axis = 1 : i32} : (tensor<2x10xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
