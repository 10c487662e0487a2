// Every verifier rule of the tgraph dialect, one case per distinct message.
// RUN: tessera-opt %s -split-input-file -verify-diagnostics

// Constant: value and elided marker are exclusive.
func.func @f0() {
  // expected-error @+1 {{needs exactly one of a value or the 'elided' marker}}
  %0 = "tgraph.constant"() {value = dense<1.0> : tensor<2xf32>, elided} : () -> tensor<2xf32>
  return
}

// -----

func.func @f1() {
  // expected-error @+1 {{needs exactly one of a value or the 'elided' marker}}
  %0 = "tgraph.constant"() : () -> tensor<2xf32>
  return
}

// -----

func.func @f2() {
  // expected-error @+1 {{value type 'tensor<2xf32>' differs from result type 'tensor<3xf32>'}}
  %0 = "tgraph.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<3xf32>
  return
}

// -----

func.func @f3() {
  // expected-error @+1 {{iota dimension 2 is out of range for rank 2}}
  %0 = tgraph.iota dim = 2 : tensor<4x8xi32>
  return
}

// -----

// Negative attributes are reported as written (I64Attr getters are unsigned).
func.func @f4() {
  // expected-error @+1 {{iota dimension -1 is out of range for rank 2}}
  %0 = tgraph.iota dim = -1 : tensor<4x8xi32>
  return
}

// -----

func.func @f5(%x: tensor<4xf32>) {
  // expected-error @+1 {{all non-scalar operands/results must have the same shape and base type}}
  %0 = tgraph.is_finite %x : (tensor<4xf32>) -> tensor<3xi1>
  return
}

// -----

func.func @f6(%x: tensor<4xi32>) {
  // expected-error @+1 {{operand must have a floating-point element type}}
  %0 = tgraph.is_finite %x : (tensor<4xi32>) -> tensor<4xi1>
  return
}

// -----

func.func @f7(%x: tensor<4xf32>) {
  // expected-error @+1 {{result must have element type i1}}
  %0 = tgraph.is_finite %x : (tensor<4xf32>) -> tensor<4xi8>
  return
}

// -----

func.func @f8(%a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+1 {{operands must have one type, got 'tensor<4xf32>' and 'tensor<4xf16>'}}
  %0 = tgraph.compare EQ, %a, %b : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xi1>
  return
}

// -----

func.func @f9(%a: tensor<4xf32>) {
  // expected-error @+1 {{all non-scalar operands/results must have the same shape and base type}}
  %0 = tgraph.compare EQ, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<2x2xi1>
  return
}

// -----

func.func @f10(%a: tensor<4xf32>) {
  // expected-error @+1 {{result must have element type i1 (HLO pred)}}
  %0 = tgraph.compare EQ, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi32>
  return
}

// -----

func.func @f11(%a: tensor<4xf32>) {
  // expected-error @+1 {{unknown compare_type 'PARTIALORDER'}}
  %0 = tgraph.compare EQ, %a, %a {compare_type = "PARTIALORDER"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}

// -----

// A parse error, not a verifier one, but users meet it the same way.
func.func @f12(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected comparison direction (EQ, NE, GE, GT, LE, LT), got 'LESS'}}
  %0 = tgraph.compare LESS, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}

// -----

