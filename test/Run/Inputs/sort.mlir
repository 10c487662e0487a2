// test/Lowering/sort.mlir without its custom-comparator sort (sort.5),
// which the model device refuses at load (test/Run/errors.test).
func.func @main(%x: tensor<16x128xf32> loc("x"), %k: tensor<1024xf32> loc("k"), %v: tensor<1024xi32> loc("v"))
    -> (tensor<16x128xf32>, tensor<1024xf32>, tensor<1024xi32>) {
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
  return %s, %sk, %sv : tensor<16x128xf32>, tensor<1024xf32>, tensor<1024xi32>
}

