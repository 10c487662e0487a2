// Data movement: reshape is a new buffer on the same mapping (aliases, no
// step); transpose, broadcast, concatenate and pad get a linear result and
// exchange copies computed from the index mapping; reverse and slice keep
// their source's layout where they can; a scalar broadcast and pad's
// padding value are a replicated scalar and a "fill" compute set.
//
// RUN: tessera-opt %s --tgraph-check-compat=target=tile-1472 --tgraph-to-tile=print-stats | FileCheck %s --check-prefixes=CHECK,T1472
// RUN: tessera-opt %s --tgraph-check-compat=target=core-8 --tgraph-to-tile=print-stats | FileCheck %s --check-prefixes=CHECK,C8

func.func @main(%x: tensor<4x8xf32> loc("x"), %v: tensor<8xf32> loc("v"), %s: tensor<f32> loc("s"))
    -> (tensor<32xf32>, tensor<8x4xf32>, tensor<4x8xf32>, tensor<12x8xf32>, tensor<6x10xf32>, tensor<4x8xf32>, tensor<2x8xf32>) {
  %r = tgraph.reshape %x : (tensor<4x8xf32>) -> tensor<32xf32> loc("reshape.1")
  %t = tgraph.transpose %x, permutation = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32> loc("transpose.2")
  %b = tgraph.broadcast_in_dim %v, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32> loc("broadcast.3")
  %c = tgraph.concatenate(%x, %b, %x) dim = 0 : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<12x8xf32> loc("concatenate.4")
  %p = tgraph.pad %x, %s, low = [1, 1], high = [1, 1], interior = [0, 0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<6x10xf32> loc("pad.5")
  %rv = tgraph.reverse %x, dims = [0] : tensor<4x8xf32> loc("reverse.6")
  %sl = tgraph.slice %x, start = [2, 0], limit = [4, 8], strides = [1, 1] : (tensor<4x8xf32>) -> tensor<2x8xf32> loc("slice.7")
  return %r, %t, %b, %c, %p, %rv, %sl : tensor<32xf32>, tensor<8x4xf32>, tensor<4x8xf32>, tensor<12x8xf32>, tensor<6x10xf32>, tensor<4x8xf32>, tensor<2x8xf32>
}

// Nothing is left on the host.
// CHECK: tgraph-to-tile on
// CHECK-SAME: host_compute 0
// CHECK: %[[X:.*]] = tile.var "x" parameter
// T1472-SAME: mapping<[[XMAP:\[0, 15\] x 2 from 0]]>
// C8-SAME: mapping<[[XMAP:\[0, 1\] x 16 from 0]]>

// reshape: same mapping, marked as an alias, no step of its own; being
// returned, it is copied into an output buffer at the end.
// CHECK: %[[R:.*]] = tile.var "reshape.1" temporary mapping<{{.*}}> aliases %[[X]] : !tile.buffer<{{[^>]*}}> {hlo = "reshape.1", result_leaf = 0 : i64, result_of = {{[0-9]+}} : i64, why = "in place{{[^"]*}}"} : !tile.buffer<32xf32>
// CHECK-NOT: tile.compute_set "reshape.1"
// CHECK: %[[T:.*]] = tile.var "transpose.2" output
// CHECK-NEXT: tile.sync
// CHECK-NEXT: tile.exchange "transpose.2" %[[X]] -> %[[T]]
// T1472-SAME: copies [0, 0, 1, 1, 0, 0, 0, 0,

// broadcast of a vector: copies from v's tiles, row by row.
// CHECK: %[[B:.*]] = tile.var "broadcast.3" output
// CHECK-NEXT: tile.exchange "broadcast.3" %{{.*}} -> %[[B]]

// concatenate: one exchange per input, x twice; broadcast.3 was just
// written, so a sync comes before it is read.
// CHECK: %[[C:.*]] = tile.var "concatenate.4" output
// CHECK-NEXT: tile.exchange "concatenate.4" %[[X]] -> %[[C]]
// T1472-SAME: copies [0, 18, 16, 2, 0, 2, 0, 2]
// CHECK-NEXT: tile.sync
// CHECK-NEXT: tile.exchange "concatenate.4" %[[B]] -> %[[C]]
// CHECK-NEXT: tile.exchange "concatenate.4" %[[X]] -> %[[C]]
// T1472-SAME: copies [0, 50, 16, 2, 0, 2, 64, 2]

// pad: fill with the padding value first, then copy the operand in after a
// sync (the fill's vertices write the same buffer).
// CHECK: %[[P:.*]] = tile.var "pad.5" output
// CHECK: tile.exchange "pad.5.bcast"
// CHECK: tile.compute_set "pad.5" kind "fill" {{.*}} outs(%[[P]] : {{.*}}) {scalar_operands = array<i64: 0>}
// CHECK-NEXT: tile.sync
// CHECK-NEXT: tile.exchange "pad.5" %[[X]] -> %[[P]]

// reverse along dim 0 and a row slice stay on x's tiles.
// T1472: tile.var "reverse.6" output mapping<[12, 15] x 2 from 0, [8, 11] x 2 from 8, [4, 7] x 2 from 16, [0, 3] x 2 from 24> {{.*}}why = "follows 'x'
// T1472-NEXT: tile.exchange "reverse.6" %[[X]] -> %{{.*}} copies [12, 12, 4, 2, 24, 2, 0, 2, 8, 8, 4, 2, 16, 2, 8, 2, 4, 4, 4, 2, 8, 2, 16, 2, 0, 0, 4, 2, 0, 2, 24, 2]
// T1472: tile.var "slice.7" output mapping<[8, 15] x 2 from 0> {{.*}}why = "follows 'x'
// T1472-NEXT: tile.exchange "slice.7" %[[X]] -> %{{.*}} copies [8, 8, 8, 2, 16, 2, 0, 2]
// C8: tile.var "slice.7" output mapping<[1, 1] x 16 from 0> {{.*}}why = "follows 'x'
// C8-NEXT: tile.exchange "slice.7" %[[X]] -> %{{.*}} copies [1, 1, 1, 16, 16, 0, 0, 0]
// CHECK: %[[RO:.*]] = tile.var "reshape.1.out" output
// CHECK-NEXT: tile.exchange "reshape.1.out" %[[R]] -> %[[RO]]
// CHECK-NEXT: tile.sync
// CHECK-NEXT: tile.host_copy outfeed %[[RO]]
// CHECK-NEXT: tile.host_copy outfeed %[[T]]
