// dot-memory.mlir: a ragged grid that splits K to fit the tile memory.
func.func @main(%a: tensor<60x512xf32> loc("a"), %b: tensor<512x52xf32> loc("b")) -> tensor<60x52xf32> {
  %d = tgraph.dot_general %a, %b, batching_dims = [] x [], contracting_dims = [1] x [0]
       : (tensor<60x512xf32>, tensor<512x52xf32>) -> tensor<60x52xf32> loc("ragged_k")
  return %d : tensor<60x52xf32>
}
