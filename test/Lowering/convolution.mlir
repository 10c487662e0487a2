// convolution: output blocks on a grid of tiles (k x batch x rows x columns
// x features, sized to the matrix unit), each tile receiving by exchange the
// input window its block reads -- halo rows included, padding left out --
// and its weight block, and running one "conv-partial" vertex. Identical
// blocks (an input window shared by feature blocks, a weight block shared by
// pixel blocks) are exchanged once from the source and then replicated
// inside the blocks buffer ("NAME.in.replicate", "NAME.weights.replicate").
// A split input-feature contraction is gathered on the owning tiles and
// summed by "reduce.add", as for dot.
//
// core-8 (8 tiles, 8x128x128 unit): each conv is cut into 8 row blocks; the
// 512-feature conv splits its contraction 4 ways. tile-1472 (4x4x4 unit):
// small blocks over many tiles with contraction splits; the depthwise conv
// fetches only the 4 input features of its block's 4 groups.
//
// RUN: tessera-opt %s --tgraph-check-compat=target=core-8 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,C8
// RUN: tessera-opt %s --tgraph-check-compat=target=tile-1472 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,T1472

func.func @main(%x: tensor<1x16x16x8xf32> loc("x"), %w: tensor<3x3x8x16xf32> loc("w"),
                %dx: tensor<1x16x16x32xf32> loc("dx"), %dw: tensor<3x3x1x32xf32> loc("dw"),
                %kx: tensor<1x4x4x512xf32> loc("kx"), %kw: tensor<3x3x512x128xf32> loc("kw"),
                %px: tensor<1x8x8x64xf32> loc("px"), %pw: tensor<32x1x1x64xf32> loc("pw"))
    -> (tensor<1x16x16x16xf32>, tensor<1x8x8x16xf32>, tensor<1x16x16x32xf32>, tensor<1x4x4x128xf32>, tensor<1x8x8x32xf32>) {
  %same = tgraph.convolution %x, %w, dim_labels = "b01f_01io->b01f" {window_strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x16x16x8xf32>, tensor<3x3x8x16xf32>) -> tensor<1x16x16x16xf32> loc("same")
  %s2 = tgraph.convolution %x, %w, dim_labels = "b01f_01io->b01f" {window_strides = array<i64: 2, 2>, padding = array<i64: 0, 1, 0, 1>} : (tensor<1x16x16x8xf32>, tensor<3x3x8x16xf32>) -> tensor<1x8x8x16xf32> loc("stride2")
  %dep = tgraph.convolution %dx, %dw, dim_labels = "b01f_01io->b01f" {feature_group_count = 32 : i64, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x16x16x32xf32>, tensor<3x3x1x32xf32>) -> tensor<1x16x16x32xf32> loc("depthwise")
  %ks = tgraph.convolution %kx, %kw, dim_labels = "b01f_01io->b01f" {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x4x4x512xf32>, tensor<3x3x512x128xf32>) -> tensor<1x4x4x128xf32> loc("cin_split")
  %pt = tgraph.convolution %px, %pw, dim_labels = "b01f_o01i->b01f" : (tensor<1x8x8x64xf32>, tensor<32x1x1x64xf32>) -> tensor<1x8x8x32xf32> loc("pointwise")
  return %same, %s2, %dep, %ks, %pt : tensor<1x16x16x16xf32>, tensor<1x8x8x16xf32>, tensor<1x16x16x32xf32>, tensor<1x4x4x128xf32>, tensor<1x8x8x32xf32>
}

// CHECK: tile.program @main.tile

