// What the importer cannot express is kept as tgraph.unknown with the TOSA
// op name, its attributes as strings and a reason; the compatibility
// checker then reports it as unknown-op. Nothing is dropped and the import
// does not fail.
// RUN: tessera-opt %s --convert-tosa-to-tgraph | FileCheck %s
// RUN: tessera-opt %s --convert-tosa-to-tgraph --tgraph-check-compat="target=core-8 print=text" -o /dev/null | FileCheck %s --check-prefix=COMPAT

// CHECK-LABEL: func.func @resize
func.func @resize(%x: tensor<1x4x4x3xi8>) -> tensor<1x8x8x3xi32> {
  // CHECK: %up = tgraph.unknown "tosa.resize"(%arg0) {hlo_attributes = {border = "array<i64: 1, 1>", mode = "\22BILINEAR\22", offset = "array<i64: -1, -1>", reason = "integer bilinear resize (accumulating in units of the scale numerators into a wider type) is not imported", scale = "array<i64: 4, 2, 4, 2>"}} : (tensor<1x4x4x3xi8>) -> tensor<1x8x8x3xi32>
  %0 = "tosa.resize"(%x) {border = array<i64: 1, 1>, mode = "BILINEAR", offset = array<i64: -1, -1>, scale = array<i64: 4, 2, 4, 2>} : (tensor<1x4x4x3xi8>) -> tensor<1x8x8x3xi32> loc("up")
  return %0 : tensor<1x8x8x3xi32>
}

// Quantized tensors: tgraph has no quantized element types, so the op is
// kept as unknown and says why, never converted as if it were float.
// CHECK-LABEL: func.func @quantized
func.func @quantized(%x: tensor<1x4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<1x4x!quant.uniform<i8:f32, 0.5:-3>> {
  // CHECK: tgraph.unknown "tosa.abs"(%arg0) {hlo_attributes = {reason = "quantized type tensor<1x4x!quant.uniform<i8:f32, 5.000000e-01:-3>> is not imported (tgraph has no quantized element types); dequantize in the framework or run the model in float"}}
  %0 = "tosa.abs"(%x) : (tensor<1x4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<1x4x!quant.uniform<i8:f32, 0.5:-3>>
  return %0 : tensor<1x4x!quant.uniform<i8:f32, 0.5:-3>>
}

// CHECK-LABEL: func.func @rescale
func.func @rescale(%x: tensor<4xi8>) -> tensor<4xi32> {
  // CHECK: tgraph.unknown "tosa.rescale"(%arg0) {{.*}}reason = "rescale with double_round needs scale32"
  %0 = "tosa.rescale"(%x) {double_round = true, input_zp = 0 : i32, multiplier = array<i32: 16384>, output_zp = 0 : i32, per_channel = false, scale32 = false, shift = array<i8: 14>} : (tensor<4xi8>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// COMPAT: Compatibility with core-8: 0.0% of 3 assessed ops (0 ok, 3 incompatible
// COMPAT-DAG: up: unknown-op: HLO opcode 'tosa.resize' has no tgraph equivalent
// COMPAT-DAG: unknown-op: HLO opcode 'tosa.rescale' has no tgraph equivalent
// COMPAT-DAG: unknown-op: HLO opcode 'tosa.abs' has no tgraph equivalent
