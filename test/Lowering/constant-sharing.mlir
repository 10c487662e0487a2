// Small constants of equal value and type share one buffer: the later one
// is a var aliasing the first, with no bytes of its own (on core-8 each
// would take a 4 KiB layout tile). A returned constant keeps its own, and
// the model device computes what the reference interpreter does.
//
// RUN: tessera-opt %s --tgraph-check-compat=target=core-8 --tgraph-to-tile | FileCheck %s
// RUN: rm -rf %t && mkdir %t
// RUN: tessera-compile %s --target=core-8 -o %t/c.tessera > /dev/null
// RUN: tessera-run %t/c.tessera --check | FileCheck %s --check-prefix=DEVICE

func.func @main(%x: tensor<64xf32> loc("x")) -> (tensor<64xf32>, tensor<f32>) {
  %one = tgraph.constant dense<1.0> : tensor<f32> loc("one")
  %two = tgraph.constant dense<2.0> : tensor<f32> loc("two")
  %one.b = tgraph.constant dense<1.0> : tensor<f32> loc("one.again")
  %ret = tgraph.constant dense<1.0> : tensor<f32> loc("one.returned")
  %a = tgraph.broadcast_in_dim %one, dims = [] : (tensor<f32>) -> tensor<64xf32> loc("a")
  %b = tgraph.broadcast_in_dim %two, dims = [] : (tensor<f32>) -> tensor<64xf32> loc("b")
  %c = tgraph.broadcast_in_dim %one.b, dims = [] : (tensor<f32>) -> tensor<64xf32> loc("c")
  %0 = tgraph.add %x, %a : tensor<64xf32> loc("add.0")
  %1 = tgraph.multiply %0, %b : tensor<64xf32> loc("mul.1")
  %2 = tgraph.subtract %1, %c : tensor<64xf32> loc("sub.2")
  return %2, %ret : tensor<64xf32>, tensor<f32>
}

// CHECK:      %[[ONE:.*]] = tile.var "one" constant mapping<[[M:.*]]> {{.*}}value = dense<1.000000e+00>
// CHECK:      tile.var "two" constant
// CHECK:      tile.var "one.again" constant mapping<[[M]]> aliases %[[ONE]] : !tile.buffer<f32> {{{.*}}why = "in place: same layout as 'one' (the same constant)"}
// CHECK-NOT:  aliases
// CHECK:      tile.var "one.returned" constant
// DEVICE:      output_0 {{.*}} PASS
// DEVICE-NEXT: output_1 {{.*}} PASS
// DEVICE:      check: PASS
