// tosa.rescale on plain integer tensors, as the TOSA spec computes it in
// 64-bit integers: widen, subtract input_zp, multiply by the channel's
// multiplier, add the rounding term 1 << (shift - 1) (moved by +-2^30 away
// from zero with double_round when shift > 31), shift right
// arithmetically, add output_zp, clamp to the output range, narrow.
// RUN: tessera-opt %s --split-input-file --convert-tosa-to-tgraph | FileCheck %s
// RUN: tessera-opt %s --split-input-file --convert-tosa-to-tgraph --tgraph-check-compat=target=core-8 --tgraph-to-tile | FileCheck %s --check-prefix=TILE
// RUN: tessera-opt %s --split-input-file --convert-tosa-to-tgraph --tgraph-check-compat=target=tile-1472 --tgraph-to-tile | FileCheck %s --check-prefix=TILE

// Per tensor, i8 -> i32 with an input zero point of -3 (x * 0.5).
// CHECK-LABEL: func.func @per_tensor
// CHECK: %[[X:.*]] = tgraph.convert %arg0 : tensor<4xi8> -> tensor<4xi64>
// CHECK: %[[ZP:.*]] = tgraph.constant dense<-3> : tensor<4xi64>
// CHECK: %[[V:.*]] = tgraph.subtract %[[X]], %[[ZP]] : tensor<4xi64>
// CHECK: %[[M:.*]] = tgraph.constant dense<1073741824> : tensor<4xi64>
// CHECK: %[[P:.*]] = tgraph.multiply %[[V]], %[[M]] : tensor<4xi64>
// CHECK: %[[R:.*]] = tgraph.constant dense<1073741824> : tensor<4xi64>
// CHECK: %[[PR:.*]] = tgraph.add %[[P]], %[[R]] : tensor<4xi64>
// CHECK: %[[S:.*]] = tgraph.constant dense<31> : tensor<4xi64>
// CHECK: %[[SH:.*]] = tgraph.shift_right_arithmetic %[[PR]], %[[S]] : tensor<4xi64>
// CHECK: %[[HI:.*]] = tgraph.constant dense<2147483647> : tensor<i64>
// CHECK: %[[LO:.*]] = tgraph.constant dense<-2147483648> : tensor<i64>
// CHECK: %[[C:.*]] = tgraph.clamp %[[LO]], %[[SH]], %[[HI]]
// CHECK: %half = tgraph.convert %[[C]] : tensor<4xi64> -> tensor<4xi32>
// TILE: tile.program @per_tensor.tile
func.func @per_tensor(%x: tensor<4xi8>) -> tensor<4xi32> {
  %0 = "tosa.rescale"(%x) {double_round = false, input_zp = -3 : i32, multiplier = array<i32: 1073741824>, output_zp = 0 : i32, per_channel = false, scale32 = true, shift = array<i8: 31>} : (tensor<4xi8>) -> tensor<4xi32> loc("half")
  return %0 : tensor<4xi32>
}

// -----

// Per channel (last dimension), i32 -> i8 with double rounding: channel 0
// has shift 40 > 31, so its rounding term is 2^39 + 2^30 for values >= 0
// and 2^39 - 2^30 below; channels 1 and 2 (shift 31, 32) differ too.
// CHECK-LABEL: func.func @per_channel
// CHECK: %[[X:.*]] = tgraph.convert %arg0 : tensor<2x3xi32> -> tensor<2x3xi64>
// CHECK-NOT: tgraph.subtract
// CHECK: %[[MC:.*]] = tgraph.constant dense<[1073741824, 1500000000, 2000000000]> : tensor<3xi64>
// CHECK: %[[M:.*]] = tgraph.broadcast_in_dim %[[MC]], dims = [1] : (tensor<3xi64>) -> tensor<2x3xi64>
// CHECK: %[[P:.*]] = tgraph.multiply %[[X]], %[[M]]
// CHECK: %[[UPC:.*]] = tgraph.constant dense<[550829555712, 1073741824, 3221225472]> : tensor<3xi64>
// CHECK: %[[UP:.*]] = tgraph.broadcast_in_dim %[[UPC]], dims = [1]
// CHECK: %[[Z:.*]] = tgraph.constant dense<0> : tensor<2x3xi64>
// CHECK: %[[NN:.*]] = tgraph.compare GE, %[[X]], %[[Z]]
// CHECK: %[[DNC:.*]] = tgraph.constant dense<[548682072064, 1073741824, 1073741824]> : tensor<3xi64>
// CHECK: %[[DN:.*]] = tgraph.broadcast_in_dim %[[DNC]], dims = [1]
// CHECK: %[[R:.*]] = tgraph.select %[[NN]], %[[UP]], %[[DN]]
// CHECK: %[[PR:.*]] = tgraph.add %[[P]], %[[R]]
// CHECK: %[[SC:.*]] = tgraph.constant dense<[40, 31, 32]> : tensor<3xi64>
// CHECK: %[[S:.*]] = tgraph.broadcast_in_dim %[[SC]], dims = [1]
// CHECK: %[[SH:.*]] = tgraph.shift_right_arithmetic %[[PR]], %[[S]]
// CHECK: %[[OZ:.*]] = tgraph.constant dense<5> : tensor<2x3xi64>
// CHECK: %[[O:.*]] = tgraph.add %[[SH]], %[[OZ]]
// CHECK: %[[HI:.*]] = tgraph.constant dense<127> : tensor<i64>
// CHECK: %[[LO:.*]] = tgraph.constant dense<-128> : tensor<i64>
// CHECK: %[[C:.*]] = tgraph.clamp %[[LO]], %[[O]], %[[HI]]
// CHECK: tgraph.convert %[[C]] : tensor<2x3xi64> -> tensor<2x3xi8>
// TILE: tile.program @per_channel.tile
func.func @per_channel(%x: tensor<2x3xi32>) -> tensor<2x3xi8> {
  %0 = "tosa.rescale"(%x) {double_round = true, input_zp = 0 : i32, multiplier = array<i32: 1073741824, 1500000000, 2000000000>, output_zp = 5 : i32, per_channel = true, scale32 = true, shift = array<i8: 40, 31, 32>} : (tensor<2x3xi32>) -> tensor<2x3xi8>
  return %0 : tensor<2x3xi8>
}

