// A dot whose fastest grid overflows a tile: on small-16 (16 tiles of
// 64 KiB for tensors, a 4x4x4 matrix unit) the fastest grid for a
// 64x256 by 256x64 dot is 4x4 result blocks each holding all of K: 33,792
// bytes on a tile, over the budget of half a tile (32,768) that leaves
// room for the program's other tensors. The lowering then takes the
// fastest grid that fits: fewer, larger result blocks and K split in two,
// 26,624 bytes on the fullest tile. The model device agrees with the
// reference on it.
//
// RUN: tessera-opt %s --tgraph-check-compat=target=%S/Inputs/small-16.json --tgraph-to-tile=target=%S/Inputs/small-16.json | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: tessera-compile %s --target=%S/Inputs/small-16.json -o %t/dot.tessera --profiling --report_directory=%t/r > /dev/null
// RUN: tessera-run %t/dot.tessera --check | FileCheck %s --check-prefix=DEVICE
// The memory report's memory_options lists the dot with both figures
// (docs/memory.md, "Memory-saving options").
// RUN: cat %t/r/*/memory.json | FileCheck %s --check-prefix=REPORT
// REPORT: "memory_options":{"matmul_budget":{"budget_bytes":32768,"dots":[{"op":"long_k","fastest_grid_bytes":33792,"bytes":26624,"passes":1}]}}
//
// 60x512 by 512x52: the grid that fits best in one pass (ragged, K split)
// holds 34,304 bytes, over the budget, so K goes in two passes of 256
// (dot-passes.mlir), and the device agrees with the reference on it too.
// RUN: tessera-opt %S/Inputs/dot-memory-ragged.mlir --tgraph-check-compat=target=%S/Inputs/small-16.json --tgraph-to-tile=target=%S/Inputs/small-16.json | FileCheck %s --check-prefix=RAGGED
// RUN: tessera-compile %S/Inputs/dot-memory-ragged.mlir --target=%S/Inputs/small-16.json -o %t/ragged.tessera
// RUN: tessera-run %t/ragged.tessera --check | FileCheck %s --check-prefix=DEVICE
// RAGGED: why = "matmul lhs blocks, one per tile of the 1x1x4x4 (k x batch x m x n) grid; K in 2 passes of 256 on the same tiles: 29452 bytes on the fullest tile with the running sum, against 34304 in one pass (budget 32768)"

func.func @main(%a: tensor<64x256xf32> loc("a"), %b: tensor<256x64xf32> loc("b")) -> tensor<64x64xf32> {
  %d = tgraph.dot_general %a, %b, batching_dims = [] x [], contracting_dims = [1] x [0]
       : (tensor<64x256xf32>, tensor<256x64xf32>) -> tensor<64x64xf32> loc("long_k")
  return %d : tensor<64x64xf32>
}

// CHECK: tile.var "long_k.lhs" temporary {{.*}}why = "matmul lhs blocks, one per tile of the 2x1x2x4 (k x batch x m x n) grid; chosen for tile memory: 26624 bytes on the fullest tile, against 33792 on the fastest grid 1x1x4x4 (budget 32768)"
// CHECK: tile.compute_set "long_k.partial" kind "matmul-partial" tiles [0, 15] {{.*}}grid = array<i64: 2, 1, 2, 4>, memory_fit = array<i64: 33792, 26624, 32768, 1>
// CHECK: tile.compute_set "long_k" kind "reduce.add" tiles [0, 7] {{.*}}partials_per_output = 2
// DEVICE: check: PASS