func.func @f13(%p: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+1 {{all of {on_true, on_false, result} have same type}}
  %0 = "tgraph.select"(%p, %a, %b) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @f14(%p: tensor<4xi32>, %a: tensor<4xf32>) {
  // expected-error @+1 {{predicate must have element type i1}}
  %0 = tgraph.select %p, %a, %a : tensor<4xi32>, tensor<4xf32>
  return
}

// -----

func.func @f15(%p: tensor<2xi1>, %a: tensor<4xf32>) {
  // expected-error @+1 {{predicate must be a scalar or have the result's shape}}
  %0 = tgraph.select %p, %a, %a : tensor<2xi1>, tensor<4xf32>
  return
}

// -----

// Tuples are selected whole, by a scalar predicate.
func.func @f16(%p: tensor<4xi1>, %t: tuple<tensor<4xf32>>) {
  // expected-error @+1 {{predicate must be a scalar or have the result's shape}}
  %0 = tgraph.select %p, %t, %t : tensor<4xi1>, tuple<tensor<4xf32>>
  return
}

// -----

func.func @f17(%lo: tensor<f16>, %x: tensor<4xf32>) {
  // expected-error @+1 {{bounds must have the operand's element type}}
  %0 = tgraph.clamp %lo, %x, %x : (tensor<f16>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f18(%lo: tensor<2xf32>, %x: tensor<4xf32>) {
  // expected-error @+1 {{bounds must be scalars or have the operand's shape}}
  %0 = tgraph.clamp %lo, %x, %x : (tensor<2xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f19(%x: tensor<4xf32>) {
  // expected-error @+1 {{result type must equal the operand type}}
  %0 = tgraph.clamp %x, %x, %x : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @f20(%x: tensor<4xf32>) {
  // expected-error @+1 {{all non-scalar operands/results must have the same shape and base type}}
  %0 = tgraph.convert %x : tensor<4xf32> -> tensor<2xf16>
  return
}

// -----

func.func @f21(%x: tensor<4xf32>) {
  // expected-error @+1 {{source_target_pairs must hold (source, target) pairs}}
  %0 = tgraph.collective_permute %x, pairs = [0, 1, 2] : tensor<4xf32>
  return
}

// -----

func.func @a2a(%x: tensor<4xf32>) {
  // expected-error @+1 {{dimension 1 is outside a tensor of rank 1}}
  %0 = tgraph.all_to_all %x, dim = 1 : tensor<4xf32>
  return
}

// -----

// Elementwise ops take one type: HLO broadcasts explicitly.
func.func @f22(%a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "tgraph.add"(%a, %b) : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @f23(%x: tensor<8xf32>) {
  // expected-error @+1 {{needs one broadcast dimension per operand dimension (1), got 2}}
  %0 = tgraph.broadcast_in_dim %x, dims = [0, 1] : (tensor<8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f24(%x: tensor<8xf32>) {
  // expected-error @+1 {{broadcast dimension 2 is out of range for rank 2}}
  %0 = tgraph.broadcast_in_dim %x, dims = [2] : (tensor<8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f25(%x: tensor<8x8xf32>) {
  // expected-error @+1 {{broadcast dimension 1 repeats}}
  %0 = tgraph.broadcast_in_dim %x, dims = [1, 1] : (tensor<8x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f26(%x: tensor<8xf32>) {
  // expected-error @+1 {{operand dimension 0 of size 8 cannot broadcast to result dimension 0 of size 4}}
  %0 = tgraph.broadcast_in_dim %x, dims = [0] : (tensor<8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f27(%x: tensor<8xf32>) {
  // expected-error @+1 {{result element type 'f16' differs from the operand's ('f32')}}
  %0 = tgraph.broadcast_in_dim %x, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf16>
  return
}

// -----

func.func @f28(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{reshape changes the element count from 32 to 30}}
  %0 = tgraph.reshape %x : (tensor<4x8xf32>) -> tensor<30xf32>
  return
}

// -----

func.func @f29(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{reshape keeps the element type}}
  %0 = tgraph.reshape %x : (tensor<4x8xf32>) -> tensor<32xi32>
  return
}

// -----

func.func @f30(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{permutation has 1 entries for rank 2}}
  %0 = tgraph.transpose %x, permutation = [0] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f31(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{permutation dimension 0 repeats}}
  %0 = tgraph.transpose %x, permutation = [0, 0] : (tensor<4x8xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @f32(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{result shape 'tensor<4x8xf32>' does not match the expected [8, 4]}}
  %0 = tgraph.transpose %x, permutation = [1, 0] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f33(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{result element type 'bf16' differs from the operand's ('f32')}}
  %0 = tgraph.transpose %x, permutation = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xbf16>
  return
}

// -----

func.func @f34(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{reverse dimension 2 is out of range for rank 2}}
  %0 = tgraph.reverse %x, dims = [2] : tensor<4x8xf32>
  return
}

// -----

func.func @f35(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{start, limit and strides need one entry per dimension (rank 2)}}
  %0 = tgraph.slice %x, start = [0], limit = [4], strides = [1] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f36(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{stride of dimension 1 must be positive}}
  %0 = tgraph.slice %x, start = [0, 0], limit = [4, 8], strides = [1, 0] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f37(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{slice [2:9] of dimension 1 is outside [0:8]}}
  %0 = tgraph.slice %x, start = [0, 2], limit = [4, 9], strides = [1, 1] : (tensor<4x8xf32>) -> tensor<4x7xf32>
  return
}

// -----

func.func @f38(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{result shape 'tensor<4x4xf32>' does not match the expected [4, 3]}}
  %0 = tgraph.slice %x, start = [0, 2], limit = [4, 8], strides = [1, 2] : (tensor<4x8xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @f39(%x: tensor<4x8xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{needs one start index per dimension (2), got 1}}
  %0 = tgraph.dynamic_slice %x[%i], sizes = [1, 8] : (tensor<4x8xf32>, tensor<i32>) -> tensor<1x8xf32>
  return
}

// -----

func.func @f40(%x: tensor<4x8xf32>, %i: tensor<1xi32>) {
  // expected-error @+1 {{start indices must be integer scalars}}
  %0 = tgraph.dynamic_slice %x[%i, %i], sizes = [1, 8] : (tensor<4x8xf32>, tensor<1xi32>, tensor<1xi32>) -> tensor<1x8xf32>
  return
}

// -----

func.func @f41(%x: tensor<4x8xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{needs one slice size per dimension}}
  %0 = tgraph.dynamic_slice %x[%i, %i], sizes = [1] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1xf32>
  return
}

// -----

func.func @f42(%x: tensor<4x8xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{slice size 9 of dimension 1 exceeds the operand}}
  %0 = tgraph.dynamic_slice %x[%i, %i], sizes = [1, 9] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x9xf32>
  return
}

// -----

func.func @f43(%x: tensor<4x8xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{result shape 'tensor<1x4xf32>' does not match the expected [1, 8]}}
  %0 = tgraph.dynamic_slice %x[%i, %i], sizes = [1, 8] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
  return
}

// -----

func.func @f44(%x: tensor<4x8xf32>, %u: tensor<8xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{update rank must equal the operand rank}}
  %0 = tgraph.dynamic_update_slice %x, %u[%i, %i] : (tensor<4x8xf32>, tensor<8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f45(%x: tensor<4x8xf32>, %u: tensor<5x8xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{update dimension 0 exceeds the operand}}
  %0 = tgraph.dynamic_update_slice %x, %u[%i, %i] : (tensor<4x8xf32>, tensor<5x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f46(%x: tensor<4x8xf32>, %u: tensor<1x8xf16>, %i: tensor<i32>) {
  // expected-error @+1 {{result element type 'f16' differs from the operand's ('f32')}}
  %0 = tgraph.dynamic_update_slice %x, %u[%i, %i] : (tensor<4x8xf32>, tensor<1x8xf16>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f47(%x: tensor<4x8xf32>, %u: tensor<1x8xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{result type must equal the operand type}}
  %0 = tgraph.dynamic_update_slice %x, %u[%i, %i] : (tensor<4x8xf32>, tensor<1x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x9xf32>
  return
}

// -----

func.func @f48() {
  // expected-error @+1 {{needs at least one input}}
  %0 = tgraph.concatenate() dim = 0 : () -> tensor<4xf32>
  return
}

// -----

func.func @f49(%a: tensor<2x8xf32>) {
  // expected-error @+1 {{dimension 2 is out of range for rank 2}}
  %0 = tgraph.concatenate(%a, %a) dim = 2 : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f50(%a: tensor<2x8xf32>, %b: tensor<2x8xf16>) {
  // expected-error @+1 {{input #1 differs in rank or element type}}
  %0 = tgraph.concatenate(%a, %b) dim = 0 : (tensor<2x8xf32>, tensor<2x8xf16>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f51(%a: tensor<2x8xf32>, %b: tensor<2x7xf32>) {
  // expected-error @+1 {{input #1 has size 7 in dimension 1, expected 8}}
  %0 = tgraph.concatenate(%a, %b) dim = 0 : (tensor<2x8xf32>, tensor<2x7xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f52(%a: tensor<2x8xf32>) {
  // expected-error @+1 {{result shape 'tensor<5x8xf32>' does not match the expected [4, 8]}}
  %0 = tgraph.concatenate(%a, %a) dim = 0 : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<5x8xf32>
  return
}

// -----

func.func @f53(%a: tensor<2x8xf32>) {
  // expected-error @+1 {{result element type 'f16' differs from the operand's ('f32')}}
  %0 = tgraph.concatenate(%a, %a) dim = 0 : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<4x8xf16>
  return
}

// -----

func.func @f54(%x: tensor<4xf32>, %z: tensor<1xf32>) {
  // expected-error @+1 {{padding value must be a 0-d tensor}}
  %0 = tgraph.pad %x, %z, low = [0], high = [0], interior = [0] : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f55(%x: tensor<4xf32>, %z: tensor<i32>) {
  // expected-error @+1 {{padding value and result must have the operand's element type}}
  %0 = tgraph.pad %x, %z, low = [0], high = [0], interior = [0] : (tensor<4xf32>, tensor<i32>) -> tensor<4xf32>
  return
}

// -----

func.func @f56(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{low, high and interior padding need one entry per dimension (rank 1)}}
  %0 = tgraph.pad %x, %z, low = [0, 0], high = [0], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @f57(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{interior padding of dimension 0 is negative}}
  %0 = tgraph.pad %x, %z, low = [0], high = [0], interior = [-1] : (tensor<4xf32>, tensor<f32>) -> tensor<1xf32>
  return
}

// -----

// Negative edges crop, but not past nothing.
func.func @f58(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{padding makes dimension 0 negative}}
  %0 = tgraph.pad %x, %z, low = [-3], high = [-2], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<0xf32>
  return
}

// -----

// Interior padding applies before negative edges crop: 4 + 3 - 2 = 5.
func.func @f59(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{result shape 'tensor<4xf32>' does not match the expected [5]}}
  %0 = tgraph.pad %x, %z, low = [-1], high = [-1], interior = [1] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @f60(%t: tensor<1000x64xf32>, %i: tensor<8x1xf32>) {
  // expected-error @+1 {{start indices must be integers}}
  %0 = tgraph.gather %t, %i {offset_dims = array<i64: 1>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 64>} : (tensor<1000x64xf32>, tensor<8x1xf32>) -> tensor<8x64xf32>
  return
}

// -----

func.func @f61(%t: tensor<1000x64xf32>, %i: tensor<8x1xi32>) {
  // expected-error @+1 {{result element type must equal the operand's}}
  %0 = tgraph.gather %t, %i {offset_dims = array<i64: 1>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 64>} : (tensor<1000x64xf32>, tensor<8x1xi32>) -> tensor<8x64xf16>
  return
}

// -----

func.func @f62(%t: tensor<1000x64xf32>, %i: tensor<8x1xi32>) {
  // expected-error @+1 {{index_vector_dim 3 is out of range [0, 2]}}
  %0 = tgraph.gather %t, %i {offset_dims = array<i64: 1>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>, index_vector_dim = 3 : i64, slice_sizes = array<i64: 1, 64>} : (tensor<1000x64xf32>, tensor<8x1xi32>) -> tensor<8x64xf32>
  return
}

// -----

func.func @f63(%t: tensor<1000x64xf32>, %i: tensor<8x1xi32>) {
  // expected-error @+1 {{needs one slice size per operand dimension}}
  %0 = tgraph.gather %t, %i {offset_dims = array<i64: 1>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1>} : (tensor<1000x64xf32>, tensor<8x1xi32>) -> tensor<8x64xf32>
  return
}

// -----

func.func @f64(%t: tensor<1000x64xf32>, %i: tensor<8x1xi32>) {
  // expected-error @+1 {{slice size 65 of dimension 1 exceeds the operand}}
  %0 = tgraph.gather %t, %i {offset_dims = array<i64: 1>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 65>} : (tensor<1000x64xf32>, tensor<8x1xi32>) -> tensor<8x65xf32>
  return
}

// -----

func.func @f65(%t: tensor<1000x64xf32>, %i: tensor<8x1xi32>) {
  // expected-error @+1 {{collapsed slice dimension 2 is out of range for rank 2}}
  %0 = tgraph.gather %t, %i {offset_dims = array<i64: 1>, collapsed_slice_dims = array<i64: 2>, start_index_map = array<i64: 0>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 64>} : (tensor<1000x64xf32>, tensor<8x1xi32>) -> tensor<8x64xf32>
  return
}

// -----

func.func @f66(%t: tensor<1000x64xf32>, %i: tensor<8x2xi32>) {
  // expected-error @+1 {{start index map dimension 0 repeats}}
  %0 = tgraph.gather %t, %i {offset_dims = array<i64: 1>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0, 0>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 64>} : (tensor<1000x64xf32>, tensor<8x2xi32>) -> tensor<8x64xf32>
  return
}

// -----

func.func @f67(%t: tensor<1000x64xf32>, %i: tensor<8x1xi32>) {
  // expected-error @+1 {{collapsed dimension 1 must have slice size 0 or 1}}
  %0 = tgraph.gather %t, %i {offset_dims = array<i64: 0>, collapsed_slice_dims = array<i64: 1>, start_index_map = array<i64: 0>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 64>} : (tensor<1000x64xf32>, tensor<8x1xi32>) -> tensor<8x1xf32>
  return
}

// -----

func.func @f68(%t: tensor<1000x64xf32>, %i: tensor<8x2xi32>) {
  // expected-error @+1 {{start_index_map has 1 entries but the index vector has 2}}
  %0 = tgraph.gather %t, %i {offset_dims = array<i64: 1>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 64>} : (tensor<1000x64xf32>, tensor<8x2xi32>) -> tensor<8x64xf32>
  return
}

// -----

func.func @f69(%t: tensor<1000x64xf32>, %i: tensor<8x1xi32>) {
  // expected-error @+1 {{result rank 3 should be 2 (batch dimensions + offset dimensions)}}
  %0 = tgraph.gather %t, %i {offset_dims = array<i64: 1>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 64>} : (tensor<1000x64xf32>, tensor<8x1xi32>) -> tensor<8x64x1xf32>
  return
}

// -----

func.func @f70(%t: tensor<1000x64xf32>, %i: tensor<8x1xi32>) {
  // expected-error @+1 {{offset_dims must be sorted}}
  %0 = tgraph.gather %t, %i {offset_dims = array<i64: 2, 1>, collapsed_slice_dims = array<i64>, start_index_map = array<i64: 0>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 64>} : (tensor<1000x64xf32>, tensor<8x1xi32>) -> tensor<8x64x1xf32>
  return
}

// -----

func.func @f71(%t: tensor<1000x64xf32>, %i: tensor<8x1xi32>) {
  // expected-error @+1 {{offset dimension 2 is out of range for rank 2}}
  %0 = tgraph.gather %t, %i {offset_dims = array<i64: 2>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 64>} : (tensor<1000x64xf32>, tensor<8x1xi32>) -> tensor<8x64xf32>
  return
}

// -----

func.func @f72(%t: tensor<1000x64xf32>, %i: tensor<8x1xi32>) {
  // expected-error @+1 {{offset_dims (1) and collapsed_slice_dims (0) must together cover the operand rank 2}}
  %0 = tgraph.gather %t, %i {offset_dims = array<i64: 1>, collapsed_slice_dims = array<i64>, start_index_map = array<i64: 0>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 64>} : (tensor<1000x64xf32>, tensor<8x1xi32>) -> tensor<8x64xf32>
  return
}

// -----

func.func @f73(%t: tensor<1000x64xf32>, %i: tensor<8x1xi32>) {
  // expected-error @+1 {{result shape 'tensor<8x32xf32>' does not match the expected [8, 64]}}
  %0 = tgraph.gather %t, %i {offset_dims = array<i64: 1>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 64>} : (tensor<1000x64xf32>, tensor<8x1xi32>) -> tensor<8x32xf32>
  return
}

// -----

func.func @f74(%t: tensor<1000x64xf32>, %i: tensor<8x1xi32>) {
  // expected-error @+1 {{result shape 'tensor<8x64xf32>' does not match the expected [64, 8]}}
  %0 = tgraph.gather %t, %i {offset_dims = array<i64: 0>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 64>} : (tensor<1000x64xf32>, tensor<8x1xi32>) -> tensor<8x64xf32>
  return
}

// -----

func.func @f75(%a: tensor<8x16x64xf32>, %b: tensor<64x32xf32>) {
  // expected-error @+1 {{lhs and rhs need as many batching dimensions}}
  %0 = tgraph.dot_general %a, %b, batching_dims = [0] x [], contracting_dims = [2] x [1] : (tensor<8x16x64xf32>, tensor<64x32xf32>) -> tensor<8x16x32xf32>
  return
}

// -----

func.func @f76(%a: tensor<16x64xf32>, %b: tensor<64x32xf32>) {
  // expected-error @+1 {{lhs and rhs need as many contracting dimensions}}
  %0 = tgraph.dot_general %a, %b, batching_dims = [] x [], contracting_dims = [1] x [] : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
  return
}

// -----

func.func @f77(%a: tensor<16x64xf32>, %b: tensor<64x32xf32>) {
  // expected-error @+1 {{lhs dimension 2 is out of range for rank 2}}
  %0 = tgraph.dot_general %a, %b, batching_dims = [] x [], contracting_dims = [2] x [0] : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
  return
}

// -----

func.func @f78(%a: tensor<8x64xf32>, %b: tensor<8x32xf32>) {
  // expected-error @+1 {{rhs dimension 0 repeats}}
  %0 = tgraph.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [1] x [0] : (tensor<8x64xf32>, tensor<8x32xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @f79(%a: tensor<16x64xf32>, %b: tensor<32x32xf32>) {
  // expected-error @+1 {{lhs dimension 1 (size 64) and rhs dimension 0 (size 32) must agree}}
  %0 = tgraph.dot_general %a, %b, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>
  return
}

// -----

func.func @f80(%a: tensor<8x16x64xf32>, %b: tensor<8x64x32xf32>) {
  // expected-error @+1 {{result shape 'tensor<16x32xf32>' does not match the expected [8, 16, 32]}}
  %0 = tgraph.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x16x64xf32>, tensor<8x64x32xf32>) -> tensor<16x32xf32>
  return
}

// -----

func.func @f81(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) {
  // expected-error @+1 {{dim_labels 'b01f_01io' must look like 'b01f_01io->b01f'}}
  %0 = tgraph.convolution %x, %w, dim_labels = "b01f_01io" : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return
}

// -----

func.func @f82(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) {
  // expected-error @+1 {{dim_labels part 'b02f' needs 'b', 'f' and spatial dimensions 0..1}}
  %0 = tgraph.convolution %x, %w, dim_labels = "b02f_01io->b01f" : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return
}

// -----

func.func @f83(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) {
  // expected-error @+1 {{dim_labels part 'bb1f' has unexpected or repeated label 'b'}}
  %0 = tgraph.convolution %x, %w, dim_labels = "bb1f_01io->b01f" : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return
}

// -----

func.func @f84(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) {
  // expected-error @+1 {{dim_labels 'b012f_01io->b01f' has different spatial ranks for input, kernel and output}}
  %0 = tgraph.convolution %x, %w, dim_labels = "b012f_01io->b01f" : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return
}

// -----

func.func @f85(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) {
  // expected-error @+1 {{dim_labels describe rank 3 but the operands and result have ranks 4, 4, 4}}
  %0 = tgraph.convolution %x, %w, dim_labels = "b0f_0io->b0f" : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return
}

// -----

func.func @f86(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) {
  // expected-error @+1 {{window_strides needs 2 entries, got 1}}
  %0 = tgraph.convolution %x, %w, dim_labels = "b01f_01io->b01f" {window_strides = array<i64: 2>} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return
}

// -----

func.func @f87(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) {
  // expected-error @+1 {{padding needs 4 entries, got 2}}
  %0 = tgraph.convolution %x, %w, dim_labels = "b01f_01io->b01f" {padding = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return
}

// -----

func.func @f88(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) {
  // expected-error @+1 {{lhs_dilation needs 2 entries, got 3}}
  %0 = tgraph.convolution %x, %w, dim_labels = "b01f_01io->b01f" {lhs_dilation = array<i64: 1, 1, 1>} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return
}

// -----

func.func @f89(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) {
  // expected-error @+1 {{rhs_dilation needs 2 entries, got 1}}
  %0 = tgraph.convolution %x, %w, dim_labels = "b01f_01io->b01f" {rhs_dilation = array<i64: 1>} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return
}

// -----

func.func @f90(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) {
  // expected-error @+1 {{window_reversal needs 2 entries, got 1}}
  %0 = tgraph.convolution %x, %w, dim_labels = "b01f_01io->b01f" {window_reversal = array<i1: true>} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return
}

// -----

func.func @f91(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) {
  // expected-error @+1 {{group counts must be positive}}
  %0 = tgraph.convolution %x, %w, dim_labels = "b01f_01io->b01f" {feature_group_count = 0 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return
}

// -----

func.func @f92(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x2x8xf32>) {
  // expected-error @+1 {{feature_group_count and batch_group_count cannot both exceed 1}}
  %0 = tgraph.convolution %x, %w, dim_labels = "b01f_01io->b01f" {feature_group_count = 2 : i64, batch_group_count = 2 : i64} : (tensor<2x8x8x4xf32>, tensor<3x3x2x8xf32>) -> tensor<1x6x6x8xf32>
  return
}

// -----

func.func @f93(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x1x6xf32>) {
  // expected-error @+1 {{kernel output features (6) must be a multiple of the group count (4)}}
  %0 = tgraph.convolution %x, %w, dim_labels = "b01f_01io->b01f" {feature_group_count = 4 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x1x6xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

func.func @f94(%x: tensor<3x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) {
  // expected-error @+1 {{input batch (3) must be a multiple of batch_group_count (2)}}
  %0 = tgraph.convolution %x, %w, dim_labels = "b01f_01io->b01f" {batch_group_count = 2 : i64} : (tensor<3x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return
}

// -----

func.func @f95(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) {
  // expected-error @+1 {{input features (4) must equal kernel input features (4) x feature_group_count (2)}}
  %0 = tgraph.convolution %x, %w, dim_labels = "b01f_01io->b01f" {feature_group_count = 2 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return
}

// -----

func.func @f96(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) {
  // expected-error @+1 {{strides and dilations must be positive}}
  %0 = tgraph.convolution %x, %w, dim_labels = "b01f_01io->b01f" {window_strides = array<i64: 0, 1>} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return
}

// -----

func.func @f97(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) {
  // expected-error @+1 {{result shape 'tensor<1x8x8x8xf32>' does not match the expected [1, 6, 6, 8]}}
  %0 = tgraph.convolution %x, %w, dim_labels = "b01f_01io->b01f" : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32>
  return
}

// -----

func.func @f98(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) {
  // expected-error @+1 {{result shape 'tensor<1x4x4x8xf32>' does not match the expected [1, 3, 3, 8]}}
  %0 = tgraph.convolution %x, %w, dim_labels = "b01f_01io->b01f" {window_strides = array<i64: 2, 2>, rhs_dilation = array<i64: 2, 2>, padding = array<i64: 1, 0, 1, 0>} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x4x4x8xf32>
  return
}

// -----

func.func @f99(%x: tensor<4x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) {
  // expected-error @+1 {{result shape 'tensor<4x6x6x8xf32>' does not match the expected [2, 6, 6, 8]}}
  %0 = tgraph.convolution %x, %w, dim_labels = "b01f_01io->b01f" {batch_group_count = 2 : i64} : (tensor<4x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<4x6x6x8xf32>
  return
}

// -----

func.func @f100(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{needs N >= 1 inputs and as many init values, got 1 and 2}}
  %0 = tgraph.reduce(%x) init(%z, %z) dims = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @f101(%x: tensor<4x8xf32>, %y: tensor<4x4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{all inputs must have one shape}}
  %0 = tgraph.reduce(%x, %y) init(%z, %z) dims = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } : (tensor<4x8xf32>, tensor<4x4xf32>, tensor<f32>, tensor<f32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  return
}

// -----

func.func @f102(%x: tensor<4x8xf32>, %z: tensor<1xf32>) {
  // expected-error @+1 {{init values must be 0-d tensors}}
  %0 = tgraph.reduce(%x) init(%z) dims = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } : (tensor<4x8xf32>, tensor<1xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f103(%x: tensor<4x8xf32>, %z: tensor<i32>) {
  // expected-error @+1 {{init value type 'tensor<i32>' does not match the input element type 'f32'}}
  %0 = tgraph.reduce(%x) init(%z) dims = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } : (tensor<4x8xf32>, tensor<i32>) -> tensor<4xf32>
  return
}

// -----

func.func @f104(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{reduce dimension 2 is out of range for rank 2}}
  %0 = tgraph.reduce(%x) init(%z) dims = [2] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @f105(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{result must hold 1 tensors}}
  %0 = tgraph.reduce(%x) init(%z) dims = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  return
}

// -----

func.func @f106(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{result shape 'tensor<8xf32>' does not match the expected [4]}}
  %0 = tgraph.reduce(%x) init(%z) dims = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
  return
}

// -----

func.func @f107(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{reducer region takes 1 arguments, expected 2}}
  %0 = tgraph.reduce(%x) init(%z) dims = [1] {
  ^bb0(%a: tensor<f32>):
    tgraph.return %a : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @f108(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{reducer region argument #1 must be a 0-d tensor}}
  %0 = tgraph.reduce(%x) init(%z) dims = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<1xf32>):
    tgraph.return %a : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @f109(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{reducer region must end in tgraph.return}}
  %0 = tgraph.reduce(%x) init(%z) dims = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @f110(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{reducer region must return ('tensor<f32>')}}
  %0 = tgraph.reduce(%x) init(%z) dims = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = tgraph.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    tgraph.return %p : tensor<i1>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @f111(%x: tensor<1x8x8x4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{window_dimensions needs 4 entries}}
  %0 = tgraph.reduce_window(%x) init(%z) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } {window_dimensions = array<i64: 2, 2>} : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @f112(%x: tensor<1x8x8x4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{window_strides needs 4 entries}}
  %0 = tgraph.reduce_window(%x) init(%z) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 2, 2>} : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @f113(%x: tensor<1x8x8x4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{base_dilations needs 4 entries}}
  %0 = tgraph.reduce_window(%x) init(%z) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } {window_dimensions = array<i64: 1, 2, 2, 1>, base_dilations = array<i64: 2>} : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @f114(%x: tensor<1x8x8x4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{window_dilations needs 4 entries}}
  %0 = tgraph.reduce_window(%x) init(%z) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } {window_dimensions = array<i64: 1, 2, 2, 1>, window_dilations = array<i64: 2>} : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @f115(%x: tensor<1x8x8x4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{padding needs 8 entries}}
  %0 = tgraph.reduce_window(%x) init(%z) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } {window_dimensions = array<i64: 1, 2, 2, 1>, padding = array<i64: 0, 0>} : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @f116(%x: tensor<1x8x8x4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{window_strides entries must be positive}}
  %0 = tgraph.reduce_window(%x) init(%z) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 0, 2, 1>} : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @f117(%x: tensor<1x8x8x4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{result shape 'tensor<1x4x4x4xf32>' does not match the expected [1, 7, 7, 4]}}
  %0 = tgraph.reduce_window(%x) init(%z) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } {window_dimensions = array<i64: 1, 2, 2, 1>} : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @f118(%x: tensor<1x8x8x4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{result shape 'tensor<1x4x4x4xf32>' does not match the expected [1, 5, 5, 4]}}
  %0 = tgraph.reduce_window(%x) init(%z) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>, padding = array<i64: 0, 0, 2, 2, 2, 2, 0, 0>} : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @f119(%x: tensor<1x8x8x4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{result must hold 1 tensors}}
  %0 = tgraph.reduce_window(%x) init(%z) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x8x8x4xf32>, tensor<f32>) -> tuple<tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>>
  return
}

// -----

func.func @f120(%x: tensor<1x8x8x4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{reducer region must return ('tensor<f32>')}}
  %0 = tgraph.reduce_window(%x) init(%z) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    tgraph.return %a, %b : tensor<f32>, tensor<f32>
  } {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @f121(%x: tensor<1x8x8x4xf32>, %g: tensor<1x4x4x4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{result type must equal the operand type}}
  %0 = tgraph.select_and_scatter %x, %g, %z select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = tgraph.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    tgraph.return %p : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x8x8x4xf32>, tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @f122(%x: tensor<1x8x8x4xf32>, %g: tensor<1x4x4x4xf32>, %z: tensor<i32>) {
  // expected-error @+1 {{init value must be a 0-d tensor of the source's element type}}
  %0 = tgraph.select_and_scatter %x, %g, %z select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = tgraph.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    tgraph.return %p : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x8x8x4xf32>, tensor<1x4x4x4xf32>, tensor<i32>) -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @f123(%x: tensor<1x8x8x4xf32>, %g: tensor<1x4x4x4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{window_strides needs 4 entries}}
  %0 = tgraph.select_and_scatter %x, %g, %z select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = tgraph.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    tgraph.return %p : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 2, 2>} : (tensor<1x8x8x4xf32>, tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @f124(%x: tensor<1x8x8x4xf32>, %g: tensor<1x4x4x4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{window sizes and strides must be positive}}
  %0 = tgraph.select_and_scatter %x, %g, %z select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = tgraph.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    tgraph.return %p : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 0, 2, 1>} : (tensor<1x8x8x4xf32>, tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @f125(%x: tensor<1x8x8x4xf32>, %g: tensor<1x3x3x4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{source shape 'tensor<1x3x3x4xf32>' does not match the window positions [1, 4, 4, 4]}}
  %0 = tgraph.select_and_scatter %x, %g, %z select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = tgraph.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    tgraph.return %p : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x8x8x4xf32>, tensor<1x3x3x4xf32>, tensor<f32>) -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @f126(%x: tensor<1x8x8x4xf32>, %g: tensor<1x4x4x4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{select region must return ('tensor<i1>')}}
  %0 = tgraph.select_and_scatter %x, %g, %z select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    tgraph.return %a : tensor<f32>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x8x8x4xf32>, tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @f127(%x: tensor<1x8x8x4xf32>, %g: tensor<1x4x4x4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{scatter region takes 3 arguments, expected 2}}
  %0 = tgraph.select_and_scatter %x, %g, %z select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = tgraph.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    tgraph.return %p : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>):
    tgraph.return %a : tensor<f32>
  } {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x8x8x4xf32>, tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @f128(%x: tensor<128x64xf32>, %i: tensor<1x1xi32>, %u: tensor<1x64xf32>) {
  // expected-error @+1 {{result must have the input types}}
  %0 = tgraph.scatter(%x) indices(%i) updates(%u) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    tgraph.return %b : tensor<f32>
  } {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64} : (tensor<128x64xf32>, tensor<1x1xi32>, tensor<1x64xf32>) -> tensor<128x64xf16>
  return
}

// -----

func.func @f129(%x: tensor<128x64xf32>, %i: tensor<1x1xi32>, %u: tensor<1x64xf16>) {
  // expected-error @+1 {{updates must have their input's element type}}
  %0 = tgraph.scatter(%x) indices(%i) updates(%u) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    tgraph.return %b : tensor<f32>
  } {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64} : (tensor<128x64xf32>, tensor<1x1xi32>, tensor<1x64xf16>) -> tensor<128x64xf32>
  return
}

// -----

func.func @f130(%x: tensor<128x64xf32>, %i: tensor<1x1xf32>, %u: tensor<1x64xf32>) {
  // expected-error @+1 {{scatter indices must be integers}}
  %0 = tgraph.scatter(%x) indices(%i) updates(%u) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    tgraph.return %b : tensor<f32>
  } {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64} : (tensor<128x64xf32>, tensor<1x1xf32>, tensor<1x64xf32>) -> tensor<128x64xf32>
  return
}

// -----

func.func @f131(%x: tensor<128x64xf32>, %i: tensor<1x1xi32>, %u: tensor<1x64xf32>) {
  // expected-error @+1 {{index_vector_dim 3 is out of range [0, 2]}}
  %0 = tgraph.scatter(%x) indices(%i) updates(%u) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    tgraph.return %b : tensor<f32>
  } {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 3 : i64} : (tensor<128x64xf32>, tensor<1x1xi32>, tensor<1x64xf32>) -> tensor<128x64xf32>
  return
}

// -----

func.func @f132(%x: tensor<128x64xf32>, %i: tensor<1x1xi32>, %u: tensor<1x64xf32>) {
  // expected-error @+1 {{update rank 2 should be 1 scatter dimensions + 2 update_window_dims}}
  %0 = tgraph.scatter(%x) indices(%i) updates(%u) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    tgraph.return %b : tensor<f32>
  } {update_window_dims = array<i64: 0, 1>, inserted_window_dims = array<i64>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64} : (tensor<128x64xf32>, tensor<1x1xi32>, tensor<1x64xf32>) -> tensor<128x64xf32>
  return
}

// -----

func.func @f133(%x: tensor<128x64xf32>, %i: tensor<1x1xi32>, %u: tensor<1x64xf32>) {
  // expected-error @+1 {{update window dimension 2 is out of range for rank 2}}
  %0 = tgraph.scatter(%x) indices(%i) updates(%u) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    tgraph.return %b : tensor<f32>
  } {update_window_dims = array<i64: 2>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64} : (tensor<128x64xf32>, tensor<1x1xi32>, tensor<1x64xf32>) -> tensor<128x64xf32>
  return
}

// -----

func.func @f134(%x: tensor<128x64xf32>, %i: tensor<1x1xi32>, %u: tensor<1x64xf32>) {
  // expected-error @+1 {{inserted window dimension 2 is out of range for rank 2}}
  %0 = tgraph.scatter(%x) indices(%i) updates(%u) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    tgraph.return %b : tensor<f32>
  } {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 2>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64} : (tensor<128x64xf32>, tensor<1x1xi32>, tensor<1x64xf32>) -> tensor<128x64xf32>
  return
}

// -----

func.func @f135(%x: tensor<128x64xf32>, %i: tensor<1x1xi32>, %u: tensor<1x64xf32>) {
  // expected-error @+1 {{scatter-to-operand dimension 5 is out of range for rank 2}}
  %0 = tgraph.scatter(%x) indices(%i) updates(%u) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    tgraph.return %b : tensor<f32>
  } {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 5>, index_vector_dim = 1 : i64} : (tensor<128x64xf32>, tensor<1x1xi32>, tensor<1x64xf32>) -> tensor<128x64xf32>
  return
}

// -----

func.func @f136(%x: tensor<128x64xf32>, %i: tensor<1x1xi32>, %u: tensor<1x64xf32>) {
  // expected-error @+1 {{update_window_dims (1) and inserted_window_dims (0) must together cover the operand rank 2}}
  %0 = tgraph.scatter(%x) indices(%i) updates(%u) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    tgraph.return %b : tensor<f32>
  } {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64} : (tensor<128x64xf32>, tensor<1x1xi32>, tensor<1x64xf32>) -> tensor<128x64xf32>
  return
}

// -----

func.func @f137(%x: tensor<128x64xf32>, %i: tensor<1x1xi32>, %u: tensor<1x64xf32>) {
  // expected-error @+1 {{scatter_dims_to_operand_dims has 2 entries but the index vector has 1}}
  %0 = tgraph.scatter(%x) indices(%i) updates(%u) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    tgraph.return %b : tensor<f32>
  } {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0, 1>, index_vector_dim = 1 : i64} : (tensor<128x64xf32>, tensor<1x1xi32>, tensor<1x64xf32>) -> tensor<128x64xf32>
  return
}

// -----

func.func @f138(%x: tensor<128x64xf32>, %i: tensor<1x1xi32>, %u: tensor<1x65xf32>) {
  // expected-error @+1 {{update window dimension 1 (size 65) exceeds operand dimension 1 (size 64)}}
  %0 = tgraph.scatter(%x) indices(%i) updates(%u) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    tgraph.return %b : tensor<f32>
  } {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64} : (tensor<128x64xf32>, tensor<1x1xi32>, tensor<1x65xf32>) -> tensor<128x64xf32>
  return
}

// -----

func.func @f139(%x: tensor<128x64xf32>, %i: tensor<1x1xi32>, %u: tensor<1x64xf32>) {
  // expected-error @+1 {{update region must return ('tensor<f32>')}}
  %0 = tgraph.scatter(%x) indices(%i) updates(%u) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    tgraph.return
  } {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64} : (tensor<128x64xf32>, tensor<1x1xi32>, tensor<1x64xf32>) -> tensor<128x64xf32>
  return
}

// -----

func.func @f140(%x: tensor<128x64xf32>, %y: tensor<64x64xf32>, %i: tensor<1x1xi32>, %u: tensor<1x64xf32>) {
  // expected-error @+1 {{all inputs and all updates must have one shape}}
  %0 = tgraph.scatter(%x, %y) indices(%i) updates(%u, %u) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
    tgraph.return %c, %d : tensor<f32>, tensor<f32>
  } {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64} : (tensor<128x64xf32>, tensor<64x64xf32>, tensor<1x1xi32>, tensor<1x64xf32>, tensor<1x64xf32>) -> tuple<tensor<128x64xf32>, tensor<64x64xf32>>
  return
}

