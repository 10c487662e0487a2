// Batch norm as per-feature statistics. The operand stays in place; every
// tile holding its elements gets one slot per feature it holds (NAME.sum,
// NAME.squares: per-tile partial sums), an exchange gathers the slots on
// the tiles owning each feature (per-feature vectors are linear over the
// features) and `batch-norm.moments` reduces them to mean and variance.
// Per-feature values are broadcast back to the slots, and
// `batch-norm.normalise` / `batch-norm.grad` run on the operand's tiles.
//
// RUN: tessera-opt %s --split-input-file --tgraph-check-compat=target=tile-1472 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,T1472
// RUN: tessera-opt %s --split-input-file --tgraph-check-compat=target=core-8 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,C8

// [2, 4, 32] with the features in dimension 1 (bert's layer norm shape,
// smaller): 4 features of 64 elements each, 32 consecutive elements at a
// time.
func.func @main(%x: tensor<2x4x32xf32> loc("x"), %scale: tensor<4xf32> loc("scale"), %offset: tensor<4xf32> loc("offset")) -> tuple<tensor<2x4x32xf32>, tensor<4xf32>, tensor<4xf32>> {
  %r = tgraph.batch_norm_training %x, %scale, %offset {epsilon = 1.0e-05 : f32, feature_index = 1 : i64}
       : (tensor<2x4x32xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<2x4x32xf32>, tensor<4xf32>, tensor<4xf32>> loc("bn.1")
  return %r : tuple<tensor<2x4x32xf32>, tensor<4xf32>, tensor<4xf32>>
}

// CHECK-LABEL: tile.program @main.tile
// T1472: %[[X:.*]] = tile.var "x" parameter mapping<[0, 127] x 2 from 0>
// C8: %[[X:.*]] = tile.var "x" parameter mapping<[0, 1] x 128 from 0>
// CHECK: %[[SCALE:.*]] = tile.var "scale" parameter
// CHECK: %[[OFFSET:.*]] = tile.var "offset" parameter
// The result is in place; mean and variance sit on the tile holding each
// feature's first element (tile-1472: 2 elements a tile, so feature f on
// tile 16f; core-8: all on tile 0).
// CHECK: %[[Y:.*]] = tile.var "bn.1" output {{.*}} why = "in place{{[^"]*}}"
// T1472: %[[MEAN:.*]] = tile.var "bn.1.mean" output mapping<[0, 0] x 1 from 0, [16, 16] x 1 from 1, [32, 32] x 1 from 2, [48, 48] x 1 from 3> {hlo = "bn.1", result_leaf = 1 : i64, result_of = {{[0-9]+}} : i64, why = "per-feature vector follows 'x': each element stays on the tile of its source element"}
// C8: %[[MEAN:.*]] = tile.var "bn.1.mean" output mapping<[0, 0] x 4 from 0> {hlo = "bn.1", result_leaf = 1 : i64, result_of = {{[0-9]+}} : i64, why = "per-feature vector follows 'x': each element stays on the tile of its source element"}
// CHECK: %[[VAR:.*]] = tile.var "bn.1.variance" output
// tile-1472: 2 elements a tile, so one feature a tile (128 slots); core-8:
// 128 elements a tile, so all 4 features on each of 2 tiles (8 slots).
// T1472: %[[SUM:.*]] = tile.var "bn.1.sum" partials mapping<[0, 127] x 1 from 0> {{.*}} : !tile.buffer<128xf32>
// C8: %[[SUM:.*]] = tile.var "bn.1.sum" partials mapping<[0, 1] x 4 from 0> {{.*}} : !tile.buffer<8xf32>
// CHECK: %[[SQ:.*]] = tile.var "bn.1.squares" partials
// CHECK: tile.compute_set "bn.1.statistics" kind "batch-norm.statistics" {{.*}} ins(%[[X]] : {{.*}}) outs(%[[SUM]], %[[SQ]] : {{.*}}) {feature_index = 1 : i64}
// The slots are gathered on the tiles owning the features.
// T1472: %[[GSUM:.*]] = tile.var "bn.1.sum.gathered" partials mapping<[0, 0] x 32 from 0, [16, 16] x 32 from 32, [32, 32] x 32 from 64, [48, 48] x 32 from 96>
// C8: %[[GSUM:.*]] = tile.var "bn.1.sum.gathered" partials mapping<[0, 0] x 8 from 0>
// CHECK: tile.exchange "bn.1.sum.gathered" %[[SUM]] -> %[[GSUM]]
// CHECK: tile.exchange "bn.1.squares.gathered" %[[SQ]] -> %[[GSQ:.*]] copies
// CHECK: tile.compute_set "bn.1.moments" kind "batch-norm.moments" tiles [0, 0] ins(%[[GSUM]], %[[GSQ]] : {{.*}}) outs(%[[MEAN]], %[[VAR]] : {{.*}}) {count = 64 : i64, partials_per_output_runs = array<i64: [[RUNS:32, 4|2, 4]]>}
// T1472-NEXT: tile.compute_set "bn.1.moments" kind "batch-norm.moments" tiles [16, 16]
// CHECK: tile.exchange "bn.1.scale.slots" %[[SCALE]]
// CHECK: tile.exchange "bn.1.offset.slots" %[[OFFSET]]
// CHECK: tile.exchange "bn.1.mean.slots" %[[MEAN]]
// CHECK: tile.exchange "bn.1.variance.slots" %[[VAR]]
// T1472: tile.compute_set "bn.1" kind "batch-norm.normalise" tiles [0, 127] ins(%[[X]], {{.*}}) outs(%[[Y]] : {{.*}}) {epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}
// C8: tile.compute_set "bn.1" kind "batch-norm.normalise" tiles [0, 1] ins(%[[X]], {{.*}}) outs(%[[Y]] : {{.*}}) {epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}
// CHECK-NOT: host_compute

// -----

// Inference: only the broadcast of the four per-feature operands and the
// normalise step.
func.func @main(%x: tensor<8x16xf32> loc("x"), %s: tensor<16xf32> loc("s"), %o: tensor<16xf32> loc("o"), %m: tensor<16xf32> loc("m"), %v: tensor<16xf32> loc("v")) -> tensor<8x16xf32> {
  %r = tgraph.batch_norm_inference %x, %s, %o, %m, %v {epsilon = 1.0e-03 : f32, feature_index = 1 : i64}
       : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<8x16xf32> loc("bn.2")
  return %r : tensor<8x16xf32>
}

// CHECK-LABEL: tile.program @main.tile
// CHECK-NOT: batch-norm.statistics
// CHECK: tile.exchange "bn.2.scale.slots"
// CHECK: tile.exchange "bn.2.offset.slots"
// CHECK: tile.exchange "bn.2.mean.slots"
// CHECK: tile.exchange "bn.2.variance.slots"
// CHECK: tile.compute_set "bn.2" kind "batch-norm.normalise"
// CHECK-NOT: host_compute

// -----

// Grad: sum(dy) and sum(dy * xhat) per feature by slots and gather; the
// output gradient on another layout is first moved onto the operand's.
func.func @main(%x: tensor<4x8xf32> loc("x"), %s: tensor<8xf32> loc("s"), %m: tensor<8xf32> loc("m"), %v: tensor<8xf32> loc("v"), %dy0: tensor<8x4xf32> loc("dy0")) -> tuple<tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>> {
  %dy = tgraph.transpose %dy0, permutation = [1, 0] : (tensor<8x4xf32>) -> tensor<4x8xf32> loc("dy")
  %r = tgraph.batch_norm_grad %x, %s, %m, %v, %dy {epsilon = 1.0e-05 : f32, feature_index = 1 : i64}
       : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<4x8xf32>) -> tuple<tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>> loc("bng.3")
  return %r : tuple<tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>>
}

