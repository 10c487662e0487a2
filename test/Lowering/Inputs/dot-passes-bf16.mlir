// dot-passes.mlir: bf16 operands in passes; the sums stay f32 and are
// rounded once.
func.func @main(%a: tensor<160x768xbf16> loc("a"), %b: tensor<768x96xbf16> loc("b")) -> tensor<160x96xbf16> {
  %d = tgraph.dot_general %a, %b, batching_dims = [] x [], contracting_dims = [1] x [0]
       : (tensor<160x768xbf16>, tensor<768x96xbf16>) -> tensor<160x96xbf16> loc("passes_bf16")
  return %d : tensor<160x96xbf16>
}
