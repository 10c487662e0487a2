// The full memory report of a small program on each preset: the text
// summary (target, graph, memory usage by region, category and dtype, the
// tile histogram, the fullest tiles) and the JSON object it is printed
// from (memory viewer, per-tile memory, buffers, padding, cost).
//
// RUN: tessera-opt %s --split-input-file --tile-memory-report -o /dev/null | FileCheck %s
// RUN: tessera-opt %s --split-input-file --tile-memory-report=format=json -o /dev/null | FileCheck %s --check-prefix=JSON

tile.program @chain target "core-8" tiles 8 {
  %w = tile.var "w" constant mapping<[0, 1] x 512 from 0> : !tile.buffer<8x128xf32>
  %x = tile.var "x" parameter mapping<[0, 1] x 512 from 0> : !tile.buffer<8x128xf32>
  tile.host_copy infeed %x : !tile.buffer<8x128xf32>
  %t = tile.var "t" temporary mapping<[0, 1] x 512 from 0> : !tile.buffer<8x128xf32>
  tile.compute_set "add" kind "elementwise.add" tiles [0, 1]
      ins(%x, %w : !tile.buffer<8x128xf32>, !tile.buffer<8x128xf32>)
      outs(%t : !tile.buffer<8x128xf32>)
  tile.sync
  %u = tile.var "u" temporary mapping<[2, 3] x 512 from 0> : !tile.buffer<8x128xf32>
  tile.exchange "move" %t -> %u copies [0, 2, 2, 512, 0, 512, 0, 512]
      : !tile.buffer<8x128xf32>, !tile.buffer<8x128xf32>
  tile.sync
  %o = tile.var "o" output mapping<[2, 3] x 512 from 0> : !tile.buffer<8x128xf32>
  tile.compute_set "neg" kind "elementwise.negate" tiles [2, 3]
      ins(%u : !tile.buffer<8x128xf32>) outs(%o : !tile.buffer<8x128xf32>)
  tile.sync
  tile.host_copy outfeed %o : !tile.buffer<8x128xf32>
}

// CHECK-LABEL: Memory report of @chain on core-8
// CHECK:      Target:
// CHECK-NEXT:   Number of chips:                1
// CHECK-NEXT:   Number of tiles:                8
// CHECK-NEXT:   Bytes per tile:                 16,777,216
// CHECK-NEXT:   Total memory:                   134,217,728
// CHECK-NEXT:   Clock:                          1.05 GHz
// CHECK:      Graph:
// 2 + 2 vertices; add has 3 operands, neg 2.
// CHECK-NEXT:   Number of vertices:             4
// CHECK-NEXT:   Number of edges:                10
// CHECK-NEXT:   Number of variables:            5
// CHECK-NEXT:   Number of compute sets:         2
// CHECK-NEXT:   Number of exchanges:            1
// CHECK-NEXT:   Number of program points:       8
// Every tile: 1 MiB code + 64 KiB stack (1,114,112). Tiles 0, 1 add
// 4,096 vertex code + 64 state + 320 exchange + w, x, t (one 4,096-byte
// layout tile each): 1,130,880; tiles 2, 3 add the same overheads + u and
// o together at point 5: 1,126,784. 8,971,776 in all.
// CHECK:      Memory Usage:
// CHECK-NEXT:   Total:
// CHECK-NEXT:     Including gaps:               8,971,776 (6.7%)
// CHECK-NEXT:     Excluding gaps:               8,971,776 (6.7%)
// CHECK-NEXT:     Gaps:                         0
// CHECK-NEXT:   By region:
// CHECK-NEXT:     Always-live:                  8,947,200 (99.7%)
// CHECK-NEXT:     Not-always-live:              24,576 (0.3%)
// CHECK-NEXT:   By category (at each tile's peak):
// t and u are variables; x (infed) and o (outfed) host-exchange buffers.
// CHECK-NEXT:     Variables:                    16,384
// CHECK-NEXT:     Constants:                    8,192
// CHECK-NEXT:     Host-exchange buffers:        16,384
// CHECK-NEXT:     Vertex code:                  16,384
// CHECK-NEXT:     Vertex state:                 256
// CHECK-NEXT:     Exchange code:                1,280
// CHECK-NEXT:     Control code:                 8,388,608
// CHECK-NEXT:     Stack:                        524,288
// CHECK-NEXT:   By data type (all buffers, padded):
// CHECK-NEXT:     f32:                          40,960
// CHECK-NEXT:   By buffer category (padded / unpadded):
// CHECK-NEXT:     Constant:                     8,192 / 4,096
// CHECK-NEXT:     Output:                       8,192 / 4,096
// CHECK-NEXT:     Parameter:                    8,192 / 4,096
// CHECK-NEXT:     Temporary:                    16,384 / 8,192
// CHECK-NEXT:   Padding:
// CHECK-NEXT:     Unpadded:                     20,480
// CHECK-NEXT:     Padded:                       40,960
// CHECK-NEXT:     Expansion:                    2.00x
// CHECK-NEXT:   Vertex data (by vertex kind):
// CHECK-NEXT:     elementwise.add:              2 vertices, state 128, code 8,192
// CHECK-NEXT:     elementwise.negate:           2 vertices, state 128, code 8,192
// Every tile holds between 1 and 2 MiB.
// CHECK:      Tile memory histogram (bytes including gaps, 1024 KB buckets):
// CHECK-NEXT:         0 -    1024 KB                                          0
// CHECK-NEXT:      1024 -    2048 KB **************************************** 8
// CHECK-EMPTY:
// CHECK-NEXT:   Maximum tile (including gaps):  1,130,880 on tile 0
// CHECK-NEXT:   Maximum tile (excluding gaps):  1,130,880 on tile 0
// CHECK-NEXT:   Mean used tile:                 1,128,832 over 4 tiles
// CHECK-NEXT:   0 tile(s) out of memory
// CHECK-NEXT:   Liveness self-check: 12 points, 0 mismatches
// CHECK:      Most loaded tiles:
// CHECK-NEXT:   Tile 0: 1,130,880 bytes including gaps (6.7%), 1,130,880 excluding, peak at point 1
// CHECK-NEXT:     always-live 1,126,784, not-always-live 4,096, gaps 0
// CHECK-NEXT:     variables 4,096 constants 4,096 host_exchange_buffers 4,096 vertex_code 4,096 vertex_state 64 exchange_code 320 control_code 1,048,576 stack 65,536

