// A model repeats its views (a transformer's layers transpose the same
// layouts again and again), and the lowering lists each distinct view's
// copies once (Lowerer::viewCopies): by the two mappings, the destination
// type, the offset and the strides. Equal views get equal copies, also from
// another buffer of the same layout; the transpose of the other shape, on
// the same mappings, gets its own. Run/vertices.test runs this graph on the
// model device against the reference interpreter.
//
// RUN: tessera-opt %s --tgraph-check-compat=target=tile-1472 --tgraph-to-tile | FileCheck %s

// CHECK: [[X:%[0-9]+]] = tile.var "x" parameter mapping<[[MAP:[^>]*]]>
// CHECK: [[Y:%[0-9]+]] = tile.var "y" parameter mapping<[[MAP]]>
// CHECK: [[Z:%[0-9]+]] = tile.var "z" parameter mapping<[[MAP]]>
// CHECK: tile.exchange "t1" [[X]] -> {{%[0-9]+}} copies [[T1:.*]] :
// CHECK: tile.exchange "t2" [[X]] -> {{%[0-9]+}} copies [[T1]] :
// CHECK: tile.exchange "t3" [[Y]] -> {{%[0-9]+}} copies [[T1]] :
// CHECK: tile.exchange "t4" [[Z]] -> {{%[0-9]+}} copies
// CHECK-NOT: [[T1]]
// CHECK: tile.host_copy outfeed

func.func @main(%x: tensor<64x32xf32> loc("x"), %y: tensor<64x32xf32> loc("y"), %z: tensor<32x64xf32> loc("z"))
    -> (tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<64x32xf32>) {
  %t1 = tgraph.transpose %x, permutation = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32> loc("t1")
  %t2 = tgraph.transpose %x, permutation = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32> loc("t2")
  %t3 = tgraph.transpose %y, permutation = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32> loc("t3")
  %t4 = tgraph.transpose %z, permutation = [1, 0] : (tensor<32x64xf32>) -> tensor<64x32xf32> loc("t4")
  return %t1, %t2, %t3, %t4 : tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<64x32xf32>
}
