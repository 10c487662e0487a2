// while -> tile.repeat, conditional -> tile.if, call / fusion inlined.
// The loop state lives in carried buffers (a copy of its initial value, or
// the initial buffer itself when nothing reads it after the loop); the
// condition is evaluated before the loop into WHILE.cond and again at the
// end of each iteration, after the body's results are copied back; every
// iteration ends with a sync.
//
// RUN: tessera-opt %s --split-input-file --tgraph-check-compat=target=tile-1472 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,T1472
// RUN: tessera-opt %s --split-input-file --tgraph-check-compat=target=core-8 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,C8

// A counter loop `i < 10` from 0 by 1: trip_count 10.
func.func private @cond(%s: tuple<tensor<i32>, tensor<64xf32>>) -> tensor<i1> {
  %i = tgraph.get_tuple_element %s[0] : (tuple<tensor<i32>, tensor<64xf32>>) -> tensor<i32> loc("i.c")
  %n = tgraph.constant dense<10> : tensor<i32> loc("n")
  %lt = tgraph.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1> loc("lt")
  return %lt : tensor<i1>
}
func.func private @body(%s: tuple<tensor<i32>, tensor<64xf32>>) -> tuple<tensor<i32>, tensor<64xf32>> {
  %i = tgraph.get_tuple_element %s[0] : (tuple<tensor<i32>, tensor<64xf32>>) -> tensor<i32> loc("i.b")
  %x = tgraph.get_tuple_element %s[1] : (tuple<tensor<i32>, tensor<64xf32>>) -> tensor<64xf32> loc("x.b")
  %one = tgraph.constant dense<1> : tensor<i32> loc("one")
  %next = tgraph.add %i, %one : tensor<i32> loc("next")
  %y = tgraph.tanh %x : tensor<64xf32> loc("tanh")
  %t = tgraph.tuple %next, %y : (tensor<i32>, tensor<64xf32>) -> tuple<tensor<i32>, tensor<64xf32>> loc("t")
  return %t : tuple<tensor<i32>, tensor<64xf32>>
}
func.func @main(%x: tensor<64xf32> loc("x")) -> tensor<64xf32> {
  %zero = tgraph.constant dense<0> : tensor<i32> loc("zero")
  %init = tgraph.tuple %zero, %x : (tensor<i32>, tensor<64xf32>) -> tuple<tensor<i32>, tensor<64xf32>> loc("init")
  %loop = tgraph.while %init cond @cond body @body : tuple<tensor<i32>, tensor<64xf32>> loc("while.1")
  %out = tgraph.get_tuple_element %loop[1] : (tuple<tensor<i32>, tensor<64xf32>>) -> tensor<64xf32> loc("out")
  return %out : tensor<64xf32>
}

// CHECK-LABEL: tile.program @main.tile
// CHECK: %[[X:.*]] = tile.var "x" parameter
// CHECK: %[[ZERO:.*]] = tile.var "zero" constant
// The constant and the parameter are read later (or kept): copied in.
// CHECK: %[[S0:.*]] = tile.var "while.1.state0" temporary mapping<[[[ST:[0-9]+]], [[ST]]] x 1 from 0> {hlo = "while.1", result_leaf = 0 : i64, result_of = {{[0-9]+}} : i64, why = "loop state{{[^"]*}}"} : !tile.buffer<i32>
// CHECK-NEXT: tile.exchange "while.1.state0" %[[ZERO]] -> %[[S0]]
// The state keeps its initial value's layout, so the copy stays on-tile.
// T1472: %[[S1:.*]] = tile.var "while.1.state1" temporary mapping<[0, 31] x 2 from 0>
// C8: %[[S1:.*]] = tile.var "while.1.state1" temporary mapping<[0, 1] x 32 from 0>
// T1472: tile.exchange "while.1.state1" %[[X]] -> %[[S1]] copies [0, 0, 32, 2, 0, 2, 0, 2]
// C8: tile.exchange "while.1.state1" %[[X]] -> %[[S1]] copies [0, 0, 2, 32, 0, 32, 0, 32]
// CHECK: %[[C:.*]] = tile.var "while.1.cond" temporary mapping<[0, 0] x 1 from 0> {{.*}} : !tile.buffer<i1>
// CHECK: tile.compute_set "lt" kind "elementwise.compare" tiles [[[ST]], [[ST]]] ins(%[[S0]], {{.*}}) outs(%[[LT0:.*]] : !tile.buffer<i1>)
// CHECK-NEXT: tile.sync
// CHECK-NEXT: tile.exchange "while.1.cond" %[[LT0]] -> %[[C]]
// CHECK-NEXT: tile.sync
// The body's buffers are declared before the loop.
// CHECK: %[[NEXT:.*]] = tile.var "next" temporary
// CHECK: %[[TANH:.*]] = tile.var "tanh" temporary
// CHECK: %[[LT1:.*]] = tile.var "lt.1" temporary
// CHECK-NEXT: tile.repeat "while.1" cond %[[C]] : !tile.buffer<i1> trip_count 10 {
// CHECK-NEXT: tile.compute_set "next" kind "elementwise.add" {{.*}} ins(%[[S0]], {{.*}}) outs(%[[NEXT]] :
// CHECK-NEXT: tile.compute_set "tanh" kind "elementwise.tanh" {{.*}} ins(%[[S1]] : {{.*}}) outs(%[[TANH]] :
// CHECK-NEXT: tile.sync
// CHECK-NEXT: tile.exchange "while.1.next" %[[NEXT]] -> %[[S0]]
// CHECK-NEXT: tile.exchange "while.1.next" %[[TANH]] -> %[[S1]]
// CHECK-NEXT: tile.sync
// CHECK-NEXT: tile.compute_set "lt" kind "elementwise.compare" {{.*}} ins(%[[S0]], {{.*}}) outs(%[[LT1]] :
// CHECK-NEXT: tile.sync
// CHECK-NEXT: tile.exchange "while.1.cond" %[[LT1]] -> %[[C]]
// CHECK-NEXT: tile.sync
// CHECK-NEXT: }
// The result is the loop state; returned, it gets its output copy.
// CHECK: tile.exchange "while.1.state1.out" %[[S1]] -> %[[OUT:.*]] copies
// CHECK: tile.host_copy outfeed %[[OUT]]

