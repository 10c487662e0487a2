// Offsets per tile: best fit reuses the memory of dead buffers; the peak
// is reported next to the liveness lower bound; a tile without buffers is
// not listed. Both presets (alignment 8 on tile-1472, 64 on core-8).
//
// RUN: tessera-opt %s --tile-print-allocation=offsets=true -o /dev/null | FileCheck %s
// RUN: tessera-opt %s --tile-print-allocation=print=json -o /dev/null | FileCheck %s --check-prefix=JSON
// RUN: tessera-opt %s --tile-print-allocation=print=summary -o /dev/null | FileCheck %s --check-prefix=SUMMARY

// a (400 B) dies before c (400 B) is written, so c takes a's place; b and
// d live across the hand-over and go above: peak 608 = a + b at point 1
// (b's 50 f32 pad to 52 in the [1, 4] layout tile: 208 bytes). Overheads:
// 57,344 reserved + 2 vertex kinds × 512 + 4 vertices × 24.
// CHECK-LABEL: allocation of @reuse on tile-1472 (alignment 8): 0 tile(s) out of memory, worst peak / lower bound 1.0000
// CHECK-NEXT: tile 0: peak 608, lower bound 608, gaps 0, with overheads 59072 of 638976
// CHECK-NEXT:   a at 0 size 400 live [0, 1]
// CHECK-NEXT:   b at 400 size 208 live [1, 2]
// CHECK-NEXT:   c at 0 size 400 live [2, 3]
// 25 f32 pad to 28: 112 bytes.
// CHECK-NEXT:   d at 400 size 112 live [3, 4]
// CHECK-NOT: tile 1:
tile.program @reuse target "tile-1472" tiles 1472 {
  %a = tile.var "a" temporary mapping<[0, 0] x 100 from 0> : !tile.buffer<100xf32>
  %b = tile.var "b" temporary mapping<[0, 0] x 50 from 0> : !tile.buffer<50xf32>
  %c = tile.var "c" temporary mapping<[0, 0] x 100 from 0> : !tile.buffer<100xf32>
  %d = tile.var "d" temporary mapping<[0, 0] x 25 from 0> : !tile.buffer<25xf32>
  tile.compute_set "a" kind "fill" tiles [0, 0] outs(%a : !tile.buffer<100xf32>)
  tile.compute_set "b" kind "elementwise.negate" tiles [0, 0]
      ins(%a : !tile.buffer<100xf32>) outs(%b : !tile.buffer<50xf32>)
  tile.compute_set "c" kind "elementwise.negate" tiles [0, 0]
      ins(%b : !tile.buffer<50xf32>) outs(%c : !tile.buffer<100xf32>)
  tile.compute_set "d" kind "elementwise.negate" tiles [0, 0]
      ins(%c : !tile.buffer<100xf32>) outs(%d : !tile.buffer<25xf32>)
  tile.host_copy outfeed %d : !tile.buffer<25xf32>
}

// core-8: each [8, 128] f32 layout tile is 4,096 bytes, already aligned.
// CHECK-LABEL: allocation of @reuse8 on core-8 (alignment 64)
// CHECK-NEXT: tile 0: peak 8192, lower bound 8192, gaps 0
// CHECK-NEXT:   a at 0 size 4096 live [0, 1]
// CHECK-NEXT:   b at 4096 size 4096 live [1, 2]
// CHECK-NEXT:   c at 0 size 4096 live [2, 2]
tile.program @reuse8 target "core-8" tiles 8 {
  %a = tile.var "a" temporary mapping<[0, 0] x 100 from 0> : !tile.buffer<100xf32>
  %b = tile.var "b" temporary mapping<[0, 0] x 50 from 0> : !tile.buffer<50xf32>
  %c = tile.var "c" temporary mapping<[0, 0] x 100 from 0> : !tile.buffer<100xf32>
  tile.compute_set "a" kind "fill" tiles [0, 0] outs(%a : !tile.buffer<100xf32>)
  tile.compute_set "b" kind "elementwise.negate" tiles [0, 0]
      ins(%a : !tile.buffer<100xf32>) outs(%b : !tile.buffer<50xf32>)
  tile.compute_set "c" kind "elementwise.negate" tiles [0, 0]
      ins(%b : !tile.buffer<50xf32>) outs(%c : !tile.buffer<100xf32>)
}

// JSON: {"program":"reuse","target":"tile-1472","alignment_bytes":8,"tiles_out_of_memory":0,"worst_peak_to_lower_bound":1.0,"worst_tile":0,"peak_to_lower_bound":1.0,"max_tile":0,"max_tile_bytes":59072,"used_tiles":1,"mean_used_tile_bytes":59072,"total_peak":608,"total_lower_bound":608,"tiles":[{"tile":0,"peak":608,"lower_bound":608,"gaps":0,"overheads":58464,"total":59072,"capacity":638976,"out_of_memory":false,"over_by":0}]}
// SUMMARY: @reuse on tile-1472: peak/lower-bound 1.0000 (worst tile 0: 1.0000), max tile 59072 B (tile 0), mean tile 59072 B over 1 tiles, 0 tile(s) out of memory
// SUMMARY: @reuse8 on core-8: peak/lower-bound 1.0000 (worst tile 0: 1.0000), max tile 1130688 B (tile 0), mean tile 1130688 B over 1 tiles, 0 tile(s) out of memory