// -----

func.func @f141(%x: tensor<128x64xf32>, %i: tensor<1x1xi32>) {
  // expected-error @+1 {{needs N >= 1 inputs and as many updates}}
  %0 = "tgraph.scatter"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    tgraph.return %b : tensor<f32>
  }) {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x64xf32>, tensor<1x1xi32>) -> tensor<128x64xf32>
  return
}

// -----

func.func @f142() {
  // expected-error @+1 {{needs at least one input}}
  %0 = tgraph.sort() dim = 0 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = tgraph.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    tgraph.return %p : tensor<i1>
  } : () -> tensor<16xf32>
  return
}

// -----

func.func @f143(%x: tensor<16xf32>, %y: tensor<8xi32>) {
  // expected-error @+1 {{all inputs must have one shape}}
  %0 = tgraph.sort(%x, %y) dim = 0 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = tgraph.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    tgraph.return %p : tensor<i1>
  } : (tensor<16xf32>, tensor<8xi32>) -> tuple<tensor<16xf32>, tensor<8xi32>>
  return
}

// -----

func.func @f144(%x: tensor<16xf32>) {
  // expected-error @+1 {{sort dimension 1 is out of range for rank 1}}
  %0 = tgraph.sort(%x) dim = 1 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = tgraph.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    tgraph.return %p : tensor<i1>
  } : (tensor<16xf32>) -> tensor<16xf32>
  return
}

