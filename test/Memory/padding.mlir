// Padding of buffers to the layout tile and of matmul blocks to the matrix
// unit, and per-op FLOPs, padded FLOPs, bytes moved and cycles, on both
// presets. The worked example of docs/memory.md: a [3, 16] f32 feature ×
// batch operand on core-8's [8, 128] layout tile is stored as [8, 128]:
// 48 of 1,024 slots useful (4.7%), 192 → 4,096 bytes, 21.33x.
//
// RUN: tessera-opt %s --tile-padding -o /dev/null | FileCheck %s
// RUN: tessera-opt %s --tile-padding=print=json -o /dev/null | FileCheck %s --check-prefix=JSON

// rhs is stored in the view that pads least: its 16 as the layout tile's
// rows and its 128 as the columns (docs/targets.md), not [128, 16 → 128].
// CHECK-LABEL: padding of @example on core-8 (layout tile [8, 128]): 9920 -> 16384 bytes, expansion 1.65x
// CHECK-NEXT:  buffer lhs [3, 128] f32: 1536 -> 4096 bytes, expansion 2.67x, extra 2560
// CHECK-NEXT:  buffer rhs [128, 16] f32: 8192 -> 8192 bytes, expansion 1.00x, extra 0
// CHECK-NEXT:  buffer out [3, 16] f32: 192 -> 4096 bytes, expansion 21.33x, extra 3904
// The same fraction for the matrix unit: feature 3 → 8, batch 16 → 128.
// CHECK-NEXT:  matmul dot.1 block [1, 3, 16, 128]: m padded 3→8, n padded 16→128, k exact fit; 6144/131072 MACs useful (4.7%)
// Host copies: 5,000 cycles latency + bytes / (16 GB/s / 1.05 GHz), rounded
// up. One pass of the 8x128x128 unit: 1 cycle; 2 FLOPs a MAC.
// CHECK-NEXT:  op lhs: flops 0, padded flops 0, bytes moved 1536, cycles 5101
// CHECK-NEXT:  op rhs: flops 0, padded flops 0, bytes moved 8192, cycles 5538
// CHECK-NEXT:  op dot.1: flops 12288, padded flops 262144, bytes moved 9920, cycles 1
// CHECK-NEXT:  op out: flops 0, padded flops 0, bytes moved 192, cycles 5013
tile.program @example target "core-8" tiles 8 {
  %lhs = tile.var "lhs" parameter mapping<[0, 0] x 384 from 0> : !tile.buffer<3x128xf32>
  %rhs = tile.var "rhs" parameter mapping<[0, 0] x 2048 from 0> : !tile.buffer<128x16xf32>
  %out = tile.var "out" output mapping<[0, 0] x 48 from 0> : !tile.buffer<3x16xf32>
  tile.host_copy infeed %lhs : !tile.buffer<3x128xf32>
  tile.host_copy infeed %rhs : !tile.buffer<128x16xf32>
  tile.sync
  tile.compute_set "dot.1" kind "matmul-partial" tiles [0, 0]
      ins(%lhs, %rhs : !tile.buffer<3x128xf32>, !tile.buffer<128x16xf32>)
      outs(%out : !tile.buffer<3x16xf32>) {block = array<i64: 1, 3, 16, 128>}
  tile.sync
  tile.host_copy outfeed %out : !tile.buffer<3x16xf32>
}

