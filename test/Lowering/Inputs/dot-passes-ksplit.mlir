// dot-passes.mlir: passes whose grid also splits K over tiles (2x1x2x4):
// each pass reduces its slices beside the running sum, then adds them in.
func.func @main(%a: tensor<64x1024xf32> loc("a"), %b: tensor<1024x64xf32> loc("b")) -> tensor<64x64xf32> {
  %d = tgraph.dot_general %a, %b, batching_dims = [] x [], contracting_dims = [1] x [0]
       : (tensor<64x1024xf32>, tensor<1024x64xf32>) -> tensor<64x64xf32> loc("passes_k")
  return %d : tensor<64x64xf32>
}
