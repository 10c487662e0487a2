// tgraph-op-stats on tuples, tokens, complex and dynamic shapes, and on ops
// in every function (not only @main).
// RUN: tessera-opt %s --tgraph-op-stats -o /dev/null | FileCheck %s

// complex<f32> is 8 bytes: multiply of 4 elements reads 2 x 32 and writes 32
// bytes, 4 FLOPs (one per element).
// CHECK:      "name": "",
// CHECK-NEXT: "opcode": "multiply",
// CHECK-NEXT: "flops": 4,
// CHECK-NEXT: "bytes": 96
func.func private @helper(%c: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %m = tgraph.multiply %c, %c : tensor<4xcomplex<f32>>
  return %m : tensor<4xcomplex<f32>>
}

// A tuple weighs the sum of its elements, a token nothing: the tuple op
// reads 16 + 4 bytes and writes as much; it has no FLOPs.
// CHECK:      "name": "tuple.1",
// CHECK-NEXT: "opcode": "tuple",
// CHECK-NEXT: "flops": 0,
// CHECK-NEXT: "bytes": 40
// A dynamic dimension counts as 1: ?x8 f32 is 8 elements, 32 bytes.
// CHECK:      "name": "add.2",
// CHECK-NEXT: "opcode": "add",
// CHECK-NEXT: "flops": 8,
// CHECK-NEXT: "bytes": 96
// CHECK:      "name": "after-all.3",
// CHECK-NEXT: "opcode": "after_all",
// CHECK-NEXT: "flops": 0,
// CHECK-NEXT: "bytes": 0
// CHECK:      "total": {
// CHECK-NEXT:   "count": 4,
// CHECK-NEXT:   "flops": 12,
// CHECK-NEXT:   "bytes": 232
func.func @main(%x: tensor<4xf32>, %i: tensor<i32>, %d: tensor<?x8xf32>, %t: !tgraph.token) {
  %tu = tgraph.tuple %x, %i : (tensor<4xf32>, tensor<i32>) -> tuple<tensor<4xf32>, tensor<i32>> loc("tuple.1")
  %a = tgraph.add %d, %d : tensor<?x8xf32> loc("add.2")
  %aa = tgraph.after_all(%t, %t) loc("after-all.3")
  return
}
