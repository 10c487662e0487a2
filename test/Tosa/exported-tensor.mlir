// tensor ops as exports write them beside TOSA: slices, inserts, concat,
// reshapes, pad and empty destinations become tgraph data movement; index
// constants are read as attributes and then dropped.
// RUN: tessera-opt %s --convert-tosa-to-tgraph | FileCheck %s

// BERT's pooler takes the first token: a rank-reducing slice is a slice
// then a reshape that drops the unit dimension.
// CHECK-LABEL: func.func @extract_slice
func.func @extract_slice(%x: tensor<2x8x16xf32>) -> (tensor<2x16xf32>, tensor<2x3x4xf32>) {
  // CHECK: %cls.slice = tgraph.slice %arg0, start = [0, 0, 0], limit = [2, 1, 16], strides = [1, 1, 1] : (tensor<2x8x16xf32>) -> tensor<2x1x16xf32>
  // CHECK-NEXT: %cls = tgraph.reshape %cls.slice : (tensor<2x1x16xf32>) -> tensor<2x16xf32>
  %0 = tensor.extract_slice %x[0, 0, 0] [2, 1, 16] [1, 1, 1] : tensor<2x8x16xf32> to tensor<2x16xf32> loc("cls")
  // Strided, with an offset given as an index constant: the limit is one
  // past the last element taken (1 + 2 * 2 + 1 = 6, 3 + 3 * 4 + 1 = 16).
  %c3 = arith.constant 3 : index
  // CHECK-NEXT: %strided = tgraph.slice %arg0, start = [0, 1, 3], limit = [2, 6, 16], strides = [1, 2, 4] : (tensor<2x8x16xf32>) -> tensor<2x3x4xf32>
  %1 = tensor.extract_slice %x[0, 1, %c3] [2, 3, 4] [1, 2, 4] : tensor<2x8x16xf32> to tensor<2x3x4xf32> loc("strided")
  // CHECK-NOT: arith.constant
  return %0, %1 : tensor<2x16xf32>, tensor<2x3x4xf32>
}

// Unit strides: dynamic_update_slice at constant starts; into an empty
// destination, which is zeros (its contents are undefined).
// CHECK-LABEL: func.func @insert_slice
func.func @insert_slice(%x: tensor<3xf32>) -> tensor<2x5xf32> {
  // CHECK: %dest = tgraph.constant dense<0.000000e+00> : tensor<2x5xf32>
  %e = tensor.empty() : tensor<2x5xf32> loc("dest")
  // CHECK-NEXT: %put.reshape = tgraph.reshape %arg0 : (tensor<3xf32>) -> tensor<1x3xf32>
  // CHECK-NEXT: %put.constant = tgraph.constant dense<1> : tensor<i32>
  // CHECK-NEXT: %put.constant_0 = tgraph.constant dense<2> : tensor<i32>
  // CHECK-NEXT: %put = tgraph.dynamic_update_slice %dest, %put.reshape[%put.constant, %put.constant_0] : (tensor<2x5xf32>, tensor<1x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x5xf32>
  %0 = tensor.insert_slice %x into %e[1, 2] [1, 3] [1, 1] : tensor<3xf32> into tensor<2x5xf32> loc("put")
  return %0 : tensor<2x5xf32>
}

// Strides above 1: the source is spread by interior padding and a mask
// padded the same way picks it over the destination.
// CHECK-LABEL: func.func @insert_strided
func.func @insert_strided(%x: tensor<2xf32>, %d: tensor<6xf32>) -> tensor<6xf32> {
  // CHECK: %put.constant = tgraph.constant dense<0.000000e+00> : tensor<f32>
  // CHECK-NEXT: %put.pad = tgraph.pad %arg0, %put.constant, low = [1], high = [1], interior = [2] : (tensor<2xf32>, tensor<f32>) -> tensor<6xf32>
  // CHECK-NEXT: %put.constant_0 = tgraph.constant dense<true> : tensor<2xi1>
  // CHECK-NEXT: %put.constant_1 = tgraph.constant dense<false> : tensor<i1>
  // CHECK-NEXT: %put.pad_2 = tgraph.pad %put.constant_0, %put.constant_1, low = [1], high = [1], interior = [2] : (tensor<2xi1>, tensor<i1>) -> tensor<6xi1>
  // CHECK-NEXT: %put = tgraph.select %put.pad_2, %put.pad, %arg1 : tensor<6xi1>, tensor<6xf32>
  %0 = tensor.insert_slice %x into %d[1] [2] [3] : tensor<2xf32> into tensor<6xf32> loc("put")
  return %0 : tensor<6xf32>
}

// CHECK-LABEL: func.func @concat_reshape
func.func @concat_reshape(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> (tensor<2x2x4xf32>, tensor<16xf32>) {
  // CHECK: %cat = tgraph.concatenate(%arg0, %arg1) dim = 1 : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  %0 = tensor.concat dim(1) %a, %b : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32> loc("cat")
  // CHECK-NEXT: %heads = tgraph.reshape %cat : (tensor<2x8xf32>) -> tensor<2x2x4xf32>
  %1 = tensor.expand_shape %0 [[0], [1, 2]] output_shape [2, 2, 4] : tensor<2x8xf32> into tensor<2x2x4xf32> loc("heads")
  // CHECK-NEXT: %flat = tgraph.reshape %cat : (tensor<2x8xf32>) -> tensor<16xf32>
  %2 = tensor.collapse_shape %0 [[0, 1]] : tensor<2x8xf32> into tensor<16xf32> loc("flat")
  return %1, %2 : tensor<2x2x4xf32>, tensor<16xf32>
}

// The pad value the region yields is a constant, inside the region or
// outside it; amounts may be index constants.
// CHECK-LABEL: func.func @pad
func.func @pad(%x: tensor<2x3xf32>) -> (tensor<3x6xf32>, tensor<2x4xf32>) {
  // CHECK: %p.constant = tgraph.constant dense<-1.000000e+00> : tensor<f32>
  // CHECK-NEXT: %p = tgraph.pad %arg0, %p.constant, low = [1, 0], high = [0, 3], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x6xf32>
  %c3 = arith.constant 3 : index
  %0 = tensor.pad %x low[1, 0] high[0, %c3] {
  ^bb0(%i: index, %j: index):
    %v = arith.constant -1.0 : f32
    tensor.yield %v : f32
  } : tensor<2x3xf32> to tensor<3x6xf32> loc("p")
  %zero = arith.constant 0.0 : f32
  // CHECK-NEXT: %q.constant = tgraph.constant dense<0.000000e+00> : tensor<f32>
  // CHECK-NEXT: %q = tgraph.pad %arg0, %q.constant, low = [0, 1], high = [0, 0]
  %1 = tensor.pad %x low[0, 1] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<2x3xf32> to tensor<2x4xf32> loc("q")
  // CHECK-NOT: arith.
  return %0, %1 : tensor<3x6xf32>, tensor<2x4xf32>
}

// CHECK-LABEL: func.func @splat
func.func @splat() -> tensor<2x2xf32> {
  %c = arith.constant 2.5 : f32
  // CHECK: %s = tgraph.constant dense<2.500000e+00> : tensor<2x2xf32>
  %0 = tensor.splat %c : tensor<2x2xf32> loc("s")
  return %0 : tensor<2x2xf32>
}
