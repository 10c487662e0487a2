// arith ops on tensors, as exports write them beside TOSA: tensor
// constants and elementwise ops become tgraph ops; predicates and unsigned
// operations that tgraph has no direct form for are rewritten exactly.
// RUN: tessera-opt %s --convert-tosa-to-tgraph | FileCheck %s

// CHECK-LABEL: func.func @constants
func.func @constants() -> (tensor<2xf32>, tensor<3xi32>) {
  // CHECK: %eps = tgraph.constant dense<9.99999996E-13> : tensor<2xf32>
  %0 = arith.constant dense<1.0e-12> : tensor<2xf32> loc("eps")
  // CHECK: %ids = tgraph.constant dense<[1, 2, 3]> : tensor<3xi32>
  %1 = arith.constant dense<[1, 2, 3]> : tensor<3xi32> loc("ids")
  return %0, %1 : tensor<2xf32>, tensor<3xi32>
}

// CHECK-LABEL: func.func @float_ops
func.func @float_ops(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %add = tgraph.add %arg0, %arg1 : tensor<4xf32>
  %0 = arith.addf %a, %b : tensor<4xf32> loc("add")
  // CHECK-NEXT: %sub = tgraph.subtract %add, %arg1 : tensor<4xf32>
  %1 = arith.subf %0, %b : tensor<4xf32> loc("sub")
  // CHECK-NEXT: %mul = tgraph.multiply %sub, %arg1 : tensor<4xf32>
  %2 = arith.mulf %1, %b : tensor<4xf32> loc("mul")
  // CHECK-NEXT: %div = tgraph.divide %mul, %arg1 : tensor<4xf32>
  %3 = arith.divf %2, %b : tensor<4xf32> loc("div")
  // CHECK-NEXT: %rem = tgraph.remainder %div, %arg1 : tensor<4xf32>
  %4 = arith.remf %3, %b : tensor<4xf32> loc("rem")
  // CHECK-NEXT: %max = tgraph.maximum %rem, %arg1 : tensor<4xf32>
  %5 = arith.maximumf %4, %b : tensor<4xf32> loc("max")
  // CHECK-NEXT: %min = tgraph.minimum %max, %arg1 : tensor<4xf32>
  %6 = arith.minimumf %5, %b : tensor<4xf32> loc("min")
  // CHECK-NEXT: %neg = tgraph.negate %min : tensor<4xf32>
  %7 = arith.negf %6 : tensor<4xf32> loc("neg")
  return %7 : tensor<4xf32>
}

// CHECK-LABEL: func.func @integer_ops
func.func @integer_ops(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: %add = tgraph.add %arg0, %arg1 : tensor<4xi32>
  %0 = arith.addi %a, %b : tensor<4xi32> loc("add")
  // CHECK-NEXT: %sub = tgraph.subtract %add, %arg1
  %1 = arith.subi %0, %b : tensor<4xi32> loc("sub")
  // CHECK-NEXT: %mul = tgraph.multiply %sub, %arg1
  %2 = arith.muli %1, %b : tensor<4xi32> loc("mul")
  // CHECK-NEXT: %div = tgraph.divide %mul, %arg1
  %3 = arith.divsi %2, %b : tensor<4xi32> loc("div")
  // CHECK-NEXT: %rem = tgraph.remainder %div, %arg1
  %4 = arith.remsi %3, %b : tensor<4xi32> loc("rem")
  // CHECK-NEXT: %max = tgraph.maximum %rem, %arg1
  %5 = arith.maxsi %4, %b : tensor<4xi32> loc("max")
  // CHECK-NEXT: %min = tgraph.minimum %max, %arg1
  %6 = arith.minsi %5, %b : tensor<4xi32> loc("min")
  // CHECK-NEXT: %and = tgraph.and %min, %arg1
  %7 = arith.andi %6, %b : tensor<4xi32> loc("and")
  // CHECK-NEXT: %or = tgraph.or %and, %arg1
  %8 = arith.ori %7, %b : tensor<4xi32> loc("or")
  // CHECK-NEXT: %xor = tgraph.xor %or, %arg1
  %9 = arith.xori %8, %b : tensor<4xi32> loc("xor")
  // CHECK-NEXT: %shl = tgraph.shift_left %xor, %arg1
  %10 = arith.shli %9, %b : tensor<4xi32> loc("shl")
  // CHECK-NEXT: %sra = tgraph.shift_right_arithmetic %shl, %arg1
  %11 = arith.shrsi %10, %b : tensor<4xi32> loc("sra")
  // CHECK-NEXT: %srl = tgraph.shift_right_logical %sra, %arg1
  %12 = arith.shrui %11, %b : tensor<4xi32> loc("srl")
  return %12 : tensor<4xi32>
}

