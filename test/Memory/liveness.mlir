// Live ranges in program points, per-tile peaks and the self-check, on
// both presets. Points: every compute set, exchange, sync and host copy in
// program order; a tile.repeat takes one point and its body the next ones.
//
// RUN: tessera-opt %s --tile-liveness -o /dev/null | FileCheck %s
// RUN: tessera-opt %s --tile-liveness=print=json -o /dev/null | FileCheck %s --check-prefix=JSON
// RUN: tessera-opt %s --tile-print-allocation=offsets=true -o /dev/null | FileCheck %s --check-prefix=TILES

// core-8: the [8, 128] f32 buffers are one layout tile (4,096 bytes)
// whole, so each of the two tiles holding half of one stores a full
// layout tile: 2,048 bytes of data, 4,096 padded.
// CHECK-LABEL: liveness of @chain on core-8: 8 program points
tile.program @chain target "core-8" tiles 8 {
  // Constants and parameters are live everywhere.
  // CHECK-NEXT: w Constant [0, 7] always-live tiles 2 bytes 4096 padded 8192
  %w = tile.var "w" constant mapping<[0, 1] x 512 from 0> : !tile.buffer<8x128xf32>
  // CHECK-NEXT: x Parameter [0, 7] always-live tiles 2 bytes 4096 padded 8192
  %x = tile.var "x" parameter mapping<[0, 1] x 512 from 0> : !tile.buffer<8x128xf32>
  tile.host_copy infeed %x : !tile.buffer<8x128xf32>                       // 0
  // Written at 1, read through its alias r at 3.
  // CHECK-NEXT: t Temporary [1, 3] tiles 2 bytes 4096 padded 8192
  %t = tile.var "t" temporary mapping<[0, 1] x 512 from 0> : !tile.buffer<8x128xf32>
  tile.compute_set "add" kind "elementwise.add" tiles [0, 1]               // 1
      ins(%x, %w : !tile.buffer<8x128xf32>, !tile.buffer<8x128xf32>)
      outs(%t : !tile.buffer<8x128xf32>)
  tile.sync                                                                // 2
  // A reshape shares t's storage: no bytes of its own.
  // CHECK-NEXT: r Temporary [3, 3] tiles 0 bytes 0 padded 0
  %r = tile.var "r" temporary mapping<[0, 1] x 512 from 0> aliases %t : !tile.buffer<8x128xf32> : !tile.buffer<1024xf32>
  // Rank 1: 512 elements fold into one [8, 128] layout tile (half used) on
  // each of tiles 2 and 3.
  // CHECK-NEXT: u Temporary [3, 5] tiles 2 bytes 4096 padded 8192
  %u = tile.var "u" temporary mapping<[2, 3] x 512 from 0> : !tile.buffer<1024xf32>
  tile.exchange "move" %r -> %u copies [0, 2, 2, 512, 0, 512, 0, 512]      // 3
      : !tile.buffer<1024xf32>, !tile.buffer<1024xf32>
  tile.sync                                                                // 4
  // An output stays until the end of the program.
  // CHECK-NEXT: o Output [5, 7] tiles 2 bytes 4096 padded 8192
  %o = tile.var "o" output mapping<[2, 3] x 512 from 0> : !tile.buffer<1024xf32>
  tile.compute_set "neg" kind "elementwise.negate" tiles [2, 3]            // 5
      ins(%u : !tile.buffer<1024xf32>) outs(%o : !tile.buffer<1024xf32>)
  tile.sync                                                                // 6
  tile.host_copy outfeed %o : !tile.buffer<1024xf32>                       // 7
  // Never referenced: takes no memory (a scalar would take a whole
  // [8, 128] layout tile).
  // CHECK-NEXT: unused Temporary never live tiles 1 bytes 4 padded 4096
  %unused = tile.var "unused" temporary mapping<[5, 5] x 1 from 0> : !tile.buffer<f32>
  // Tile 0: w + x always, t at 1..3. Overheads: 1 MiB code + 64 KiB stack
  // + 4 KiB code of one vertex kind + 64 B state of one vertex + 320 B of
  // one exchange = 1,118,592.
  // CHECK-NEXT: tile 0: max live 12288 at point 1, always-live 1126784 (overheads 1118592)
  // CHECK-NEXT: tile 1: max live 12288 at point 1, always-live 1126784 (overheads 1118592)
  // Tiles 2, 3: u (16,384 each) meets o at point 5.
  // CHECK-NEXT: tile 2: max live 8192 at point 5, always-live 1118592 (overheads 1118592)
  // CHECK-NEXT: tile 3: max live 8192 at point 5, always-live 1118592 (overheads 1118592)
  // CHECK-NEXT: check: 12 points, 0 mismatches
}

