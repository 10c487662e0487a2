// Round trip of tuples, calls and control flow; each callee is checked
// against the call site's types (see invalid.mlir for the errors).
// RUN: tessera-opt %s | tessera-opt | FileCheck %s
// RUN: tessera-opt %s --mlir-print-op-generic | tessera-opt | FileCheck %s

func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func private @cond(%s: tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i1> {
  %i = tgraph.get_tuple_element %s[0] : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i32>
  %n = tgraph.constant dense<10> : tensor<i32>
  %p = tgraph.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %p : tensor<i1>
}

func.func private @body(%s: tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>> {
  return %s : tuple<tensor<i32>, tensor<4xf32>>
}

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<4xf32>, %i: tensor<i32>, %p: tensor<i1>) -> tensor<4xf32> {
  // CHECK-NEXT: %[[C:.*]] = tgraph.call @helper(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  %c = tgraph.call @helper(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK-NEXT: tgraph.fusion @helper(%[[C]]) {kind = "kLoop"} : (tensor<4xf32>) -> tensor<4xf32>
  %f = tgraph.fusion @helper(%c) {kind = "kLoop"} : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK-NEXT: %[[T:.*]] = tgraph.tuple %arg1, %arg0 : (tensor<i32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>>
  %t = tgraph.tuple %i, %x : (tensor<i32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>>
  // CHECK-NEXT: %[[W:.*]] = tgraph.while %[[T]] cond @cond body @body : tuple<tensor<i32>, tensor<4xf32>>
  %w = tgraph.while %t cond @cond body @body : tuple<tensor<i32>, tensor<4xf32>>
  // CHECK-NEXT: %[[R:.*]] = tgraph.get_tuple_element %[[W]][1] : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<4xf32>
  %r = tgraph.get_tuple_element %w[1] : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<4xf32>
  // A predicate picks one of two branches ...
  // CHECK-NEXT: %[[B:.*]] = tgraph.conditional %arg2, [@helper, @helper](%arg0, %[[R]]) : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b = tgraph.conditional %p, [@helper, @helper](%x, %r) : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // ... an index one of N.
  // CHECK-NEXT: tgraph.conditional %arg1, [@helper, @helper, @helper](%arg0, %arg0, %[[B]]) : (tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %n = tgraph.conditional %i, [@helper, @helper, @helper](%x, %x, %b) : (tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // Empty and nested tuples.
  // CHECK-NEXT: %[[E:.*]] = tgraph.tuple  : () -> tuple<>
  %e = tgraph.tuple : () -> tuple<>
  // CHECK-NEXT: tgraph.tuple %[[E]], %[[T]] : (tuple<>, tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tuple<>, tuple<tensor<i32>, tensor<4xf32>>>
  %nest = tgraph.tuple %e, %t : (tuple<>, tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tuple<>, tuple<tensor<i32>, tensor<4xf32>>>
  return %n : tensor<4xf32>
}
