func.func @main(%x: tensor<8x4xf32> loc("x"), %bias: tensor<4xf32> loc("bias")) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %b = tgraph.broadcast_in_dim %bias, dims = [1] : (tensor<4xf32>) -> tensor<8x4xf32> loc("bias.b")
  %0 = tgraph.add %x, %b : tensor<8x4xf32> loc("add.0")
  %a = tgraph.tanh %0 : tensor<8x4xf32> loc("act")
  %e = tgraph.exponential %a : tensor<8x4xf32> loc("exp.a")
  %1 = tgraph.multiply %e, %e : tensor<8x4xf32> loc("mul.1")
  %2 = tgraph.tanh %1 : tensor<8x4xf32> loc("tanh.2")
  %3 = tgraph.tanh %2 : tensor<8x4xf32> loc("tanh.3")
  %4 = tgraph.tanh %3 : tensor<8x4xf32> loc("tanh.4")
  %5 = tgraph.add %4, %b : tensor<8x4xf32> loc("add.5")
  %6 = tgraph.subtract %5, %e : tensor<8x4xf32> loc("sub.6")
  %7 = tgraph.multiply %6, %a : tensor<8x4xf32> loc("mul.7")
  return %7, %0 : tensor<8x4xf32>, tensor<8x4xf32>
}
