// A model repeats convolutions, and the lowering plans each distinct one
// once (Lowerer::convPlans): by the operands' layouts, the types, the window
// and the labels. Equal convolutions get equal copies, also from another
// buffer of the same layout; a convolution of a differently laid-out input
// or with another window gets its own. Run/vertices.test runs this graph
// on the model device against the reference interpreter.
//
// RUN: tessera-opt %s --tgraph-check-compat=target=tile-1472 --tgraph-to-tile | FileCheck %s

// y is laid out as x is (parameters of one element count share their
// tiles).
// CHECK: [[X:%[0-9]+]] = tile.var "x" parameter mapping<[[XMAP:[^>]*]]>
// CHECK: [[W:%[0-9]+]] = tile.var "w"
// CHECK: [[Y:%[0-9]+]] = tile.var "y" parameter mapping<[[XMAP]]>
// CHECK: tile.exchange "a.in" [[X]] -> {{%[0-9]+}} copies [[AIN:.*]] :
// CHECK: tile.exchange "a.weights" [[W]] -> {{%[0-9]+}} copies [[AW:.*]] :
// CHECK: tile.exchange "a.in.replicate" {{%[0-9]+}} -> {{%[0-9]+}} copies [[AREP:.*]] :
// CHECK: tile.exchange "a.gather" {{%[0-9]+}} -> {{%[0-9]+}} copies [[AG:.*]] :
// CHECK: tile.exchange "b.in" [[X]] -> {{%[0-9]+}} copies [[AIN]] :
// CHECK: tile.exchange "b.weights" [[W]] -> {{%[0-9]+}} copies [[AW]] :
// CHECK: tile.exchange "b.in.replicate" {{%[0-9]+}} -> {{%[0-9]+}} copies [[AREP]] :
// CHECK: tile.exchange "b.gather" {{%[0-9]+}} -> {{%[0-9]+}} copies [[AG]] :
// c reads y: the same copies, from y.
// CHECK: tile.exchange "c.in" [[Y]] -> {{%[0-9]+}} copies [[AIN]] :
// d reads a's result, laid out in a's output blocks: its own copies.
// CHECK: tile.exchange "d.in"
// CHECK-NOT: [[AIN]]
// CHECK: tile.exchange "d.weights" [[W]] -> {{%[0-9]+}} copies [[AW]] :
// e has no padding: another grid.
// CHECK: tile.var "e.in" temporary {{.*}} one per tile of the 4x1x3x3x4 (k x batch x rows x columns x features) grid
// CHECK: tile.exchange "e.in" [[X]]
// CHECK-NOT: [[AIN]]
// CHECK: tile.exchange "e.weights"

func.func @main(%x: tensor<1x8x8x16xf32> loc("x"), %w: tensor<3x3x16x16xf32> loc("w"),
                %y: tensor<1x8x8x16xf32> loc("y"))
    -> (tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x6x6x16xf32>) {
  %a = tgraph.convolution %x, %w, dim_labels = "b01f_01io->b01f" {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x16xf32>, tensor<3x3x16x16xf32>) -> tensor<1x8x8x16xf32> loc("a")
  %b = tgraph.convolution %x, %w, dim_labels = "b01f_01io->b01f" {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x16xf32>, tensor<3x3x16x16xf32>) -> tensor<1x8x8x16xf32> loc("b")
  %c = tgraph.convolution %y, %w, dim_labels = "b01f_01io->b01f" {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x16xf32>, tensor<3x3x16x16xf32>) -> tensor<1x8x8x16xf32> loc("c")
  %d = tgraph.convolution %a, %w, dim_labels = "b01f_01io->b01f" {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x16xf32>, tensor<3x3x16x16xf32>) -> tensor<1x8x8x16xf32> loc("d")
  %e = tgraph.convolution %x, %w, dim_labels = "b01f_01io->b01f" : (tensor<1x8x8x16xf32>, tensor<3x3x16x16xf32>) -> tensor<1x6x6x16xf32> loc("e")
  return %a, %b, %c, %d, %e : tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x6x6x16xf32>
}
