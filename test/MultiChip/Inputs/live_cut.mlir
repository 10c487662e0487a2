// A forward chain f1..f8 of 64 KiB values, then a backward chain that
// reads each f again and f1 at every step (as a training step reads its
// activations and a weight). On small-pod-4 (512 KiB a chip) the cut by
// result bytes gives the first chip the f's and the first backward ops,
// 576 KiB live with f1 and the copies; the cut by live bytes ends the
// first stage after f6 and fits two chips (placement.test).
func.func @main(%x: tensor<16384xf32> loc("x")) -> tensor<16384xf32> {
  %f1 = tgraph.negate %x : tensor<16384xf32> loc("f1")
  %f2 = tgraph.exponential %f1 : tensor<16384xf32> loc("f2")
  %f3 = tgraph.negate %f2 : tensor<16384xf32> loc("f3")
  %f4 = tgraph.exponential %f3 : tensor<16384xf32> loc("f4")
  %f5 = tgraph.negate %f4 : tensor<16384xf32> loc("f5")
  %f6 = tgraph.exponential %f5 : tensor<16384xf32> loc("f6")
  %f7 = tgraph.negate %f6 : tensor<16384xf32> loc("f7")
  %f8 = tgraph.exponential %f7 : tensor<16384xf32> loc("f8")
  %g8 = tgraph.multiply %f8, %f8 : tensor<16384xf32> loc("g8")
  %h8 = tgraph.add %g8, %f1 : tensor<16384xf32> loc("h8")
  %g7 = tgraph.multiply %h8, %f7 : tensor<16384xf32> loc("g7")
  %h7 = tgraph.add %g7, %f1 : tensor<16384xf32> loc("h7")
  %g6 = tgraph.multiply %h7, %f6 : tensor<16384xf32> loc("g6")
  %h6 = tgraph.add %g6, %f1 : tensor<16384xf32> loc("h6")
  %g5 = tgraph.multiply %h6, %f5 : tensor<16384xf32> loc("g5")
  %h5 = tgraph.add %g5, %f1 : tensor<16384xf32> loc("h5")
  %g4 = tgraph.multiply %h5, %f4 : tensor<16384xf32> loc("g4")
  %h4 = tgraph.add %g4, %f1 : tensor<16384xf32> loc("h4")
  %g3 = tgraph.multiply %h4, %f3 : tensor<16384xf32> loc("g3")
  %h3 = tgraph.add %g3, %f1 : tensor<16384xf32> loc("h3")
  %g2 = tgraph.multiply %h3, %f2 : tensor<16384xf32> loc("g2")
  %h2 = tgraph.add %g2, %f1 : tensor<16384xf32> loc("h2")
  %g1 = tgraph.multiply %h2, %f1 : tensor<16384xf32> loc("g1")
  %h1 = tgraph.add %g1, %f1 : tensor<16384xf32> loc("h1")
  return %h1 : tensor<16384xf32>
}
