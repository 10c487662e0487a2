// 16-bit float contractions long enough in K to be split across tiles: their
// partial sums are kept in f32 and rounded once, by the reduce that adds
// them (tessera-run --check_ops finds each result within an ulp).
func.func @main(%a: tensor<16x2048xbf16> loc("a"), %b: tensor<2048x64xbf16> loc("b"),
                %x: tensor<1x4x4x512xf16> loc("x"), %w: tensor<3x3x512x64xf16> loc("w"))
    -> (tensor<16x64xbf16>, tensor<1x4x4x64xf16>) {
  %d = tgraph.dot_general %a, %b, batching_dims = [] x [], contracting_dims = [1] x [0]
         : (tensor<16x2048xbf16>, tensor<2048x64xbf16>) -> tensor<16x64xbf16> loc("dot")
  %c = tgraph.convolution %x, %w, dim_labels = "b01f_01io->b01f" {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x4x4x512xf16>, tensor<3x3x512x64xf16>) -> tensor<1x4x4x64xf16> loc("conv")
  return %d, %c : tensor<16x64xbf16>, tensor<1x4x4x64xf16>
}
