// RUN: tessera-opt %s | tessera-opt | FileCheck %s
// RUN: tessera-opt %s --mlir-print-op-generic | tessera-opt | FileCheck %s

// CHECK-LABEL: tile.program @main target "tile-1472" tiles 1472 {
tile.program @main target "tile-1472" tiles 1472 {
  // A 1,000-element buffer with grain 64 over 16 tiles: two runs, not 16.
  // CHECK: %[[A:.*]] = tile.var "a" parameter mapping<[0, 14] x 64 from 0, [15, 15] x 40 from 960> : !tile.buffer<1000xf32>
  %a = tile.var "a" parameter mapping<[0, 14] x 64 from 0, [15, 15] x 40 from 960> : !tile.buffer<1000xf32>
  // CHECK: %[[B:.*]] = tile.var "b" output mapping<[0, 14] x 64 from 0, [15, 15] x 40 from 960> {hlo = "add.1", why = "in place: same layout as input 0"} : !tile.buffer<1000xf32>
  %b = tile.var "b" output mapping<[0, 14] x 64 from 0, [15, 15] x 40 from 960> {hlo = "add.1", why = "in place: same layout as input 0"} : !tile.buffer<1000xf32>
  // Mappings may list tiles in any order.
  // CHECK: tile.var "c" constant mapping<[100, 101] x 8 from 16, [7, 7] x 16 from 0> : !tile.buffer<4x8xbf16>
  %c = tile.var "c" constant mapping<[100, 101] x 8 from 16, [7, 7] x 16 from 0> : !tile.buffer<4x8xbf16>
  // CHECK: tile.var "p" partials mapping<[0, 3] x 2 from 0> : !tile.buffer<8xf32>
  %p = tile.var "p" partials mapping<[0, 3] x 2 from 0> : !tile.buffer<8xf32>
  // CHECK: tile.var "t" temporary mapping<[0, 0] x 1 from 0> : !tile.buffer<i1>
  %t = tile.var "t" temporary mapping<[0, 0] x 1 from 0> : !tile.buffer<i1>

  // CHECK: tile.host_copy infeed %[[A]] : !tile.buffer<1000xf32>
  tile.host_copy infeed %a : !tile.buffer<1000xf32>
  // CHECK: tile.compute_set "add.1" kind "elementwise.add" tiles [0, 15] ins(%[[A]], %[[A]] : !tile.buffer<1000xf32>, !tile.buffer<1000xf32>) outs(%[[B]] : !tile.buffer<1000xf32>) {flops = 1000 : i64}
  tile.compute_set "add.1" kind "elementwise.add" tiles [0, 15]
      ins(%a, %a : !tile.buffer<1000xf32>, !tile.buffer<1000xf32>)
      outs(%b : !tile.buffer<1000xf32>) {flops = 1000 : i64}
  // CHECK: tile.sync
  tile.sync
  // Tiles 0..13 each send their first 16 elements to the next tile.
  // CHECK: tile.exchange "shift" %[[A]] -> %[[B]] copies [0, 1, 14, 16, 0, 64, 64, 64] : !tile.buffer<1000xf32>, !tile.buffer<1000xf32>
  tile.exchange "shift" %a -> %b copies [0, 1, 14, 16, 0, 64, 64, 64] : !tile.buffer<1000xf32>, !tile.buffer<1000xf32>
  // Strided: tiles 0 and 1 each send elements 0-1, 8-9, 16-17 and 24-25 of
  // their part (chunks of 2, 8 apart) to tile 2, one after the other (tile
  // steps 1 and 0).
  // CHECK: tile.exchange "columns" %[[A]] -> %[[B]] copies [0, 2, 2, 8, 0, 64, 128, 8] strided [2, 8, 2, 1, 0] : !tile.buffer<1000xf32>, !tile.buffer<1000xf32>
  tile.exchange "columns" %a -> %b copies [0, 2, 2, 8, 0, 64, 128, 8] strided [2, 8, 2, 1, 0] : !tile.buffer<1000xf32>, !tile.buffer<1000xf32>
  // A view: the reversal of %a into %b, copies implied by the mappings.
  // CHECK: tile.exchange "reverse" %[[A]] -> %[[B]] view [-1] offset 999 : !tile.buffer<1000xf32>, !tile.buffer<1000xf32>
  tile.exchange "reverse" %a -> %b view [-1] offset 999 : !tile.buffer<1000xf32>, !tile.buffer<1000xf32>
  // CHECK: tile.host_compute "cholesky.2" op "tgraph.unknown" reason "unknown-op" ins(%[[A]] : !tile.buffer<1000xf32>) outs(%[[B]] : !tile.buffer<1000xf32>)
  tile.host_compute "cholesky.2" op "tgraph.unknown" reason "unknown-op"
      ins(%a : !tile.buffer<1000xf32>) outs(%b : !tile.buffer<1000xf32>)
  // CHECK: tile.repeat "while.3" cond %{{.*}} : !tile.buffer<i1> trip_count 10 {
  // CHECK-NEXT: tile.sync
  // CHECK-NEXT: }
  tile.repeat "while.3" cond %t : !tile.buffer<i1> trip_count 10 {
    tile.sync
  }
  // CHECK: tile.if "cond.4" %{{.*}} : !tile.buffer<i1> {
  // CHECK: } else {
  tile.if "cond.4" %t : !tile.buffer<i1> {
    tile.sync
  } else {
    tile.host_copy outfeed %b : !tile.buffer<1000xf32>
  }
  // CHECK: tile.host_copy outfeed %[[B]] : !tile.buffer<1000xf32>
  tile.host_copy outfeed %b : !tile.buffer<1000xf32>
}