// -----

// Unsigned 8 -> signed 8 (zero points 128 and 0), scale16: ui8 widens by
// zero extension (tgraph.convert follows HLO), then the i8 clamp.
// CHECK-LABEL: func.func @unsigned_to_signed
// CHECK: %[[X:.*]] = tgraph.convert %arg0 : tensor<2x2xui8> -> tensor<2x2xi64>
// CHECK: tgraph.constant dense<128> : tensor<2x2xi64>
// CHECK: tgraph.subtract %[[X]]
// CHECK: tgraph.constant dense<16384> : tensor<2x2xi64>
// CHECK: tgraph.constant dense<-128> : tensor<i64>
// CHECK: tgraph.convert %{{.*}} : tensor<2x2xi64> -> tensor<2x2xi8>
// TILE: tile.program @unsigned_to_signed.tile
func.func @unsigned_to_signed(%x: tensor<2x2xui8>) -> tensor<2x2xi8> {
  %0 = "tosa.rescale"(%x) {double_round = false, input_zp = 128 : i32, multiplier = array<i32: 16384>, output_zp = 0 : i32, per_channel = false, scale32 = false, shift = array<i8: 14>} : (tensor<2x2xui8>) -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

// What rescale cannot express stays tgraph.unknown with its reason.
// CHECK-LABEL: func.func @unsupported
func.func @unsupported(%x: tensor<4xi8>, %y: tensor<2x3xi16>) -> (tensor<4xi32>, tensor<4xi8>, tensor<2x3xi8>, tensor<4xi16>) {
  // CHECK: tgraph.unknown "tosa.rescale"(%arg0) {{.*}}reason = "rescale with double_round needs scale32"
  %1 = "tosa.rescale"(%x) {double_round = true, input_zp = 0 : i32, multiplier = array<i32: 16384>, output_zp = 0 : i32, per_channel = false, scale32 = false, shift = array<i8: 14>} : (tensor<4xi8>) -> tensor<4xi32>
  // CHECK: tgraph.unknown "tosa.rescale"(%arg0) {{.*}}reason = "rescale shift is outside TOSA's range [2, 62]"
  %2 = "tosa.rescale"(%x) {double_round = false, input_zp = 0 : i32, multiplier = array<i32: 1>, output_zp = 0 : i32, per_channel = false, scale32 = true, shift = array<i8: 0>} : (tensor<4xi8>) -> tensor<4xi8>
  // CHECK: tgraph.unknown "tosa.rescale"(%arg1) {{.*}}reason = "rescale has 2 multipliers and 2 shifts, expected 3"
  %3 = "tosa.rescale"(%y) {double_round = false, input_zp = 0 : i32, multiplier = array<i32: 1, 2>, output_zp = 0 : i32, per_channel = true, scale32 = true, shift = array<i8: 2, 2>} : (tensor<2x3xi16>) -> tensor<2x3xi8>
  // CHECK: tgraph.unknown "tosa.rescale"(%arg0) {{.*}}reason = "rescale zero point (input_zp = 0, output_zp = 7) is not allowed for i8 -> i16"
  %4 = "tosa.rescale"(%x) {double_round = false, input_zp = 0 : i32, multiplier = array<i32: 1073741824>, output_zp = 7 : i32, per_channel = false, scale32 = true, shift = array<i8: 30>} : (tensor<4xi8>) -> tensor<4xi16>
  return %1, %2, %3, %4 : tensor<4xi32>, tensor<4xi8>, tensor<2x3xi8>, tensor<4xi16>
}

// Quantized element types are reported before the pattern runs (this
// function follows a TOSA op so that the split's parser knows !quant;
// private, so that the split has one entry function to lower).
// CHECK-LABEL: func.func private @quantized
func.func private @quantized(%q: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4xi32> {
  // CHECK: tgraph.unknown "tosa.rescale"(%arg0) {{.*}}reason = "quantized type tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>> is not imported (tgraph has no quantized element types); dequantize in the framework or run the model in float"
  %0 = "tosa.rescale"(%q) {double_round = false, input_zp = 0 : i32, multiplier = array<i32: 1073741824>, output_zp = 0 : i32, per_channel = false, scale32 = true, shift = array<i8: 30>} : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
