// Round trip of constants, rng, host communication, batch norm, opaque ops,
// result naming after HLO instructions and the metadata attributes.
// RUN: tessera-opt %s | tessera-opt | FileCheck %s
// RUN: tessera-opt %s --mlir-print-op-generic | tessera-opt | FileCheck %s
// Results take their HLO instruction's name (the NameLoc) when printed.
// RUN: tessera-opt %s | FileCheck %s --check-prefix=NAMES
// RUN: tessera-opt %s --mlir-print-debuginfo | tessera-opt | FileCheck %s --check-prefix=NAMES

// CHECK-LABEL: func.func @constants
func.func @constants() {
  // CHECK-NEXT: tgraph.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %c = tgraph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  // CHECK-NEXT: tgraph.constant dense<7> : tensor<i32>
  %s = tgraph.constant dense<7> : tensor<i32>
  // A constant the HLO dump elided as `constant({...})` keeps only its type.
  // CHECK-NEXT: tgraph.constant elided : tensor<1024x1024xbf16>
  %e = tgraph.constant elided : tensor<1024x1024xbf16>
  // CHECK-NEXT: tgraph.constant elided {tgraph.op_name = "w"} : tensor<8xf32>
  %ea = tgraph.constant elided {tgraph.op_name = "w"} : tensor<8xf32>
  return
}

// CHECK-LABEL: func.func @random_and_host
func.func @random_and_host(%lo: tensor<f32>, %hi: tensor<f32>, %tok: !tgraph.token, %x: tensor<8xf32>) {
  // CHECK-NEXT: tgraph.rng <UNIFORM>, %arg0, %arg1 : (tensor<f32>, tensor<f32>) -> tensor<16xf32>
  %u = tgraph.rng #tgraph.rng_distribution<UNIFORM>, %lo, %hi : (tensor<f32>, tensor<f32>) -> tensor<16xf32>
  // CHECK-NEXT: tgraph.rng <NORMAL>, %arg0, %arg1 : (tensor<f32>, tensor<f32>) -> tensor<2x2xf32>
  %n = tgraph.rng <NORMAL>, %lo, %hi : (tensor<f32>, tensor<f32>) -> tensor<2x2xf32>
  // CHECK-NEXT: %[[FRESH:.*]] = tgraph.after_all(){{$}}
  %fresh = tgraph.after_all()
  // CHECK-NEXT: %[[JOIN:.*]] = tgraph.after_all(%arg2, %[[FRESH]]){{$}}
  %join = tgraph.after_all(%tok, %fresh)
  // CHECK-NEXT: tgraph.infeed %[[JOIN]] {infeed_config = "cfg"} : tuple<tuple<tensor<8xf32>>, !tgraph.token>
  %in = tgraph.infeed %join {infeed_config = "cfg"} : tuple<tuple<tensor<8xf32>>, !tgraph.token>
  // CHECK-NEXT: tgraph.outfeed %arg3, %[[JOIN]] : tensor<8xf32>
  %out = tgraph.outfeed %x, %join : tensor<8xf32>
  return
}

