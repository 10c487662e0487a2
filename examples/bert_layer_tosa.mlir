// A BERT-style encoder layer as a torch-to-TOSA export writes it: TOSA for
// the linear layers, attention, softmax and layer norm, with math.erf for
// GELU, tensor.expand_shape / collapse_shape for the heads,
// tensor.extract_slice for the pooler's first ([CLS]) token, arith tensor
// constants for the scales, and layer norm as a private function called
// twice. Sizes: sequence 8, hidden 16, 2 heads of 8, feed-forward 32.
// Weights are parameters in torch's [out, in] layout (the model device
// fills them with seeded data); biases and layer-norm scales are constants.
// test/Run/tosa-exported.test compiles it, runs it on the model device and
// checks both outputs against the reference interpreter.
func.func @forward(%x: tensor<1x8x16xf32>, %wq: tensor<16x16xf32>,
                   %wk: tensor<16x16xf32>, %wv: tensor<16x16xf32>,
                   %wo: tensor<16x16xf32>, %w1: tensor<32x16xf32>,
                   %w2: tensor<16x32xf32>, %wp: tensor<16x16xf32>)
    -> (tensor<1x8x16xf32>, tensor<1x16xf32>) {
  %perm10 = "tosa.const"() <{value = dense<[1, 0]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %perm0213 = "tosa.const"() <{value = dense<[0, 2, 1, 3]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %perm021 = "tosa.const"() <{value = dense<[0, 2, 1]> : tensor<3xi32>}> : () -> tensor<3xi32>
  %bq = "tosa.const"() <{value = dense<[[[-0.035, -0.070, 0.030, -0.086, 0.007, -0.027, -0.088, 0.001, -0.093, -0.013, -0.086, -0.082, -0.015, 0.065, -0.075, -0.055]]]> : tensor<1x1x16xf32>}> : () -> tensor<1x1x16xf32>
  %bk = "tosa.const"() <{value = dense<[[[0.025, 0.090, 0.015, -0.021, 0.095, -0.091, 0.072, -0.042, -0.071, -0.076, -0.038, 0.063, -0.064, 0.016, 0.028, -0.026]]]> : tensor<1x1x16xf32>}> : () -> tensor<1x1x16xf32>
  %bv = "tosa.const"() <{value = dense<[[[0.010, -0.087, -0.088, -0.059, 0.036, -0.014, -0.037, 0.017, -0.009, -0.040, 0.059, 0.040, -0.051, 0.015, 0.005, 0.075]]]> : tensor<1x1x16xf32>}> : () -> tensor<1x1x16xf32>
  %bo = "tosa.const"() <{value = dense<[[[0.046, -0.042, 0.096, -0.076, -0.016, 0.051, -0.070, -0.002, -0.092, 0.034, 0.053, 0.015, 0.075, -0.037, 0.039, 0.019]]]> : tensor<1x1x16xf32>}> : () -> tensor<1x1x16xf32>
  %b2 = "tosa.const"() <{value = dense<[[[-0.028, 0.077, 0.092, -0.070, -0.065, -0.054, -0.053, -0.003, 0.018, -0.047, -0.099, -0.016, -0.026, 0.013, 0.091, 0.038]]]> : tensor<1x1x16xf32>}> : () -> tensor<1x1x16xf32>
  %bp = "tosa.const"() <{value = dense<[[[0.003, 0.024, 0.035, -0.089, 0.080, 0.056, 0.075, 0.060, -0.022, -0.020, -0.079, 0.027, -0.088, -0.087, -0.058, -0.068]]]> : tensor<1x1x16xf32>}> : () -> tensor<1x1x16xf32>
  %b1 = "tosa.const"() <{value = dense<[[[0.016, -0.009, 0.068, 0.089, -0.005, 0.033, -0.088, 0.040, 0.029, 0.099, 0.064, -0.043, -0.023, 0.034, -0.095, -0.008, -0.066, -0.077, -0.088, 0.054, -0.074, -0.050, -0.022, 0.074, -0.084, -0.010, 0.010, 0.077, 0.064, 0.073, -0.044, -0.017]]]> : tensor<1x1x32xf32>}> : () -> tensor<1x1x32xf32>
  %g1 = "tosa.const"() <{value = dense<[[[0.936, 0.821, 0.800, 0.861, 0.841, 0.945, 0.810, 1.150, 1.046, 0.859, 0.901, 0.939, 0.946, 0.849, 1.140, 1.197]]]> : tensor<1x1x16xf32>}> : () -> tensor<1x1x16xf32>
  %be1 = "tosa.const"() <{value = dense<[[[-0.007, -0.003, -0.083, -0.080, -0.031, -0.047, 0.066, -0.068, -0.095, 0.090, 0.006, -0.071, 0.009, -0.095, 0.006, 0.096]]]> : tensor<1x1x16xf32>}> : () -> tensor<1x1x16xf32>
  %g2 = "tosa.const"() <{value = dense<[[[1.145, 1.078, 0.904, 0.947, 0.867, 1.109, 1.013, 1.112, 0.932, 0.889, 1.125, 1.194, 1.141, 1.122, 1.127, 1.096]]]> : tensor<1x1x16xf32>}> : () -> tensor<1x1x16xf32>
  %be2 = "tosa.const"() <{value = dense<[[[-0.055, 0.004, -0.029, -0.094, -0.094, -0.044, -0.048, 0.039, 0.091, -0.011, 0.087, 0.098, 0.091, -0.027, -0.056, -0.055]]]> : tensor<1x1x16xf32>}> : () -> tensor<1x1x16xf32>

  // Self-attention: Q, K, V projections, split into 2 heads of 8.
  %q.wt = tosa.transpose %wq, %perm10 : (tensor<16x16xf32>, tensor<2xi32>) -> tensor<16x16xf32>
  %q.w = tosa.reshape %q.wt {new_shape = array<i64: 1, 16, 16>} : (tensor<16x16xf32>) -> tensor<1x16x16xf32>
  %q.mm = tosa.matmul %x, %q.w : (tensor<1x8x16xf32>, tensor<1x16x16xf32>) -> tensor<1x8x16xf32>
  %q = tosa.add %q.mm, %bq : (tensor<1x8x16xf32>, tensor<1x1x16xf32>) -> tensor<1x8x16xf32>
  %k.wt = tosa.transpose %wk, %perm10 : (tensor<16x16xf32>, tensor<2xi32>) -> tensor<16x16xf32>
  %k.w = tosa.reshape %k.wt {new_shape = array<i64: 1, 16, 16>} : (tensor<16x16xf32>) -> tensor<1x16x16xf32>
  %k.mm = tosa.matmul %x, %k.w : (tensor<1x8x16xf32>, tensor<1x16x16xf32>) -> tensor<1x8x16xf32>
  %k = tosa.add %k.mm, %bk : (tensor<1x8x16xf32>, tensor<1x1x16xf32>) -> tensor<1x8x16xf32>
  %v.wt = tosa.transpose %wv, %perm10 : (tensor<16x16xf32>, tensor<2xi32>) -> tensor<16x16xf32>
  %v.w = tosa.reshape %v.wt {new_shape = array<i64: 1, 16, 16>} : (tensor<16x16xf32>) -> tensor<1x16x16xf32>
  %v.mm = tosa.matmul %x, %v.w : (tensor<1x8x16xf32>, tensor<1x16x16xf32>) -> tensor<1x8x16xf32>
  %v = tosa.add %v.mm, %bv : (tensor<1x8x16xf32>, tensor<1x1x16xf32>) -> tensor<1x8x16xf32>
  %q.heads = tensor.expand_shape %q [[0], [1], [2, 3]] output_shape [1, 8, 2, 8] : tensor<1x8x16xf32> into tensor<1x8x2x8xf32>
  %q.t = tosa.transpose %q.heads, %perm0213 : (tensor<1x8x2x8xf32>, tensor<4xi32>) -> tensor<1x2x8x8xf32>
  %q.bh = tosa.reshape %q.t {new_shape = array<i64: 2, 8, 8>} : (tensor<1x2x8x8xf32>) -> tensor<2x8x8xf32>
  %k.heads = tensor.expand_shape %k [[0], [1], [2, 3]] output_shape [1, 8, 2, 8] : tensor<1x8x16xf32> into tensor<1x8x2x8xf32>
  %k.t = tosa.transpose %k.heads, %perm0213 : (tensor<1x8x2x8xf32>, tensor<4xi32>) -> tensor<1x2x8x8xf32>
  %k.bh = tosa.reshape %k.t {new_shape = array<i64: 2, 8, 8>} : (tensor<1x2x8x8xf32>) -> tensor<2x8x8xf32>
  %v.heads = tensor.expand_shape %v [[0], [1], [2, 3]] output_shape [1, 8, 2, 8] : tensor<1x8x16xf32> into tensor<1x8x2x8xf32>
  %v.t = tosa.transpose %v.heads, %perm0213 : (tensor<1x8x2x8xf32>, tensor<4xi32>) -> tensor<1x2x8x8xf32>
  %v.bh = tosa.reshape %v.t {new_shape = array<i64: 2, 8, 8>} : (tensor<1x2x8x8xf32>) -> tensor<2x8x8xf32>
  %k.tr = tosa.transpose %k.bh, %perm021 : (tensor<2x8x8xf32>, tensor<3xi32>) -> tensor<2x8x8xf32>
  %scores.raw = tosa.matmul %q.bh, %k.tr : (tensor<2x8x8xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  // 1 / sqrt(head size 8)
  %scale = arith.constant dense<0.353553385> : tensor<1x1x1xf32>
  %scores = tosa.mul %scores.raw, %scale {shift = 0 : i8} : (tensor<2x8x8xf32>, tensor<1x1x1xf32>) -> tensor<2x8x8xf32>

  // Softmax over the keys, as torch's decomposition writes it.
  %smax = tosa.reduce_max %scores {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %shifted = tosa.sub %scores, %smax : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  %exps = tosa.exp %shifted : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %esum = tosa.reduce_sum %exps {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %einv = tosa.reciprocal %esum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %probs = tosa.mul %exps, %einv {shift = 0 : i8} : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>

  %ctx.bh = tosa.matmul %probs, %v.bh : (tensor<2x8x8xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %ctx.heads = tosa.reshape %ctx.bh {new_shape = array<i64: 1, 2, 8, 8>} : (tensor<2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %ctx.t = tosa.transpose %ctx.heads, %perm0213 : (tensor<1x2x8x8xf32>, tensor<4xi32>) -> tensor<1x8x2x8xf32>
  %ctx = tensor.collapse_shape %ctx.t [[0], [1], [2, 3]] : tensor<1x8x2x8xf32> into tensor<1x8x16xf32>

  %attn.wt = tosa.transpose %wo, %perm10 : (tensor<16x16xf32>, tensor<2xi32>) -> tensor<16x16xf32>
  %attn.w = tosa.reshape %attn.wt {new_shape = array<i64: 1, 16, 16>} : (tensor<16x16xf32>) -> tensor<1x16x16xf32>
  %attn.mm = tosa.matmul %ctx, %attn.w : (tensor<1x8x16xf32>, tensor<1x16x16xf32>) -> tensor<1x8x16xf32>
  %attn = tosa.add %attn.mm, %bo : (tensor<1x8x16xf32>, tensor<1x1x16xf32>) -> tensor<1x8x16xf32>
  %res1 = tosa.add %attn, %x : (tensor<1x8x16xf32>, tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %h1 = func.call @layer_norm(%res1, %g1, %be1) : (tensor<1x8x16xf32>, tensor<1x1x16xf32>, tensor<1x1x16xf32>) -> tensor<1x8x16xf32>

  // Feed-forward with exact GELU: x * 0.5 * (1 + erf(x / sqrt 2)).
  %ff1.wt = tosa.transpose %w1, %perm10 : (tensor<32x16xf32>, tensor<2xi32>) -> tensor<16x32xf32>
  %ff1.w = tosa.reshape %ff1.wt {new_shape = array<i64: 1, 16, 32>} : (tensor<16x32xf32>) -> tensor<1x16x32xf32>
  %ff1.mm = tosa.matmul %h1, %ff1.w : (tensor<1x8x16xf32>, tensor<1x16x32xf32>) -> tensor<1x8x32xf32>
  %ff1 = tosa.add %ff1.mm, %b1 : (tensor<1x8x32xf32>, tensor<1x1x32xf32>) -> tensor<1x8x32xf32>
  %rsqrt2 = arith.constant dense<0.707106769> : tensor<1x1x1xf32>
  %half = arith.constant dense<5.000000e-01> : tensor<1x1x1xf32>
  %one = arith.constant dense<1.000000e+00> : tensor<1x1x1xf32>
  %gelu.s = tosa.mul %ff1, %rsqrt2 {shift = 0 : i8} : (tensor<1x8x32xf32>, tensor<1x1x1xf32>) -> tensor<1x8x32xf32>
  %gelu.erf = math.erf %gelu.s : tensor<1x8x32xf32>
  %gelu.p = tosa.add %gelu.erf, %one : (tensor<1x8x32xf32>, tensor<1x1x1xf32>) -> tensor<1x8x32xf32>
  %gelu.h = tosa.mul %ff1, %half {shift = 0 : i8} : (tensor<1x8x32xf32>, tensor<1x1x1xf32>) -> tensor<1x8x32xf32>
  %gelu = tosa.mul %gelu.h, %gelu.p {shift = 0 : i8} : (tensor<1x8x32xf32>, tensor<1x8x32xf32>) -> tensor<1x8x32xf32>
  %ff2.wt = tosa.transpose %w2, %perm10 : (tensor<16x32xf32>, tensor<2xi32>) -> tensor<32x16xf32>
  %ff2.w = tosa.reshape %ff2.wt {new_shape = array<i64: 1, 32, 16>} : (tensor<32x16xf32>) -> tensor<1x32x16xf32>
  %ff2.mm = tosa.matmul %gelu, %ff2.w : (tensor<1x8x32xf32>, tensor<1x32x16xf32>) -> tensor<1x8x16xf32>
  %ff2 = tosa.add %ff2.mm, %b2 : (tensor<1x8x16xf32>, tensor<1x1x16xf32>) -> tensor<1x8x16xf32>
  %res2 = tosa.add %ff2, %h1 : (tensor<1x8x16xf32>, tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %out = func.call @layer_norm(%res2, %g2, %be2) : (tensor<1x8x16xf32>, tensor<1x1x16xf32>, tensor<1x1x16xf32>) -> tensor<1x8x16xf32>

  // Pooler: dense + tanh on the first token.
  %cls = tensor.extract_slice %out[0, 0, 0] [1, 1, 16] [1, 1, 1] : tensor<1x8x16xf32> to tensor<1x16xf32>
  %cls.3d = tensor.expand_shape %cls [[0, 1], [2]] output_shape [1, 1, 16] : tensor<1x16xf32> into tensor<1x1x16xf32>
  %pool.wt = tosa.transpose %wp, %perm10 : (tensor<16x16xf32>, tensor<2xi32>) -> tensor<16x16xf32>
  %pool.w = tosa.reshape %pool.wt {new_shape = array<i64: 1, 16, 16>} : (tensor<16x16xf32>) -> tensor<1x16x16xf32>
  %pool.mm = tosa.matmul %cls.3d, %pool.w : (tensor<1x1x16xf32>, tensor<1x16x16xf32>) -> tensor<1x1x16xf32>
  %pool = tosa.add %pool.mm, %bp : (tensor<1x1x16xf32>, tensor<1x1x16xf32>) -> tensor<1x1x16xf32>
  %pool.tanh = math.tanh %pool : tensor<1x1x16xf32>
  %pooled = tensor.collapse_shape %pool.tanh [[0, 1], [2]] : tensor<1x1x16xf32> into tensor<1x16xf32>
  return %out, %pooled : tensor<1x8x16xf32>, tensor<1x16xf32>
}

// LayerNorm over the hidden size: (x - mean) * rsqrt(var + eps) * g + b.
func.func private @layer_norm(%x: tensor<1x8x16xf32>, %g: tensor<1x1x16xf32>,
                              %b: tensor<1x1x16xf32>) -> tensor<1x8x16xf32> {
  %inv_n = arith.constant dense<6.250000e-02> : tensor<1x1x1xf32>
  %eps = arith.constant dense<9.99999996E-13> : tensor<1x1x1xf32>
  %sum = tosa.reduce_sum %x {axis = 2 : i32} : (tensor<1x8x16xf32>) -> tensor<1x8x1xf32>
  %mean = tosa.mul %sum, %inv_n {shift = 0 : i8} : (tensor<1x8x1xf32>, tensor<1x1x1xf32>) -> tensor<1x8x1xf32>
  %d = tosa.sub %x, %mean : (tensor<1x8x16xf32>, tensor<1x8x1xf32>) -> tensor<1x8x16xf32>
  %d2 = tosa.mul %d, %d {shift = 0 : i8} : (tensor<1x8x16xf32>, tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %vsum = tosa.reduce_sum %d2 {axis = 2 : i32} : (tensor<1x8x16xf32>) -> tensor<1x8x1xf32>
  %var = tosa.mul %vsum, %inv_n {shift = 0 : i8} : (tensor<1x8x1xf32>, tensor<1x1x1xf32>) -> tensor<1x8x1xf32>
  %ve = tosa.add %var, %eps : (tensor<1x8x1xf32>, tensor<1x1x1xf32>) -> tensor<1x8x1xf32>
  %r = tosa.rsqrt %ve : (tensor<1x8x1xf32>) -> tensor<1x8x1xf32>
  %n = tosa.mul %d, %r {shift = 0 : i8} : (tensor<1x8x16xf32>, tensor<1x8x1xf32>) -> tensor<1x8x16xf32>
  %gn = tosa.mul %n, %g {shift = 0 : i8} : (tensor<1x8x16xf32>, tensor<1x1x16xf32>) -> tensor<1x8x16xf32>
  %y = tosa.add %gn, %b : (tensor<1x8x16xf32>, tensor<1x1x16xf32>) -> tensor<1x8x16xf32>
  return %y : tensor<1x8x16xf32>
}
