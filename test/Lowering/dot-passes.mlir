// A dot whose operand blocks overflow a tile on every grid of one pass: on
// small-16 (16 tiles of 64 KiB for tensors) a 128x384 by 384x128 dot holds
// 81,920 bytes on the fullest tile of the grid that fits best, more than
// the whole tile (each block row and column spans K, and splitting K over
// more tiles gathers more partials on the owners). The lowering cuts K into
// passes that run one after another on the same tiles: each pass exchanges
// its slice of K's blocks into buffers of its own (freed when its matmul
// has read them), and its matmul adds its product to the result in place
// (`accumulate`: the result is also its third input). Four passes of 96
// hold 28,672 bytes on the fullest tile, within the budget of half a tile.
// The model device agrees with the reference interpreter.
//
// RUN: tessera-opt %s --tgraph-check-compat=target=%S/Inputs/small-16.json --tgraph-to-tile=target=%S/Inputs/small-16.json | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: tessera-compile %s --target=%S/Inputs/small-16.json -o %t/dot.tessera --profiling --report_directory=%t/r > /dev/null
// RUN: cat %t/r/*/memory.json | FileCheck %s --check-prefix=REPORT
// REPORT: "matmul_budget":{"budget_bytes":32768,"dots":[{"op":"passes","fastest_grid_bytes":102400,"bytes":28672,"passes":4}
// RUN: tessera-run %t/dot.tessera --check | FileCheck %s --check-prefix=DEVICE
//
// A ragged grid in passes, contracting the rhs along its minor dimension:
// RUN: tessera-opt %S/Inputs/dot-passes-ragged.mlir --tgraph-check-compat=target=%S/Inputs/small-16.json --tgraph-to-tile=target=%S/Inputs/small-16.json | FileCheck %s --check-prefix=RAGGED
// RUN: tessera-compile %S/Inputs/dot-passes-ragged.mlir --target=%S/Inputs/small-16.json -o %t/ragged.tessera
// RUN: tessera-run %t/ragged.tessera --check | FileCheck %s --check-prefix=DEVICE
//
// bf16: the passes sum into an f32 buffer, rounded to bf16 once:
// RUN: tessera-opt %S/Inputs/dot-passes-bf16.mlir --tgraph-check-compat=target=%S/Inputs/small-16.json --tgraph-to-tile=target=%S/Inputs/small-16.json | FileCheck %s --check-prefix=BF16
// RUN: tessera-compile %S/Inputs/dot-passes-bf16.mlir --target=%S/Inputs/small-16.json -o %t/bf16.tessera
// RUN: tessera-run %t/bf16.tessera --check | FileCheck %s --check-prefix=DEVICE
//
// None of the three is out of memory on any tile (tessera-run refuses to
// run a program that is, without --allow_out_of_memory).
//
// Passes whose grid also splits K over tiles reduce each pass's slices
// beside the sum and add them in place. Here the operands themselves
// (32 KiB a tile) leave too little room, so the device runs with the
// overflow on the host; the check is of the arithmetic.
// RUN: tessera-opt %S/Inputs/dot-passes-ksplit.mlir --tgraph-check-compat=target=%S/Inputs/small-16.json --tgraph-to-tile=target=%S/Inputs/small-16.json | FileCheck %s --check-prefix=KSPLIT
// RUN: tessera-compile %S/Inputs/dot-passes-ksplit.mlir --target=%S/Inputs/small-16.json -o %t/ksplit.tessera
// RUN: tessera-run %t/ksplit.tessera --check --allow_out_of_memory | FileCheck %s --check-prefix=DEVICE

func.func @main(%a: tensor<128x384xf32> loc("a"), %b: tensor<384x128xf32> loc("b")) -> tensor<128x128xf32> {
  %d = tgraph.dot_general %a, %b, batching_dims = [] x [], contracting_dims = [1] x [0]
       : (tensor<128x384xf32>, tensor<384x128xf32>) -> tensor<128x128xf32> loc("passes")
  return %d : tensor<128x128xf32>
}

