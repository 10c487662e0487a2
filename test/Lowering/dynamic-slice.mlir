// dynamic_slice and dynamic_update_slice: the dims whose window is smaller
// than the operand (a run-time start can move it there) stay whole on each
// tile, the others are split; only those dims' start scalars are replicated
// (one copy per tile of the split), since elsewhere the start clamps to 0.
// "dynamic-slice" / "dynamic-update-slice" vertices write each tile's part;
// the result follows the split.
//
// RUN: tessera-opt %s --tgraph-check-compat=target=tile-1472 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,T1472
// RUN: tessera-opt %s --tgraph-check-compat=target=core-8 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,C8

func.func @main(%x: tensor<64x256xf32> loc("x"), %i: tensor<i32> loc("i"), %j: tensor<i32> loc("j"),
                %u: tensor<1x256xf32> loc("u"), %y: tensor<256x8xf32> loc("y"))
    -> (tensor<1x256xf32>, tensor<64x256xf32>, tensor<256x1xf32>) {
  // Row i of x (the start j clamps to 0: the window spans all 256 columns).
  %s = tgraph.dynamic_slice %x[%i, %j], sizes = [1, 256]
       : (tensor<64x256xf32>, tensor<i32>, tensor<i32>) -> tensor<1x256xf32> loc("dynamic-slice.1")
  %r = tgraph.dynamic_update_slice %x, %u[%i, %j]
       : (tensor<64x256xf32>, tensor<1x256xf32>, tensor<i32>, tensor<i32>) -> tensor<64x256xf32> loc("dynamic-update-slice.2")
  // Column j of y: rows (8 elements, whole) are the positions.
  %c = tgraph.dynamic_slice %y[%i, %j], sizes = [256, 1]
       : (tensor<256x8xf32>, tensor<i32>, tensor<i32>) -> tensor<256x1xf32> loc("dynamic-slice.3")
  return %s, %r, %c : tensor<1x256xf32>, tensor<64x256xf32>, tensor<256x1xf32>
}

// CHECK: %[[X:.*]] = tile.var "x" parameter
// CHECK: %[[I:.*]] = tile.var "i" parameter
// CHECK: %[[J:.*]] = tile.var "j" parameter
// CHECK: %[[U:.*]] = tile.var "u" parameter
// CHECK: %[[Y:.*]] = tile.var "y" parameter

// x's 64 rows stay whole, its 256 columns are split.
// CHECK: %[[XO:.*]] = tile.var "dynamic-slice.1.operand" temporary
// T1472-SAME: why = "re-laid from 'x': dims [0] whole on each tile, the other 256 positions split 4 per tile over 64 tiles (chunk raised from 1 so no mapping needs more than 5888 intervals nor an exchange more than 65536 copy runs)"
// C8-SAME: why = "re-laid from 'x': dims [0] whole on each tile, the other 256 positions split 32 per tile over 8 tiles"
// CHECK: tile.exchange "dynamic-slice.1.operand" %[[X]] -> %[[XO]]
// T1472-NEXT: %[[S:.*]] = tile.var "dynamic-slice.1" output mapping<[0, 63] x 4 from 0>
// C8-NEXT: %[[S:.*]] = tile.var "dynamic-slice.1" output mapping<[0, 7] x 32 from 0>
// CHECK-SAME: why = "split like its operand: dims [0] whole on each tile,
// Only i is broadcast.
// CHECK-NEXT: %[[SI:.*]] = tile.var "dynamic-slice.1.scalar" temporary
// CHECK-NEXT: tile.exchange "dynamic-slice.1.bcast" %[[I]] -> %[[SI]]
// CHECK-NEXT: tile.sync
// T1472-NEXT: tile.compute_set "dynamic-slice.1" kind "dynamic-slice" tiles [0, 63] ins(%[[XO]], %[[SI]] : !tile.buffer<64x256xf32>, !tile.buffer<64xi32>) outs(%[[S]] : !tile.buffer<1x256xf32>) {indexed_dims = array<i64: 0>, scalar_operands = array<i64: 1>, slice_sizes = array<i64: 1, 256>}
// C8-NEXT: tile.compute_set "dynamic-slice.1" kind "dynamic-slice" tiles [0, 7] ins(%[[XO]], %[[SI]] : !tile.buffer<64x256xf32>, !tile.buffer<8xi32>) outs(%[[S]] : !tile.buffer<1x256xf32>) {indexed_dims = array<i64: 0>, scalar_operands = array<i64: 1>, slice_sizes = array<i64: 1, 256>}

// The update row is exchanged to the tiles of its columns.
// CHECK: %[[RO:.*]] = tile.var "dynamic-update-slice.2.operand" temporary
// CHECK-NEXT: tile.exchange "dynamic-update-slice.2.operand" %[[X]] -> %[[RO]]
// CHECK-NEXT: %[[R:.*]] = tile.var "dynamic-update-slice.2" output
// CHECK-SAME: why = "split like its operand:
// T1472-NEXT: %[[RU:.*]] = tile.var "dynamic-update-slice.2.updates" temporary mapping<[0, 63] x 4 from 0>
// C8-NEXT: %[[RU:.*]] = tile.var "dynamic-update-slice.2.updates" temporary mapping<[0, 7] x 32 from 0>
// CHECK-SAME: why = "re-laid from 'u': dims [0] whole on each tile,
// CHECK-NEXT: tile.exchange "dynamic-update-slice.2.updates" %[[U]] -> %[[RU]]
// CHECK-NEXT: %[[RI:.*]] = tile.var "dynamic-update-slice.2.scalar" temporary
// CHECK-NEXT: tile.exchange "dynamic-update-slice.2.bcast" %[[I]] -> %[[RI]]
// CHECK-NEXT: tile.sync
// CHECK-NEXT: tile.compute_set "dynamic-update-slice.2" kind "dynamic-update-slice" tiles [0, {{63|7}}] ins(%[[RO]], %[[RU]], %[[RI]] : {{.*}}) outs(%[[R]] : !tile.buffer<64x256xf32>) {indexed_dims = array<i64: 0>, scalar_operands = array<i64: 2>}

// core-8 already holds 128 whole rows of y on each of 2 cores (3 and 4, the
// least loaded when y was placed): in place.
// T1472: %[[YO:.*]] = tile.var "dynamic-slice.3.operand" temporary
// T1472-NEXT: tile.exchange "dynamic-slice.3.operand" %[[Y]] -> %[[YO]]
// C8-NOT: dynamic-slice.3.operand
// C8: %[[C:.*]] = tile.var "dynamic-slice.3" output mapping<[3, 4] x 128 from 0> {hlo = "dynamic-slice.3", result_leaf = 0 : i64, result_of = {{[0-9]+}} : i64, why = "split like its operand: dims [1] whole on each tile: in place on the layout of 'y', which already has them (2 tiles)"}
// C8: tile.compute_set "dynamic-slice.3" kind "dynamic-slice" tiles [3, 4] ins(%[[Y]], %{{.*}} : !tile.buffer<256x8xf32>, !tile.buffer<2xi32>) outs(%[[C]] : {{.*}}) {indexed_dims = array<i64: 1>, scalar_operands = array<i64: 1>, slice_sizes = array<i64: 256, 1>}
// T1472: tile.compute_set "dynamic-slice.3" kind "dynamic-slice"
// CHECK-NOT: tile.host_compute