// -----

// A data-dependent condition (a float compared with a float): trip_count
// -1. The initial value is a temporary nothing reads after the loop, so the
// loop updates it in place: no state copy. The body swaps two values, so
// one of them is set aside before the copies back.
func.func private @cond(%s: tuple<tensor<f32>, tensor<8xf32>, tensor<8xf32>>) -> tensor<i1> {
  %v = tgraph.get_tuple_element %s[0] : (tuple<tensor<f32>, tensor<8xf32>, tensor<8xf32>>) -> tensor<f32> loc("v.c")
  %lim = tgraph.constant dense<100.0> : tensor<f32> loc("lim")
  %lt = tgraph.compare LT, %v, %lim : (tensor<f32>, tensor<f32>) -> tensor<i1> loc("vlt")
  return %lt : tensor<i1>
}
func.func private @body(%s: tuple<tensor<f32>, tensor<8xf32>, tensor<8xf32>>) -> tuple<tensor<f32>, tensor<8xf32>, tensor<8xf32>> {
  %v = tgraph.get_tuple_element %s[0] : (tuple<tensor<f32>, tensor<8xf32>, tensor<8xf32>>) -> tensor<f32> loc("v.b")
  %a = tgraph.get_tuple_element %s[1] : (tuple<tensor<f32>, tensor<8xf32>, tensor<8xf32>>) -> tensor<8xf32> loc("a.b")
  %b = tgraph.get_tuple_element %s[2] : (tuple<tensor<f32>, tensor<8xf32>, tensor<8xf32>>) -> tensor<8xf32> loc("b.b")
  %w = tgraph.add %v, %v : tensor<f32> loc("double")
  %t = tgraph.tuple %w, %b, %a : (tensor<f32>, tensor<8xf32>, tensor<8xf32>) -> tuple<tensor<f32>, tensor<8xf32>, tensor<8xf32>> loc("t")
  return %t : tuple<tensor<f32>, tensor<8xf32>, tensor<8xf32>>
}
func.func @main(%v: tensor<f32> loc("v"), %a: tensor<8xf32> loc("a")) -> tensor<8xf32> {
  %a2 = tgraph.negate %a : tensor<8xf32> loc("neg")
  %b2 = tgraph.exponential %a : tensor<8xf32> loc("exp")
  %init = tgraph.tuple %v, %a2, %b2 : (tensor<f32>, tensor<8xf32>, tensor<8xf32>) -> tuple<tensor<f32>, tensor<8xf32>, tensor<8xf32>> loc("init")
  %loop = tgraph.while %init cond @cond body @body : tuple<tensor<f32>, tensor<8xf32>, tensor<8xf32>> loc("while.2")
  %out = tgraph.get_tuple_element %loop[2] : (tuple<tensor<f32>, tensor<8xf32>, tensor<8xf32>>) -> tensor<8xf32> loc("out")
  return %out : tensor<8xf32>
}

