// A graph repeats its elementwise ops over the same layouts, and the
// lowering plans what they move once (Lowerer::relayoutCopies and
// Lowerer::replications): a re-layout by its source and destination
// mappings, a replicated scalar by the scalar's mapping and its
// consumer's. Equal ops get equal copies; another consumer layout (c3),
// another scalar tile (c4's first bound) or another source layout (m3)
// get their own. Run/vertices.test runs this graph on the model device
// against the reference interpreter.
//
// RUN: tessera-opt %s --tgraph-check-compat=target=core-8 --tgraph-to-tile | FileCheck %s

// CHECK: tile.exchange "c1.bcast" {{%[0-9]+}} -> {{%[0-9]+}} copies [7, 0, 2, 1, 0, 0, 0, 1] strided [1, 0, 0, 0, 1] :
// CHECK: tile.exchange "c1.bcast" {{%[0-9]+}} -> {{%[0-9]+}} copies [7, 0, 2, 1, 0, 0, 0, 1] strided [1, 0, 0, 0, 1] :
// CHECK: tile.exchange "c2.bcast" {{%[0-9]+}} -> {{%[0-9]+}} copies [7, 0, 2, 1, 0, 0, 0, 1] strided [1, 0, 0, 0, 1] :
// CHECK: tile.exchange "c2.bcast" {{%[0-9]+}} -> {{%[0-9]+}} copies [7, 0, 2, 1, 0, 0, 0, 1] strided [1, 0, 0, 0, 1] :
// CHECK: tile.var "c3.scalar" temporary mapping<[2, 4] x 1 from 0>
// CHECK: tile.exchange "c3.bcast" {{%[0-9]+}} -> {{%[0-9]+}} copies [7, 2, 3, 1, 0, 0, 0, 1] strided [1, 0, 0, 0, 1] :
// CHECK: tile.exchange "m1.in1" [[S:%[0-9]+]] -> {{%[0-9]+}} copies [[SCOPIES:\[5, 0, 1, 24, 0, 0, 0, 0, 6, 0, 1, 488, 24, 0, 24, 0, 6, 1, 1, 488, 512, 0, 512, 0\]]] :
// CHECK: tile.exchange "m2.in1" [[S]] -> {{%[0-9]+}} copies [[SCOPIES]] :
// CHECK: tile.exchange "m3.in1" {{%[0-9]+}} -> {{%[0-9]+}} copies [5, 0, 1, 512, 0, 0, 0, 0, 5, 1, 1, 488, 512, 0, 512, 0] :
// CHECK: tile.exchange "c4.bcast" {{%[0-9]+}} -> {{%[0-9]+}} copies [6, 0, 2, 1, 0, 0, 0, 1] strided [1, 0, 0, 0, 1] :
// CHECK: tile.exchange "c4.bcast" {{%[0-9]+}} -> {{%[0-9]+}} copies [7, 0, 2, 1, 0, 0, 0, 1] strided [1, 0, 0, 0, 1] :

func.func @main(%x: tensor<1000xf32> loc("x"), %y: tensor<1000xf32> loc("y"),
                %z: tensor<3000xf32> loc("z"), %w: tensor<2000xf32> loc("w"),
                %lo: tensor<f32> loc("lo"), %hi: tensor<f32> loc("hi"))
    -> (tensor<1000xf32>, tensor<1000xf32>, tensor<3000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>) {
  %c1 = tgraph.clamp %lo, %x, %hi : (tensor<f32>, tensor<1000xf32>, tensor<f32>) -> tensor<1000xf32> loc("c1")
  %c2 = tgraph.clamp %lo, %y, %hi : (tensor<f32>, tensor<1000xf32>, tensor<f32>) -> tensor<1000xf32> loc("c2")
  %c3 = tgraph.clamp %lo, %z, %hi : (tensor<f32>, tensor<3000xf32>, tensor<f32>) -> tensor<3000xf32> loc("c3")
  %s = tgraph.slice %w, start = [1000], limit = [2000], strides = [1] : (tensor<2000xf32>) -> tensor<1000xf32> loc("s")
  %m1 = tgraph.multiply %x, %s : tensor<1000xf32> loc("m1")
  %m2 = tgraph.multiply %y, %s : tensor<1000xf32> loc("m2")
  %t = tgraph.slice %w, start = [0], limit = [1000], strides = [1] : (tensor<2000xf32>) -> tensor<1000xf32> loc("t")
  %m3 = tgraph.multiply %x, %t : tensor<1000xf32> loc("m3")
  %e = tgraph.slice %w, start = [1500], limit = [1501], strides = [1] : (tensor<2000xf32>) -> tensor<1xf32> loc("e")
  %es = tgraph.reshape %e : (tensor<1xf32>) -> tensor<f32> loc("es")
  %c4 = tgraph.clamp %es, %x, %hi : (tensor<f32>, tensor<1000xf32>, tensor<f32>) -> tensor<1000xf32> loc("c4")
  return %c1, %c2, %c3, %m1, %m2, %m3, %c4 : tensor<1000xf32>, tensor<1000xf32>, tensor<3000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>
}
