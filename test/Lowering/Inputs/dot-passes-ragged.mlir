// dot-passes.mlir: a ragged grid (the last m block 30, the last n block 18)
// in passes, rhs contracted along its minor dimension.
func.func @main(%a: tensor<126x384xf32> loc("a"), %b: tensor<114x384xf32> loc("b")) -> tensor<126x114xf32> {
  %d = tgraph.dot_general %a, %b, batching_dims = [] x [], contracting_dims = [1] x [1]
       : (tensor<126x384xf32>, tensor<114x384xf32>) -> tensor<126x114xf32> loc("passes_ragged")
  return %d : tensor<126x114xf32>
}