// -----

func.func @f145(%x: tensor<16xf32>) {
  // expected-error @+1 {{sort dimension -1 is out of range for rank 1}}
  %0 = tgraph.sort(%x) dim = -1 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = tgraph.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    tgraph.return %p : tensor<i1>
  } : (tensor<16xf32>) -> tensor<16xf32>
  return
}

// -----

func.func @f146(%x: tensor<16xf32>) {
  // expected-error @+1 {{result must have the input types (a tuple when there are several)}}
  %0 = tgraph.sort(%x) dim = 0 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = tgraph.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    tgraph.return %p : tensor<i1>
  } : (tensor<16xf32>) -> tensor<16xf16>
  return
}

// -----

func.func @f147(%x: tensor<16xf32>, %y: tensor<16xi32>) {
  // expected-error @+1 {{comparator region takes 2 arguments, expected 4}}
  %0 = tgraph.sort(%x, %y) dim = 0 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = tgraph.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    tgraph.return %p : tensor<i1>
  } : (tensor<16xf32>, tensor<16xi32>) -> tuple<tensor<16xf32>, tensor<16xi32>>
  return
}

// -----

func.func @f148(%x: tensor<16xf32>, %y: tensor<16xi32>) {
  // expected-error @+1 {{comparator argument #2 must have element type 'i32'}}
  %0 = tgraph.sort(%x, %y) dim = 0 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
    %p = tgraph.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    tgraph.return %p : tensor<i1>
  } : (tensor<16xf32>, tensor<16xi32>) -> tuple<tensor<16xf32>, tensor<16xi32>>
  return
}

