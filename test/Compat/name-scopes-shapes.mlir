// Name scopes of every shape of op_name: an op counts under each enclosing
// scope, empty components (a leading, doubled or trailing '/') are
// dropped, a name without '/' is its own scope, a missing one has a node
// of its own, and the scopes are listed in name order ('.' sorts before
// '/'). The report counts scopes on views of the names where it can; this
// pins that the counts are those of nameScopes.
// RUN: tessera-opt %s --tgraph-check-compat="target=core-8 print=json" -o /dev/null | %python -c "import json, sys; print([(s['name'], s['depth'], s['ops'], s['incompatible']) for s in json.load(sys.stdin)['scopes']])" | FileCheck %s
// CHECK: [('(no op_name)', 1, 1, 0), ('a', 1, 7, 1), ('a.b', 1, 1, 0), ('a/b', 2, 6, 1), ('a/b/c', 3, 1, 0)]

func.func @main(%x: tensor<4xf32>, %acc: tensor<f64>) {
  %0 = tgraph.negate %x {tgraph.op_name = "a/b/c/op"} : tensor<4xf32>
  %1 = tgraph.negate %0 {tgraph.op_name = "a/b/op"} : tensor<4xf32>
  %2 = tgraph.negate %1 {tgraph.op_name = "a"} : tensor<4xf32>
  %3 = tgraph.negate %2 {tgraph.op_name = "/a/b/lead"} : tensor<4xf32>
  %4 = tgraph.negate %3 {tgraph.op_name = "a//b/double"} : tensor<4xf32>
  %5 = tgraph.negate %4 {tgraph.op_name = "a/b/trail/"} : tensor<4xf32>
  %6 = tgraph.negate %5 : tensor<4xf32>
  %7 = tgraph.negate %6 {tgraph.op_name = "a.b/c"} : tensor<4xf32>
  %8 = tgraph.add %acc, %acc {tgraph.op_name = "a/b/f64"} : tensor<f64>
  return
}
