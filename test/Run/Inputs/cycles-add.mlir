func.func @main(%x: tensor<64xf32> loc("x"), %y: tensor<64xf32> loc("y")) -> tensor<64xf32> {
  %s = tgraph.add %x, %y : tensor<64xf32> loc("sum")
  return %s : tensor<64xf32>
}
