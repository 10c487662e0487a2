// reduce_window (pooling): output blocks on a grid of tiles; each tile
// receives by exchange the input window of its block (halo included,
// padding left out) and runs one "reduce-window.OP" vertex (OP named as for
// reduce) starting from the init value, replicated one per tile; the init
// value also stands for padded positions.
//
// core-8: 8 blocks of one output row. The padded 3x3 stride-2 max pool reads
// input rows 2r-1..2r+1, one row shared with the next block (halo 1), and
// the first block's row -1 is padding (2 rows x 16 x 8 = 256 elements, the
// others 384); the 2x2 stride-2 average pool (add) has no halo. tile-1472:
// one output element per tile of an 8x8x8 grid, a 3x3 (2x3, 3x2, 2x2 at the
// padded edges) window of 1 feature each. A reducer other than one binary
// op on its two arguments stays on the host. Outputs 64..199 of "padded"
// read only padding: their blocks still get one input element (the last),
// and on tile-1472, where each is its own block, that identical window is
// fetched once and replicated ("padded.in.replicate").
//
// RUN: tessera-opt %s --tgraph-check-compat=target=core-8 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,C8
// RUN: tessera-opt %s --tgraph-check-compat=target=tile-1472 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,T1472

func.func @main(%x: tensor<1x16x16x8xf32> loc("x"), %v: tensor<64xf32> loc("v")) -> (tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>, tensor<200xf32>) {
  %ninf = tgraph.constant dense<0xFF800000> : tensor<f32> loc("ninf")
  %zero = tgraph.constant dense<0.0> : tensor<f32> loc("zero")
  %max = tgraph.reduce_window(%x) init(%ninf) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = tgraph.maximum %a, %b : tensor<f32>
    tgraph.return %m : tensor<f32>
  } {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>,
     padding = array<i64: 0, 0, 1, 1, 1, 1, 0, 0>}
    : (tensor<1x16x16x8xf32>, tensor<f32>) -> tensor<1x8x8x8xf32> loc("maxpool")
  %sum = tgraph.reduce_window(%x) init(%zero) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}
    : (tensor<1x16x16x8xf32>, tensor<f32>) -> tensor<1x8x8x8xf32> loc("avgpool")
  %sq = tgraph.reduce_window(%x) init(%zero) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = tgraph.multiply %b, %b : tensor<f32>
    %s = tgraph.add %a, %p : tensor<f32>
    tgraph.return %s : tensor<f32>
  } {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}
    : (tensor<1x16x16x8xf32>, tensor<f32>) -> tensor<1x8x8x8xf32> loc("sumsq")
  %pad = tgraph.reduce_window(%v) init(%zero) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } {window_dimensions = array<i64: 2>, padding = array<i64: 0, 137>}
    : (tensor<64xf32>, tensor<f32>) -> tensor<200xf32> loc("padded")
  return %max, %sum, %sq, %pad : tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>, tensor<200xf32>
}

