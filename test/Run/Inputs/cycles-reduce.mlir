func.func @main(%x: tensor<64xf32> loc("x")) -> tensor<f32> {
  %zero = tgraph.constant dense<0.0> : tensor<f32> loc("zero")
  %sum = tgraph.reduce(%x) init(%zero) dims = [0] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = tgraph.add %a, %b : tensor<f32>
    tgraph.return %t : tensor<f32>
  } : (tensor<64xf32>, tensor<f32>) -> tensor<f32> loc("total")
  return %sum : tensor<f32>
}
