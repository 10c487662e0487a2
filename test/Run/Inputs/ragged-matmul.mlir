// Matmuls whose sizes have no divisors that fill the chip (37 and 53 are
// prime), so the lowering cuts them into a ragged grid: blocks of one size
// and a smaller last row and column. With and without a K split, with a
// batch, in f16 (f32 partials) and in s32.
func.func @main(%a: tensor<37x64xf32> loc("a"), %b: tensor<64x53xf32> loc("b"),
                %c: tensor<37x3xf32> loc("c"), %d: tensor<3x53xf32> loc("d"),
                %e: tensor<2x37x8xf32> loc("e"), %f: tensor<2x8x53xf32> loc("f"),
                %g: tensor<37x64xf16> loc("g"), %h: tensor<64x53xf16> loc("h"),
                %i: tensor<37x6xi32> loc("i"), %j: tensor<6x53xi32> loc("j"),
                %k: tensor<6x7x32xf32> loc("k"), %l: tensor<32x53xf32> loc("l"),
                %m: tensor<37x4x8xf32> loc("m"), %n: tensor<4x8x53xf32> loc("n"),
                %o: tensor<61x32xf32> loc("o"), %p: tensor<32x5x7xf32> loc("p"))
    -> (tensor<37x53xf32>, tensor<37x53xf32>, tensor<2x37x53xf32>,
        tensor<37x53xf16>, tensor<37x53xi32>, tensor<6x7x53xf32>,
        tensor<37x53xf32>, tensor<61x5x7xf32>) {
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
  %5 = tgraph.dot_general %k, %l, batching_dims = [] x [], contracting_dims = [2] x [0]
         : (tensor<6x7x32xf32>, tensor<32x53xf32>) -> tensor<6x7x53xf32> loc("two_m")
  %6 = tgraph.dot_general %m, %n, batching_dims = [] x [], contracting_dims = [1, 2] x [0, 1]
         : (tensor<37x4x8xf32>, tensor<4x8x53xf32>) -> tensor<37x53xf32> loc("two_k")
  %7 = tgraph.dot_general %o, %p, batching_dims = [] x [], contracting_dims = [1] x [0]
         : (tensor<61x32xf32>, tensor<32x5x7xf32>) -> tensor<61x5x7xf32> loc("two_n")
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<37x53xf32>, tensor<37x53xf32>, tensor<2x37x53xf32>,
        tensor<37x53xf16>, tensor<37x53xi32>, tensor<6x7x53xf32>, tensor<37x53xf32>,
        tensor<61x5x7xf32>
}
