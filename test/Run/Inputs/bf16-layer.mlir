// A bf16 layer as a bf16 training framework writes it: a matmul with an
// elided weight, a bias, tanh, a rounding convert to f32 and back, and a
// sum. tile-1472 has no bf16: precision normalization computes it in f32.
func.func @main(%x: tensor<8x64xbf16> loc("x"), %b: tensor<32xbf16> loc("b"))
    -> (tensor<8x32xbf16>, tensor<8xbf16>) {
  %w = tgraph.constant elided : tensor<64x32xbf16> loc("w")
  %d = tgraph.dot_general %x, %w, batching_dims = [] x [], contracting_dims = [1] x [0]
         : (tensor<8x64xbf16>, tensor<64x32xbf16>) -> tensor<8x32xbf16> loc("dot")
  %bb = tgraph.broadcast_in_dim %b, dims = [1] : (tensor<32xbf16>) -> tensor<8x32xbf16> loc("bias.bcast")
  %a = tgraph.add %d, %bb : tensor<8x32xbf16> loc("bias")
  %t = tgraph.tanh %a : tensor<8x32xbf16> loc("tanh")
  %f = tgraph.convert %t : tensor<8x32xbf16> -> tensor<8x32xf32> loc("to_f32")
  %sq = tgraph.multiply %f, %f : tensor<8x32xf32> loc("square")
  %z = tgraph.constant dense<0.0> : tensor<f32> loc("zero")
  %s = tgraph.reduce(%sq) init(%z) dims = [1] {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %r = tgraph.add %p, %q : tensor<f32>
    tgraph.return %r : tensor<f32>
  } : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32> loc("sum")
  %sb = tgraph.convert %s : tensor<8xf32> -> tensor<8xbf16> loc("to_bf16")
  return %t, %sb : tensor<8x32xbf16>, tensor<8xbf16>
}
