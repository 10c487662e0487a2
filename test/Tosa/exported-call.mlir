// func.call between functions of an export: one result is tgraph.call (the
// lowering inlines it); other result counts are inlined by the import,
// since tgraph.call has exactly one result, and a private callee left
// without callers goes.
// RUN: tessera-opt %s --convert-tosa-to-tgraph | FileCheck %s

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  // CHECK: %gelu = tgraph.call @gelu(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  %0 = func.call @gelu(%x) : (tensor<4xf32>) -> tensor<4xf32> loc("gelu")
  // The callee's ops, copied in place of the call (its body imported first).
  // CHECK-NEXT: %e = tgraph.exponential %gelu : tensor<4xf32>
  // CHECK-NEXT: %n = tgraph.negate %gelu : tensor<4xf32>
  // CHECK-NEXT: %t = tgraph.call @tanh(%e) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK-NEXT: return %gelu, %t, %n
  %1:2 = func.call @pair(%0) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %2 = func.call @tanh(%1#0) : (tensor<4xf32>) -> tensor<4xf32> loc("t")
  return %0, %2, %1#1 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func private @gelu
// CHECK: tgraph.erf
func.func private @gelu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = math.erf %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Inlined into @main, then erased: it has no other caller.
// CHECK-NOT: func.func private @pair
func.func private @pair(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = "tosa.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32> loc("e")
  %1 = arith.negf %x : tensor<4xf32> loc("n")
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// A call inside an inlined callee is imported before the callee is copied.
// CHECK-LABEL: func.func private @tanh
func.func private @tanh(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = math.tanh %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// The inlined body here holds a call: that call becomes tgraph.call first,
// and the copy holds the tgraph.call.
// CHECK-LABEL: func.func @nested
// CHECK-NEXT: %[[T:.*]] = tgraph.call @tanh(%arg0)
// CHECK-NEXT: return %[[T]], %[[T]]
func.func @nested(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = func.call @twice(%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}
// CHECK-NOT: @twice
func.func private @twice(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = func.call @tanh(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %0 : tensor<4xf32>, tensor<4xf32>
}

// A multi-result callee in a recursion cannot be inlined, and tgraph.call
// has one result: its calls stay unknown, with the reason.
// CHECK-LABEL: func.func @recursive
// CHECK-NEXT: %[[U:.*]] = tgraph.unknown "func.call"(%arg0) {hlo_attributes = {callee = "@loop", reason = "func.call @loop: the callee takes part in a recursion, and a call with 2 results must be inlined (tgraph.call has one result)"}} : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT: tgraph.get_tuple_element %[[U]][0]
// CHECK-NEXT: tgraph.get_tuple_element %[[U]][1]
func.func @recursive(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = func.call @loop(%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func private @loop
// CHECK-NEXT: tgraph.unknown "func.call"(%arg0)
func.func private @loop(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = func.call @loop(%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}
