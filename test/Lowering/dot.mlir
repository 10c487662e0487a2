// dot_general: a blocked matmul. Operand blocks are exchanged to the tiles
// of a (k x batch x m x n) grid sized to the matrix unit; each tile runs one
// "matmul-partial" vertex. core-8 (8x128x128 unit) splits only M; tile-1472
// (4x4x4 unit) also splits K 16 ways, so partial products are gathered on
// the 32 tiles owning the result and summed by a "reduce.add" compute set.
//
// RUN: tessera-opt %s --tgraph-check-compat=target=tile-1472 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,T1472
// RUN: tessera-opt %s --tgraph-check-compat=target=core-8 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,C8

func.func @main(%a: tensor<16x64xf32> loc("a"), %b: tensor<64x32xf32> loc("b")) -> tensor<16x32xf32> {
  %d = tgraph.dot_general %a, %b, batching_dims = [] x [], contracting_dims = [1] x [0]
       : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32> loc("dot.1")
  return %d : tensor<16x32xf32>
}

// CHECK: %[[A:.*]] = tile.var "a" parameter
// CHECK: %[[B:.*]] = tile.var "b" parameter
// Each lhs block is 8 rows x 64 (core-8) or 4 rows x 4 k (tile-1472).
// C8: %[[L:.*]] = tile.var "dot.1.lhs" temporary mapping<[0, 1] x 512 from 0> {hlo = "dot.1", why = "matmul lhs blocks{{[^"]*}}"} : !tile.buffer<1x1x2x1x8x64xf32>
// T1472: %[[L:.*]] = tile.var "dot.1.lhs" temporary mapping<[0, 511] x 16 from 0> {hlo = "dot.1", why = "matmul lhs blocks{{[^"]*}}"} : !tile.buffer<16x1x4x8x4x4xf32>
// CHECK: %[[R:.*]] = tile.var "dot.1.rhs" temporary
// The result is in blocks on the owning tiles.
// C8: %[[D:.*]] = tile.var "dot.1" output mapping<[0, 1] x 256 from 0> {hlo = "dot.1", result_leaf = 0 : i64, result_of = {{[0-9]+}} : i64, why = "matmul result{{[^"]*}}"}
// T1472: %[[D:.*]] = tile.var "dot.1" output mapping<[0, 7] x 4 from 0, {{.*}}why = "matmul result{{[^"]*}}"}
// CHECK: tile.exchange "dot.1.lhs" %[[A]] -> %[[L]]
// C8-SAME: copies [0, 0, 2, 512, 0, 512, 0, 512]
// CHECK-NEXT: tile.exchange "dot.1.rhs" %[[B]] -> %[[R]]
// C8: tile.sync
// C8-NEXT: tile.compute_set "dot.1" kind "matmul-partial" tiles [0, 1] ins(%[[L]], %[[R]] : {{.*}}) outs(%[[D]] : {{.*}}) {block = array<i64: 1, 8, 32, 64>, flops = 65536 : i64, grid = array<i64: 1, 1, 2, 1>}
// T1472: %[[P:.*]] = tile.var "dot.1.partials" partials mapping<[0, 511] x 16 from 0>
// T1472: %[[G:.*]] = tile.var "dot.1.gathered" partials mapping<[0, 31] x 256 from 0>
// T1472: tile.sync
// T1472-NEXT: tile.compute_set "dot.1.partial" kind "matmul-partial" tiles [0, 511] ins(%[[L]], %[[R]] : {{.*}}) outs(%[[P]] : {{.*}}) {block = array<i64: 1, 4, 4, 4>, flops = 65536 : i64, grid = array<i64: 16, 1, 4, 8>}
// T1472-NEXT: tile.sync
// T1472-NEXT: tile.exchange "dot.1.gather" %[[P]] -> %[[G]]
// T1472-NEXT: tile.sync
// T1472-NEXT: tile.compute_set "dot.1" kind "reduce.add" tiles [0, 31] ins(%[[G]] : {{.*}}) outs(%[[D]] : {{.*}}) {partials_per_output = 16 : i64}
// CHECK: tile.sync
// CHECK-NEXT: tile.host_copy outfeed %[[D]]
