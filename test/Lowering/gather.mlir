// gather: the dims a run-time index can move in (slice smaller than the
// dim) stay whole on each tile, the other positions are split over tiles;
// the operand is re-laid by exchange unless its layout already has that
// split, the index buffer is replicated on every tile of the split, one
// "gather" vertex per tile writes its part of the result, and the result
// follows the split. A large table with few positions is read in place
// instead (partial results summed), when that halves the worst tile.
//
// RUN: tessera-opt %s --tgraph-check-compat=target=tile-1472 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,T1472
// RUN: tessera-opt %s --tgraph-check-compat=target=core-8 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,C8

func.func @main(%table: tensor<1000x64xf32> loc("table"), %ids: tensor<8xi32> loc("ids"),
                %x: tensor<16x1024xf32> loc("x"), %cols: tensor<4xi32> loc("cols"),
                %big: tensor<30000x16xf32> loc("big"), %bids: tensor<32xi32> loc("bids"))
    -> (tensor<8x64xf32>, tensor<16x4xf32>, tensor<32x16xf32>) {
  // Embedding lookup: rows of a [V, D] table by s32 ids.
  %e = tgraph.gather %table, %ids {offset_dims = array<i64: 1>,
         collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>,
         index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 64>}
       : (tensor<1000x64xf32>, tensor<8xi32>) -> tensor<8x64xf32> loc("embedding.1")
  // torch.index_select(x, 1, cols) as XLA emits it.
  %s = tgraph.gather %x, %cols {offset_dims = array<i64: 0>,
         collapsed_slice_dims = array<i64: 1>, start_index_map = array<i64: 1>,
         index_vector_dim = 1 : i64, slice_sizes = array<i64: 16, 1>}
       : (tensor<16x1024xf32>, tensor<4xi32>) -> tensor<16x4xf32> loc("index_select.2")
  // A 1.9 MB table: no split of 16 columns fits a 624 KiB tile within the
  // fragmentation budget, so tile-1472 leaves it on the host.
  %b = tgraph.gather %big, %bids {offset_dims = array<i64: 1>,
         collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>,
         index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 16>}
       : (tensor<30000x16xf32>, tensor<32xi32>) -> tensor<32x16xf32> loc("big_lookup.3")
  return %e, %s, %b : tensor<8x64xf32>, tensor<16x4xf32>, tensor<32x16xf32>
}

// CHECK: %[[TABLE:.*]] = tile.var "table" parameter
// CHECK: %[[IDS:.*]] = tile.var "ids" parameter
// CHECK: %[[X:.*]] = tile.var "x" parameter
// CHECK: %[[COLS:.*]] = tile.var "cols" parameter

// tile-1472 re-lays the table with its 1000 rows whole per tile and its 64
// columns split: 16 per tile over 4 tiles (one column per tile would need
// 64,000 intervals).
// T1472: %[[OP:.*]] = tile.var "embedding.1.operand" temporary mapping<[0, 3] x 16 from 0, [0, 3] x 16 from 64, {{.*}}why = "re-laid from 'table': dims [0] whole on each tile, the other 64 positions split 16 per tile over 4 tiles (chunk raised from 1 so no mapping needs more than 5888 intervals nor an exchange more than 65536 copy runs)"} : !tile.buffer<1000x64xf32>
// T1472: tile.exchange "embedding.1.operand" %[[TABLE]] -> %[[OP]]
// The result rows are split like the table's columns.
// T1472: %[[E:.*]] = tile.var "embedding.1" output mapping<[0, 3] x 16 from 0, [0, 3] x 16 from 64, [0, 3] x 16 from 128, [0, 3] x 16 from 192, [0, 3] x 16 from 256, [0, 3] x 16 from 320, [0, 3] x 16 from 384, [0, 3] x 16 from 448> {hlo = "embedding.1", result_leaf = 0 : i64, result_of = {{[0-9]+}} : i64, why = "split like its operand: dims [0] whole on each tile,
// The 8 ids (a small parameter, on the least loaded tile when placed) are
// broadcast: one whole copy per tile of the split, each a run reading the
// same source elements.
// T1472: %[[EI:.*]] = tile.var "embedding.1.indices" temporary mapping<[0, 3] x 8 from 0> {why = "indices replicated: one whole copy (8 elements) per tile of the split"} : !tile.buffer<32xi32>
// T1472-NEXT: tile.exchange "embedding.1.indices" %[[IDS]] -> %[[EI]] copies [1455, 0, 1, 8, 0, 0, 0, 0, 1455, 1, 1, 8, 0, 0, 8, 0, 1455, 2, 1, 8, 0, 0, 16, 0, 1455, 3, 1, 8, 0, 0, 24, 0]
// T1472-NEXT: tile.sync
// T1472-NEXT: tile.compute_set "embedding.1" kind "gather" tiles [0, 3] ins(%[[OP]], %[[EI]] : !tile.buffer<1000x64xf32>, !tile.buffer<32xi32>) outs(%[[E]] : !tile.buffer<8x64xf32>) {collapsed_slice_dims = array<i64: 0>, index_vector_dim = 1 : i64, indexed_dims = array<i64: 0>, indices_shape = array<i64: 8>, offset_dims = array<i64: 1>, slice_sizes = array<i64: 1, 64>, start_index_map = array<i64: 0>}
// core-8 would put all 64 columns on one core (a column split needs more
// than its 1024 intervals): 256 KB there. It reads the table where it is
// instead, 8 KB per core: each core gathers the elements it holds into a
// whole partial result (zeros elsewhere), and the result's cores sum the
// 8 partials of each element, gathered by one strided run per result core
// (from consecutive cores into one: tile steps 1, 0).
// C8-NOT: embedding.1.operand
// C8: %[[EI:.*]] = tile.var "embedding.1.indices" temporary mapping<[0, 7] x 8 from 0>
// C8-NEXT: tile.sync
// C8-NEXT: tile.exchange "embedding.1.indices" %[[IDS]] -> %[[EI]]
// C8-NEXT: %[[EP:.*]] = tile.var "embedding.1.partials" partials mapping<[0, 7] x 512 from 0> {hlo = "embedding.1", why = "gathered where the table is: each of its 8 tiles writes a partial result, summed on the result's tiles"} : !tile.buffer<8x8x64xf32>
// C8-NEXT: tile.sync
// C8-NEXT: tile.compute_set "embedding.1.partial" kind "gather" tiles [0, 7] ins(%[[TABLE]], %[[EI]] : !tile.buffer<1000x64xf32>, !tile.buffer<64xi32>) outs(%[[EP]] : !tile.buffer<8x8x64xf32>) {collapsed_slice_dims = array<i64: 0>, index_vector_dim = 1 : i64, indexed_dims = array<i64: 0>, indices_shape = array<i64: 8>, offset_dims = array<i64: 1>, partial, slice_sizes = array<i64: 1, 64>, start_index_map = array<i64: 0>}
// C8-NEXT: %[[E:.*]] = tile.var "embedding.1" output mapping<[6, 7] x 256 from 0>
// C8-NEXT: %[[EG:.*]] = tile.var "embedding.1.gathered" partials mapping<[6, 7] x 2048 from 0>
// C8-NEXT: tile.sync
// C8-NEXT: tile.exchange "embedding.1.gather" %[[EP]] -> %[[EG]] copies [0, 6, 8, 256, 0, 512, 0, 256, 0, 7, 8, 256, 256, 512, 2048, 256] strided [256, 0, 0, 1, 0, 256, 0, 0, 1, 0]
// C8-NEXT: tile.sync
// C8-NEXT: tile.compute_set "embedding.1" kind "reduce.add" tiles [6, 7] ins(%[[EG]] : !tile.buffer<4096xf32>) outs(%[[E]] : !tile.buffer<8x64xf32>) {partials_per_output = 8 : i64}