// 3x3 stride-1 SAME. core-8: 2 output rows per tile, so 4 input rows (2 of
// them halo, 3 at the padded edges) x 16 x 8 features.
// C8: %[[SIN:.*]] = tile.var "same.in" temporary mapping<[0, 0] x 384 from 0, [1, 6] x 512 from 384, [7, 7] x 384 from 3456> {hlo = "same", why = "convolution input windows (halo rows included), one per tile of the 1x1x8x1x1 (k x batch x rows x columns x features) grid"} : !tile.buffer<3840xf32>
// C8: %[[SW:.*]] = tile.var "same.weights" temporary mapping<[0, 7] x 1152 from 0>
// C8: %[[S:.*]] = tile.var "same" output mapping<[0, 7] x 512 from 0> {hlo = "same", result_leaf = 0 : i64, result_of = {{[0-9]+}} : i64, why = "convolution result in 1x2x16x16 (batch x rows x columns x features) blocks on the 1x1x8x1x1 grid (matrix unit 8x128x128)"}
// C8: tile.exchange "same.in" %{{.*}} -> %[[SIN]]
// C8: tile.exchange "same.weights" %{{.*}} -> %[[SW]]
// The weight block is fetched once, then copied from tile 0 to the others.
// C8: tile.exchange "same.weights.replicate" %[[SW]] -> %[[SW]] copies [0, 1, 1, 1152, 0, 0, 1152, 0, 0, 2, 1, 1152, 0, 0, 2304, 0,
// C8: tile.compute_set "same" kind "conv-partial" tiles [0, 7] ins(%[[SIN]], %[[SW]] : {{.*}}) outs(%[[S]] : {{.*}}) {block = array<i64: 1, 2, 16, 16, 8>, dim_labels = "b01f_01io->b01f", flops = 589824 : i64, grid = array<i64: 1, 1, 8, 1, 1>, halo = array<i64: 2, 0>, input_boxes = array<i64: {{[0-9, ]+}}>, input_shape = array<i64: {{[0-9, ]+}}>, kernel_shape = array<i64: {{[0-9, ]+}}>, lhs_dilation = array<i64: 1, 1>, output_shape = array<i64: {{[0-9, ]+}}>, padding = array<i64: 1, 1, 1, 1>, rhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 1, 1>}
// tile-1472: 2x2-pixel, 4-feature blocks, input features split in 2; a
// window is 4x4 pixels (3 rows or columns at the edges) x 4 features.
// T1472: %[[SIN:.*]] = tile.var "same.in" temporary mapping<[0, 3] x 36 from 0, [4, 27] x 48 from 144, [28, 31] x 36 from 1296, [32, 35] x 48 from 1440, [36, 59] x 64 from 1632, {{.*}}why = "convolution input windows (halo rows included), one per tile of the 2x1x8x8x4 (k x batch x rows x columns x features) grid"}
// T1472: %[[SW:.*]] = tile.var "same.weights" temporary mapping<[0, 511] x 144 from 0>
// T1472: %[[S:.*]] = tile.var "same" output {{.*}}why = "convolution result in 1x2x2x4 (batch x rows x columns x features) blocks on the 2x1x8x8x4 grid (matrix unit 4x4x4)"}
// T1472: tile.exchange "same.in" %{{.*}} -> %[[SIN]]
// T1472: tile.exchange "same.weights" %{{.*}} -> %[[SW]]
// T1472: tile.exchange "same.in.replicate" %[[SIN]] -> %[[SIN]]
// T1472: tile.exchange "same.weights.replicate" %[[SW]] -> %[[SW]]
// T1472: %[[SP:.*]] = tile.var "same.partials" partials mapping<[0, 511] x 16 from 0>
// T1472: %[[SG:.*]] = tile.var "same.gathered" partials mapping<[0, 255] x 32 from 0>
// T1472: tile.compute_set "same.partial" kind "conv-partial" tiles [0, 511] ins(%[[SIN]], %[[SW]] : {{.*}}) outs(%[[SP]] : {{.*}}) {block = array<i64: 1, 2, 2, 4, 4>, {{.*}}grid = array<i64: 2, 1, 8, 8, 4>, halo = array<i64: 2, 2>,
// T1472: tile.exchange "same.gather" %[[SP]] -> %[[SG]]
// T1472: tile.compute_set "same" kind "reduce.add" tiles [0, 255] ins(%[[SG]] : {{.*}}) outs(%[[S]] : {{.*}}) {partials_per_output = 2 : i64}