// Ordered predicates are compare directions; unordered ones negate the
// ordered opposite; une is NE (true on NaN, as in HLO).
// CHECK-LABEL: func.func @cmpf
func.func @cmpf(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  // CHECK: %olt = tgraph.compare LT, %arg0, %arg1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %0 = arith.cmpf olt, %a, %b : tensor<4xf32> loc("olt")
  // CHECK-NEXT: %une = tgraph.compare NE, %arg0, %arg1
  %1 = arith.cmpf une, %a, %b : tensor<4xf32> loc("une")
  // CHECK-NEXT: %ugt.compare = tgraph.compare LE, %arg0, %arg1
  // CHECK-NEXT: %ugt = tgraph.not %ugt.compare : tensor<4xi1>
  %2 = arith.cmpf ugt, %a, %b : tensor<4xf32> loc("ugt")
  // CHECK-NEXT: %one.compare = tgraph.compare LT, %arg0, %arg1
  // CHECK-NEXT: %one.compare_0 = tgraph.compare GT, %arg0, %arg1
  // CHECK-NEXT: %one = tgraph.or %one.compare, %one.compare_0 : tensor<4xi1>
  %3 = arith.cmpf one, %a, %b : tensor<4xf32> loc("one")
  // CHECK-NEXT: %uno.compare = tgraph.compare EQ, %arg0, %arg0
  // CHECK-NEXT: %uno.compare_1 = tgraph.compare EQ, %arg1, %arg1
  // CHECK-NEXT: %uno.and = tgraph.and %uno.compare, %uno.compare_1
  // CHECK-NEXT: %uno = tgraph.not %uno.and
  %4 = arith.cmpf uno, %a, %b : tensor<4xf32> loc("uno")
  // CHECK-NEXT: %true = tgraph.constant dense<true> : tensor<4xi1>
  %5 = arith.cmpf true, %a, %b : tensor<4xf32> loc("true")
  return %0, %1, %2, %3, %4, %5 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// Signed predicates compare directly; unsigned ones flip the sign bit of
// both sides first (tgraph compares signless integers as signed).
// CHECK-LABEL: func.func @cmpi
func.func @cmpi(%a: tensor<4xi8>, %b: tensor<4xi8>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  // CHECK: %sge = tgraph.compare GE, %arg0, %arg1 : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi1>
  %0 = arith.cmpi sge, %a, %b : tensor<4xi8> loc("sge")
  // CHECK-NEXT: %ult.constant = tgraph.constant dense<-128> : tensor<4xi8>
  // CHECK-NEXT: %ult.xor = tgraph.xor %arg0, %ult.constant : tensor<4xi8>
  // CHECK-NEXT: %ult.xor_0 = tgraph.xor %arg1, %ult.constant : tensor<4xi8>
  // CHECK-NEXT: %ult = tgraph.compare LT, %ult.xor, %ult.xor_0
  %1 = arith.cmpi ult, %a, %b : tensor<4xi8> loc("ult")
  // CHECK-NEXT: %ne = tgraph.compare NE, %arg0, %arg1
  %2 = arith.cmpi ne, %a, %b : tensor<4xi8> loc("ne")
  return %0, %1, %2 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// A tensor condition selects elementwise; a constant scalar one becomes a
// 0-d predicate (the scalar arith.constant goes once read).
// CHECK-LABEL: func.func @select
func.func @select(%p: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK: %sel = tgraph.select %arg0, %arg1, %arg2 : tensor<4xi1>, tensor<4xf32>
  %0 = arith.select %p, %a, %b : tensor<4xi1>, tensor<4xf32> loc("sel")
  %true = arith.constant true
  // CHECK-NEXT: %pick.constant = tgraph.constant dense<true> : tensor<i1>
  // CHECK-NEXT: %pick = tgraph.select %pick.constant, %arg1, %arg2 : tensor<i1>, tensor<4xf32>
  %1 = arith.select %true, %a, %b : tensor<4xf32> loc("pick")
  // CHECK-NOT: arith.
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @casts
func.func @casts(%f: tensor<4xf32>, %i: tensor<4xi8>, %p: tensor<4xi1>) -> (tensor<4xbf16>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xi1>, tensor<4xi32>, tensor<4xf32>) {
  // CHECK: %truncf = tgraph.convert %arg0 : tensor<4xf32> -> tensor<4xbf16>
  %0 = arith.truncf %f : tensor<4xf32> to tensor<4xbf16> loc("truncf")
  // CHECK-NEXT: %extf = tgraph.convert %truncf : tensor<4xbf16> -> tensor<4xf32>
  %1 = arith.extf %0 : tensor<4xbf16> to tensor<4xf32> loc("extf")
  // CHECK-NEXT: %fptosi = tgraph.convert %arg0 : tensor<4xf32> -> tensor<4xi32>
  %2 = arith.fptosi %f : tensor<4xf32> to tensor<4xi32> loc("fptosi")
  // CHECK-NEXT: %extsi = tgraph.convert %arg1 : tensor<4xi8> -> tensor<4xi32>
  %3 = arith.extsi %i : tensor<4xi8> to tensor<4xi32> loc("extsi")
  // Zero extension masks off the bits convert sign-extended.
  // CHECK-NEXT: %extui.convert = tgraph.convert %arg1 : tensor<4xi8> -> tensor<4xi32>
  // CHECK-NEXT: %extui.constant = tgraph.constant dense<255> : tensor<4xi32>
  // CHECK-NEXT: %extui = tgraph.and %extui.convert, %extui.constant : tensor<4xi32>
  %4 = arith.extui %i : tensor<4xi8> to tensor<4xi32> loc("extui")
  // uitofp zero-extends to i64 first.
  // CHECK-NEXT: %uitofp.convert = tgraph.convert %arg1 : tensor<4xi8> -> tensor<4xi64>
  // CHECK-NEXT: %uitofp.constant = tgraph.constant dense<255> : tensor<4xi64>
  // CHECK-NEXT: %uitofp.and = tgraph.and %uitofp.convert, %uitofp.constant
  // CHECK-NEXT: %uitofp = tgraph.convert %uitofp.and : tensor<4xi64> -> tensor<4xf32>
  %5 = arith.uitofp %i : tensor<4xi8> to tensor<4xf32> loc("uitofp")
  // To i1, trunci keeps the lowest bit.
  // CHECK-NEXT: %trunci.constant = tgraph.constant dense<1> : tensor<4xi8>
  // CHECK-NEXT: %trunci.constant_0 = tgraph.constant dense<0> : tensor<4xi8>
  // CHECK-NEXT: %trunci.and = tgraph.and %arg1, %trunci.constant : tensor<4xi8>
  // CHECK-NEXT: %trunci = tgraph.compare NE, %trunci.and, %trunci.constant_0
  %6 = arith.trunci %i : tensor<4xi8> to tensor<4xi1> loc("trunci")
  // A signed i1 is -1 for true.
  // CHECK-NEXT: %extsi_i1.constant = tgraph.constant dense<-1> : tensor<4xi32>
  // CHECK-NEXT: %extsi_i1.constant_1 = tgraph.constant dense<0> : tensor<4xi32>
  // CHECK-NEXT: %extsi_i1 = tgraph.select %arg2, %extsi_i1.constant, %extsi_i1.constant_1
  %7 = arith.extsi %p : tensor<4xi1> to tensor<4xi32> loc("extsi_i1")
  // CHECK-NEXT: %bitcast = tgraph.bitcast_convert %fptosi : tensor<4xi32> -> tensor<4xf32>
  %8 = arith.bitcast %2 : tensor<4xi32> to tensor<4xf32> loc("bitcast")
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<4xbf16>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xi1>, tensor<4xi32>, tensor<4xf32>
}
