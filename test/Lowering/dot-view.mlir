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
// with the fewest bytes in one pass (16x23 blocks of 128x136, K split 4
// ways) still holds 348,160, so K goes in two passes of 512 on the fastest
// grid: 287,744 bytes with the running sum, which is the result itself
// (dot-passes.mlir). The lhs blocks buffer keeps M whole (stride 0 along
// n: each tile holds its rows of one K slice), the rhs blocks buffer keeps
// N whole, each tile holding its columns as [n, k] rows; pass 1's views
// start 512 elements on along K.
// T1472: tile.var "dot.1.pass0.lhs" temporary mapping<[0, 0] x 32768 from 0, [46, 46] x 32768 from 32768, {{.*}} why = "matmul lhs blocks, one per tile of the 1x1x32x46 (k x batch x m x n) grid (ragged: the last m block 64, the last n block 12); K in 2 passes of 512 on the same tiles: 287744 bytes on the fullest tile with the running sum, against 348160 in one pass (budget 290816)"} : !tile.buffer<1x1x46x2048x512xf32>
// T1472: tile.var "dot.1.pass0.rhs" temporary {{.*}} : !tile.buffer<1x1x32x3072x512xf32>
// T1472: tile.exchange "dot.1.pass0.lhs" %{{.*}} -> %{{.*}} view [0, 0, 0, 1024, 1] offset 0
// T1472: tile.exchange "dot.1.pass0.rhs" %{{.*}} -> %{{.*}} view [0, 0, 0, 1, 3072] offset 0
// T1472: tile.compute_set "dot.1.pass0" kind "matmul-partial" tiles [0, 1471] {{.*}} {block = array<i64: 1, 64, 68, 512>, edge = array<i64: 64, 12>, flops = 6442450944 : i64, grid = array<i64: 1, 1, 32, 46>, memory_fit = array<i64: 558080, 287744, 290816, 2>, rhs_transposed}
// T1472: tile.exchange "dot.1.pass1.lhs" %{{.*}} -> %{{.*}} view [0, 0, 0, 1024, 1] offset 512
// T1472: tile.exchange "dot.1.pass1.rhs" %{{.*}} -> %{{.*}} view [0, 0, 0, 1, 3072] offset 1572864
// T1472: tile.compute_set "dot.1.pass1" kind "matmul-partial" tiles [0, 1471] {{.*}} {accumulate, block = array<i64: 1, 64, 68, 512>
// tile-1472 allows one batch dimension.
// T1472: tile.host_compute "scores" op "tgraph.dot_general" reason "unsupported-attribute"

// core-8: a 1x1x2x4 grid; the 8x128x128 unit keeps blocks large. Its
// 1024x1024 lhs and 1024x768 rhs blocks hold 10,485,760 bytes on a tile,
// over half its memory, so K goes in two passes of 512.
// C8: tile.var "dot.1.pass0.lhs" temporary mapping<[0, 7] x 524288 from 0> {hlo = "dot.1", why = "matmul lhs blocks, one per tile of the 1x1x2x4 (k x batch x m x n) grid; K in 2 passes of 512 on the same tiles: 6815744 bytes on the fullest tile with the running sum, against 10485760 in one pass (budget 7831552)"} : !tile.buffer<1x1x2x4x1024x512xf32>
// C8: tile.exchange "dot.1.pass0.lhs" %{{.*}} -> %{{.*}} view [0, 0, 1048576, 0, 1024, 1] offset 0
// C8: tile.exchange "dot.1.pass0.rhs" %{{.*}} -> %{{.*}} view [0, 0, 0, 768, 3072, 1] offset 0
// C8: tile.compute_set "dot.1.pass0" kind "matmul-partial" tiles [0, 7] {{.*}} {block = array<i64: 1, 1024, 768, 512>, flops = 6442450944 : i64, grid = array<i64: 1, 1, 2, 4>, memory_fit = array<i64: 10485760, 6815744, 7831552, 2>}
// C8: tile.compute_set "dot.1.pass1" kind "matmul-partial" tiles [0, 7] {{.*}} {accumulate, block = array<i64: 1, 1024, 768, 512>
// The batch group [0, 1] is two dimensions: the block takes it whole.
// C8: tile.var "scores.lhs" temporary mapping<[0, 0] x 768 from 0> {{.*}} : !tile.buffer<1x1x1x1x2x3x8x16xf32>
// C8: tile.exchange "scores.lhs" {{.*}} copies [0, 0, 1, 512, 0, 0, 0, 0, 1, 0, 1, 256, 512, 0, 512, 0]
// C8: tile.compute_set "scores" kind "matmul-partial" tiles [0, 0] {{.*}} {block = array<i64: 6, 8, 8, 16>, flops = 12288 : i64, grid = array<i64: 1, 1, 1, 1>}
