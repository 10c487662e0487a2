// infeed and outfeed are host copies: an infeed's data lands in fresh
// buffers (one per tensor leaf), an outfeed sends its operand's buffers after
// a sync; tokens only order them, which the step order already does.
//
// RUN: tessera-opt %s --tgraph-check-compat=target=tile-1472 --tgraph-to-tile | FileCheck %s
// RUN: tessera-opt %s --tgraph-check-compat=target=core-8 --tgraph-to-tile | FileCheck %s

func.func @main(%x: tensor<64xf32> loc("x")) -> tensor<64xf32> {
  %tok = tgraph.after_all() loc("after-all.1")
  %in = tgraph.infeed %tok : tuple<tuple<tensor<64xf32>, tensor<8xi32>>, !tgraph.token> loc("infeed.2")
  %data = tgraph.get_tuple_element %in[0] : (tuple<tuple<tensor<64xf32>, tensor<8xi32>>, !tgraph.token>) -> tuple<tensor<64xf32>, tensor<8xi32>> loc("gte.3")
  %a = tgraph.get_tuple_element %data[0] : (tuple<tensor<64xf32>, tensor<8xi32>>) -> tensor<64xf32> loc("gte.4")
  %sum = tgraph.add %x, %a : tensor<64xf32> loc("add.5")
  %done = tgraph.outfeed %sum, %tok : tensor<64xf32> loc("outfeed.6")
  return %sum : tensor<64xf32>
}

// CHECK:      %[[A:.*]] = tile.var "infeed.2" temporary {{.*}}result_leaf = 0 : i64{{.*}} : !tile.buffer<64xf32>
// CHECK-NEXT: tile.host_copy infeed %[[A]] : !tile.buffer<64xf32>
// CHECK-NEXT: %[[I:.*]] = tile.var "infeed.2.1" temporary {{.*}}result_leaf = 1 : i64{{.*}} : !tile.buffer<8xi32>
// CHECK-NEXT: tile.host_copy infeed %[[I]] : !tile.buffer<8xi32>
// CHECK:      tile.compute_set "add.5" kind "elementwise.add"
// CHECK:      tile.sync
// CHECK-NEXT: tile.host_copy outfeed %[[SUM:.*]] : !tile.buffer<64xf32>
// CHECK-NOT:  host_compute
