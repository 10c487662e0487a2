// The MLIR seed of the bad-input corpus: a small valid tgraph module.
func.func @main(%x: tensor<8x16xf32> loc("x"), %w: tensor<16x4xf32> loc("w")) -> tensor<8x4xf32> {
  %d = tgraph.dot_general %x, %w, batching_dims = [] x [], contracting_dims = [1] x [0]
         : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32> loc("dot")
  %t = tgraph.tanh %d : tensor<8x4xf32> loc("tanh")
  return %t : tensor<8x4xf32>
}