// CHECK-LABEL: func.func @batch_norm
func.func @batch_norm(%x: tensor<2x4x4x8xf32>, %c: tensor<8xf32>) {
  // CHECK-NEXT: tgraph.batch_norm_training %arg0, %arg1, %arg1 {epsilon = 1.000000e-03 : f32, feature_index = 3 : i64} : (tensor<2x4x4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tuple<tensor<2x4x4x8xf32>, tensor<8xf32>, tensor<8xf32>>
  %t = tgraph.batch_norm_training %x, %c, %c {epsilon = 0.001 : f32, feature_index = 3 : i64} : (tensor<2x4x4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tuple<tensor<2x4x4x8xf32>, tensor<8xf32>, tensor<8xf32>>
  // CHECK-NEXT: tgraph.batch_norm_inference %arg0, %arg1, %arg1, %arg1, %arg1 {epsilon = 1.000000e-03 : f32, feature_index = 3 : i64} : (tensor<2x4x4x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x4x4x8xf32>
  %i = tgraph.batch_norm_inference %x, %c, %c, %c, %c {epsilon = 0.001 : f32, feature_index = 3 : i64} : (tensor<2x4x4x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x4x4x8xf32>
  // CHECK-NEXT: tgraph.batch_norm_grad %arg0, %arg1, %arg1, %arg1, %arg0 {epsilon = 1.000000e-03 : f32, feature_index = 3 : i64} : (tensor<2x4x4x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<2x4x4x8xf32>) -> tuple<tensor<2x4x4x8xf32>, tensor<8xf32>, tensor<8xf32>>
  %g = tgraph.batch_norm_grad %x, %c, %c, %c, %x {epsilon = 0.001 : f32, feature_index = 3 : i64} : (tensor<2x4x4x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<2x4x4x8xf32>) -> tuple<tensor<2x4x4x8xf32>, tensor<8xf32>, tensor<8xf32>>
  return
}

// CHECK-LABEL: func.func @opaque
func.func @opaque(%x: tensor<5x10xf32>, %t: tuple<tensor<5x10xf32>>) {
  // Target name and backend config are kept verbatim.
  // CHECK-NEXT: tgraph.custom_call "AwsNeuronTransferWithStaticRing"(%arg0) {api_version = 2 : i32, backend_config = "{\22ring\22: 1}", has_side_effect} : (tensor<5x10xf32>) -> tensor<5x10xf32>
  %cc = tgraph.custom_call "AwsNeuronTransferWithStaticRing"(%x) {backend_config = "{\"ring\": 1}", has_side_effect, api_version = 2 : i32} : (tensor<5x10xf32>) -> tensor<5x10xf32>
  // CHECK-NEXT: tgraph.custom_call "Sharding"(%arg0) : (tensor<5x10xf32>) -> tensor<5x10xf32>
  %sh = tgraph.custom_call "Sharding"(%x) : (tensor<5x10xf32>) -> tensor<5x10xf32>
  // CHECK-NEXT: tgraph.unknown "cholesky"(%arg0) {hlo_attributes = {lower = "true"}} : (tensor<5x10xf32>) -> tensor<5x10xf32>
  %u = tgraph.unknown "cholesky"(%x) {hlo_attributes = {lower = "true"}} : (tensor<5x10xf32>) -> tensor<5x10xf32>
  // CHECK-NEXT: tgraph.unknown "send-done"() : () -> tuple<>
  %z = tgraph.unknown "send-done"() : () -> tuple<>
  // CHECK-NEXT: tgraph.optimization_barrier %arg1 : tuple<tensor<5x10xf32>>
  %b = tgraph.optimization_barrier %t : tuple<tensor<5x10xf32>>
  return
}

// NAMES-LABEL: func.func @named
// CHECK-LABEL: func.func @named
func.func @named(%a: tensor<4xf32>) -> tensor<4xf32> {
  // NAMES-NEXT: %add.3 = tgraph.add %arg0, %arg0 : tensor<4xf32>
  %0 = tgraph.add %a, %a : tensor<4xf32> loc("add.3")
  // A NameLoc inside a FusedLoc names the result too.
  // NAMES-NEXT: %multiply.4 = tgraph.multiply %add.3, %add.3 {tgraph.op_name = "jit(f)/mul", tgraph.op_type = "mul"} : tensor<4xf32>
  // CHECK: tgraph.multiply %{{.*}} {tgraph.op_name = "jit(f)/mul", tgraph.op_type = "mul"} : tensor<4xf32>
  %1 = tgraph.multiply %0, %0 {tgraph.op_name = "jit(f)/mul", tgraph.op_type = "mul"} : tensor<4xf32> loc(fused["model.py":3:0, "multiply.4"])
  // Two instructions of one name (only possible in hand-written IR) are
  // told apart by a suffix.
  // NAMES-NEXT: %multiply.4_0 = tgraph.multiply
  %2 = tgraph.multiply %1, %1 : tensor<4xf32> loc("multiply.4")
  // Without a NameLoc the result is numbered.
  // NAMES-NEXT: %0 = tgraph.negate %multiply.4_0 : tensor<4xf32>
  %3 = tgraph.negate %2 : tensor<4xf32>
  return %3 : tensor<4xf32>
}
