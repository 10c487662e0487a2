// tgraph already in the input is left alone (even an unused constant);
// TOSA constants that only carried an attribute are dropped after use.
// RUN: tessera-opt %s --convert-tosa-to-tgraph | FileCheck %s

// CHECK-LABEL: func.func @mixed
func.func @mixed(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // CHECK: %keep = tgraph.constant dense<7.000000e+00> : tensor<f32>
  %keep = tgraph.constant dense<7.0> : tensor<f32> loc("keep")
  // CHECK-NEXT: %t = tgraph.transpose %arg0, permutation = [1, 0]
  // CHECK-NEXT: %e = tgraph.exponential %t : tensor<3x2xf32>
  // CHECK-NEXT: return %e
  %p = "tosa.const"() {value = dense<[1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %t = "tosa.transpose"(%x, %p) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32> loc("t")
  %e = tgraph.exponential %t : tensor<3x2xf32> loc("e")
  return %e : tensor<3x2xf32>
}
