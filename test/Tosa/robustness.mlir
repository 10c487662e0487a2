// Inputs the patterns cannot map are kept as tgraph.unknown with a reason;
// dynamic shapes import (the checker reports them); unranked tensors are an
// error with a location. The pass never crashes or drops an op.
// RUN: tessera-opt %s --split-input-file --verify-diagnostics --convert-tosa-to-tgraph | FileCheck %s

// Dynamic batch: the bias broadcast and the avg-pool divisor, which
// cannot be dense literals, are 0-d constants broadcast to the shape.
// CHECK-LABEL: func.func @dynamic
func.func @dynamic(%x: tensor<?x4x4x2xf32>) -> tensor<?x2x2x2xf32> {
  // CHECK: tgraph.reduce_window(%arg0)
  // CHECK: %[[C:.*]] = tgraph.constant dense<4.000000e+00> : tensor<f32>
  // CHECK: %[[N:.*]] = tgraph.broadcast_in_dim %[[C]], dims = [] : (tensor<f32>) -> tensor<?x2x2x2xf32>
  // CHECK: tgraph.divide %{{.*}}, %[[N]] : tensor<?x2x2x2xf32>
  %0 = "tosa.avg_pool2d"(%x) {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<?x4x4x2xf32>) -> tensor<?x2x2x2xf32>
  return %0 : tensor<?x2x2x2xf32>
}

// CHECK-LABEL: func.func @not_constant_perms
func.func @not_constant_perms(%x: tensor<2x3xf32>, %p: tensor<2xi32>) -> tensor<3x2xf32> {
  // CHECK: tgraph.unknown "tosa.transpose"(%arg0, %arg1) {hlo_attributes = {reason = "transpose perms are not a constant"}}
  %0 = "tosa.transpose"(%x, %p) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @int_avg_pool
func.func @int_avg_pool(%x: tensor<1x4x4x2xi8>) -> tensor<1x2x2x2xi8> {
  // CHECK: tgraph.unknown "tosa.avg_pool2d"{{.*}}reason = "integer avg_pool2d rounds its division; not imported"
  %0 = "tosa.avg_pool2d"(%x) {acc_type = i32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x4x2xi8>) -> tensor<1x2x2x2xi8>
  return %0 : tensor<1x2x2x2xi8>
}

// Quantized conv: int8 with zero points is kept, never imported as if the
// integers were plain values.
// CHECK-LABEL: func.func @quantized_conv
func.func @quantized_conv(%x: tensor<1x4x4x3xi8>, %w: tensor<2x1x1x3xi8>, %b: tensor<2xi32>) -> tensor<1x4x4x2xi8> {
  // CHECK: tgraph.unknown "tosa.conv2d"{{.*}}quantization_info = "#tosa.conv_quant<input_zp = -128, weight_zp = 0>", reason = "quantized TOSA op (quantization_info zero points) is not imported"
  %0 = "tosa.conv2d"(%x, %w, %b) {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, quantization_info = #tosa.conv_quant<input_zp = -128, weight_zp = 0>} : (tensor<1x4x4x3xi8>, tensor<2x1x1x3xi8>, tensor<2xi32>) -> tensor<1x4x4x2xi8>
  return %0 : tensor<1x4x4x2xi8>
}

// Control flow is reported, with the region-bearing op kept as one unknown.
// CHECK-LABEL: func.func @control_flow
func.func @control_flow(%p: tensor<i1>, %a: tensor<f32>) -> tensor<f32> {
  // CHECK: tgraph.unknown "tosa.cond_if"(%arg0, %arg1) {hlo_attributes = {reason = "TOSA control flow is not imported: its regions are dropped with it"}} : (tensor<i1>, tensor<f32>) -> tensor<f32>
  %0 = "tosa.cond_if"(%p, %a) ({
  ^bb0(%x: tensor<f32>):
    %1 = "tosa.exp"(%x) : (tensor<f32>) -> tensor<f32>
    "tosa.yield"(%1) : (tensor<f32>) -> ()
  }, {
  ^bb0(%x: tensor<f32>):
    "tosa.yield"(%x) : (tensor<f32>) -> ()
  }) : (tensor<i1>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @no_pattern
func.func @no_pattern(%x: tensor<4xi8>, %t: tensor<256xi8>) -> tensor<4xi8> {
  // CHECK: tgraph.unknown "tosa.table"(%arg0, %arg1) {hlo_attributes = {reason = "no tgraph pattern for this TOSA op"}}
  %0 = "tosa.table"(%x, %t) : (tensor<4xi8>, tensor<256xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{convert-tosa-to-tgraph: unranked tensor 'tensor<*xf32>' is not supported; run shape inference first}}
  %0 = "tosa.exp"(%x) : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
