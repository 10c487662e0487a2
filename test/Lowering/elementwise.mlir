// Elementwise ops run in place: the result takes the layout of its first
// full-size operand (the planner's `why` says so), other operands are
// exchanged into it, scalar operands are replicated one per tile, and a
// tile.sync separates each step from the steps it depends on.
//
// RUN: tessera-opt %s --tgraph-check-compat=target=tile-1472 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,T1472
// RUN: tessera-opt %s --tgraph-check-compat=target=core-8 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,C8

func.func @main(%x: tensor<1000xf32> loc("x"), %y: tensor<2000xf32> loc("y"),
                %lo: tensor<f32> loc("lo"), %hi: tensor<f32> loc("hi"))
    -> (tensor<1000xf32>, tensor<1000xi1>) {
  %a = tgraph.add %x, %x : tensor<1000xf32> loc("add.1")
  %s = tgraph.slice %y, start = [1000], limit = [2000], strides = [1]
       : (tensor<2000xf32>) -> tensor<1000xf32> loc("slice.2")
  %m = tgraph.multiply %a, %s : tensor<1000xf32> loc("multiply.3")
  %c = tgraph.clamp %lo, %m, %hi
       : (tensor<f32>, tensor<1000xf32>, tensor<f32>) -> tensor<1000xf32> loc("clamp.4")
  %p = tgraph.compare GT, %c, %x
       : (tensor<1000xf32>, tensor<1000xf32>) -> tensor<1000xi1> loc("compare.5")
  return %c, %p : tensor<1000xf32>, tensor<1000xi1>
}

// CHECK: tile.program @main.tile
// T1472-SAME: target "tile-1472" tiles 1472 attributes {entry = @main}
// C8-SAME: target "core-8" tiles 8 attributes {entry = @main}

// Parameters: linear with the f32 grain (2 on tile-1472; on core-8 the
// 1,024-wide vector is halved until the tensor spans two tiles).
// T1472: %[[X:.*]] = tile.var "x" parameter mapping<[[XMAP:\[0, 499\] x 2 from 0]]> {hlo = "x", result_leaf = 0 : i64, why = "linear: 2 per tile (grain 2) over 500 tiles"}
// C8: %[[X:.*]] = tile.var "x" parameter mapping<[[XMAP:\[0, 0\] x 512 from 0, \[1, 1\] x 488 from 512]]> {hlo = "x", result_leaf = 0 : i64, why = "linear: 512 per tile (grain 512, reduced from 1024 to spread over more than one tile) over 2 tiles"}
// CHECK-NEXT: tile.host_copy infeed %[[X]]
// CHECK: %[[Y:.*]] = tile.var "y" parameter

// In place: add.1 keeps x's layout exactly.
// CHECK: %[[ADD:.*]] = tile.var "add.1" temporary mapping<[[XMAP]]> {hlo = "add.1", result_leaf = 0 : i64, result_of = {{[0-9]+}} : i64, why = "in place: same layout as operand 0 ('x')"}
// CHECK-NEXT: tile.sync
// CHECK-NEXT: tile.compute_set "add.1" kind "elementwise.add" tiles
// T1472-SAME: [0, 499] ins(%[[X]], %[[X]] :
// C8-SAME: [0, 1] ins(%[[X]], %[[X]] :

// The slice of y keeps y's layout (elements 1000..1999 stay where they are).
// On tile-1472 y covers part of the chip, so it starts where the chip is
// emptiest, after x: tiles 472..1471.
// T1472: %[[S:.*]] = tile.var "slice.2" temporary mapping<[972, 1471] x 2 from 0> {{.*}}why = "follows 'y'
// C8: %[[S:.*]] = tile.var "slice.2" temporary mapping<{{.*}}> {{.*}}why = "follows 'y'
// CHECK: tile.exchange "slice.2" %[[Y]] -> %[[S]]
// T1472-SAME: copies [972, 972, 500, 2, 1000, 2, 0, 2]

// multiply.3 runs on add.1's layout; the slice is exchanged into it first:
// on tile-1472 one run moves 2 elements from each of tiles 972..1471 to
// tiles 0..499.
// CHECK: %[[MUL:.*]] = tile.var "multiply.3" temporary mapping<[[XMAP]]> {{.*}}why = "in place: same layout as operand 0 ('add.1')"
// CHECK: %[[IN1:.*]] = tile.var "multiply.3.in1" temporary mapping<[[XMAP]]>
// CHECK: tile.exchange "multiply.3.in1" %[[S]] -> %[[IN1]]
// T1472-SAME: copies [972, 0, 500, 2, 0, 2, 0, 2]
// CHECK: tile.sync
// CHECK-NEXT: tile.compute_set "multiply.3" kind "elementwise.multiply" {{.*}}ins(%[[ADD]], %[[IN1]] :

// clamp.4 is returned: an output buffer; its scalar bounds are replicated,
// one element per tile of the output.
// CHECK: %[[CL:.*]] = tile.var "clamp.4" output mapping<[[XMAP]]>
// T1472: %[[LO:.*]] = tile.var "clamp.4.scalar" temporary mapping<[0, 499] x 1 from 0> {why = "scalar replicated: one copy per tile of its consumer"} : !tile.buffer<500xf32>
// C8: %[[LO:.*]] = tile.var "clamp.4.scalar" temporary mapping<[0, 1] x 1 from 0> {why = "scalar replicated: one copy per tile of its consumer"} : !tile.buffer<2xf32>
// One strided run from the scalar's tile: copy k goes to the k-th tile
// of the output, element k (source tile step 0, destination step 1).
// C8-NEXT: tile.exchange "clamp.4.bcast" %{{.*}} -> %[[LO]] copies [4, 0, 2, 1, 0, 0, 0, 1] strided [1, 0, 0, 0, 1]
// CHECK: tile.compute_set "clamp.4" kind "elementwise.clamp" {{.*}}ins(%[[LO]], %[[MUL]], %{{.*}} : {{.*}}) outs(%[[CL]] : {{.*}}) {scalar_operands = array<i64: 0, 2>}

// compare: a predicate result, still on the layout of its first operand.
// CHECK: %[[P:.*]] = tile.var "compare.5" output mapping<[[XMAP]]> {{.*}}: !tile.buffer<1000xi1>
// CHECK: tile.compute_set "compare.5" kind "elementwise.compare" {{.*}}ins(%[[CL]], %[[X]] : {{.*}}) outs(%[[P]] : !tile.buffer<1000xi1>) {direction = "GT"}

// Outputs leave through host copies; only compare.5 was written since the
// last sync, so the sync sits right before its outfeed.
// CHECK-NEXT: tile.host_copy outfeed %[[CL]]
// CHECK-NEXT: tile.sync
// CHECK-NEXT: tile.host_copy outfeed %[[P]]
// CHECK-NEXT: }
