// math ops on tensors, as torch-to-TOSA exports write them beside TOSA
// (GELU as math.erf): each becomes the tgraph op of the same meaning, or
// an exact combination of tgraph ops, and keeps its NameLoc.
// RUN: tessera-opt %s --convert-tosa-to-tgraph | FileCheck %s

// CHECK-LABEL: func.func @unary
func.func @unary(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: %erf = tgraph.erf %arg0 : tensor<2x3xf32>
  %0 = math.erf %x : tensor<2x3xf32> loc("erf")
  // CHECK-NEXT: %tanh = tgraph.tanh %erf : tensor<2x3xf32>
  %1 = math.tanh %0 : tensor<2x3xf32> loc("tanh")
  // CHECK-NEXT: %exp = tgraph.exponential %tanh : tensor<2x3xf32>
  %2 = math.exp %1 : tensor<2x3xf32> loc("exp")
  // CHECK-NEXT: %log = tgraph.log %exp : tensor<2x3xf32>
  %3 = math.log %2 : tensor<2x3xf32> loc("log")
  // CHECK-NEXT: %rsqrt = tgraph.rsqrt %log : tensor<2x3xf32>
  %4 = math.rsqrt %3 : tensor<2x3xf32> loc("rsqrt")
  // CHECK-NEXT: %sqrt = tgraph.sqrt %rsqrt : tensor<2x3xf32>
  %5 = math.sqrt %4 : tensor<2x3xf32> loc("sqrt")
  // CHECK-NEXT: %expm1 = tgraph.exponential_minus_one %sqrt : tensor<2x3xf32>
  %6 = math.expm1 %5 : tensor<2x3xf32> loc("expm1")
  // CHECK-NEXT: %log1p = tgraph.log_plus_one %expm1 : tensor<2x3xf32>
  %7 = math.log1p %6 : tensor<2x3xf32> loc("log1p")
  // CHECK-NEXT: %cbrt = tgraph.cbrt %log1p : tensor<2x3xf32>
  %8 = math.cbrt %7 : tensor<2x3xf32> loc("cbrt")
  // CHECK-NEXT: %abs = tgraph.abs %cbrt : tensor<2x3xf32>
  %9 = math.absf %8 : tensor<2x3xf32> loc("abs")
  // CHECK-NEXT: %ceil = tgraph.ceil %abs : tensor<2x3xf32>
  %10 = math.ceil %9 : tensor<2x3xf32> loc("ceil")
  // CHECK-NEXT: %floor = tgraph.floor %ceil : tensor<2x3xf32>
  %11 = math.floor %10 : tensor<2x3xf32> loc("floor")
  // CHECK-NEXT: %round = tgraph.round_nearest_afz %floor : tensor<2x3xf32>
  %12 = math.round %11 : tensor<2x3xf32> loc("round")
  // CHECK-NEXT: %roundeven = tgraph.round_nearest_even %round : tensor<2x3xf32>
  %13 = math.roundeven %12 : tensor<2x3xf32> loc("roundeven")
  // CHECK-NEXT: %sin = tgraph.sine %roundeven : tensor<2x3xf32>
  %14 = math.sin %13 : tensor<2x3xf32> loc("sin")
  // CHECK-NEXT: %cos = tgraph.cosine %sin : tensor<2x3xf32>
  %15 = math.cos %14 : tensor<2x3xf32> loc("cos")
  // CHECK-NEXT: %tan = tgraph.tan %cos : tensor<2x3xf32>
  %16 = math.tan %15 : tensor<2x3xf32> loc("tan")
  // CHECK-NEXT: return %tan
  return %16 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @binary
func.func @binary(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK: %pow = tgraph.power %arg0, %arg1 : tensor<4xf32>
  %0 = math.powf %a, %b : tensor<4xf32> loc("pow")
  // CHECK: %atan2 = tgraph.atan2 %arg0, %arg1 : tensor<4xf32>
  %1 = math.atan2 %a, %b : tensor<4xf32> loc("atan2")
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @integer
func.func @integer(%i: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  // CHECK: %absi = tgraph.abs %arg0 : tensor<4xi32>
  %0 = math.absi %i : tensor<4xi32> loc("absi")
  // CHECK: %clz = tgraph.count_leading_zeros %arg0 : tensor<4xi32>
  %1 = math.ctlz %i : tensor<4xi32> loc("clz")
  // CHECK: %pop = tgraph.popcnt %arg0 : tensor<4xi32>
  %2 = math.ctpop %i : tensor<4xi32> loc("pop")
  return %0, %1, %2 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// atan(x) is atan2(x, 1); trunc(x) is ceil below zero, floor elsewhere.
// CHECK-LABEL: func.func @rewritten
func.func @rewritten(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK: %atan.constant = tgraph.constant dense<1.000000e+00> : tensor<4xf32>
  // CHECK-NEXT: %atan = tgraph.atan2 %arg0, %atan.constant : tensor<4xf32>
  %0 = math.atan %x : tensor<4xf32> loc("atan")
  // CHECK-NEXT: %trunc.constant = tgraph.constant dense<0.000000e+00> : tensor<4xf32>
  // CHECK-NEXT: %trunc.compare = tgraph.compare LT, %arg0, %trunc.constant : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK-NEXT: %trunc.ceil = tgraph.ceil %arg0 : tensor<4xf32>
  // CHECK-NEXT: %trunc.floor = tgraph.floor %arg0 : tensor<4xf32>
  // CHECK-NEXT: %trunc = tgraph.select %trunc.compare, %trunc.ceil, %trunc.floor : tensor<4xi1>, tensor<4xf32>
  %1 = math.trunc %x : tensor<4xf32> loc("trunc")
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// Mixed with TOSA in one function, as an export writes GELU:
// x * 0.5 * (1 + erf(x / sqrt 2)).
// CHECK-LABEL: func.func @gelu
func.func @gelu(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %half = "tosa.const"() {value = dense<0.5> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %one = "tosa.const"() {value = dense<1.0> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %rsqrt2 = "tosa.const"() {value = dense<0.707106769> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  // CHECK: %scaled = tgraph.multiply %arg0, %scaled.broadcast_in_dim
  %0 = "tosa.mul"(%x, %rsqrt2) {shift = 0 : i8} : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32> loc("scaled")
  // CHECK: %erf = tgraph.erf %scaled : tensor<1x4xf32>
  %1 = math.erf %0 : tensor<1x4xf32> loc("erf")
  // CHECK: %plus_one = tgraph.add %erf, %plus_one.broadcast_in_dim
  %2 = "tosa.add"(%1, %one) : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32> loc("plus_one")
  %3 = "tosa.mul"(%x, %half) {shift = 0 : i8} : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %4 = "tosa.mul"(%3, %2) {shift = 0 : i8} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  // CHECK-NOT: math.
  // CHECK-NOT: tosa.
  return %4 : tensor<1x4xf32>
}