// CHECK-LABEL: tile.program @main.tile
// CHECK: %[[NEG:.*]] = tile.var "neg" temporary
// CHECK: %[[EXP:.*]] = tile.var "exp" temporary
// Only the parameter is copied.
// CHECK: tile.var "while.2.state0" temporary
// CHECK-NOT: tile.var "while.2.state
// CHECK: %[[T1:.*]] = tile.var "while.2.next.tmp1" temporary {{.*}} {why = "'exp' set aside{{[^"]*}}"}
// CHECK: %[[T2:.*]] = tile.var "while.2.next.tmp2" temporary {{.*}} {why = "'neg' set aside{{[^"]*}}"}
// CHECK: tile.repeat "while.2" cond %{{.*}} : !tile.buffer<i1> trip_count -1 {
// CHECK: tile.exchange "while.2.next.tmp1" %[[EXP]] -> %[[T1]]
// CHECK-NEXT: tile.exchange "while.2.next.tmp2" %[[NEG]] -> %[[T2]]
// CHECK-NEXT: tile.sync
// CHECK: tile.exchange "while.2.next" %[[T1]] -> %[[NEG]]
// CHECK-NEXT: tile.exchange "while.2.next" %[[T2]] -> %[[EXP]]
// CHECK: tile.sync
// CHECK-NEXT: }
// CHECK: tile.exchange "exp.out" %[[EXP]]

// -----

// A value yielded into its own slot and into another: only the other slot
// is written, so nothing needs setting aside.
func.func private @cond(%s: tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>) -> tensor<i1> {
  %i = tgraph.get_tuple_element %s[0] : (tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>) -> tensor<i32>
  %n = tgraph.constant dense<5> : tensor<i32>
  %le = tgraph.compare LE, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1> loc("le")
  return %le : tensor<i1>
}
func.func private @body(%s: tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>) -> tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>> {
  %i = tgraph.get_tuple_element %s[0] : (tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>) -> tensor<i32>
  %a = tgraph.get_tuple_element %s[1] : (tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>) -> tensor<8xf32>
  %two = tgraph.constant dense<2> : tensor<i32>
  %next = tgraph.add %i, %two : tensor<i32> loc("next")
  %t = tgraph.tuple %next, %a, %a : (tensor<i32>, tensor<8xf32>, tensor<8xf32>) -> tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
  return %t : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
}
func.func @main(%a: tensor<8xf32> loc("a"), %b: tensor<8xf32> loc("b")) -> tensor<8xf32> {
  %one = tgraph.constant dense<1> : tensor<i32> loc("one")
  %init = tgraph.tuple %one, %a, %b : (tensor<i32>, tensor<8xf32>, tensor<8xf32>) -> tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
  %loop = tgraph.while %init cond @cond body @body : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>> loc("while.3")
  %out = tgraph.get_tuple_element %loop[2] : (tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>) -> tensor<8xf32>
  return %out : tensor<8xf32>
}

// i = 1, 3, 5 while i <= 5: three iterations.
// CHECK-LABEL: tile.program @main.tile
// CHECK: %[[S1:.*]] = tile.var "while.3.state1" temporary
// CHECK: %[[S2:.*]] = tile.var "while.3.state2" temporary
// CHECK-NOT: tmp
// CHECK: tile.repeat "while.3" cond %{{.*}} : !tile.buffer<i1> trip_count 3 {
// CHECK: tile.exchange "while.3.next" %{{.*}} -> %{{.*}}
// CHECK-NEXT: tile.exchange "while.3.next" %[[S1]] -> %[[S2]]
// CHECK-NEXT: tile.sync

// -----