// -----

func.func @f149(%x: tensor<16xf32>) {
  // expected-error @+1 {{comparator region must return ('tensor<i1>')}}
  %0 = tgraph.sort(%x) dim = 0 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } : (tensor<16xf32>) -> tensor<16xf32>
  return
}

// -----

func.func @f150(%a: tensor<4xf32>, %b: tensor<i32>) {
  // expected-error @+1 {{result tuple type must list the operand types}}
  %0 = tgraph.tuple %a, %b : (tensor<4xf32>, tensor<i32>) -> tuple<tensor<4xf32>>
  return
}

// -----

func.func @f151(%t: tuple<tensor<4xf32>, tensor<i32>>) {
  // expected-error @+1 {{index 2 is out of range for a tuple of 2}}
  %0 = tgraph.get_tuple_element %t[2] : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<i32>
  return
}

// -----

func.func @f152(%t: tuple<tensor<4xf32>, tensor<i32>>) {
  // expected-error @+1 {{result type 'tensor<i32>' differs from tuple element 0 ('tensor<4xf32>')}}
  %0 = tgraph.get_tuple_element %t[0] : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<i32>
  return
}

// -----

func.func @f153(%p: tensor<2xi1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{branch index must be a 0-d integer or i1 tensor}}
  %0 = tgraph.conditional %p, [@f, @f](%x, %x) : (tensor<2xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f154(%p: tensor<i1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{needs one operand per branch, got 2 branches and 1 operands}}
  %0 = tgraph.conditional %p, [@f, @f](%x) : (tensor<i1>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f155(%i: tensor<i32>) {
  // expected-error @+1 {{needs at least one branch}}
  %0 = tgraph.conditional %i, []() : (tensor<i32>) -> tensor<4xf32>
  return
}

// -----

func.func @f156(%p: tensor<i1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{an i1 predicate selects between exactly two branches}}
  %0 = tgraph.conditional %p, [@f, @f, @f](%x, %x, %x) : (tensor<i1>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f157(%x: tensor<2x4x4x8xf32>, %c: tensor<8xf32>) {
  // expected-error @+1 {{takes 3 operands, got 2}}
  %0 = tgraph.batch_norm_training %x, %c {epsilon = 0.001 : f32, feature_index = 3 : i64} : (tensor<2x4x4x8xf32>, tensor<8xf32>) -> tuple<tensor<2x4x4x8xf32>, tensor<8xf32>, tensor<8xf32>>
  return
}

// -----

func.func @f158(%x: tensor<2x4x4x8xf32>, %c: tensor<8xf32>) {
  // expected-error @+1 {{takes 5 operands, got 3}}
  %0 = tgraph.batch_norm_inference %x, %c, %c {epsilon = 0.001 : f32, feature_index = 3 : i64} : (tensor<2x4x4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x4x4x8xf32>
  return
}

// -----

func.func @f159(%x: tensor<2x4x4x8xf32>, %c: tensor<8xf32>) {
  // expected-error @+1 {{feature_index 4 is out of range for rank 4}}
  %0 = tgraph.batch_norm_grad %x, %c, %c, %c, %x {epsilon = 0.001 : f32, feature_index = 4 : i64} : (tensor<2x4x4x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<2x4x4x8xf32>) -> tuple<tensor<2x4x4x8xf32>, tensor<8xf32>, tensor<8xf32>>
  return
}

// -----

func.func @f160(%x: tensor<2x4x4x8xf32>, %c: tensor<8xf32>, %d: tensor<4xf32>) {
  // expected-error @+1 {{operand #2 must be a per-feature vector 'tensor<8xf32>', got 'tensor<4xf32>'}}
  %0 = tgraph.batch_norm_training %x, %c, %d {epsilon = 0.001 : f32, feature_index = 3 : i64} : (tensor<2x4x4x8xf32>, tensor<8xf32>, tensor<4xf32>) -> tuple<tensor<2x4x4x8xf32>, tensor<8xf32>, tensor<8xf32>>
  return
}

// -----

func.func @f161(%x: tensor<2x4x4x8xf32>, %c: tensor<8xf32>) {
  // expected-error @+1 {{operand #4 must have the operand's type 'tensor<2x4x4x8xf32>'}}
  %0 = tgraph.batch_norm_grad %x, %c, %c, %c, %c {epsilon = 0.001 : f32, feature_index = 3 : i64} : (tensor<2x4x4x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tuple<tensor<2x4x4x8xf32>, tensor<8xf32>, tensor<8xf32>>
  return
}

// -----

func.func @f162(%x: tensor<2x4x4x8xf32>, %c: tensor<8xf32>) {
  // expected-error @+1 {{result must be 'tensor<2x4x4x8xf32>'}}
  %0 = tgraph.batch_norm_inference %x, %c, %c, %c, %c {epsilon = 0.001 : f32, feature_index = 3 : i64} : (tensor<2x4x4x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x4x4x4xf32>
  return
}

// -----

func.func @f163(%x: tensor<2x4x4x8xf32>, %c: tensor<8xf32>) {
  // expected-error @+1 {{result must be 'tuple<tensor<2x4x4x8xf32>, tensor<8xf32>, tensor<8xf32>>'}}
  %0 = tgraph.batch_norm_training %x, %c, %c {epsilon = 0.001 : f32, feature_index = 3 : i64} : (tensor<2x4x4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x4x4x8xf32>
  return
}

// -----

func.func @f164(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{result element type 'f16' differs from the operand's ('f32')}}
  %0 = tgraph.all_gather %x, dim = 0 : (tensor<4x8xf32>) -> tensor<16x8xf16>
  return
}

// -----

func.func @f165(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{dimension 2 is out of range for rank 2}}
  %0 = tgraph.all_gather %x, dim = 2 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f166(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{operand and result ranks differ}}
  %0 = tgraph.all_gather %x, dim = 0 : (tensor<4x8xf32>) -> tensor<32xf32>
  return
}

// -----

func.func @f167(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{dimension 0 of size 10 is not a multiple of 4}}
  %0 = tgraph.all_gather %x, dim = 0 : (tensor<4x8xf32>) -> tensor<10x8xf32>
  return
}

// -----

func.func @f168(%x: tensor<16x8xf32>) {
  // expected-error @+1 {{dimension 1 differs between operand and result}}
  %0 = tgraph.reduce_scatter %x, dim = 0 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } : (tensor<16x8xf32>) -> tensor<4x7xf32>
  return
}

// -----

func.func @f169(%x: tensor<16x8xf32>) {
  // expected-error @+1 {{dimension 0 of size 16 is not a multiple of 5}}
  %0 = tgraph.reduce_scatter %x, dim = 0 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } : (tensor<16x8xf32>) -> tensor<5x8xf32>
  return
}

// -----

func.func @f170(%x: tensor<16x8xf32>) {
  // expected-error @+1 {{reducer region must return ('tensor<f32>')}}
  %0 = tgraph.reduce_scatter %x, dim = 0 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = tgraph.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    tgraph.return %p : tensor<i1>
  } : (tensor<16x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f171(%x: tensor<16xf32>) {
  // expected-error @+1 {{result must have the input types (a tuple when there are several)}}
  %0 = tgraph.all_reduce(%x) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } : (tensor<16xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @f172(%x: tensor<16xf32>) {
  // expected-error @+1 {{reducer region takes 4 arguments, expected 2}}
  %0 = tgraph.all_reduce(%x, %x) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
    tgraph.return %a : tensor<f32>
  } : (tensor<16xf32>, tensor<16xf32>) -> tuple<tensor<16xf32>, tensor<16xf32>>
  return
}

// -----

func.func @call_undefined(%x: tensor<4xf32>) {
  // expected-error @+1 {{references undefined computation @missing}}
  %0 = tgraph.call @missing(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func private @g(%x: tensor<4xf32>) -> tensor<4xf32>
func.func @call_args(%x: tensor<8xf32>) {
  // expected-error @+1 {{operand types do not match the parameters of @g}}
  %0 = tgraph.call @g(%x) : (tensor<8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func private @g(%x: tensor<4xf32>) -> tensor<4xf32>
func.func @fusion_results(%x: tensor<4xf32>) {
  // expected-error @+1 {{result types do not match the results of @g}}
  %0 = tgraph.fusion @g(%x) {kind = "kLoop"} : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

// The condition must map the loop state to a predicate.
func.func private @cond(%s: tensor<i32>) -> tensor<i32>
func.func private @body(%s: tensor<i32>) -> tensor<i32>
func.func @while_cond(%i: tensor<i32>) {
  // expected-error @+1 {{result types do not match the results of @cond}}
  %0 = tgraph.while %i cond @cond body @body : tensor<i32>
  return
}

// -----

func.func private @cond(%s: tensor<i32>) -> tensor<i1>
func.func private @body(%s: tensor<i32>) -> tensor<i64>
func.func @while_body(%i: tensor<i32>) {
  // expected-error @+1 {{result types do not match the results of @body}}
  %0 = tgraph.while %i cond @cond body @body : tensor<i32>
  return
}

// -----

func.func private @cond(%s: tensor<i32>) -> tensor<i1>
func.func @while_no_body(%i: tensor<i32>) {
  // expected-error @+1 {{references undefined computation @body}}
  %0 = tgraph.while %i cond @cond body @body : tensor<i32>
  return
}

// -----

func.func private @then(%x: tensor<4xf32>) -> tensor<4xf32>
func.func private @else(%x: tensor<8xf32>) -> tensor<4xf32>
func.func @branch_args(%p: tensor<i1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{operand types do not match the parameters of @else}}
  %0 = tgraph.conditional %p, [@then, @else](%x, %x) : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// reduce_precision: at least one exponent bit, no negative mantissa width.
func.func @rp0(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{exponent_bits must be at least 1, got 0}}
  %r = tgraph.reduce_precision %a, exponent_bits = 0, mantissa_bits = 3 : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @rp1(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{mantissa_bits must not be negative, got -1}}
  %r = tgraph.reduce_precision %a, exponent_bits = 5, mantissa_bits = -1 : tensor<4xf32>
  return %r : tensor<4xf32>
}
