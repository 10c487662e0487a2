// Strided exchange runs (docs/tile-dialect.md, tile.exchange `strided`):
// a convolution whose o01i weights are split by input feature, and an
// embedding lookup whose table is read where it is (each table tile writes
// a partial result, summed on the result's tiles).
func.func @main(%x: tensor<1x8x8x512xf32> loc("x"),
                %w: tensor<128x3x3x512xf32> loc("w"),
                %table: tensor<8192x2xf32> loc("table"),
                %ids: tensor<16xi32> loc("ids"))
    -> (tensor<1x8x8x128xf32>, tensor<16x2xf32>) {
  %c = tgraph.convolution %x, %w, dim_labels = "b01f_o01i->b01f" {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x512xf32>, tensor<128x3x3x512xf32>) -> tensor<1x8x8x128xf32> loc("conv")
  %e = tgraph.gather %table, %ids {offset_dims = array<i64: 1>,
         collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>,
         index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 2>}
       : (tensor<8192x2xf32>, tensor<16xi32>) -> tensor<16x2xf32> loc("lookup")
  return %c, %e : tensor<1x8x8x128xf32>, tensor<16x2xf32>
}