// A nested loop: for i < 3 { for j < 4 { x = tanh(x) } }. The inner
// repeat is inside the outer one; all buffers are declared before the
// outer one.
func.func private @outer_cond(%s: tuple<tensor<i32>, tensor<8xf32>>) -> tensor<i1> {
  %i = tgraph.get_tuple_element %s[0] : (tuple<tensor<i32>, tensor<8xf32>>) -> tensor<i32>
  %n = tgraph.constant dense<3> : tensor<i32>
  %lt = tgraph.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1> loc("outer.lt")
  return %lt : tensor<i1>
}
func.func private @inner_cond(%s: tuple<tensor<i32>, tensor<8xf32>>) -> tensor<i1> {
  %j = tgraph.get_tuple_element %s[0] : (tuple<tensor<i32>, tensor<8xf32>>) -> tensor<i32>
  %n = tgraph.constant dense<4> : tensor<i32>
  // The bound on the left: 4 > j.
  %gt = tgraph.compare GT, %n, %j : (tensor<i32>, tensor<i32>) -> tensor<i1> loc("inner.gt")
  return %gt : tensor<i1>
}
func.func private @inner_body(%s: tuple<tensor<i32>, tensor<8xf32>>) -> tuple<tensor<i32>, tensor<8xf32>> {
  %j = tgraph.get_tuple_element %s[0] : (tuple<tensor<i32>, tensor<8xf32>>) -> tensor<i32>
  %x = tgraph.get_tuple_element %s[1] : (tuple<tensor<i32>, tensor<8xf32>>) -> tensor<8xf32>
  %one = tgraph.constant dense<1> : tensor<i32>
  %next = tgraph.add %one, %j : tensor<i32> loc("inner.next")
  %y = tgraph.tanh %x : tensor<8xf32> loc("inner.tanh")
  %t = tgraph.tuple %next, %y : (tensor<i32>, tensor<8xf32>) -> tuple<tensor<i32>, tensor<8xf32>>
  return %t : tuple<tensor<i32>, tensor<8xf32>>
}
func.func private @outer_body(%s: tuple<tensor<i32>, tensor<8xf32>>) -> tuple<tensor<i32>, tensor<8xf32>> {
  %i = tgraph.get_tuple_element %s[0] : (tuple<tensor<i32>, tensor<8xf32>>) -> tensor<i32>
  %x = tgraph.get_tuple_element %s[1] : (tuple<tensor<i32>, tensor<8xf32>>) -> tensor<8xf32>
  %zero = tgraph.constant dense<0> : tensor<i32>
  %init = tgraph.tuple %zero, %x : (tensor<i32>, tensor<8xf32>) -> tuple<tensor<i32>, tensor<8xf32>>
  %inner = tgraph.while %init cond @inner_cond body @inner_body : tuple<tensor<i32>, tensor<8xf32>> loc("inner")
  %y = tgraph.get_tuple_element %inner[1] : (tuple<tensor<i32>, tensor<8xf32>>) -> tensor<8xf32>
  %one = tgraph.constant dense<1> : tensor<i32>
  %next = tgraph.add %i, %one : tensor<i32> loc("outer.next")
  %t = tgraph.tuple %next, %y : (tensor<i32>, tensor<8xf32>) -> tuple<tensor<i32>, tensor<8xf32>>
  return %t : tuple<tensor<i32>, tensor<8xf32>>
}
func.func @main(%x: tensor<8xf32> loc("x")) -> tensor<8xf32> {
  %zero = tgraph.constant dense<0> : tensor<i32> loc("zero")
  %init = tgraph.tuple %zero, %x : (tensor<i32>, tensor<8xf32>) -> tuple<tensor<i32>, tensor<8xf32>>
  %loop = tgraph.while %init cond @outer_cond body @outer_body : tuple<tensor<i32>, tensor<8xf32>> loc("outer")
  %out = tgraph.get_tuple_element %loop[1] : (tuple<tensor<i32>, tensor<8xf32>>) -> tensor<8xf32>
  return %out : tensor<8xf32>
}

// CHECK-LABEL: tile.program @main.tile
// CHECK: tile.var "inner.tanh" temporary
// CHECK: tile.var "outer.lt.1" temporary
// CHECK-NEXT: tile.repeat "outer" cond %{{.*}} : !tile.buffer<i1> trip_count 3 {
// CHECK-NOT: tile.var
// CHECK: tile.repeat "inner" cond %{{.*}} : !tile.buffer<i1> trip_count 4 {
// CHECK: tile.compute_set "inner.tanh"
// CHECK: tile.exchange "inner.cond"
// CHECK-NEXT: tile.sync
// CHECK-NEXT: }
// CHECK: tile.compute_set "outer.next"
// CHECK: tile.exchange "outer.cond"
// CHECK-NEXT: tile.sync
// CHECK-NEXT: }

// -----