// CHECK: %[[X:.*]] = tile.var "x" parameter
// CHECK: %[[NINF:.*]] = tile.var "ninf" constant
// CHECK: %[[ZERO:.*]] = tile.var "zero" constant
// C8: %[[MIN:.*]] = tile.var "maxpool.in" temporary mapping<[0, 0] x 256 from 0, [1, 7] x 384 from 256> {hlo = "maxpool", why = "reduce_window input windows{{[^"]*}}"} : !tile.buffer<2944xf32>
// C8: %[[M:.*]] = tile.var "maxpool" output mapping<[0, 7] x 64 from 0> {hlo = "maxpool", result_leaf = 0 : i64, result_of = {{[0-9]+}} : i64, why = "reduce_window result in 1x1x8x8 blocks on the 1x8x1x1 grid"}
// T1472: %[[MIN:.*]] = tile.var "maxpool.in" temporary mapping<[0, 7] x 4 from 0, [8, 71] x 6 from 32, [72, 127] x 9 from 416, {{.*}}why = "reduce_window input windows (halo included), one per tile of the 1x8x8x8 grid"} : !tile.buffer<4232xf32>
// T1472: %[[M:.*]] = tile.var "maxpool" output mapping<[0, 511] x 1 from 0> {hlo = "maxpool", result_leaf = 0 : i64, result_of = {{[0-9]+}} : i64, why = "reduce_window result in 1x1x1x1 blocks on the 1x8x8x8 grid"}
// CHECK: tile.exchange "maxpool.in" %[[X]] -> %[[MIN]]
// Source tile 0 feeds tiles 1..3 and source tile 1 tiles 5..7 by one
// strided run each (tile steps 0, 1): 5 runs rather than 9.
// C8-SAME: copies [0, 4, 1, 128, 896, 0, 1408, 0, 0, 0, 1, 256, 0, 0, 0, 0, 0, 1, 3, 384, 128, 256, 256, 384, 1, 4, 1, 256, 1024, 0, 1536, 0, 1, 5, 3, 384, 1152, 256, 1792, 384] strided [128, 0, 0, 1, 1, 256, 0, 0, 1, 1, 384, 0, 0, 0, 1, 256, 0, 0, 1, 1, 384, 0, 0, 0, 1]
// CHECK: %[[MINIT:.*]] = tile.var "maxpool.scalar"
// CHECK: tile.exchange "maxpool.bcast" %[[NINF]] -> %[[MINIT]]
// C8: tile.compute_set "maxpool" kind "reduce-window.maximum" tiles [0, 7] ins(%[[MIN]], %[[MINIT]] : {{.*}}) outs(%[[M]] : {{.*}}) {base_dilations = array<i64: 1, 1, 1, 1>, block = array<i64: 1, 1, 8, 8>, flops = 4096 : i64, grid = array<i64: 1, 8, 1, 1>, halo = array<i64: 0, 1, 0, 0>, input_boxes = array<i64: {{[0-9, ]+}}>, input_shape = array<i64: {{[0-9, ]+}}>, padding = array<i64: 0, 0, 1, 1, 1, 1, 0, 0>, scalar_operands = array<i64: 1>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}
// T1472: tile.compute_set "maxpool" kind "reduce-window.maximum" tiles [0, 511] ins(%[[MIN]], %[[MINIT]] : {{.*}}) outs(%[[M]] : {{.*}}) {{.*}}block = array<i64: 1, 1, 1, 1>, {{.*}}grid = array<i64: 1, 8, 8, 8>, halo = array<i64: 0, 1, 1, 0>,

// C8: %[[AIN:.*]] = tile.var "avgpool.in" temporary mapping<[0, 7] x 256 from 0>
// T1472: %[[AIN:.*]] = tile.var "avgpool.in" temporary mapping<[0, 511] x 4 from 0>
// CHECK: %[[A:.*]] = tile.var "avgpool" output
// CHECK: tile.exchange "avgpool.in" %[[X]] -> %[[AIN]]
// CHECK: %[[AINIT:.*]] = tile.var "avgpool.scalar"
// CHECK: tile.exchange "avgpool.bcast" %[[ZERO]] -> %[[AINIT]]
// CHECK: tile.compute_set "avgpool" kind "reduce-window.add" {{.*}}ins(%[[AIN]], %[[AINIT]] : {{.*}}) outs(%[[A]] : {{.*}}) {{.*}}halo = array<i64: 0, 0, 0, 0>, {{.*}}window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}
// CHECK-NOT: host_compute
// CHECK: tile.host_compute "sumsq" op "tgraph.reduce_window" reason "not-lowered"
// C8: %[[PIN:.*]] = tile.var "padded.in" temporary mapping<[0, 0] x 64 from 0, [1, 1] x 1 from 64>
// C8-NOT: "padded.in.replicate"
// T1472: %[[PIN:.*]] = tile.var "padded.in" temporary mapping<[0, 62] x 2 from 0, [63, 199] x 1 from 126>
// T1472: tile.exchange "padded.in.replicate" %[[PIN]] -> %[[PIN]] copies [63, 64, 1, 1, 126, 0, 127, 0,
// CHECK: tile.compute_set "padded" kind "reduce-window.add"
