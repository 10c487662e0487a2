// scatter: the operand keeps the dims an update window can move in whole on
// each tile and is split over the others; each update element is exchanged
// to the tile of the position it lands on, whatever the index; the indices
// are replicated on every tile of the split and a "scatter.<combiner>"
// vertex per tile combines them into its part of the result, which keeps
// the operand's split. Combiners: add, multiply, maximum, minimum, and
// assign (the region returns the update); anything else stays on the host.
//
// RUN: tessera-opt %s --tgraph-check-compat=target=tile-1472 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,T1472
// RUN: tessera-opt %s --tgraph-check-compat=target=core-8 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,C8

func.func @main(%acc: tensor<512x16xf32> loc("acc"), %pos: tensor<128x1xi32> loc("pos"),
                %grad: tensor<128x16xf32> loc("grad"),
                %cache: tensor<128x4x64xf32> loc("cache"), %step: tensor<1xi32> loc("step"),
                %new: tensor<1x4x64xf32> loc("new"))
    -> (tensor<512x16xf32>, tensor<128x4x64xf32>, tensor<512x16xf32>,
        tuple<tensor<512x16xf32>, tensor<512x16xf32>>) {
  // Embedding gradient: scatter-add rows of updates into a [512, 16] table.
  %a = tgraph.scatter(%acc) indices(%pos) updates(%grad) {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = tgraph.add %x, %y : tensor<f32>
    tgraph.return %s : tensor<f32>
  } {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>,
     scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64}
    : (tensor<512x16xf32>, tensor<128x1xi32>, tensor<128x16xf32>) -> tensor<512x16xf32> loc("scatter_add.1")
  // A KV-cache write (gpt2 decode): assign one [4, 64] slab at a step.
  %c = tgraph.scatter(%cache) indices(%step) updates(%new) {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    tgraph.return %y : tensor<f32>
  } {update_window_dims = array<i64: 1, 2>, inserted_window_dims = array<i64: 0>,
     scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64}
    : (tensor<128x4x64xf32>, tensor<1xi32>, tensor<1x4x64xf32>) -> tensor<128x4x64xf32> loc("kv_update.2")
  %d = tgraph.scatter(%acc) indices(%pos) updates(%grad) {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = tgraph.subtract %x, %y : tensor<f32>
    tgraph.return %s : tensor<f32>
  } {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>,
     scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64}
    : (tensor<512x16xf32>, tensor<128x1xi32>, tensor<128x16xf32>) -> tensor<512x16xf32> loc("scatter_sub.3")
  %t = tgraph.scatter(%acc, %acc) indices(%pos) updates(%grad, %grad) {
  ^bb0(%x: tensor<f32>, %x2: tensor<f32>, %y: tensor<f32>, %y2: tensor<f32>):
    tgraph.return %y, %y2 : tensor<f32>, tensor<f32>
  } {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>,
     scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64}
    : (tensor<512x16xf32>, tensor<512x16xf32>, tensor<128x1xi32>, tensor<128x16xf32>, tensor<128x16xf32>)
      -> tuple<tensor<512x16xf32>, tensor<512x16xf32>> loc("scatter_pair.4")
  return %a, %c, %d, %t : tensor<512x16xf32>, tensor<128x4x64xf32>, tensor<512x16xf32>,
                          tuple<tensor<512x16xf32>, tensor<512x16xf32>>
}

// CHECK: %[[ACC:.*]] = tile.var "acc" parameter
// CHECK: %[[POS:.*]] = tile.var "pos" parameter
// CHECK: %[[GRAD:.*]] = tile.var "grad" parameter
// CHECK: %[[CACHE:.*]] = tile.var "cache" parameter
// CHECK: %[[STEP:.*]] = tile.var "step" parameter
// CHECK: %[[NEW:.*]] = tile.var "new" parameter

