// Matmuls whose sizes have no divisors that fill the chip (37 and 53 are
// prime), so the lowering cuts them into a ragged grid: blocks of one size
// and a smaller last row and column. With and without a K split, with a
// batch, in f16 (f32 partials) and in s32.
func.func @main(%a: tensor<37x64xf32> loc("a"), %b: tensor<64x53xf32> loc("b"),
                %c: tensor<37x3xf32> loc("c"), %d: tensor<3x53xf32> loc("d"),
                %e: tensor<2x37x8xf32> loc("e"), %f: tensor<2x8x53xf32> loc("f"),
                %g: tensor<37x64xf16> loc("g"), %h: tensor<64x53xf16> loc("h"),
                %i: tensor<37x6xi32> loc("i"), %j: tensor<6x53xi32> loc("j"))
    -> (tensor<37x53xf32>, tensor<37x53xf32>, tensor<2x37x53xf32>,
        tensor<37x53xf16>, tensor<37x53xi32>) {
  %0 = tgraph.dot_general %a, %b, batching_dims = [] x [], contracting_dims = [1] x [0]
         : (tensor<37x64xf32>, tensor<64x53xf32>) -> tensor<37x53xf32> loc("ksplit")
  %1 = tgraph.dot_general %c, %d, batching_dims = [] x [], contracting_dims = [1] x [0]
         : (tensor<37x3xf32>, tensor<3x53xf32>) -> tensor<37x53xf32> loc("whole_k")
  %2 = tgraph.dot_general %e, %f, batching_dims = [0] x [0], contracting_dims = [2] x [1]
         : (tensor<2x37x8xf32>, tensor<2x8x53xf32>) -> tensor<2x37x53xf32> loc("batched")
  %3 = tgraph.dot_general %g, %h, batching_dims = [] x [], contracting_dims = [1] x [0]
         : (tensor<37x64xf16>, tensor<64x53xf16>) -> tensor<37x53xf16> loc("half")
  %4 = tgraph.dot_general %i, %j, batching_dims = [] x [], contracting_dims = [1] x [0]
         : (tensor<37x6xi32>, tensor<6x53xi32>) -> tensor<37x53xi32> loc("integer")
  return %0, %1, %2, %3, %4 : tensor<37x53xf32>, tensor<37x53xf32>, tensor<2x37x53xf32>,
        tensor<37x53xf16>, tensor<37x53xi32>
}