// Stride 2, padding (0, 1): one output row reads 3 input rows, one shared
// with the next block; the last block's third row is padding.
// C8: tile.var "stride2.in" temporary mapping<[0, 6] x 384 from 0, [7, 7] x 256 from 2688>
// C8: tile.compute_set "stride2" kind "conv-partial" tiles [0, 7] {{.*}}grid = array<i64: 1, 1, 8, 1, 1>, halo = array<i64: 1, 0>, {{.*}}padding = array<i64: 0, 1, 0, 1>, {{.*}}window_strides = array<i64: 2, 2>}
// T1472: tile.compute_set "stride2.partial" kind "conv-partial" {{.*}}halo = array<i64: 1, 1>, {{.*}}window_strides = array<i64: 2, 2>}
// T1472: tile.compute_set "stride2" kind "reduce.add"

// Depthwise (32 groups of 1 feature). core-8: all 32 features per row block.
// tile-1472: 8 feature blocks of 4 groups, each fetching its own 4 input
// features only (windows of 36..64 elements = 3..4 x 3..4 pixels x 4), so
// no window is shared and there is no "depthwise.in.replicate".
// C8: tile.var "depthwise.in" temporary mapping<[0, 0] x 1536 from 0, [1, 6] x 2048 from 1536, [7, 7] x 1536 from 13824>
// T1472: tile.var "depthwise.in" temporary mapping<[0, 7] x 36 from 0, [8, 55] x 48 from 288, [56, 63] x 36 from 2592,
// CHECK-NOT: "depthwise.in.replicate"
// CHECK: tile.exchange "depthwise.weights.replicate"
// CHECK-NOT: "depthwise.in.replicate"
// C8: tile.compute_set "depthwise" kind "conv-partial" tiles [0, 7] {{.*}}feature_group_count = 32 : i64, {{.*}}grid = array<i64: 1, 1, 8, 1, 1>, halo = array<i64: 2, 0>,
// T1472: tile.compute_set "depthwise" kind "conv-partial" tiles [0, 511] {{.*}}block = array<i64: 1, 2, 2, 4, 1>, {{.*}}feature_group_count = 32 : i64, {{.*}}grid = array<i64: 1, 1, 8, 8, 8>, halo = array<i64: 2, 2>,

// 512 input features: the contraction is split (core-8: 4 slices of 128 on
// a 4x1x1x2x1 grid; tile-1472: 32 slices of 16), the partial sums gathered
// on the owners and summed.
// C8: %[[KP:.*]] = tile.var "cin_split.partials" partials mapping<[0, 7] x 1024 from 0>
// C8: %[[KG:.*]] = tile.var "cin_split.gathered" partials mapping<[0, 1] x 4096 from 0> {hlo = "cin_split", why = "the 4 input-feature-slice partials of each block on its owning tile"}
// C8: tile.compute_set "cin_split.partial" kind "conv-partial" tiles [0, 7] ins({{.*}}) outs(%[[KP]] : {{.*}}) {block = array<i64: 1, 4, 2, 128, 128>, {{.*}}grid = array<i64: 4, 1, 1, 2, 1>, halo = array<i64: 0, 2>,
// C8: tile.exchange "cin_split.gather" %[[KP]] -> %[[KG]]
// C8: tile.compute_set "cin_split" kind "reduce.add" tiles [0, 1] ins(%[[KG]] : {{.*}}) {partials_per_output = 4 : i64}
// T1472: tile.compute_set "cin_split.partial" kind "conv-partial" tiles [0, 1023] {{.*}}grid = array<i64: 32, 1, 1, 1, 32>,
// T1472: tile.compute_set "cin_split" kind "reduce.add" tiles [0, 31] {{.*}}{partials_per_output = 32 : i64}

// 1x1 (o01i kernel): no halo; core-8 fetches one 8x64 input row per tile.
// C8: tile.var "pointwise.in" temporary mapping<[0, 7] x 512 from 0>
// C8: tile.compute_set "pointwise" kind "conv-partial" tiles [0, 7] {{.*}}dim_labels = "b01f_o01i->b01f", {{.*}}halo = array<i64: 0, 0>,
// T1472: tile.compute_set "pointwise.partial" kind "conv-partial" {{.*}}halo = array<i64: 0, 0>,
// CHECK-NOT: host_compute
