// A dot whose operand blocks overflow a tile on every grid of one pass: on
// small-16 (16 tiles of 64 KiB for tensors) a 128x384 by 384x128 dot holds
// 81,920 bytes on the fullest tile of the grid that fits best, more than
// the whole tile (each block row and column spans K, and splitting K over
// more tiles gathers more partials on the owners). The lowering cuts K into
// passes that run one after another on the same tiles: each pass exchanges
// its slice of K's blocks into buffers of its own (freed when its matmul
// has read them), and the passes' products are summed as they come. Six
// passes of 64 hold 28,672 bytes with the running sums, within the budget
// of half a tile. The model device agrees with the reference interpreter.
//
// RUN: tessera-opt %s --tgraph-check-compat=target=%S/Inputs/small-16.json --tgraph-to-tile=target=%S/Inputs/small-16.json | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: tessera-compile %s --target=%S/Inputs/small-16.json -o %t/dot.tessera
// RUN: tessera-run %t/dot.tessera --check | FileCheck %s --check-prefix=DEVICE
//
// A ragged grid in passes, contracting the rhs along its minor dimension:
// RUN: tessera-opt %S/Inputs/dot-passes-ragged.mlir --tgraph-check-compat=target=%S/Inputs/small-16.json --tgraph-to-tile=target=%S/Inputs/small-16.json | FileCheck %s --check-prefix=RAGGED
// RUN: tessera-compile %S/Inputs/dot-passes-ragged.mlir --target=%S/Inputs/small-16.json -o %t/ragged.tessera
// RUN: tessera-run %t/ragged.tessera --check | FileCheck %s --check-prefix=DEVICE
//
// bf16: the passes' products and sums are f32, rounded to bf16 once:
// RUN: tessera-opt %S/Inputs/dot-passes-bf16.mlir --tgraph-check-compat=target=%S/Inputs/small-16.json --tgraph-to-tile=target=%S/Inputs/small-16.json | FileCheck %s --check-prefix=BF16
// RUN: tessera-compile %S/Inputs/dot-passes-bf16.mlir --target=%S/Inputs/small-16.json -o %t/bf16.tessera
// RUN: tessera-run %t/bf16.tessera --check | FileCheck %s --check-prefix=DEVICE
//
// None of the three is out of memory on any tile (tessera-run refuses to
// run a program that is, without --allow_out_of_memory).

func.func @main(%a: tensor<128x384xf32> loc("a"), %b: tensor<384x128xf32> loc("b")) -> tensor<128x128xf32> {
  %d = tgraph.dot_general %a, %b, batching_dims = [] x [], contracting_dims = [1] x [0]
       : (tensor<128x384xf32>, tensor<384x128xf32>) -> tensor<128x128xf32> loc("passes")
  return %d : tensor<128x128xf32>
}

// CHECK: tile.var "passes.pass0.lhs" temporary {{.*}}why = "matmul lhs blocks, one per tile of the 1x1x4x4 (k x batch x m x n) grid; K in 6 passes of 64 on the same tiles: 28672 bytes on the fullest tile with the running sums, against 81920 in one pass (budget 32768)"
// CHECK: tile.var "passes" output
// CHECK: tile.var "passes.pass0" partials {{.*}}why = "pass 0 of 6: its slice of K's product, in the result's blocks"
// CHECK: tile.exchange "passes.pass0.lhs" %0 -> {{.*}} view [0, 0, 12288, 0, 384, 1] offset 0
// CHECK: tile.exchange "passes.pass0.rhs" %1 -> {{.*}} view [0, 0, 0, 32, 128, 1] offset 0
// CHECK: tile.compute_set "passes.pass0" kind "matmul-partial" tiles [0, 15] {{.*}}block = array<i64: 1, 32, 32, 64>, flops = 2097152
// Pass 1 reads the next 64 of K: 64 elements on in a row of a, 64 rows of b.
// CHECK: tile.exchange "passes.pass1.lhs" %0 -> {{.*}} offset 64
// CHECK: tile.exchange "passes.pass1.rhs" %1 -> {{.*}} offset 8192
// CHECK: tile.compute_set "passes.pass1" kind "matmul-partial"
// CHECK: tile.compute_set "passes.pass1.sum" kind "elementwise.add" tiles [0, 15] ins(
// CHECK: tile.exchange "passes.pass5.lhs" %0 -> {{.*}} offset 320
// CHECK: tile.compute_set "passes.pass5" kind "matmul-partial"
// The last sum is the result.
// CHECK: tile.compute_set "passes" kind "elementwise.add" tiles [0, 15] {{.*}} outs(%{{[0-9]+}} : !tile.buffer<128x128xf32>)
// CHECK-NOT: tile.compute_set
// CHECK: tile.host_copy outfeed

// RAGGED: why = "matmul lhs blocks, one per tile of the 1x1x4x4 (k x batch x m x n) grid (ragged: the last m block 30, the last n block 18); K in 6 passes of 64 on the same tiles: 28672 bytes on the fullest tile with the running sums, against 72960 in one pass (budget 32768)"
// RAGGED: tile.compute_set "passes_ragged.pass0" kind "matmul-partial" {{.*}}edge = array<i64: 30, 18>{{.*}}rhs_transposed

// BF16: why = "matmul lhs blocks, one per tile of the 1x1x4x4 (k x batch x m x n) grid; K in 6 passes of 128 on the same tiles: 27904 bytes on the fullest tile with the running sums, against 69120 in one pass (budget 32768)"
// BF16: tile.compute_set "passes_bf16.pass0" kind "matmul-partial" {{.*}} outs(%{{[0-9]+}} : !tile.buffer<160x96xf32>)
// BF16: tile.compute_set "passes_bf16.pass5.sum" kind "elementwise.add" {{.*}} outs(%{{[0-9]+}} : !tile.buffer<160x96xf32>)
// BF16: tile.compute_set "passes_bf16" kind "elementwise.convert" {{.*}} outs(%{{[0-9]+}} : !tile.buffer<160x96xbf16>)

// DEVICE: check: PASS