// tile-1472: the [1, 4] layout tile pads nothing here; the 4x4x4 unit
// pads m 3 → 4 (75%, 128 cycles). A 5-element vector op on 2-wide f32
// vectors takes 3 cycles and computes 6 lanes.
// CHECK-LABEL: padding of @example1472 on tile-1472 (layout tile [1, 4]): 9940 -> 9952 bytes, expansion 1.00x
// CHECK-NEXT:  buffer lhs [3, 128] f32: 1536 -> 1536 bytes, expansion 1.00x, extra 0
// CHECK-NEXT:  buffer rhs [128, 16] f32: 8192 -> 8192 bytes, expansion 1.00x, extra 0
// CHECK-NEXT:  buffer out [3, 16] f32: 192 -> 192 bytes, expansion 1.00x, extra 0
// [5] is [1, 5] → [1, 8]: 32 bytes for 20.
// CHECK-NEXT:  buffer v [5] f32: 20 -> 32 bytes, expansion 1.60x, extra 12
// CHECK-NEXT:  matmul dot.1 block [1, 3, 16, 128]: m padded 3→4, n exact fit, k exact fit; 6144/8192 MACs useful (75.0%)
// CHECK:       op dot.1: flops 12288, padded flops 16384, bytes moved 9920, cycles 128
// CHECK-NEXT:  op v: flops 5, padded flops 6, bytes moved 20, cycles 3
tile.program @example1472 target "tile-1472" tiles 1472 {
  %lhs = tile.var "lhs" parameter mapping<[0, 0] x 384 from 0> : !tile.buffer<3x128xf32>
  %rhs = tile.var "rhs" parameter mapping<[0, 0] x 2048 from 0> : !tile.buffer<128x16xf32>
  %out = tile.var "out" output mapping<[0, 0] x 48 from 0> : !tile.buffer<3x16xf32>
  %v = tile.var "v" temporary mapping<[0, 0] x 5 from 0> : !tile.buffer<5xf32>
  tile.compute_set "dot.1" kind "matmul-partial" tiles [0, 0]
      ins(%lhs, %rhs : !tile.buffer<3x128xf32>, !tile.buffer<128x16xf32>)
      outs(%out : !tile.buffer<3x16xf32>) {block = array<i64: 1, 3, 16, 128>}
  tile.compute_set "v" kind "elementwise.exponential" tiles [0, 0]
      outs(%v : !tile.buffer<5xf32>)
}

// JSON: "buffers":[{"name":"lhs","shape":[3,128],"dtype":"f32","unpadded_size":1536,"size":4096,"expansion":2.67,"extra":2560}
// JSON-SAME: {"name":"out","shape":[3,16],"dtype":"f32","unpadded_size":192,"size":4096,"expansion":21.33,"extra":3904}
// JSON-SAME: "matmuls":[{"point":3,"step":"dot.1","op":"dot.1","block":{"batch":1,"m":3,"n":16,"k":128},"fit":{"m":"padded 3→8","n":"padded 16→128","k":"exact fit"},"useful_macs":6144,"padded_macs":131072,"utilization":0.0469}]

// Exchanges with the same copies between the same layouts are priced once
// (the cost model remembers them), but not across element types: the f16
// copies move half the bytes of the f32 ones.
// CHECK-LABEL: padding of @repeated on tile-1472
// CHECK:       op x32: flops 0, padded flops 0, bytes moved 24, cycles [[C32:[0-9]+]]
// CHECK-NEXT:  op x16: flops 0, padded flops 0, bytes moved 12, cycles
// CHECK-NEXT:  op y32: flops 0, padded flops 0, bytes moved 24, cycles [[C32]]
tile.program @repeated target "tile-1472" tiles 1472 {
  %a = tile.var "a" parameter mapping<[0, 3] x 2 from 0> : !tile.buffer<8xf32>
  %b = tile.var "b" temporary mapping<[0, 3] x 2 from 0> : !tile.buffer<8xf32>
  %c = tile.var "c" parameter mapping<[0, 3] x 2 from 0> : !tile.buffer<8xf16>
  %d = tile.var "d" temporary mapping<[0, 3] x 2 from 0> : !tile.buffer<8xf16>
  tile.exchange "x32" %a -> %b copies [0, 1, 3, 2, 0, 2, 2, 2] : !tile.buffer<8xf32>, !tile.buffer<8xf32>
  tile.exchange "x16" %c -> %d copies [0, 1, 3, 2, 0, 2, 2, 2] : !tile.buffer<8xf16>, !tile.buffer<8xf16>
  tile.sync
  tile.exchange "y32" %a -> %b copies [0, 1, 3, 2, 0, 2, 2, 2] : !tile.buffer<8xf32>, !tile.buffer<8xf32>
}
