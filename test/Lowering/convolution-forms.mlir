// convolution semantics beyond NHWC forward convs: dimension labels in any
// layout (NCHW, 1-D), input dilation (transposed convolution, with window
// reversal), negative padding with kernel dilation, batch groups. The input
// window of a block is computed in the dilated, padded input and clipped to
// real input rows; the vertex gets the window attributes to place them.
// Each preset rejects one form in the checker (core-8: kernel dilation;
// tile-1472: batch groups); those stay on the host with the checker's
// reason. A convolution over the planning budget stays on the host as
// "not-lowered" with the budget in `detail` (tile-1472; core-8's checker
// already finds it exceeds the chip's memory).
//
// RUN: tessera-opt %s --tgraph-check-compat=target=core-8 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,C8
// RUN: tessera-opt %s --tgraph-check-compat=target=tile-1472 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,T1472

func.func @main(%n: tensor<2x8x10x10xf32> loc("n"), %nw: tensor<16x8x3x3xf32> loc("nw"),
                %t: tensor<1x5x5x4xf32> loc("t"), %tw: tensor<3x3x4x4xf32> loc("tw"),
                %b: tensor<4x6x6x3xf32> loc("b"), %bw: tensor<3x3x3x6xf32> loc("bw"),
                %l: tensor<1x32x8xf32> loc("l"), %lw: tensor<5x8x8xf32> loc("lw"),
                %h: tensor<1x4096x4096x1xf32> loc("h"), %hw: tensor<1x1x1x2xf32> loc("hw"))
    -> (tensor<2x16x8x8xf32>, tensor<1x9x9x4xf32>, tensor<1x10x10x4xf32>, tensor<2x4x4x6xf32>, tensor<1x14x8xf32>, tensor<1x4096x4096x2xf32>) {
  %nchw = tgraph.convolution %n, %nw, dim_labels = "bf01_oi01->bf01" : (tensor<2x8x10x10xf32>, tensor<16x8x3x3xf32>) -> tensor<2x16x8x8xf32> loc("nchw")
  %tr = tgraph.convolution %t, %tw, dim_labels = "b01f_01io->b01f" {lhs_dilation = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, window_reversal = array<i1: true, true>} : (tensor<1x5x5x4xf32>, tensor<3x3x4x4xf32>) -> tensor<1x9x9x4xf32> loc("transposed")
  %crop = tgraph.convolution %t, %tw, dim_labels = "b01f_01io->b01f" {lhs_dilation = array<i64: 3, 3>, output_shape = array<i64: 1, 10, 10, 4>, padding = array<i64: -1, 2, -1, 2>, rhs_dilation = array<i64: 2, 2>} : (tensor<1x5x5x4xf32>, tensor<3x3x4x4xf32>) -> tensor<1x10x10x4xf32> loc("cropped")
  %bg = tgraph.convolution %b, %bw, dim_labels = "b01f_01io->b01f" {batch_group_count = 2 : i64} : (tensor<4x6x6x3xf32>, tensor<3x3x3x6xf32>) -> tensor<2x4x4x6xf32> loc("batch_groups")
  %one = tgraph.convolution %l, %lw, dim_labels = "b0f_0io->b0f" {window_strides = array<i64: 2>, padding = array<i64: 0, -1>, rhs_dilation = array<i64: 1>} : (tensor<1x32x8xf32>, tensor<5x8x8xf32>) -> tensor<1x14x8xf32> loc("conv1d")
  %huge = tgraph.convolution %h, %hw, dim_labels = "b01f_01io->b01f" : (tensor<1x4096x4096x1xf32>, tensor<1x1x1x2xf32>) -> tensor<1x4096x4096x2xf32> loc("huge")
  return %nchw, %tr, %crop, %bg, %one, %huge : tensor<2x16x8x8xf32>, tensor<1x9x9x4xf32>, tensor<1x10x10x4xf32>, tensor<2x4x4x6xf32>, tensor<1x14x8xf32>, tensor<1x4096x4096x2xf32>
}

// NCHW: core-8 splits the batch; a block is one image (8 x 10 x 10).
// C8: tile.var "nchw.in" temporary mapping<[0, 1] x 800 from 0>
// C8: tile.compute_set "nchw" kind "conv-partial" tiles [0, 1] {{.*}}{block = array<i64: 1, 8, 8, 16, 8>, dim_labels = "bf01_oi01->bf01", {{.*}}grid = array<i64: 1, 2, 1, 1, 1>,
// T1472: tile.compute_set "nchw.partial" kind "conv-partial" {{.*}}dim_labels = "bf01_oi01->bf01", {{.*}}halo = array<i64: 2, 2>,
// T1472: tile.compute_set "nchw" kind "reduce.add"

// Transposed (input dilated by 2, padded by 1): 2 output rows read dilated
// rows -1..2, i.e. input rows 0..1 (40 elements); the last block (output row
// 8) reads input row 4 only.
// C8: tile.var "transposed.in" temporary mapping<[0, 3] x 40 from 0, [4, 4] x 20 from 160>
// CHECK: tile.compute_set "transposed" kind "conv-partial" {{.*}}halo = array<i64: 1, {{.*}}lhs_dilation = array<i64: 2, 2>, output_shape = array<i64: 1, 9, 9, 4>, padding = array<i64: 1, 1, 1, 1>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: true, true>,

// C8: tile.host_compute "cropped" op "tgraph.convolution" reason "unsupported-attribute"
// T1472: tile.compute_set "cropped" kind "conv-partial" {{.*}}lhs_dilation = array<i64: 3, 3>, output_shape = array<i64: 1, 10, 10, 4>, padding = array<i64: -1, 2, -1, 2>, rhs_dilation = array<i64: 2, 2>,

// Batch groups: output features 0..2 read input batches 0..1, features 3..5
// batches 2..3, so output batch block 0 reads input batches 0 and 2: two
// boxes of 4 rows x 6 x 3.
// C8: tile.var "batch_groups.in" temporary mapping<[0, 3] x 144 from 0>
// C8: tile.compute_set "batch_groups" kind "conv-partial" {{.*}}batch_group_count = 2 : i64, block = array<i64: 1, 2, 4, 6, 3>,
// T1472: tile.host_compute "batch_groups" op "tgraph.convolution" reason "unsupported-attribute"

// 1-D, stride 2, high padding -1: 7 outputs read 17 input rows.
// C8: tile.var "conv1d.in" temporary mapping<[0, 1] x 136 from 0>
// CHECK: tile.compute_set "conv1d{{(.partial)?}}" kind "conv-partial" {{.*}}dim_labels = "b0f_0io->b0f", {{.*}}halo = array<i64: 3>, input_boxes = array<i64: {{[0-9, ]+}}>, input_shape = array<i64: {{[0-9, ]+}}>, kernel_shape = array<i64: {{[0-9, ]+}}>, lhs_dilation = array<i64: 1>, output_shape = array<i64: {{[0-9, ]+}}>, padding = array<i64: 0, -1>,

// T1472: tile.host_compute "huge" op "tgraph.convolution" reason "not-lowered" {{.*}}{detail = "more than 16777216 output elements for exact block planning", op_id = {{[0-9]+}} : i64}
// C8: tile.host_compute "huge" op "tgraph.convolution" reason "exceeds-memory"