// CHECK-LABEL: tile.program @main.tile
// CHECK: %[[DX:.*]] = tile.var "bng.3" output
// CHECK: %[[DS:.*]] = tile.var "bng.3.grad-scale" output
// CHECK: %[[DO:.*]] = tile.var "bng.3.grad-offset" output
// CHECK: tile.compute_set "bng.3.statistics" kind "batch-norm.grad-statistics"
// CHECK: tile.compute_set "bng.3.offset" kind "reduce.add" {{.*}} outs(%[[DO]] :
// CHECK: tile.compute_set "bng.3.scale" kind "reduce.add" {{.*}} outs(%[[DS]] :
// CHECK: tile.exchange "bng.3.grad-scale.slots" %[[DS]]
// CHECK: tile.exchange "bng.3.grad-offset.slots" %[[DO]]
// CHECK: tile.compute_set "bng.3" kind "batch-norm.grad" {{.*}} outs(%[[DX]] : {{.*}}) {count = 4 : i64, epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}
// CHECK-NOT: host_compute

// -----

// Features innermost ([16, 1024], feature 1): every feature starts within
// the first 1024 elements, so following the operand would crowd its first
// tiles; the statistics are linear over the features instead.
func.func @main(%x: tensor<16x1024xf32> loc("x"), %scale: tensor<1024xf32> loc("scale"), %offset: tensor<1024xf32> loc("offset")) -> tuple<tensor<16x1024xf32>, tensor<1024xf32>, tensor<1024xf32>> {
  %r = tgraph.batch_norm_training %x, %scale, %offset {epsilon = 1.0e-05 : f32, feature_index = 1 : i64}
       : (tensor<16x1024xf32>, tensor<1024xf32>, tensor<1024xf32>) -> tuple<tensor<16x1024xf32>, tensor<1024xf32>, tensor<1024xf32>> loc("bn.4")
  return %r : tuple<tensor<16x1024xf32>, tensor<1024xf32>, tensor<1024xf32>>
}

// CHECK-LABEL: tile.program @main.tile
// T1472: tile.var "bn.4.mean" output mapping<[0, 511] x 2 from 0> {hlo = "bn.4", result_leaf = 1 : i64, result_of = {{[0-9]+}} : i64, why = "per-feature vector: linear: 2 per tile (grain 2) over 512 tiles"}
// C8: tile.var "bn.4.mean" output mapping<[0, 1] x 512 from 0> {hlo = "bn.4", result_leaf = 1 : i64, result_of = {{[0-9]+}} : i64, why = "per-feature vector: linear:
// CHECK: tile.compute_set "bn.4" kind "batch-norm.normalise"
