// Round trip of the elementwise families: custom syntax in, the same syntax
// out, and again through the generic form.
// RUN: tessera-opt %s | tessera-opt | FileCheck %s
// RUN: tessera-opt %s --mlir-print-op-generic | tessera-opt | FileCheck %s

// CHECK-LABEL: func.func @unary
func.func @unary(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>) {
  // CHECK-NEXT: tgraph.abs %arg0 : tensor<4x8xf32>
  %abs = tgraph.abs %x : tensor<4x8xf32>
  // CHECK-NEXT: tgraph.negate %arg0 : tensor<4x8xf32>
  %negate = tgraph.negate %x : tensor<4x8xf32>
  // CHECK-NEXT: tgraph.exponential %arg0 : tensor<4x8xf32>
  %exponential = tgraph.exponential %x : tensor<4x8xf32>
  // CHECK-NEXT: tgraph.exponential_minus_one %arg0 : tensor<4x8xf32>
  %exponential_minus_one = tgraph.exponential_minus_one %x : tensor<4x8xf32>
  // CHECK-NEXT: tgraph.log %arg0 : tensor<4x8xf32>
  %log = tgraph.log %x : tensor<4x8xf32>
  // CHECK-NEXT: tgraph.log_plus_one %arg0 : tensor<4x8xf32>
  %log_plus_one = tgraph.log_plus_one %x : tensor<4x8xf32>
  // CHECK-NEXT: tgraph.sqrt %arg0 : tensor<4x8xf32>
  %sqrt = tgraph.sqrt %x : tensor<4x8xf32>
  // CHECK-NEXT: tgraph.rsqrt %arg0 : tensor<4x8xf32>
  %rsqrt = tgraph.rsqrt %x : tensor<4x8xf32>
  // CHECK-NEXT: tgraph.cbrt %arg0 : tensor<4x8xf32>
  %cbrt = tgraph.cbrt %x : tensor<4x8xf32>
  // CHECK-NEXT: tgraph.tanh %arg0 : tensor<4x8xf32>
  %tanh = tgraph.tanh %x : tensor<4x8xf32>
  // CHECK-NEXT: tgraph.logistic %arg0 : tensor<4x8xf32>
  %logistic = tgraph.logistic %x : tensor<4x8xf32>
  // CHECK-NEXT: tgraph.sign %arg0 : tensor<4x8xf32>
  %sign = tgraph.sign %x : tensor<4x8xf32>
  // CHECK-NEXT: tgraph.floor %arg0 : tensor<4x8xf32>
  %floor = tgraph.floor %x : tensor<4x8xf32>
  // CHECK-NEXT: tgraph.ceil %arg0 : tensor<4x8xf32>
  %ceil = tgraph.ceil %x : tensor<4x8xf32>
  // CHECK-NEXT: tgraph.round_nearest_afz %arg0 : tensor<4x8xf32>
  %round_nearest_afz = tgraph.round_nearest_afz %x : tensor<4x8xf32>
  // CHECK-NEXT: tgraph.round_nearest_even %arg0 : tensor<4x8xf32>
  %round_nearest_even = tgraph.round_nearest_even %x : tensor<4x8xf32>
  // CHECK-NEXT: tgraph.cosine %arg0 : tensor<4x8xf32>
  %cosine = tgraph.cosine %x : tensor<4x8xf32>
  // CHECK-NEXT: tgraph.sine %arg0 : tensor<4x8xf32>
  %sine = tgraph.sine %x : tensor<4x8xf32>
  // CHECK-NEXT: tgraph.tan %arg0 : tensor<4x8xf32>
  %tan = tgraph.tan %x : tensor<4x8xf32>
  // CHECK-NEXT: tgraph.erf %arg0 : tensor<4x8xf32>
  %erf = tgraph.erf %x : tensor<4x8xf32>
  // CHECK-NEXT: tgraph.copy %arg0 : tensor<4x8xf32>
  %copy = tgraph.copy %x : tensor<4x8xf32>
  // CHECK-NEXT: tgraph.not %arg1 : tensor<4x8xi32>
  %not = tgraph.not %i : tensor<4x8xi32>
  // CHECK-NEXT: tgraph.popcnt %arg1 : tensor<4x8xi32>
  %popcnt = tgraph.popcnt %i : tensor<4x8xi32>
  // CHECK-NEXT: tgraph.count_leading_zeros %arg1 : tensor<4x8xi32>
  %count_leading_zeros = tgraph.count_leading_zeros %i : tensor<4x8xi32>
  return
}

