// bf16 elementwise ops and the model's own rounding convert: computed in
// f32 and rounded after every op (bf16-to-f32-round), they match the bf16
// reference bit for bit.
func.func @main(%x: tensor<64xbf16> loc("x"), %y: tensor<64xbf16> loc("y")) -> tensor<64xbf16> {
  %c = tgraph.constant dense<0.3> : tensor<64xbf16> loc("c")
  %e = tgraph.exponential %x : tensor<64xbf16> loc("exp")
  %a = tgraph.add %e, %c : tensor<64xbf16> loc("add")
  %m = tgraph.multiply %a, %y : tensor<64xbf16> loc("mul")
  %f = tgraph.convert %m : tensor<64xbf16> -> tensor<64xf32> loc("to_f32")
  %s = tgraph.sqrt %f : tensor<64xf32> loc("sqrt")
  %b = tgraph.convert %s : tensor<64xf32> -> tensor<64xbf16> loc("to_bf16")
  return %b : tensor<64xbf16>
}