// conditional: the predicate form is one tile.if; the branch-index form
// computes "index == k" for all but the last branch and nests the ifs (an
// index out of range runs the last branch, as in HLO). Each branch copies
// its result into the shared result buffer.
func.func private @neg(%x: tensor<8xf32>) -> tensor<8xf32> {
  %n = tgraph.negate %x : tensor<8xf32> loc("neg")
  return %n : tensor<8xf32>
}
func.func private @id(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}
func.func @main(%x: tensor<8xf32> loc("x"), %p: tensor<i1> loc("p"), %k: tensor<i32> loc("k")) -> tensor<8xf32> {
  %if = tgraph.conditional %p, [@neg, @id](%x, %x) : (tensor<i1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32> loc("if.1")
  %sw = tgraph.conditional %k, [@id, @neg, @id](%if, %if, %x) : (tensor<i32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32> loc("switch.2")
  return %sw : tensor<8xf32>
}

// CHECK-LABEL: tile.program @main.tile
// CHECK: %[[X:.*]] = tile.var "x" parameter
// CHECK: %[[P:.*]] = tile.var "p" parameter
// CHECK: %[[K:.*]] = tile.var "k" parameter
// CHECK: %[[IF:.*]] = tile.var "if.1" temporary
// CHECK: %[[NEG:.*]] = tile.var "neg" temporary
// CHECK: tile.if "if.1" %[[P]] : !tile.buffer<i1> {
// CHECK-NEXT: tile.compute_set "neg" kind "elementwise.negate" {{.*}} ins(%[[X]] : {{.*}}) outs(%[[NEG]] :
// CHECK-NEXT: tile.sync
// CHECK-NEXT: tile.exchange "if.1.result" %[[NEG]] -> %[[IF]]
// CHECK-NEXT: } else {
// CHECK-NEXT: tile.exchange "if.1.result" %[[X]] -> %[[IF]]
// CHECK-NEXT: }
// CHECK: %[[SW:.*]] = tile.var "switch.2" output
// CHECK: %[[IS0:.*]] = tile.var "switch.2.is0" temporary {{.*}} : !tile.buffer<i1>
// CHECK: tile.compute_set "switch.2.is0" kind "branch-index.equals" tiles [[[KT:[0-9]+]], [[KT]]] ins(%[[K]] : !tile.buffer<i32>) outs(%[[IS0]] : !tile.buffer<i1>) {index = 0 : i64}
// CHECK: %[[IS1:.*]] = tile.var "switch.2.is1" temporary
// CHECK: tile.compute_set "switch.2.is1" kind "branch-index.equals" {{.*}} {index = 1 : i64}
// CHECK-NEXT: tile.sync
// CHECK-NEXT: tile.var "neg.1"
// CHECK-NEXT: tile.if "switch.2" %[[IS0]] : !tile.buffer<i1> {
// CHECK-NEXT: tile.exchange "switch.2.result" %[[IF]] -> %[[SW]]
// CHECK-NEXT: } else {
// CHECK-NEXT: tile.if "switch.2" %[[IS1]] : !tile.buffer<i1> {
// CHECK: tile.compute_set "neg"
// CHECK: tile.exchange "switch.2.result"
// CHECK-NEXT: } else {
// CHECK-NEXT: tile.exchange "switch.2.result" %[[X]] -> %[[SW]]
// CHECK-NEXT: }
// CHECK-NEXT: }
// Either branch may have written the result: a sync before the outfeed.
// CHECK-NEXT: tile.sync
// CHECK-NEXT: tile.host_copy outfeed %[[SW]]

// -----

// call (and fusion) inline the callee; its steps are named after the call
// so two calls of one computation stay distinct. A recursive call cannot be
// inlined and stays on the host.
func.func private @twice(%x: tensor<8xf32>) -> tensor<8xf32> {
  %a = tgraph.add %x, %x : tensor<8xf32> loc("add.5")
  return %a : tensor<8xf32>
}
func.func private @rec(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = tgraph.call @rec(%x) : (tensor<8xf32>) -> tensor<8xf32> loc("call.again")
  return %r : tensor<8xf32>
}
func.func @main(%x: tensor<8xf32> loc("x")) -> tensor<8xf32> {
  %c1 = tgraph.call @twice(%x) : (tensor<8xf32>) -> tensor<8xf32> loc("call.1")
  %c2 = tgraph.call @twice(%c1) : (tensor<8xf32>) -> tensor<8xf32> loc("call.2")
  %f = tgraph.fusion @twice(%c2) {kind = "kLoop"} : (tensor<8xf32>) -> tensor<8xf32> loc("fusion.3")
  %r = tgraph.call @rec(%f) : (tensor<8xf32>) -> tensor<8xf32> loc("call.4")
  return %r : tensor<8xf32>
}

// CHECK-LABEL: tile.program @main.tile
// CHECK: tile.var "call.1/add.5" temporary
// CHECK: tile.compute_set "call.1/add.5" kind "elementwise.add"
// CHECK: tile.compute_set "call.2/add.5" kind "elementwise.add"
// CHECK: tile.compute_set "fusion.3/add.5" kind "elementwise.add"
// CHECK: tile.host_compute "call.4/call.again" op "tgraph.call" reason "not-lowered" {{.*}} {detail = "recursive use of @rec", op_id = {{[0-9]+}} : i64}