// CHECK-LABEL: func.func @binary
func.func @binary(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xi32>, %j: tensor<4xi32>) {
  // CHECK-NEXT: tgraph.add %arg0, %arg1 : tensor<4xf32>
  %add = tgraph.add %a, %b : tensor<4xf32>
  // CHECK-NEXT: tgraph.subtract %arg0, %arg1 : tensor<4xf32>
  %subtract = tgraph.subtract %a, %b : tensor<4xf32>
  // CHECK-NEXT: tgraph.multiply %arg0, %arg1 : tensor<4xf32>
  %multiply = tgraph.multiply %a, %b : tensor<4xf32>
  // CHECK-NEXT: tgraph.divide %arg0, %arg1 : tensor<4xf32>
  %divide = tgraph.divide %a, %b : tensor<4xf32>
  // CHECK-NEXT: tgraph.remainder %arg0, %arg1 : tensor<4xf32>
  %remainder = tgraph.remainder %a, %b : tensor<4xf32>
  // CHECK-NEXT: tgraph.power %arg0, %arg1 : tensor<4xf32>
  %power = tgraph.power %a, %b : tensor<4xf32>
  // CHECK-NEXT: tgraph.maximum %arg0, %arg1 : tensor<4xf32>
  %maximum = tgraph.maximum %a, %b : tensor<4xf32>
  // CHECK-NEXT: tgraph.minimum %arg0, %arg1 : tensor<4xf32>
  %minimum = tgraph.minimum %a, %b : tensor<4xf32>
  // CHECK-NEXT: tgraph.atan2 %arg0, %arg1 : tensor<4xf32>
  %atan2 = tgraph.atan2 %a, %b : tensor<4xf32>
  // CHECK-NEXT: tgraph.and %arg2, %arg3 : tensor<4xi32>
  %and = tgraph.and %i, %j : tensor<4xi32>
  // CHECK-NEXT: tgraph.or %arg2, %arg3 : tensor<4xi32>
  %or = tgraph.or %i, %j : tensor<4xi32>
  // CHECK-NEXT: tgraph.xor %arg2, %arg3 : tensor<4xi32>
  %xor = tgraph.xor %i, %j : tensor<4xi32>
  // CHECK-NEXT: tgraph.shift_left %arg2, %arg3 : tensor<4xi32>
  %shift_left = tgraph.shift_left %i, %j : tensor<4xi32>
  // CHECK-NEXT: tgraph.shift_right_arithmetic %arg2, %arg3 : tensor<4xi32>
  %shift_right_arithmetic = tgraph.shift_right_arithmetic %i, %j : tensor<4xi32>
  // CHECK-NEXT: tgraph.shift_right_logical %arg2, %arg3 : tensor<4xi32>
  %shift_right_logical = tgraph.shift_right_logical %i, %j : tensor<4xi32>
  return
}

// CHECK-LABEL: func.func @predicates
func.func @predicates(%a: tensor<4xf32>, %b: tensor<4xf32>, %p: tensor<4xi1>, %q: tensor<i1>) {
  // CHECK-NEXT: tgraph.compare EQ, %arg0, %arg1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %eq = tgraph.compare EQ, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK-NEXT: tgraph.compare NE, %arg0, %arg1 {compare_type = "TOTALORDER"}
  %ne = tgraph.compare NE, %a, %b {compare_type = "TOTALORDER"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK-NEXT: tgraph.compare GE,
  %ge = tgraph.compare GE, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK-NEXT: tgraph.compare GT,
  %gt = tgraph.compare GT, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK-NEXT: tgraph.compare LE,
  %le = tgraph.compare LE, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK-NEXT: tgraph.compare LT,
  %lt = tgraph.compare LT, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK-NEXT: tgraph.is_finite %arg0 : (tensor<4xf32>) -> tensor<4xi1>
  %fin = tgraph.is_finite %a : (tensor<4xf32>) -> tensor<4xi1>
  // CHECK-NEXT: tgraph.select %arg2, %arg0, %arg1 : tensor<4xi1>, tensor<4xf32>
  %sel = tgraph.select %p, %a, %b : tensor<4xi1>, tensor<4xf32>
  // A scalar predicate selects whole tensors.
  // CHECK-NEXT: tgraph.select %arg3, %arg0, %arg1 : tensor<i1>, tensor<4xf32>
  %sel0 = tgraph.select %q, %a, %b : tensor<i1>, tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @select_tuple
func.func @select_tuple(%q: tensor<i1>, %t: tuple<tensor<4xf32>, tensor<i32>>) {
  // CHECK-NEXT: tgraph.select %arg0, %arg1, %arg1 : tensor<i1>, tuple<tensor<4xf32>, tensor<i32>>
  %s = tgraph.select %q, %t, %t : tensor<i1>, tuple<tensor<4xf32>, tensor<i32>>
  return
}

// CHECK-LABEL: func.func @conversions
func.func @conversions(%x: tensor<4xf32>, %lo: tensor<f32>, %hi: tensor<4xf32>) {
  // CHECK-NEXT: tgraph.clamp %arg1, %arg0, %arg2 : (tensor<f32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %c = tgraph.clamp %lo, %x, %hi : (tensor<f32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK-NEXT: tgraph.convert %arg0 : tensor<4xf32> -> tensor<4xbf16>
  %cv = tgraph.convert %x : tensor<4xf32> -> tensor<4xbf16>
  // CHECK-NEXT: tgraph.bitcast_convert %arg0 : tensor<4xf32> -> tensor<4xi32>
  %bc = tgraph.bitcast_convert %x : tensor<4xf32> -> tensor<4xi32>
  // CHECK-NEXT: tgraph.bitcast %arg0 : tensor<4xf32> -> tensor<2x2xf32>
  %b = tgraph.bitcast %x : tensor<4xf32> -> tensor<2x2xf32>
  // CHECK-NEXT: tgraph.reduce_precision %arg0, exponent_bits = 5, mantissa_bits = 10 : tensor<4xf32>
  %rp = tgraph.reduce_precision %x, exponent_bits = 5, mantissa_bits = 10 : tensor<4xf32>
  return
}

// Dynamic dimensions are allowed wherever shapes agree.
// CHECK-LABEL: func.func @dynamic
func.func @dynamic(%a: tensor<?x8xf32>) {
  // CHECK-NEXT: tgraph.add %arg0, %arg0 : tensor<?x8xf32>
  %s = tgraph.add %a, %a : tensor<?x8xf32>
  // CHECK-NEXT: tgraph.convert %arg0 : tensor<?x8xf32> -> tensor<?x8xf16>
  %c = tgraph.convert %a : tensor<?x8xf32> -> tensor<?x8xf16>
  return
}