// index_select along dim 1: each row (1024 columns, whole) is a position.
// core-8's linear layout already holds 2 whole rows per core: in place, no
// operand exchange. tile-1472's 12 elements per tile are not whole rows.
// T1472: %[[XO:.*]] = tile.var "index_select.2.operand" temporary mapping<[0, 15] x 1024 from 0> {why = "re-laid from 'x': dims [1] whole on each tile, the other 16 positions split 1 per tile over 16 tiles"}
// T1472-NEXT: tile.exchange "index_select.2.operand" %[[X]] -> %[[XO]]
// T1472: %[[S:.*]] = tile.var "index_select.2" output mapping<[0, 15] x 4 from 0> {hlo = "index_select.2", result_leaf = 0 : i64, result_of = {{[0-9]+}} : i64, why = "split like its operand: dims [1] whole on each tile, the other 16 positions split 1 per tile over 16 tiles"}
// C8-NOT: index_select.2.operand
// C8: %[[S:.*]] = tile.var "index_select.2" output mapping<[0, 7] x 8 from 0> {hlo = "index_select.2", result_leaf = 0 : i64, result_of = {{[0-9]+}} : i64, why = "split like its operand: dims [1] whole on each tile: in place on the layout of 'x', which already has them (8 tiles)"}
// CHECK: %[[SI:.*]] = tile.var "index_select.2.indices" temporary
// CHECK-NEXT: tile.exchange "index_select.2.indices" %[[COLS]] -> %[[SI]]
// CHECK-NEXT: tile.sync
// T1472-NEXT: tile.compute_set "index_select.2" kind "gather" tiles [0, 15] ins(%[[XO]], %[[SI]] : {{.*}}) outs(%[[S]] : {{.*}}) {collapsed_slice_dims = array<i64: 1>, index_vector_dim = 1 : i64, indexed_dims = array<i64: 1>, indices_shape = array<i64: 4>, offset_dims = array<i64: 0>, slice_sizes = array<i64: 16, 1>, start_index_map = array<i64: 1>}
// C8-NEXT: tile.compute_set "index_select.2" kind "gather" tiles [0, 7] ins(%[[X]], %[[SI]] : {{.*}}) outs(%[[S]] : {{.*}})

// T1472: tile.host_compute "big_lookup.3" op "tgraph.gather" reason "not-lowered" {{.*}}detail = "dims [0] whole on each tile needs 1922176 bytes on tile 0 (usable 581632) with chunks of 16 positions, the smallest that keep mappings within 5888 intervals and exchanges within 65536 copy runs"
// C8: tile.compute_set "big_lookup.3.partial" kind "gather" tiles [0, 7]
// C8: tile.compute_set "big_lookup.3" kind "reduce.add"
// CHECK-NOT: tile.host_compute
