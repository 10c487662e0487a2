// Round trip of dot_general and convolution.
// RUN: tessera-opt %s | tessera-opt | FileCheck %s
// RUN: tessera-opt %s --mlir-print-op-generic | tessera-opt | FileCheck %s

// CHECK-LABEL: func.func @dots
func.func @dots(%a: tensor<16x64xf32>, %b: tensor<64x32xf32>, %ba: tensor<8x16x64xbf16>, %bb: tensor<8x64x32xbf16>, %v: tensor<64xf32>) {
  // CHECK-NEXT: tgraph.dot_general %arg0, %arg1, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
  %d = tgraph.dot_general %a, %b, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
  // Batch dims first; a wider result type (bf16 x bf16 -> f32) is allowed,
  // as HLO's preferred_element_type.
  // CHECK-NEXT: tgraph.dot_general %arg2, %arg3, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x16x64xbf16>, tensor<8x64x32xbf16>) -> tensor<8x16x32xf32>
  %bd = tgraph.dot_general %ba, %bb, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x16x64xbf16>, tensor<8x64x32xbf16>) -> tensor<8x16x32xf32>
  // Matrix-vector and outer product.
  // CHECK-NEXT: tgraph.dot_general %arg0, %arg4, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64xf32>) -> tensor<16xf32>
  %mv = tgraph.dot_general %a, %v, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64xf32>) -> tensor<16xf32>
  // CHECK-NEXT: tgraph.dot_general %arg4, %arg4, batching_dims = [] x [], contracting_dims = [] x [] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64x64xf32>
  %op = tgraph.dot_general %v, %v, batching_dims = [] x [], contracting_dims = [] x [] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64x64xf32>
  return
}

// CHECK-LABEL: func.func @convs
func.func @convs(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x2x8xf32>, %nchw: tensor<2x3x32x32xf32>, %oihw: tensor<16x3x5x5xf32>, %dw: tensor<3x3x1x4xf32>) {
  // 3x3 SAME convolution with two feature groups (4 = 2 x 2 input features).
  // CHECK-NEXT: tgraph.convolution %arg0, %arg1, dim_labels = "b01f_01io->b01f" {feature_group_count = 2 : i64, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x4xf32>, tensor<3x3x2x8xf32>) -> tensor<1x8x8x8xf32>
  %c = tgraph.convolution %x, %w, dim_labels = "b01f_01io->b01f" {padding = array<i64: 1, 1, 1, 1>, feature_group_count = 2 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x2x8xf32>) -> tensor<1x8x8x8xf32>
  // NCHW, stride 2, dilation 2, asymmetric padding:
  // padded 32+1+2 = 35, window (5-1)*2+1 = 9, (35-9)/2+1 = 14.
  // CHECK-NEXT: tgraph.convolution %arg2, %arg3, dim_labels = "bf01_oi01->bf01" {padding = array<i64: 1, 2, 1, 2>, rhs_dilation = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<2x3x32x32xf32>, tensor<16x3x5x5xf32>) -> tensor<2x16x14x14xf32>
  %s = tgraph.convolution %nchw, %oihw, dim_labels = "bf01_oi01->bf01" {window_strides = array<i64: 2, 2>, padding = array<i64: 1, 2, 1, 2>, rhs_dilation = array<i64: 2, 2>} : (tensor<2x3x32x32xf32>, tensor<16x3x5x5xf32>) -> tensor<2x16x14x14xf32>
  // Transposed convolution (lhs_dilation 2): (8-1)*2+1 + 2 = 17, 17-3+1 = 15.
  // CHECK-NEXT: tgraph.convolution %arg0, %arg4, dim_labels = "b01f_01io->b01f" {feature_group_count = 4 : i64, lhs_dilation = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, window_reversal = array<i1: true, false>} : (tensor<1x8x8x4xf32>, tensor<3x3x1x4xf32>) -> tensor<1x15x15x4xf32>
  %t = tgraph.convolution %x, %dw, dim_labels = "b01f_01io->b01f" {lhs_dilation = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, feature_group_count = 4 : i64, window_reversal = array<i1: true, false>} : (tensor<1x8x8x4xf32>, tensor<3x3x1x4xf32>) -> tensor<1x15x15x4xf32>
  return
}

// Weight-gradient convolutions use batch groups: the batch (4) splits into 2
// groups, each producing half the output features (8 / 2).
// CHECK-LABEL: func.func @batch_groups
func.func @batch_groups(%x: tensor<4x8x8x3xf32>, %g: tensor<3x3x3x8xf32>) {
  // CHECK-NEXT: tgraph.convolution %arg0, %arg1, dim_labels = "b01f_01io->b01f" {batch_group_count = 2 : i64} : (tensor<4x8x8x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x6x6x8xf32>
  %c = tgraph.convolution %x, %g, dim_labels = "b01f_01io->b01f" {batch_group_count = 2 : i64} : (tensor<4x8x8x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x6x6x8xf32>
  return
}
