// The three batch-norm ops on shapes that put a feature's elements on one
// tile, on many, or several features on one tile; variances are squares
// (plus epsilon) so the reference has no NaN to agree on.
func.func @main(%x: tensor<2x4x32xf32> loc("x"), %scale: tensor<4xf32> loc("scale"),
                %offset: tensor<4xf32> loc("offset"),
                %xi: tensor<8x16xf32> loc("xi"), %s: tensor<16xf32> loc("s"),
                %o: tensor<16xf32> loc("o"), %m: tensor<16xf32> loc("m"),
                %v: tensor<16xf32> loc("v"),
                %xg: tensor<4x8xf32> loc("xg"), %sg: tensor<8xf32> loc("sg"),
                %mg: tensor<8xf32> loc("mg"), %vg: tensor<8xf32> loc("vg"),
                %dy0: tensor<8x4xf32> loc("dy0"),
                %xw: tensor<16x1024xf32> loc("xw"), %sw: tensor<1024xf32> loc("sw"),
                %ow: tensor<1024xf32> loc("ow"))
    -> (tuple<tensor<2x4x32xf32>, tensor<4xf32>, tensor<4xf32>>, tensor<8x16xf32>,
        tuple<tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>>,
        tuple<tensor<16x1024xf32>, tensor<1024xf32>, tensor<1024xf32>>) {
  %t = tgraph.batch_norm_training %x, %scale, %offset {epsilon = 1.0e-05 : f32, feature_index = 1 : i64}
       : (tensor<2x4x32xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<2x4x32xf32>, tensor<4xf32>, tensor<4xf32>> loc("bn.1")
  %vv = tgraph.multiply %v, %v : tensor<16xf32> loc("vv")
  %i = tgraph.batch_norm_inference %xi, %s, %o, %m, %vv {epsilon = 1.0e-03 : f32, feature_index = 1 : i64}
       : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<8x16xf32> loc("bn.2")
  %dy = tgraph.transpose %dy0, permutation = [1, 0] : (tensor<8x4xf32>) -> tensor<4x8xf32> loc("dy")
  %vgg = tgraph.multiply %vg, %vg : tensor<8xf32> loc("vgg")
  %g = tgraph.batch_norm_grad %xg, %sg, %mg, %vgg, %dy {epsilon = 1.0e-02 : f32, feature_index = 1 : i64}
       : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<4x8xf32>) -> tuple<tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>> loc("bng.3")
  %w = tgraph.batch_norm_training %xw, %sw, %ow {epsilon = 1.0e-05 : f32, feature_index = 1 : i64}
       : (tensor<16x1024xf32>, tensor<1024xf32>, tensor<1024xf32>) -> tuple<tensor<16x1024xf32>, tensor<1024xf32>, tensor<1024xf32>> loc("bn.4")
  return %t, %i, %g, %w : tuple<tensor<2x4x32xf32>, tensor<4xf32>, tensor<4xf32>>, tensor<8x16xf32>,
        tuple<tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>>,
        tuple<tensor<16x1024xf32>, tensor<1024xf32>, tensor<1024xf32>>
}