// CHECK: tile.var "passes.pass0.lhs" temporary {{.*}}why = "matmul lhs blocks, one per tile of the 1x1x4x4 (k x batch x m x n) grid; K in 4 passes of 96 on the same tiles: 28672 bytes on the fullest tile with the running sum, against 81920 in one pass (budget 32768)"
// CHECK: %[[OUT:[0-9]+]] = tile.var "passes" output
// CHECK: tile.exchange "passes.pass0.lhs" %0 -> {{.*}} view [0, 0, 12288, 0, 384, 1] offset 0
// CHECK: tile.exchange "passes.pass0.rhs" %1 -> {{.*}} view [0, 0, 0, 32, 128, 1] offset 0
// CHECK: tile.compute_set "passes.pass0" kind "matmul-partial" tiles [0, 15] ins(%{{[0-9]+}}, %{{[0-9]+}} : {{.*}}) outs(%[[OUT]] : {{.*}}) {block = array<i64: 1, 32, 32, 96>, flops = 3145728
// Pass 1 reads the next 96 of K: 96 elements on in a row of a, 96 rows of b,
// and adds its product to the result.
// CHECK: tile.exchange "passes.pass1.lhs" %0 -> {{.*}} offset 96
// CHECK: tile.exchange "passes.pass1.rhs" %1 -> {{.*}} offset 12288
// CHECK: tile.compute_set "passes.pass1" kind "matmul-partial" tiles [0, 15] ins(%{{[0-9]+}}, %{{[0-9]+}}, %[[OUT]] : {{.*}}) outs(%[[OUT]] : {{.*}}) {accumulate
// CHECK: tile.exchange "passes.pass3.lhs" %0 -> {{.*}} offset 288
// CHECK: tile.compute_set "passes.pass3" kind "matmul-partial" {{.*}} outs(%[[OUT]] : {{.*}}) {accumulate
// CHECK-NOT: tile.compute_set
// CHECK: tile.host_copy outfeed %[[OUT]]

// RAGGED: why = "matmul lhs blocks, one per tile of the 1x1x4x4 (k x batch x m x n) grid (ragged: the last m block 30, the last n block 18); K in 4 passes of 96 on the same tiles: 28672 bytes on the fullest tile with the running sum, against 72960 in one pass (budget 32768)"
// RAGGED: tile.compute_set "passes_ragged.pass1" kind "matmul-partial" {{.*}}accumulate{{.*}}edge = array<i64: 30, 18>{{.*}}rhs_transposed

// BF16: why = "matmul lhs blocks, one per tile of the 1x1x4x4 (k x batch x m x n) grid; K in 4 passes of 192 on the same tiles: 28416 bytes on the fullest tile with the running sum, against 69120 in one pass (budget 32768)"
// BF16: %[[SUM:[0-9]+]] = tile.var "passes_bf16.sum" partials {{.*}} : !tile.buffer<160x96xf32>
// BF16: tile.compute_set "passes_bf16.pass0" kind "matmul-partial" {{.*}} outs(%[[SUM]] : !tile.buffer<160x96xf32>)
// BF16: tile.compute_set "passes_bf16.pass3" kind "matmul-partial" {{.*}} outs(%[[SUM]] : !tile.buffer<160x96xf32>) {accumulate
// BF16: tile.compute_set "passes_bf16" kind "elementwise.convert" {{.*}} ins(%[[SUM]] : {{.*}}) outs(%{{[0-9]+}} : !tile.buffer<160x96xbf16>)

// KSPLIT: why = "matmul lhs blocks, one per tile of the 2x1x2x4 (k x batch x m x n) grid; K in 4 passes of 256
// KSPLIT: %[[OUT:[0-9]+]] = tile.var "passes_k" output
// KSPLIT: tile.compute_set "passes_k.pass0" kind "reduce.add" {{.*}} outs(%[[OUT]] :
// KSPLIT: tile.compute_set "passes_k.pass1" kind "reduce.add" {{.*}} outs(%[[P1:[0-9]+]] :
// KSPLIT: tile.compute_set "passes_k.pass1.sum" kind "elementwise.add" {{.*}} ins(%[[OUT]], %[[P1]] : {{.*}}) outs(%[[OUT]] :

// DEVICE: check: PASS
