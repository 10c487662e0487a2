// Scalar ops of the exported dialects are not imported (tgraph holds no
// scalars). Once the tensor ops reading them are imported, unused ones go;
// one still in use (here a scalar the function returns) stays, with its
// index constant, and a warning at the op whose value leaves the chain.
// RUN: tessera-opt %s --convert-tosa-to-tgraph -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @forward
func.func @forward(%x: tensor<4xf32>) -> (tensor<4xf32>, f32) {
  // CHECK-NEXT: %c0 = arith.constant 0 : index
  %c0 = arith.constant 0 : index
  // Dead once the slice below has read it.
  %c1 = arith.constant 1 : index
  // CHECK-NEXT: %[[E:.*]] = tensor.extract %arg0[%c0] : tensor<4xf32>
  // expected-warning @+1 {{convert-tosa-to-tgraph: 'tensor.extract' has a scalar result still used by 'func.return'; tgraph holds tensors only, so it is not imported}}
  %f = tensor.extract %x[%c0] : tensor<4xf32>
  %unused = arith.addf %f, %f : f32
  // CHECK-NEXT: %[[S:.*]] = tgraph.slice %arg0, start = [1]
  %s = tensor.extract_slice %x[%c1] [2] [1] : tensor<4xf32> to tensor<2xf32>
  // CHECK-NEXT: %[[C:.*]] = tgraph.concatenate(%[[S]], %[[S]]) dim = 0
  %t = tensor.concat dim(0) %s, %s : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  // CHECK-NEXT: return %[[C]], %[[E]]
  return %t, %f : tensor<4xf32>, f32
}
