// sort: every row along the sort dimension is whole on one tile and the
// rows are split over tiles; all operands (keys, then values) get that one
// layout and a "sort" vertex per tile sorts its rows. A comparator that is
// one compare of the keys is recorded as `direction` (compare(b, a) flips
// it); any other comparator stays on the host, where the interpreter
// evaluates its body. core-8 has no sort: the checker leaves it on the host.
//
// RUN: tessera-opt %s --tgraph-check-compat=target=tile-1472 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,T1472
// RUN: tessera-opt %s --tgraph-check-compat=target=core-8 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,C8

func.func @main(%x: tensor<16x128xf32> loc("x"), %k: tensor<1024xf32> loc("k"), %v: tensor<1024xi32> loc("v"))
    -> (tensor<16x128xf32>, tensor<1024xf32>, tensor<1024xi32>, tensor<16x128xf32>, tensor<16x128xf32>) {
  %s = tgraph.sort(%x) dim = 1 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = tgraph.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    tgraph.return %lt : tensor<i1>
  } : (tensor<16x128xf32>) -> tensor<16x128xf32> loc("sort.1")
  // Keys and values, descending by key.
  %kv = tgraph.sort(%k, %v) dim = 0 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %gt = tgraph.compare LT, %b, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
    tgraph.return %gt : tensor<i1>
  } {is_stable} : (tensor<1024xf32>, tensor<1024xi32>) -> tuple<tensor<1024xf32>, tensor<1024xi32>> loc("sort.2")
  %sk = tgraph.get_tuple_element %kv[0] : (tuple<tensor<1024xf32>, tensor<1024xi32>>) -> tensor<1024xf32> loc("gte.3")
  %sv = tgraph.get_tuple_element %kv[1] : (tuple<tensor<1024xf32>, tensor<1024xi32>>) -> tensor<1024xi32> loc("gte.4")
  // Columns by absolute value.
  %c = tgraph.sort(%x) dim = 0 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %na = tgraph.abs %a : tensor<f32>
    %nb = tgraph.abs %b : tensor<f32>
    %lt = tgraph.compare LT, %na, %nb : (tensor<f32>, tensor<f32>) -> tensor<i1>
    tgraph.return %lt : tensor<i1>
  } : (tensor<16x128xf32>) -> tensor<16x128xf32> loc("sort.5")
  // Columns, descending.
  %d = tgraph.sort(%x) dim = 0 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %gt = tgraph.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    tgraph.return %gt : tensor<i1>
  } : (tensor<16x128xf32>) -> tensor<16x128xf32> loc("sort.6")
  return %s, %sk, %sv, %c, %d : tensor<16x128xf32>, tensor<1024xf32>, tensor<1024xi32>, tensor<16x128xf32>, tensor<16x128xf32>
}

// CHECK: %[[X:.*]] = tile.var "x" parameter
// CHECK: %[[K:.*]] = tile.var "k" parameter
// CHECK: %[[V:.*]] = tile.var "v" parameter

// 16 rows of 128, one row per tile.
// T1472: %[[S0:.*]] = tile.var "sort.1.in0" temporary mapping<[0, 15] x 128 from 0> {why = "re-laid from 'x': dims [1] whole on each tile, the other 16 positions split 1 per tile over 16 tiles"} : !tile.buffer<16x128xf32>
// T1472: tile.exchange "sort.1.in0" %[[X]] -> %[[S0]]
// T1472-NEXT: %[[S:.*]] = tile.var "sort.1" output mapping<[0, 15] x 128 from 0> {hlo = "sort.1", result_leaf = 0 : i64, result_of = {{[0-9]+}} : i64, why = "rows along dim 1 whole per tile, like the sort's input: dims [1] whole on each tile, the other 16 positions split 1 per tile over 16 tiles"}
// T1472-NEXT: tile.sync
// T1472-NEXT: tile.compute_set "sort.1" kind "sort" tiles [0, 15] ins(%[[S0]] : !tile.buffer<16x128xf32>) outs(%[[S]] : !tile.buffer<16x128xf32>) {dimension = 1 : i64, direction = "LT", num_operands = 1 : i64}

// One 1024-long row: keys and values both gathered on one tile.
// T1472: %[[K0:.*]] = tile.var "sort.2.in0" temporary mapping<[0, 0] x 1024 from 0> {why = "re-laid from 'k': dims [0] whole on each tile: nothing else to split, all on one tile"}
// T1472-NEXT: tile.exchange "sort.2.in0" %[[K]] -> %[[K0]]
// T1472-NEXT: %[[V0:.*]] = tile.var "sort.2.in1" temporary mapping<[0, 0] x 1024 from 0>
// T1472-NEXT: tile.exchange "sort.2.in1" %[[V]] -> %[[V0]]
// T1472-NEXT: %[[SK:.*]] = tile.var "sort.2.0" temporary mapping<[0, 0] x 1024 from 0>
// T1472-NEXT: %[[SV:.*]] = tile.var "sort.2.1" temporary mapping<[0, 0] x 1024 from 0>
// T1472-NEXT: tile.sync
// T1472-NEXT: tile.compute_set "sort.2" kind "sort" tiles [0, 0] ins(%[[K0]], %[[V0]] : !tile.buffer<1024xf32>, !tile.buffer<1024xi32>) outs(%[[SK]], %[[SV]] : !tile.buffer<1024xf32>, !tile.buffer<1024xi32>) {dimension = 0 : i64, direction = "GT", is_stable, num_operands = 2 : i64}

// A comparator of |a| < |b| stays on the host.
// T1472: tile.host_compute "sort.5" op "tgraph.sort" reason "not-lowered"

// Sorting along dim 0 makes each column (16 elements, stride 128) a row.
// T1472: %[[C0:.*]] = tile.var "sort.6.in0" temporary mapping<[0, 127] x 1 from 0, [0, 127] x 1 from 128,
// T1472: tile.compute_set "sort.6" kind "sort" tiles [0, 127] ins(%[[C0]] : !tile.buffer<16x128xf32>) outs(%{{.*}} : !tile.buffer<16x128xf32>) {dimension = 0 : i64, direction = "GT", num_operands = 1 : i64}

// C8: tile.host_compute "sort.1" op "tgraph.sort" reason "unsupported-op"
// C8: tile.host_compute "sort.2" op "tgraph.sort" reason "unsupported-op"
// C8: tile.host_compute "sort.5" op "tgraph.sort" reason "unsupported-op"
// C8: tile.host_compute "sort.6" op "tgraph.sort" reason "unsupported-op"
// C8-NOT: kind "sort"
