// Contractions: conv2d (NHWC/OHWI) becomes a convolution labelled
// b01f_o01i->b01f whose window attributes come straight from pad/stride/
// dilation, plus a broadcast bias add; depthwise is a grouped convolution;
// transpose_conv2d dilates the input by the stride; fully_connected and
// matmul are dot_generals. The tgraph verifiers recompute every result
// shape, so a wrong window mapping would show up as tgraph.unknown here.
// RUN: tessera-opt %s --convert-tosa-to-tgraph | FileCheck %s
// RUN: tessera-opt %s --convert-tosa-to-tgraph | FileCheck %s --check-prefix=NONE
// NONE-NOT: tosa.
// NONE-NOT: tgraph.unknown

// CHECK-LABEL: func.func @conv_pad_stride_dilation
func.func @conv_pad_stride_dilation(%x: tensor<1x17x17x3xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>) -> tensor<1x8x7x8xf32> {
  // H: (17 + 1 + 2 - 5) / 2 + 1 = 8; W: (17 + 0 + 0 - 5) / 2 + 1 = 7.
  // CHECK: %conv1.convolution = tgraph.convolution %arg0, %arg1, dim_labels = "b01f_o01i->b01f" {padding = array<i64: 1, 2, 0, 0>, rhs_dilation = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<1x17x17x3xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x7x8xf32>
  // CHECK: %conv1.broadcast_in_dim = tgraph.broadcast_in_dim %arg2, dims = [3] : (tensor<8xf32>) -> tensor<1x8x7x8xf32>
  // CHECK: %conv1 = tgraph.add %conv1.convolution, %conv1.broadcast_in_dim : tensor<1x8x7x8xf32>
  %0 = "tosa.conv2d"(%x, %w, %b) {dilation = array<i64: 2, 2>, pad = array<i64: 1, 2, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x17x17x3xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<1x8x7x8xf32> loc("conv1")
  return %0 : tensor<1x8x7x8xf32>
}

// C = 4 channels, multiplier M = 2: 8 outputs, 4 feature groups.
// CHECK-LABEL: func.func @depthwise
func.func @depthwise(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x2xf32>, %b: tensor<8xf32>) -> tensor<1x8x8x8xf32> {
  // CHECK: %[[K:.*]] = tgraph.reshape %arg1 : (tensor<3x3x4x2xf32>) -> tensor<3x3x1x8xf32>
  // CHECK: tgraph.convolution %arg0, %[[K]], dim_labels = "b01f_01io->b01f" {feature_group_count = 4 : i64, padding = array<i64: 1, 1, 1, 1>, rhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<3x3x1x8xf32>) -> tensor<1x8x8x8xf32>
  // CHECK: tgraph.add
  %0 = "tosa.depthwise_conv2d"(%x, %w, %b) {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<3x3x4x2xf32>, tensor<8xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// OH = (4 - 1) * 2 + 0 + 0 + 3 = 9.
// CHECK-LABEL: func.func @transpose_conv
func.func @transpose_conv(%x: tensor<1x4x4x3xf32>, %w: tensor<5x3x3x3xf32>, %b: tensor<5xf32>) -> tensor<1x9x9x5xf32> {
  // CHECK: tgraph.convolution %arg0, %arg1, dim_labels = "b01f_o01i->b01f" {lhs_dilation = array<i64: 2, 2>, padding = array<i64: 2, 2, 2, 2>, window_reversal = array<i1: true, true>, window_strides = array<i64: 1, 1>} : (tensor<1x4x4x3xf32>, tensor<5x3x3x3xf32>) -> tensor<1x9x9x5xf32>
  %0 = "tosa.transpose_conv2d"(%x, %w, %b) {out_pad = array<i64: 0, 0, 0, 0>, out_shape = array<i64: 1, 9, 9, 5>, stride = array<i64: 2, 2>} : (tensor<1x4x4x3xf32>, tensor<5x3x3x3xf32>, tensor<5xf32>) -> tensor<1x9x9x5xf32>
  return %0 : tensor<1x9x9x5xf32>
}

// CHECK-LABEL: func.func @fully_connected
func.func @fully_connected(%x: tensor<2x16xf32>, %w: tensor<10x16xf32>, %b: tensor<10xf32>) -> tensor<2x10xf32> {
  // CHECK: %[[D:.*]] = tgraph.dot_general %arg0, %arg1, batching_dims = [] x [], contracting_dims = [1] x [1] : (tensor<2x16xf32>, tensor<10x16xf32>) -> tensor<2x10xf32>
  // CHECK: tgraph.broadcast_in_dim %arg2, dims = [1] : (tensor<10xf32>) -> tensor<2x10xf32>
  // CHECK: tgraph.add %[[D]]
  %0 = "tosa.fully_connected"(%x, %w, %b) : (tensor<2x16xf32>, tensor<10x16xf32>, tensor<10xf32>) -> tensor<2x10xf32>
  return %0 : tensor<2x10xf32>
}

// CHECK-LABEL: func.func @matmul
func.func @matmul(%a: tensor<3x4x5xf32>, %b: tensor<3x5x6xf32>) -> tensor<3x4x6xf32> {
  // CHECK: tgraph.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<3x4x5xf32>, tensor<3x5x6xf32>) -> tensor<3x4x6xf32>
  %0 = "tosa.matmul"(%a, %b) : (tensor<3x4x5xf32>, tensor<3x5x6xf32>) -> tensor<3x4x6xf32>
  return %0 : tensor<3x4x6xf32>
}

// Negative out_pad crops: OH = (4 - 1) * 2 - 1 - 1 + 3 = 7, padding 2 - 1.
// CHECK-LABEL: func.func @transpose_conv_crop
func.func @transpose_conv_crop(%x: tensor<1x4x4x3xf32>, %w: tensor<5x3x3x3xf32>, %b: tensor<5xf32>) -> tensor<1x7x7x5xf32> {
  // CHECK: tgraph.convolution %arg0, %arg1, dim_labels = "b01f_o01i->b01f" {lhs_dilation = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, window_reversal = array<i1: true, true>, window_strides = array<i64: 1, 1>} : (tensor<1x4x4x3xf32>, tensor<5x3x3x3xf32>) -> tensor<1x7x7x5xf32>
  %0 = "tosa.transpose_conv2d"(%x, %w, %b) {out_pad = array<i64: -1, -1, -1, -1>, out_shape = array<i64: 1, 7, 7, 5>, stride = array<i64: 2, 2>} : (tensor<1x4x4x3xf32>, tensor<5x3x3x3xf32>, tensor<5xf32>) -> tensor<1x7x7x5xf32>
  return %0 : tensor<1x7x7x5xf32>
}

// A dynamic batch imports; the checker, not the importer, judges it.
// CHECK-LABEL: func.func @conv_dynamic_batch
func.func @conv_dynamic_batch(%x: tensor<?x8x8x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<?x6x6x4xf32> {
  // CHECK: tgraph.convolution {{.*}} : (tensor<?x8x8x3xf32>, tensor<4x3x3x3xf32>) -> tensor<?x6x6x4xf32>
  // CHECK: tgraph.broadcast_in_dim %arg2, dims = [3] : (tensor<4xf32>) -> tensor<?x6x6x4xf32>
  %0 = "tosa.conv2d"(%x, %w, %b) {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<?x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<?x6x6x4xf32>
  return %0 : tensor<?x6x6x4xf32>
}
