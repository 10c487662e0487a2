// A loop whose trip count depends on the data: it squashes x with tanh
// and accumulates half the sum of squares until the total reaches a limit
// computed from the second input (40 + 30 l: one to six iterations for l
// in [-1, 1); the count itself is an output). Its body
// mixes ops on the carried state (not checkable alone after the run) and
// ops on values computed in the same iteration (checked on their last
// iteration by --check_ops).
func.func private @cond(%s: tuple<tensor<f32>, tensor<64xf32>, tensor<i32>, tensor<f32>>) -> tensor<i1> {
  %acc = tgraph.get_tuple_element %s[0] : (tuple<tensor<f32>, tensor<64xf32>, tensor<i32>, tensor<f32>>) -> tensor<f32> loc("acc.c")
  %limit = tgraph.get_tuple_element %s[3] : (tuple<tensor<f32>, tensor<64xf32>, tensor<i32>, tensor<f32>>) -> tensor<f32> loc("limit")
  %lt = tgraph.compare LT, %acc, %limit : (tensor<f32>, tensor<f32>) -> tensor<i1> loc("lt")
  return %lt : tensor<i1>
}
func.func private @body(%s: tuple<tensor<f32>, tensor<64xf32>, tensor<i32>, tensor<f32>>) -> tuple<tensor<f32>, tensor<64xf32>, tensor<i32>, tensor<f32>> {
  %acc = tgraph.get_tuple_element %s[0] : (tuple<tensor<f32>, tensor<64xf32>, tensor<i32>, tensor<f32>>) -> tensor<f32> loc("acc")
  %x = tgraph.get_tuple_element %s[1] : (tuple<tensor<f32>, tensor<64xf32>, tensor<i32>, tensor<f32>>) -> tensor<64xf32> loc("x.b")
  %n = tgraph.get_tuple_element %s[2] : (tuple<tensor<f32>, tensor<64xf32>, tensor<i32>, tensor<f32>>) -> tensor<i32> loc("n")
  %y = tgraph.tanh %x : tensor<64xf32> loc("tanh")
  %sq = tgraph.multiply %y, %y : tensor<64xf32> loc("square")
  %zero = tgraph.constant dense<0.0> : tensor<f32> loc("zero")
  %sum = tgraph.reduce(%sq) init(%zero) dims = [0] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = tgraph.add %a, %b : tensor<f32>
    tgraph.return %t : tensor<f32>
  } : (tensor<64xf32>, tensor<f32>) -> tensor<f32> loc("sum")
  %half = tgraph.constant dense<0.5> : tensor<f32> loc("half")
  %scaled = tgraph.multiply %sum, %half : tensor<f32> loc("scaled")
  %acc2 = tgraph.add %acc, %scaled : tensor<f32> loc("acc.next")
  %one = tgraph.constant dense<1> : tensor<i32> loc("one")
  %n2 = tgraph.add %n, %one : tensor<i32> loc("n.next")
  %lim = tgraph.get_tuple_element %s[3] : (tuple<tensor<f32>, tensor<64xf32>, tensor<i32>, tensor<f32>>) -> tensor<f32> loc("lim")
  %t = tgraph.tuple %acc2, %y, %n2, %lim : (tensor<f32>, tensor<64xf32>, tensor<i32>, tensor<f32>) -> tuple<tensor<f32>, tensor<64xf32>, tensor<i32>, tensor<f32>> loc("t")
  return %t : tuple<tensor<f32>, tensor<64xf32>, tensor<i32>, tensor<f32>>
}
func.func @main(%x: tensor<64xf32> loc("x"), %l: tensor<f32> loc("l")) -> (tensor<f32>, tensor<64xf32>, tensor<i32>) {
  %thirty = tgraph.constant dense<3.0e+01> : tensor<f32> loc("thirty")
  %forty = tgraph.constant dense<4.0e+01> : tensor<f32> loc("forty")
  %l30 = tgraph.multiply %l, %thirty : tensor<f32> loc("l30")
  %limit = tgraph.add %l30, %forty : tensor<f32> loc("limit0")
  %three = tgraph.constant dense<3.0> : tensor<f32> loc("three")
  %b = tgraph.broadcast_in_dim %three, dims = [] : (tensor<f32>) -> tensor<64xf32> loc("b")
  %x3 = tgraph.multiply %x, %b : tensor<64xf32> loc("x3")
  %zero = tgraph.constant dense<0.0> : tensor<f32> loc("acc0")
  %n0 = tgraph.constant dense<0> : tensor<i32> loc("n0")
  %init = tgraph.tuple %zero, %x3, %n0, %limit : (tensor<f32>, tensor<64xf32>, tensor<i32>, tensor<f32>) -> tuple<tensor<f32>, tensor<64xf32>, tensor<i32>, tensor<f32>> loc("init")
  %loop = tgraph.while %init cond @cond body @body : tuple<tensor<f32>, tensor<64xf32>, tensor<i32>, tensor<f32>> loc("while.1")
  %acc = tgraph.get_tuple_element %loop[0] : (tuple<tensor<f32>, tensor<64xf32>, tensor<i32>, tensor<f32>>) -> tensor<f32> loc("acc.out")
  %y = tgraph.get_tuple_element %loop[1] : (tuple<tensor<f32>, tensor<64xf32>, tensor<i32>, tensor<f32>>) -> tensor<64xf32> loc("y.out")
  %n = tgraph.get_tuple_element %loop[2] : (tuple<tensor<f32>, tensor<64xf32>, tensor<i32>, tensor<f32>>) -> tensor<i32> loc("n.out")
  return %acc, %y, %n : tensor<f32>, tensor<64xf32>, tensor<i32>
}
