// A convolution without spatial dimensions (a matmul in convolution form):
// its empty window arrays reach the vertex as empty lists, not as missing
// parameters (the runtime rejected the executable before).
func.func @main(%x: tensor<4x8xf32> loc("x"), %w: tensor<8x16xf32> loc("w")) -> tensor<4x16xf32> {
  %c = tgraph.convolution %x, %w, dim_labels = "bf_io->bf" : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32> loc("c")
  return %c : tensor<4x16xf32>
}
