// Ops of the dialects exports carry beside TOSA that tgraph cannot express
// become tgraph.unknown with a reason naming the op, never a parse or
// import failure; the compatibility checker reports them as unknown-op.
// RUN: tessera-opt %s --convert-tosa-to-tgraph | FileCheck %s
// RUN: tessera-opt %s --convert-tosa-to-tgraph --tgraph-check-compat="target=core-8 print=text" -o /dev/null | FileCheck %s --check-prefix=COMPAT

// CHECK-LABEL: func.func @math
func.func @math(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  // CHECK: %l2 = tgraph.unknown "math.log2"(%arg0) {hlo_attributes = {fastmath = "#arith.fastmath<none>", reason = "math.log2: no tgraph op; log(x) / ln 2 rounds differently"}} : (tensor<4xf32>) -> tensor<4xf32>
  %0 = math.log2 %x : tensor<4xf32> loc("l2")
  // CHECK: tgraph.unknown "math.sinh"(%arg0) {hlo_attributes = {fastmath = "#arith.fastmath<none>", reason = "math.sinh: no tgraph op for this inverse or hyperbolic function (tgraph has sine, cosine, tan, atan2 and tanh)"}}
  %1 = math.sinh %x : tensor<4xf32>
  // CHECK: tgraph.unknown "math.fma"(%arg0, %arg0, %arg0) {hlo_attributes = {fastmath = "#arith.fastmath<none>", reason = "math.fma: rounds once; tgraph's multiply then add rounds twice"}}
  %2 = math.fma %x, %x, %x : tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @arith
func.func @arith(%a: tensor<4xi32>, %f: tensor<4xf32>, %p: tensor<4xi1>) -> (tensor<4xi32>, tensor<4xf32>, tensor<4xi1>) {
  // CHECK: tgraph.unknown "arith.divui"(%arg0, %arg0) {hlo_attributes = {reason = "arith.divui: tgraph reads signless integers as signed here; no exact rewrite"}}
  %0 = arith.divui %a, %a : tensor<4xi32>
  // CHECK: tgraph.unknown "arith.maxnumf"(%arg1, %arg1) {hlo_attributes = {fastmath = "#arith.fastmath<none>", reason = "arith.maxnumf: ignores NaN operands; tgraph's maximum / minimum propagate them"}}
  %1 = arith.maxnumf %f, %f : tensor<4xf32>
  // CHECK: tgraph.unknown "arith.cmpi"(%arg2, %arg2) {hlo_attributes = {predicate = "5 : i64", reason = "arith.cmpi sge on i1 is not imported (tgraph orders i1 as 0 < 1)"}}
  %2 = arith.cmpi sge, %p, %p : tensor<4xi1>
  return %0, %1, %2 : tensor<4xi32>, tensor<4xf32>, tensor<4xi1>
}

// Offsets computed at run time: tgraph keeps slices as attributes. The
// scalar operand is recorded, and the tensor it is read from becomes an
// input of the unknown, so the dependence stays in the graph.
// CHECK-LABEL: func.func @dynamic_slice
func.func @dynamic_slice(%x: tensor<8x4xf32>, %i: tensor<1xi32>) -> tensor<2x4xf32> {
  %c0 = arith.constant 0 : index
  %e = tensor.extract %i[%c0] : tensor<1xi32>
  %o = arith.index_cast %e : i32 to index
  // CHECK: %s = tgraph.unknown "tensor.extract_slice"(%arg0, %arg1) {hlo_attributes = {operandSegmentSizes = "array<i32: 1, 1, 0, 0>", operand_1 = "index computed at run time by arith.index_cast", reason = "tensor.extract_slice: offsets, sizes or strides computed at run time (tgraph needs them as attributes)", static_offsets = "array<i64: -9223372036854775808, 0>", static_sizes = "array<i64: 2, 4>", static_strides = "array<i64: 1, 1>"}} : (tensor<8x4xf32>, tensor<1xi32>) -> tensor<2x4xf32>
  %0 = tensor.extract_slice %x[%o, 0] [2, 4] [1, 1] : tensor<8x4xf32> to tensor<2x4xf32> loc("s")
  // The scalar chain that fed it is gone with it.
  // CHECK-NOT: tensor.extract
  // CHECK-NOT: arith.
  return %0 : tensor<2x4xf32>
}

// A pad value that depends on the position, and a tensor op without a
// pattern: the region goes with the op.
// CHECK-LABEL: func.func @tensor
func.func @tensor(%x: tensor<2xf32>) -> (tensor<4xf32>, tensor<3xf32>) {
  // CHECK: tgraph.unknown "tensor.pad"(%arg0) {{.*}}reason = "tensor.pad: the padding value is not a constant (it is computed at run time or depends on the position)"
  %0 = tensor.pad %x low[1] high[1] {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i32
    %f = arith.sitofp %v : i32 to f32
    tensor.yield %f : f32
  } : tensor<2xf32> to tensor<4xf32>
  // CHECK: tgraph.unknown "tensor.generate"() {hlo_attributes = {reason = "tensor.generate: no tgraph pattern for this op"}} : () -> tensor<3xf32>
  %1 = tensor.generate {
  ^bb0(%i: index):
    %c = arith.constant 1.0 : f32
    tensor.yield %c : f32
  } : tensor<3xf32>
  return %0, %1 : tensor<4xf32>, tensor<3xf32>
}

// A call into a declaration has no body to run.
// CHECK-LABEL: func.func @call
func.func @call(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: tgraph.unknown "func.call"(%arg0) {hlo_attributes = {callee = "@ext", reason = "func.call @ext: the callee is a declaration without a body"}}
  %0 = func.call @ext(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @ext(tensor<4xf32>) -> tensor<4xf32>

// COMPAT: Compatibility with core-8: 0.0% of 10 assessed ops (0 ok, 10 incompatible
// COMPAT-DAG: l2: unknown-op: HLO opcode 'math.log2' has no tgraph equivalent
// COMPAT-DAG: s: unknown-op: HLO opcode 'tensor.extract_slice' has no tgraph equivalent
// COMPAT-DAG: unknown-op: HLO opcode 'func.call' has no tgraph equivalent
