// Ops the checker marked incompatible (f64: neither preset has it) stay on
// the host: their inputs are outfed, a tile.host_compute names the op and
// the checker's reason, and the results are infed back. Ops this lowering
// does not handle yet (rng here) are host_compute "not-lowered". Nothing is
// dropped: everything after them still runs on tiles.
//
// RUN: tessera-opt %s --tgraph-check-compat=target=tile-1472 --tgraph-to-tile=print-stats | FileCheck %s --check-prefixes=CHECK,T1472
// RUN: tessera-opt %s --tgraph-check-compat=target=core-8 --tgraph-to-tile=print-stats | FileCheck %s --check-prefixes=CHECK,C8

func.func @main(%a: tensor<64xf64> loc("a"), %x: tensor<64xf32> loc("x")) -> tensor<64xf32> {
  %d = tgraph.add %a, %a : tensor<64xf64> loc("add.f64")
  %f = tgraph.convert %d : tensor<64xf64> -> tensor<64xf32> loc("convert.1")
  %z = tgraph.constant dense<0.0> : tensor<f32> loc("zero")
  %r = tgraph.rng <UNIFORM>, %z, %z : (tensor<f32>, tensor<f32>) -> tensor<64xf32> loc("rng.2")
  %s = tgraph.add %r, %x : tensor<64xf32> loc("add.2")
  %n = tgraph.negate %s : tensor<64xf32> loc("negate.3")
  return %n : tensor<64xf32>
}

// T1472: tgraph-to-tile on tile-1472: tiles used 65, vars 8, compute sets 2, exchanges 0, syncs {{[0-9]+}}, host copies 9, host_compute 3 [not-lowered: 1] [unsupported-dtype: 2]
// C8: tgraph-to-tile on core-8: tiles used 8, vars 8, compute sets 2, exchanges 0, syncs {{[0-9]+}}, host copies 9, host_compute 3 [not-lowered: 1] [unsupported-dtype: 2]
// CHECK-NEXT: not lowered: tgraph.rng=1

// CHECK: tile.program @main.tile
// CHECK: %[[A:.*]] = tile.var "a" parameter {{.*}} : !tile.buffer<64xf64>
// CHECK-NEXT: tile.host_copy infeed %[[A]]
// CHECK: tile.sync
// The input is outfed once even though add.f64 reads it twice.
// CHECK-NEXT: tile.host_copy outfeed %[[A]] : !tile.buffer<64xf64>
// CHECK-NEXT: %[[D:.*]] = tile.var "add.f64" temporary {{.*}} : !tile.buffer<64xf64>
// CHECK-NEXT: tile.host_compute "add.f64" op "tgraph.add" reason "unsupported-dtype" ins(%[[A]], %[[A]] : {{.*}}) outs(%[[D]] : !tile.buffer<64xf64>) {detail = "f64 is not supported by
// CHECK-NEXT: tile.host_copy infeed %[[D]]
// CHECK: tile.host_compute "convert.1" op "tgraph.convert" reason "unsupported-dtype"
// CHECK: %[[Z:.*]] = tile.var "zero" constant
// CHECK: tile.host_copy outfeed %[[Z]]
// CHECK-NEXT: %[[R:.*]] = tile.var "rng.2" temporary {{.*}} : !tile.buffer<64xf32>
// CHECK-NEXT: tile.host_compute "rng.2" op "tgraph.rng" reason "not-lowered" ins(%[[Z]], %[[Z]] : {{.*}}) outs(%[[R]] : !tile.buffer<64xf32>)
// CHECK-NEXT: tile.host_copy infeed %[[R]]
// Back on tiles: the host's result feeds an elementwise chain.
// CHECK: %[[S:.*]] = tile.var "add.2" temporary {{.*}}why = "in place{{[^"]*}}"
// CHECK-NEXT: tile.sync
// CHECK-NEXT: tile.compute_set "add.2" kind "elementwise.add" {{.*}} ins(%[[R]], %{{.*}} : {{.*}}) outs(%[[S]] :
// CHECK: %[[N:.*]] = tile.var "negate.3" output
// CHECK: tile.host_copy outfeed %[[N]]