// tile-1472 (layout tile [1, 4], alignment 8): a loop. acc crosses the
// loop, so it is live over all of it; tmp lives inside one trip; the
// condition c is written before the loop and in its body.
// CHECK-LABEL: liveness of @loop on tile-1472: 8 program points
tile.program @loop target "tile-1472" tiles 1472 {
  // CHECK-NEXT: c Temporary [1, 5] tiles 1 bytes 1 padded 8
  %c = tile.var "c" temporary mapping<[0, 0] x 1 from 0> : !tile.buffer<i1>
  // CHECK-NEXT: acc Temporary [0, 6] tiles 4 bytes 64 padded 64
  %acc = tile.var "acc" temporary mapping<[0, 3] x 4 from 0> : !tile.buffer<16xf32>
  // CHECK-NEXT: tmp Temporary [3, 4] tiles 4 bytes 64 padded 64
  %tmp = tile.var "tmp" temporary mapping<[0, 3] x 4 from 0> : !tile.buffer<16xf32>
  // Read in the body before it is written there (loop-carried, and read
  // before any write: live from the start).
  // CHECK-NEXT: carry Temporary [0, 5] tiles 4 bytes 64 padded 64
  %carry = tile.var "carry" temporary mapping<[0, 3] x 4 from 0> : !tile.buffer<16xf32>
  // CHECK-NEXT: out Output [6, 7] tiles 4 bytes 64 padded 64
  %out = tile.var "out" output mapping<[0, 3] x 4 from 0> : !tile.buffer<16xf32>
  tile.compute_set "init" kind "fill" tiles [0, 3] outs(%acc : !tile.buffer<16xf32>)  // 0
  tile.compute_set "cond0" kind "fill" tiles [0, 0] outs(%c : !tile.buffer<i1>)       // 1
  tile.repeat "loop" cond %c : !tile.buffer<i1> trip_count 10 {                        // 2
    tile.compute_set "step" kind "elementwise.add" tiles [0, 3]                        // 3
        ins(%acc, %carry : !tile.buffer<16xf32>, !tile.buffer<16xf32>) outs(%tmp : !tile.buffer<16xf32>)
    tile.compute_set "back" kind "copy" tiles [0, 3]                                   // 4
        ins(%tmp : !tile.buffer<16xf32>) outs(%acc, %carry : !tile.buffer<16xf32>, !tile.buffer<16xf32>)
    tile.compute_set "cond" kind "elementwise.compare" tiles [0, 0]                    // 5
        ins(%acc : !tile.buffer<16xf32>) outs(%c : !tile.buffer<i1>)
  }
  tile.compute_set "fin" kind "copy" tiles [0, 3]                                      // 6
      ins(%acc : !tile.buffer<16xf32>) outs(%out : !tile.buffer<16xf32>)
  tile.host_copy outfeed %out : !tile.buffer<16xf32>                                   // 7
  // Tile 0 at point 3: c 8 + acc, tmp, carry 16 each. Overheads: 48 KiB
  // code + 8 KiB stack + 4 vertex kinds × 512 + 6 vertices × 24.
  // CHECK-NEXT: tile 0: max live 56 at point 3, always-live 59536 (overheads 59536)
  // CHECK-NEXT: tile 1: max live 48 at point 3, always-live 58976 (overheads 58976)
}

// Ranges are per tile: a buffer is live on a tile from the first step
// writing its elements there to the last step touching them there. b's
// halves are written at different points; a is read only by the tiles that
// send it. The buffer's own range is the union.
// CHECK-LABEL: liveness of @pertile on tile-1472: 5 program points
// CHECK-NEXT: a Temporary [0, 1] tiles 4
// CHECK-NEXT: b Temporary [1, 3] tiles 4
// CHECK-NEXT: c Output [3, 4] tiles 4
// TILES-LABEL: allocation of @pertile on tile-1472
// TILES:      tile 0: peak 32, lower bound 32
// TILES-NEXT:   a at {{[0-9]+}} size 16 live [0, 1]
// TILES-NEXT:   b at {{[0-9]+}} size 16 live [1, 3]
// TILES-NEXT:   c at {{[0-9]+}} size 16 live [3, 4]
// TILES:      tile 2: peak 32, lower bound 32
// TILES-NEXT:   a at {{[0-9]+}} size 16 live [0, 0]
// TILES-NEXT:   b at {{[0-9]+}} size 16 live [2, 3]
// TILES-NEXT:   c at {{[0-9]+}} size 16 live [3, 4]
tile.program @pertile target "tile-1472" tiles 1472 {
  %a = tile.var "a" temporary mapping<[0, 3] x 4 from 0> : !tile.buffer<16xf32>
  %b = tile.var "b" temporary mapping<[0, 3] x 4 from 0> : !tile.buffer<16xf32>
  %c = tile.var "c" output mapping<[0, 3] x 4 from 0> : !tile.buffer<16xf32>
  tile.compute_set "fill" kind "fill" tiles [0, 3] outs(%a : !tile.buffer<16xf32>)  // 0
  tile.exchange "half" %a -> %b copies [0, 0, 2, 4, 0, 4, 0, 4]                      // 1
      : !tile.buffer<16xf32>, !tile.buffer<16xf32>
  tile.compute_set "rest" kind "fill" tiles [2, 3] outs(%b : !tile.buffer<16xf32>)  // 2
  tile.compute_set "neg" kind "elementwise.negate" tiles [0, 3]                      // 3
      ins(%b : !tile.buffer<16xf32>) outs(%c : !tile.buffer<16xf32>)
  tile.host_copy outfeed %c : !tile.buffer<16xf32>                                   // 4
}

// The JSON has the same ranges as [first, last] (null when never live).
// JSON: {"program":"chain","target":"core-8","program_points":8,"buffers":[{"name":"w","category":"Constant","live_range":[0,7],"always_live":true,"tiles":2,"bytes":4096,"padded_bytes":8192}
// JSON-SAME: {"name":"unused","category":"Temporary","live_range":null
// JSON-SAME: "check":{"points_checked":12,"mismatches":0,"first_mismatch":""}}
// JSON: {"program":"loop","target":"tile-1472"
