// Large matmuls: each operand's blocks are a strided view of it, moved by
// one view exchange however many tiles the grid has (listing a copy per
// tile pair would not stay compact). A dot whose batch group has two
// dimensions takes the group whole in every block.
//
// RUN: tessera-opt %s --tgraph-check-compat=target=tile-1472 --tgraph-to-tile | FileCheck %s --check-prefix=T1472
// RUN: tessera-opt %s --tgraph-check-compat=target=core-8 --tgraph-to-tile | FileCheck %s --check-prefix=C8

func.func @main(%a: tensor<2048x1024xf32> loc("a"), %b: tensor<1024x3072xf32> loc("b"),
                %q: tensor<2x3x8x16xf32> loc("q"), %k: tensor<2x3x16x8xf32> loc("k"))
    -> (tensor<2048x3072xf32>, tensor<2x3x8x8xf32>) {
  %d = tgraph.dot_general %a, %b, batching_dims = [] x [], contracting_dims = [1] x [0]
       : (tensor<2048x1024xf32>, tensor<1024x3072xf32>) -> tensor<2048x3072xf32> loc("dot.1")
  %s = tgraph.dot_general %q, %k, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2]
       : (tensor<2x3x8x16xf32>, tensor<2x3x16x8xf32>) -> tensor<2x3x8x8xf32> loc("scores")
  return %d, %s : tensor<2048x3072xf32>, tensor<2x3x8x8xf32>
}

// tile-1472: exact divisors would give a 32x32 grid of 64x96 blocks, 1,024
// of the 1,472 tiles; the fastest ragged grid is 32x46 blocks of 64x68 on
// every tile, but each block row and column holds all of K: 558,080 bytes
// on a tile, over the budget of half a tile (dot-memory.mlir). The grid
// with the fewest bytes is 16x23 blocks of 128x136 (the last row 128, the
// last column 80) with K split 4 ways, still every tile: 348,160 bytes.
// The lhs blocks buffer keeps M whole (stride 0 along n: each tile holds
// its rows of one K slice), the rhs blocks buffer keeps N whole, each tile
// holding its columns as [n, k] rows.
// T1472: tile.var "dot.1.lhs" temporary mapping<[0, 0] x 32768 from 0, [23, 23] x 32768 from 32768, {{.*}} why = "matmul lhs blocks, one per tile of the 4x1x16x23 (k x batch x m x n) grid (ragged: the last m block 128, the last n block 80); chosen for tile memory: 348160 bytes on the fullest tile, against 558080 on the fastest grid 1x1x32x46 (budget 290816)"} : !tile.buffer<4x1x23x2048x256xf32>
// T1472: tile.var "dot.1.rhs" temporary {{.*}} : !tile.buffer<4x1x16x3072x256xf32>
// T1472: tile.exchange "dot.1.lhs" %{{.*}} -> %{{.*}} view [256, 0, 0, 1024, 1] offset 0
// T1472: tile.exchange "dot.1.rhs" %{{.*}} -> %{{.*}} view [786432, 0, 0, 1, 3072] offset 0
// T1472: tile.compute_set "dot.1.partial" kind "matmul-partial" tiles [0, 1471] {{.*}} {block = array<i64: 1, 128, 136, 256>, edge = array<i64: 128, 80>, flops = 12884901888 : i64, grid = array<i64: 4, 1, 16, 23>, rhs_transposed}
// T1472: tile.compute_set "dot.1" kind "reduce.add" tiles [0, 367] {{.*}} {partials_per_output = 4 : i64}
// tile-1472 allows one batch dimension.
// T1472: tile.host_compute "scores" op "tgraph.dot_general" reason "unsupported-attribute"

// core-8: a 1x1x2x4 grid; the 8x128x128 unit keeps blocks large.
// C8: tile.var "dot.1.lhs" temporary mapping<[0, 7] x 1048576 from 0> {hlo = "dot.1", why = "matmul lhs blocks{{[^"]*}}"} : !tile.buffer<1x1x2x4x1024x1024xf32>
// C8: tile.exchange "dot.1.lhs" %{{.*}} -> %{{.*}} view [0, 0, 1048576, 0, 1024, 1] offset 0
// C8: tile.exchange "dot.1.rhs" %{{.*}} -> %{{.*}} view [0, 0, 0, 768, 3072, 1] offset 0
// C8: tile.compute_set "dot.1" kind "matmul-partial" tiles [0, 7] {{.*}} {block = array<i64: 1, 1024, 768, 1024>, flops = 12884901888 : i64, grid = array<i64: 1, 1, 2, 4>}
// The batch group [0, 1] is two dimensions: the block takes it whole.
// C8: tile.var "scores.lhs" temporary mapping<[0, 0] x 768 from 0> {{.*}} : !tile.buffer<1x1x1x1x2x3x8x16xf32>
// C8: tile.exchange "scores.lhs" {{.*}} copies [0, 0, 1, 512, 0, 0, 0, 0, 1, 0, 1, 256, 512, 0, 512, 0]
// C8: tile.compute_set "scores" kind "matmul-partial" tiles [0, 0] {{.*}} {block = array<i64: 6, 8, 8, 16>, flops = 12288 : i64, grid = array<i64: 1, 1, 1, 1>}
