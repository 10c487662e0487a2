// A program that does not fit: tile 0 of tile-1472 (638,976 bytes) must
// hold a 640,000-byte temporary. Every pass still runs to the end and
// every report is produced; the report says which tile, by how much, at
// which step, and which buffers (written by which steps) are live there.
//
// RUN: tessera-opt %s --tile-print-allocation -o /dev/null | FileCheck %s --check-prefix=ALLOC
// RUN: tessera-opt %s --tile-liveness --tile-padding -o /dev/null | FileCheck %s --check-prefix=OTHERS
// RUN: tessera-opt %s --tile-memory-report -o /dev/null | FileCheck %s --check-prefix=TEXT
// RUN: tessera-opt %s --tile-memory-report=format=json -o /dev/null | FileCheck %s --check-prefix=JSON
// RUN: tessera-opt %s --tile-memory-report=format=svg -o /dev/null | FileCheck %s --check-prefix=SVG
// RUN: tessera-opt %s --tile-memory-report=tile=0 -o /dev/null | FileCheck %s --check-prefix=DETAIL
// RUN: tessera-opt %s --tile-memory-report="format=json tile=0" -o /dev/null | FileCheck %s --check-prefix=DETAIL-JSON

func.func @main(%x: tensor<2000xf32> loc("x")) -> tensor<2000xf32> {
  %b = tgraph.broadcast_in_dim %x, dims = [0] {tgraph.op_name = "model/big_broadcast"}
       : (tensor<2000xf32>) -> tensor<2000xf32> loc("broadcast.2")
  return %b : tensor<2000xf32>
}

tile.program @main.tile target "tile-1472" tiles 1472 attributes {entry = @main} {
  %x = tile.var "x" parameter mapping<[0, 1] x 1000 from 0> {hlo = "x"} : !tile.buffer<2000xf32>
  %big = tile.var "broadcast.2" temporary mapping<[0, 0] x 160000 from 0> {hlo = "broadcast.2"} : !tile.buffer<160000xf32>
  %y = tile.var "y" output mapping<[0, 1] x 1000 from 0> : !tile.buffer<2000xf32>
  tile.host_copy infeed %x : !tile.buffer<2000xf32>
  tile.sync
  tile.compute_set "broadcast.2" kind "fill" tiles [0, 0] outs(%big : !tile.buffer<160000xf32>)
  tile.sync
  tile.compute_set "reduce.3" kind "reduce.add" tiles [0, 0]
      ins(%big : !tile.buffer<160000xf32>) outs(%y : !tile.buffer<2000xf32>)
  tile.sync
  tile.host_copy outfeed %y : !tile.buffer<2000xf32>
}

// Tile 0 at point 4: x 4,000 + broadcast.2 640,000 + y 4,000 bytes, plus
// 57,344 reserved + 2 vertex kinds × 512 + 2 vertices × 24.
// ALLOC: allocation of @main.tile on tile-1472 (alignment 8): 1 tile(s) out of memory, worst peak / lower bound 1.0000
// ALLOC-NEXT: tile 0: peak 648000, lower bound 648000, gaps 0, with overheads 706416 of 638976, OUT OF MEMORY by 67440
// ALLOC-NEXT: tile 1: peak 8000, lower bound 8000, gaps 0, with overheads 65344 of 638976

// OTHERS: liveness of @main.tile on tile-1472: 7 program points
// OTHERS: tile 0: max live 648000 at point 4
// OTHERS: check: {{[0-9]+}} points, 0 mismatches
// OTHERS: padding of @main.tile on tile-1472

// TEXT: Memory report of @main.tile on tile-1472
// TEXT:      Maximum tile (including gaps):  706,416 on tile 0
// TEXT-NEXT: Maximum tile (excluding gaps):  706,416 on tile 0
// TEXT:      1 tile(s) out of memory
// TEXT-NEXT:   tile 0: over by 67,440 bytes at point 4 (reduce.3)
// TEXT:      Most loaded tiles:
// TEXT-NEXT:   Tile 0: 706,416 bytes including gaps (110.6%), 706,416 excluding, peak at point 4, OUT OF MEMORY by 67,440

// The blame: the buffers live at the peak, largest first, with the HLO
// instruction, the framework op and the steps that wrote them (equal
// sizes in program order).
// JSON: "out_of_memory":[{"tile":0,"over_by":67440,"including_gaps":706416,"capacity":638976,"peak_point":4,"peak_step":"reduce.3","live_buffers":3,"live_bytes":648000,"live_at_peak":[{"name":"broadcast.2","hlo":"broadcast.2","op_name":"model/big_broadcast","shape":[160000],"dtype":"f32","category":"Temporary","size":640000,"unpadded_size":640000,"expansion":1.0,"extra":0,"live_range":[2,4],"bytes_on_tile":640000,"live_range_on_tile":[2,4],"offset":0,"written_by":["broadcast.2"]}
// JSON-SAME: {"name":"x",{{[^}]*}}"written_by":["infeed x"]}
// JSON-SAME: {"name":"y",{{[^}]*}}"written_by":["reduce.3"]}]}]

// SVG: <svg xmlns="http://www.w3.org/2000/svg"
// SVG: <rect x="0" y="20" width="11" height="11" fill="rgb(220,0,0)"><title>tile 0: 706,416 bytes</title></rect>

// The tile the error names, in full: every buffer live at its peak, where
// it is, how long it lives and what wrote it.
// DETAIL:      Tile 0 in detail:
// DETAIL-NEXT:   Including gaps:                 706,416 (110.6%)
// DETAIL-NEXT:   Excluding gaps:                 706,416
// DETAIL-NEXT:   Allocated peak:                 648,000
// DETAIL-NEXT:   Lower bound:                    648,000
// DETAIL-NEXT:   Always-live:                    62,416
// DETAIL-NEXT:   Not-always-live:                644,000
// DETAIL-NEXT:   OUT OF MEMORY by:               67,440
// DETAIL-NEXT:   Peak:                           point 4 (reduce.3)
// DETAIL-NEXT:   Live at the peak (3 buffers, 648,000 bytes), largest first:
// DETAIL-NEXT:     broadcast.2: 640,000 bytes at 0, Temporary f32 [160000], live [2, 4], written by broadcast.2; HLO broadcast.2 (model/big_broadcast)
// DETAIL-NEXT:     x: 4,000 bytes at 640,000, Parameter f32 [2000], live [0, 6], written by infeed x; HLO x
// DETAIL-NEXT:     y: 4,000 bytes at 644,000, Output f32 [2000], live [4, 6], written by reduce.3

// DETAIL-JSON: "tile_detail":{"tile":0,"including_gaps":706416,{{.*}}"heap_padded":[4000,4000,644000,644000,648000,8000,8000],"heap_unpadded":[4000,4000,644000,644000,648000,8000,8000]}}
