// reduce: per-tile partials (one slot per tile and output it touches, on the
// tile holding the input), an exchange gathering each output's partials on
// the tile that owns it, and a cross-tile reduce with the init value. The
// result covers part of the chip, so it goes to the least loaded tiles.
//
// RUN: tessera-opt %s --tgraph-check-compat=target=tile-1472 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,T1472
// RUN: tessera-opt %s --tgraph-check-compat=target=core-8 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,C8

func.func @main(%x: tensor<64x100xf32> loc("x")) -> tensor<100xf32> {
  %z = tgraph.constant dense<0.0> : tensor<f32> loc("zero")
  %c = tgraph.reduce(%x) init(%z) dims = [0] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = tgraph.maximum %a, %b : tensor<f32>
    tgraph.return %t : tensor<f32>
  } : (tensor<64x100xf32>, tensor<f32>) -> tensor<100xf32> loc("reduce.cols")
  return %c : tensor<100xf32>
}

// CHECK: %[[X:.*]] = tile.var "x" parameter
// T1472-SAME: mapping<[0, 1065] x 6 from 0, [1066, 1066] x 4 from 6396>
// core-8 cuts x at whole rows (8 x 100 a tile): each tile's part is an
// [8, 100] block, where 1,024-element parts would cut rows.
// C8-SAME: mapping<[0, 7] x 800 from 0>
// CHECK: %[[Z:.*]] = tile.var "zero" constant
// Partials live where the input is: on tile-1472 each tile's 6 elements
// touch 6 different columns; on core-8 each tile touches all 100.
// T1472: %[[P:.*]] = tile.var "reduce.cols.partials" partials mapping<[0, 1065] x 6 from 0, [1066, 1066] x 4 from 6396> {{.*}} : !tile.buffer<6400xf32>
// C8: %[[P:.*]] = tile.var "reduce.cols.partials" partials mapping<[0, 7] x 100 from 0> {{.*}} : !tile.buffer<800xf32>
// CHECK: %[[G:.*]] = tile.var "reduce.cols.gathered" partials
// T1472-SAME: mapping<[1068, 1117] x 128 from 0>
// C8-SAME: mapping<[1, 1] x 512 from 0, [2, 2] x 288 from 512>
// CHECK: %[[R:.*]] = tile.var "reduce.cols" output
// T1472-SAME: mapping<[1068, 1117] x 2 from 0>
// C8-SAME: mapping<[1, 1] x 64 from 0, [2, 2] x 36 from 64>
// CHECK: tile.compute_set "reduce.cols.partial" kind "reduce-partial.maximum" tiles
// T1472-SAME: [0, 1066] ins(%[[X]] : {{.*}}) outs(%[[P]] : {{.*}}) {dimensions = array<i64: 0>}
// C8-SAME: [0, 7] ins(%[[X]] : {{.*}}) outs(%[[P]] : {{.*}}) {dimensions = array<i64: 0>}
// CHECK-NEXT: tile.sync
// CHECK-NEXT: tile.exchange "reduce.cols.gather" %[[P]] -> %[[G]]
// CHECK: %[[INIT:.*]] = tile.var "reduce.cols.scalar" temporary
// CHECK-NEXT: tile.exchange "reduce.cols.bcast" %[[Z]] -> %[[INIT]]
// CHECK-NEXT: tile.sync
// CHECK-NEXT: tile.compute_set "reduce.cols" kind "reduce.maximum" tiles
// T1472-SAME: [1068, 1117]
// C8-SAME: [1, 2]
// CHECK-SAME: ins(%[[G]], %[[INIT]] : {{.*}}) outs(%[[R]] : {{.*}}) {dimensions = array<i64: 0>, partials_per_output_runs = array<i64: {{[0-9, ]+}}>, scalar_operands = array<i64: 1>}
// CHECK-NEXT: tile.sync
// CHECK-NEXT: tile.host_copy outfeed %[[R]]
