// Three convolutions whose windows overlap tile boundaries: the tiles hold
// different halos, so the allocator sees many distinct lists of buffers
// (compile-threads.test).
func.func @main(%x: tensor<1x24x24x8xf32>, %w1: tensor<16x3x3x8xf32>, %b1: tensor<16xf32>, %w2: tensor<3x3x16x1xf32>, %b2: tensor<16xf32>, %w3: tensor<32x1x1x16xf32>, %b3: tensor<32xf32>) -> tensor<1x24x24x32xf32> {
  %0 = "tosa.conv2d"(%x, %w1, %b1) {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x24x24x8xf32>, tensor<16x3x3x8xf32>, tensor<16xf32>) -> tensor<1x24x24x16xf32>
  %1 = "tosa.clamp"(%0) {min_fp = 0.0 : f32, max_fp = 6.0 : f32, min_int = 0 : i64, max_int = 6 : i64} : (tensor<1x24x24x16xf32>) -> tensor<1x24x24x16xf32>
  %2 = "tosa.depthwise_conv2d"(%1, %w2, %b2) {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x24x24x16xf32>, tensor<3x3x16x1xf32>, tensor<16xf32>) -> tensor<1x24x24x16xf32>
  %3 = "tosa.conv2d"(%2, %w3, %b3) {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x24x24x16xf32>, tensor<32x1x1x16xf32>, tensor<32xf32>) -> tensor<1x24x24x32xf32>
  return %3 : tensor<1x24x24x32xf32>
}