// The 512 rows stay whole; the 16 columns are split (2 per tile over 8
// tiles on tile-1472, 8 per core over 2 cores on core-8: 512 intervals per
// tile is the fragmentation bound).
// CHECK: %[[AO:.*]] = tile.var "scatter_add.1.operand" temporary
// T1472-SAME: why = "re-laid from 'acc': dims [0] whole on each tile, the other 16 positions split 2 per tile over 8 tiles (chunk raised from 1
// C8-SAME: why = "re-laid from 'acc': dims [0] whole on each tile, the other 16 positions split 8 per tile over 2 tiles (chunk raised from 2
// CHECK-NEXT: tile.sync
// CHECK-NEXT: tile.exchange "scatter_add.1.operand" %[[ACC]] -> %[[AO]]
// CHECK-NEXT: %[[A:.*]] = tile.var "scatter_add.1" output
// CHECK-SAME: why = "split like its operand: dims [0] whole on each tile,
// The update rows go where their columns are.
// CHECK-NEXT: %[[AU:.*]] = tile.var "scatter_add.1.updates" temporary
// CHECK-SAME: why = "re-laid from 'grad': dims [0] whole on each tile,
// CHECK-NEXT: tile.exchange "scatter_add.1.updates" %[[GRAD]] -> %[[AU]]
// The 128 indices, one whole copy per tile; on tile-1472 they are spread
// 2 per tile over 64 tiles (1366..1429, the least loaded when placed), and
// each run sends one source interval down a diagonal of destination tiles.
// T1472-NEXT: %[[AI:.*]] = tile.var "scatter_add.1.indices" temporary mapping<[0, 7] x 128 from 0> {why = "indices replicated{{[^"]*}}"} : !tile.buffer<1024xi32>
// T1472-NEXT: tile.exchange "scatter_add.1.indices" %[[POS]] -> %[[AI]] copies [1429, 0, 1, 2, 126, 0, 126, 0, 1428, 0, 2, 2, 124, 2, 124, 130,
// C8-NEXT: %[[AI:.*]] = tile.var "scatter_add.1.indices" temporary mapping<[0, 1] x 128 from 0>
// C8-NEXT: tile.exchange "scatter_add.1.indices" %[[POS]] -> %[[AI]] copies [1, 0, 1, 64, 64, 0, 64, 0, 0, 0, 2, 64, 0, 64, 0, 192, 0, 1, 1, 64, 0, 0, 128, 0]
// CHECK-NEXT: tile.sync
// T1472-NEXT: tile.compute_set "scatter_add.1" kind "scatter.add" tiles [0, 7] ins(%[[AO]], %[[AI]], %[[AU]] : !tile.buffer<512x16xf32>, !tile.buffer<1024xi32>, !tile.buffer<128x16xf32>) outs(%[[A]] : !tile.buffer<512x16xf32>) {index_vector_dim = 1 : i64, indexed_dims = array<i64: 0>, indices_shape = array<i64: 128, 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, update_window_dims = array<i64: 1>}
// C8-NEXT: tile.compute_set "scatter_add.1" kind "scatter.add" tiles [0, 1] ins(%[[AO]], %[[AI]], %[[AU]] : {{.*}}) outs(%[[A]] : {{.*}})

// The cache keeps its 128 steps whole per tile, the 256 (head, feature)
// positions split; the single index goes to every tile.
// CHECK: %[[CO:.*]] = tile.var "kv_update.2.operand" temporary
// CHECK-NEXT: tile.exchange "kv_update.2.operand" %[[CACHE]] -> %[[CO]]
// CHECK-NEXT: %[[C:.*]] = tile.var "kv_update.2" output
// T1472-NEXT: %[[CU:.*]] = tile.var "kv_update.2.updates" temporary mapping<[0, 31] x 8 from 0> {why = "re-laid from 'new': dims [0] whole on each tile{{[^"]*}}"} : !tile.buffer<1x4x64xf32>
// C8-NEXT: %[[CU:.*]] = tile.var "kv_update.2.updates" temporary mapping<[0, 7] x 32 from 0> {why = "re-laid from 'new': dims [0] whole on each tile{{[^"]*}}"} : !tile.buffer<1x4x64xf32>
// CHECK-NEXT: tile.exchange "kv_update.2.updates" %[[NEW]] -> %[[CU]]
// T1472-NEXT: %[[CI:.*]] = tile.var "kv_update.2.indices" temporary mapping<[0, 31] x 1 from 0> {why = "indices replicated{{[^"]*}}"} : !tile.buffer<32xi32>
// C8-NEXT: %[[CI:.*]] = tile.var "kv_update.2.indices" temporary mapping<[0, 7] x 1 from 0>
// CHECK-NEXT: tile.exchange "kv_update.2.indices" %[[STEP]] -> %[[CI]]
// CHECK-NEXT: tile.sync
// T1472-NEXT: tile.compute_set "kv_update.2" kind "scatter.assign" tiles [0, 31] ins(%[[CO]], %[[CI]], %[[CU]] : {{.*}}) outs(%[[C]] : {{.*}}) {{{.*}}update_window_dims = array<i64: 1, 2>}
// C8-NEXT: tile.compute_set "kv_update.2" kind "scatter.assign" tiles [0, 7] ins(%[[CO]], %[[CI]], %[[CU]] : {{.*}}) outs(%[[C]] : {{.*}}) {{{.*}}update_window_dims = array<i64: 1, 2>}

// CHECK: tile.host_compute "scatter_sub.3" op "tgraph.scatter" reason "not-lowered" {{.*}}detail = "update_computation is not add, multiply, maximum, minimum or assign (returning the update)"
// CHECK: tile.host_compute "scatter_pair.4" op "tgraph.scatter" reason "not-lowered" {{.*}}detail = "2 inputs: only single-input scatter is lowered"
