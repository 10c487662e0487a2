// A module whose name needs JSON escapes (a quote, a tab) and is not ASCII.
module @"quo\22te\09\C3\A9" {
  func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
    %0 = tgraph.add %a, %a : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
