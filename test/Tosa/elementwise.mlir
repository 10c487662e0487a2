// Elementwise families: TOSA's implicit broadcasting becomes explicit
// broadcast_in_dim, comparisons become compare, clamp gets its bounds as
// constants of the element type, and ops keep their NameLoc as result name.
// RUN: tessera-opt %s --convert-tosa-to-tgraph | FileCheck %s

// CHECK-LABEL: func.func @broadcast_add
func.func @broadcast_add(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>) -> tensor<2x3xf32> {
  // Helpers of a named op are named after it; the replacing op takes the name.
  // CHECK: %sum.broadcast_in_dim = tgraph.broadcast_in_dim %arg1, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<2x3xf32>
  // CHECK: %sum = tgraph.add %arg0, %sum.broadcast_in_dim : tensor<2x3xf32>
  // CHECK: return %sum
  %0 = "tosa.add"(%a, %b) : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32> loc("sum")
  return %0 : tensor<2x3xf32>
}

// Both operands stretch: [4,1] and [1,5] to [4,5].
// CHECK-LABEL: func.func @both_broadcast
func.func @both_broadcast(%a: tensor<4x1xf32>, %b: tensor<1x5xf32>) -> tensor<4x5xf32> {
  // CHECK: tgraph.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x5xf32>
  // CHECK: tgraph.broadcast_in_dim %arg1, dims = [0, 1] : (tensor<1x5xf32>) -> tensor<4x5xf32>
  // CHECK: tgraph.subtract {{.*}} : tensor<4x5xf32>
  %0 = "tosa.sub"(%a, %b) : (tensor<4x1xf32>, tensor<1x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// CHECK-LABEL: func.func @mul_shift
func.func @mul_shift(%a: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  // shift = 0 is a plain multiply.
  // CHECK: tgraph.multiply %arg0, %arg0 : tensor<4xf32>
  %0 = "tosa.mul"(%a, %a) {shift = 0 : i8} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // A shifting integer mul has no tgraph form: kept, with the reason.
  // CHECK: tgraph.unknown "tosa.mul"(%arg1, %arg1) {hlo_attributes = {reason = "mul with shift = 3 (rounding right shift of the product) has no tgraph equivalent", shift = "3 : i8"}} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = "tosa.mul"(%i, %i) {shift = 3 : i8} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0, %1 : tensor<4xf32>, tensor<4xi32>
}

// CHECK-LABEL: func.func @compare
func.func @compare(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>) -> (tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>) {
  // CHECK: %[[B:.*]] = tgraph.broadcast_in_dim %arg1, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x3xf32>
  // CHECK: tgraph.compare GT, %arg0, %[[B]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %0 = "tosa.greater"(%a, %b) : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xi1>
  // CHECK: tgraph.compare GE, %arg0, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %1 = "tosa.greater_equal"(%a, %b) : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xi1>
  // CHECK: tgraph.compare EQ, %arg0, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %2 = "tosa.equal"(%a, %b) : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xi1>
  return %0, %1, %2 : tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>
}

// ReLU6 as TFLite writes it: float bounds for f32, integer bounds for i32.
// CHECK-LABEL: func.func @clamp
func.func @clamp(%x: tensor<8xf32>, %i: tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
  // CHECK-DAG: %[[LO:.*]] = tgraph.constant dense<0.000000e+00> : tensor<f32>
  // CHECK-DAG: %[[HI:.*]] = tgraph.constant dense<6.000000e+00> : tensor<f32>
  // CHECK: tgraph.clamp %[[LO]], %arg0, %[[HI]] : (tensor<f32>, tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %0 = "tosa.clamp"(%x) {max_fp = 6.000000e+00 : f32, max_int = 6 : i64, min_fp = 0.000000e+00 : f32, min_int = 0 : i64} : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK-DAG: %[[ILO:.*]] = tgraph.constant dense<-5> : tensor<i32>
  // CHECK-DAG: %[[IHI:.*]] = tgraph.constant dense<7> : tensor<i32>
  // CHECK: tgraph.clamp %[[ILO]], %arg1, %[[IHI]] : (tensor<i32>, tensor<8xi32>, tensor<i32>) -> tensor<8xi32>
  %1 = "tosa.clamp"(%i) {max_fp = 7.0 : f32, max_int = 7 : i64, min_fp = -5.0 : f32, min_int = -5 : i64} : (tensor<8xi32>) -> tensor<8xi32>
  return %0, %1 : tensor<8xf32>, tensor<8xi32>
}

// CHECK-LABEL: func.func @unary
func.func @unary(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[S:.*]] = tgraph.logistic %arg0 : tensor<4xf32>
  // CHECK: %[[T:.*]] = tgraph.tanh %[[S]] : tensor<4xf32>
  // CHECK: %[[R:.*]] = tgraph.rsqrt %[[T]] : tensor<4xf32>
  // CHECK: %[[ONE:.*]] = tgraph.constant dense<1.000000e+00> : tensor<4xf32>
  // CHECK: %[[REC:.*]] = tgraph.divide %[[ONE]], %[[R]] : tensor<4xf32>
  // CHECK: %[[E:.*]] = tgraph.exponential %[[REC]] : tensor<4xf32>
  // CHECK: %[[L:.*]] = tgraph.log %[[E]] : tensor<4xf32>
  // CHECK: %[[A:.*]] = tgraph.abs %[[L]] : tensor<4xf32>
  // CHECK: %[[N:.*]] = tgraph.negate %[[A]] : tensor<4xf32>
  // CHECK: %[[F:.*]] = tgraph.floor %[[N]] : tensor<4xf32>
  // CHECK: %[[C:.*]] = tgraph.ceil %[[F]] : tensor<4xf32>
  // CHECK: return %[[C]]
  %0 = "tosa.sigmoid"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "tosa.tanh"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "tosa.rsqrt"(%1) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = "tosa.reciprocal"(%2) : (tensor<4xf32>) -> tensor<4xf32>
  %4 = "tosa.exp"(%3) : (tensor<4xf32>) -> tensor<4xf32>
  %5 = "tosa.log"(%4) : (tensor<4xf32>) -> tensor<4xf32>
  %6 = "tosa.abs"(%5) : (tensor<4xf32>) -> tensor<4xf32>
  %7 = "tosa.negate"(%6) : (tensor<4xf32>) -> tensor<4xf32>
  %8 = "tosa.floor"(%7) : (tensor<4xf32>) -> tensor<4xf32>
  %9 = "tosa.ceil"(%8) : (tensor<4xf32>) -> tensor<4xf32>
  // identity disappears: its user reads the operand.
  %10 = "tosa.identity"(%9) : (tensor<4xf32>) -> tensor<4xf32>
  return %10 : tensor<4xf32>
}

// CHECK-LABEL: func.func @select_cast
func.func @select_cast(%p: tensor<1x4xi1>, %a: tensor<2x4xf32>, %b: tensor<2x4xf32>) -> tensor<2x4xi32> {
  // CHECK: %[[P:.*]] = tgraph.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<1x4xi1>) -> tensor<2x4xi1>
  // CHECK: %[[S:.*]] = tgraph.select %[[P]], %arg1, %arg2 : tensor<2x4xi1>, tensor<2x4xf32>
  // CHECK: tgraph.convert %[[S]] : tensor<2x4xf32> -> tensor<2x4xi32>
  %0 = "tosa.select"(%p, %a, %b) : (tensor<1x4xi1>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %1 = "tosa.cast"(%0) : (tensor<2x4xf32>) -> tensor<2x4xi32>
  return %1 : tensor<2x4xi32>
}