// Chip peak: w, x, t and u (8,192 padded each) at the exchange.
// JSON:      {"program":"chain","entry":"","target":{"name":"core-8","chips":1,"tiles":8,"bytes_per_tile":16777216,"clock_hz":1050000000,"layout_tile":[8,128],"alignment_bytes":64}
// JSON-SAME: "memory_viewer":{"peak_point":3,"peak_step":"move","peak_bytes":32768,"peak_unpadded_bytes":16384,"heap":[{"point":0,"step":"infeed x","kind":"host_copy","depth":0,"padded":16384,"unpadded":8192}
// JSON-SAME: "buffers_at_peak_by_program_order":[{"name":"w",{{[^}]*}}},{"name":"x",{{[^}]*}}},{"name":"t",{{[^}]*}}},{"name":"u",
// JSON-SAME: "cost":{"total_cycles":{{[0-9]+}},"seconds":{{[0-9.e-]+}},"unknown_trip_counts":0,"ops":[{"op":"x","steps":1,

// -----

// tile-1472: 1,472 tiles of 624 KiB; the histogram's buckets are 64 KiB.
tile.program @wide target "tile-1472" tiles 1472 {
  %x = tile.var "x" parameter mapping<[0, 1471] x 2 from 0> : !tile.buffer<2944xf32>
  %y = tile.var "y" output mapping<[0, 1471] x 2 from 0> : !tile.buffer<2944xf32>
  %big = tile.var "big" temporary mapping<[0, 9] x 30000 from 0> : !tile.buffer<300000xf32>
  tile.host_copy infeed %x : !tile.buffer<2944xf32>
  tile.compute_set "fill" kind "fill" tiles [0, 9] outs(%big : !tile.buffer<300000xf32>)
  tile.compute_set "neg" kind "elementwise.negate" tiles [0, 1471]
      ins(%x : !tile.buffer<2944xf32>) outs(%y : !tile.buffer<2944xf32>)
  tile.host_copy outfeed %y : !tile.buffer<2944xf32>
}

// CHECK-LABEL: Memory report of @wide on tile-1472
// CHECK:      Tile memory histogram (bytes including gaps, 64 KB buckets):
// CHECK-NEXT:         0 -      64 KB **************************************** 1462
// CHECK-NEXT:        64 -     128 KB                                          0
// CHECK-NEXT:       128 -     192 KB *                                        10
// CHECK:      0 tile(s) out of memory
// CHECK:      Most loaded tiles:
// Tile 0: 57,344 reserved + 2 kinds × 512 + 2 × 24 + x (2 f32 in a
// [1, 4] layout tile: 16 bytes) + big (30,000 f32).
// CHECK-NEXT:   Tile 0: 178,432 bytes including gaps (27.9%), 178,432 excluding, peak at point 1
// CHECK-NEXT:     always-live 58,432, not-always-live 120,000, gaps 0
