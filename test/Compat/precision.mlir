// Precision normalization (docs/compat.md, "Precision"): on tile-1472, which
// has no bf16, a bf16 module is computed in f32; the entry keeps its
// signature, converted on the host at the boundary.
//
// RUN: tessera-opt %s --split-input-file --tgraph-normalize-precision=target=tile-1472 | FileCheck %s
// RUN: tessera-opt %s --split-input-file --tgraph-normalize-precision="target=tile-1472 policy=bf16-to-f32-round" | FileCheck %s --check-prefix=ROUND
// RUN: tessera-opt %s --split-input-file --tgraph-normalize-precision="target=tile-1472 policy=bf16-to-f16" | FileCheck %s --check-prefix=F16
// core-8 has bf16, and `keep` keeps it: the module does not change.
// RUN: tessera-opt %s --split-input-file --tgraph-normalize-precision=target=core-8 | FileCheck %s --check-prefix=SAME
// RUN: tessera-opt %s --split-input-file --tgraph-normalize-precision="target=tile-1472 policy=keep" | FileCheck %s --check-prefix=SAME
// A target without the policy's destination type: a warning, no change.
// RUN: tessera-opt --print-target=tile-1472 | %python -c "import json, sys; strip = lambda x: {k: strip(v) for k, v in x.items() if k != 'f16'} if isinstance(x, dict) else [strip(v) for v in x if v != 'f16'] if isinstance(x, list) else x; t = strip(json.load(sys.stdin)); t['name'] = 'no-f16'; print(json.dumps(t))" > %t.no-f16.json
// RUN: tessera-opt %s --split-input-file --tgraph-normalize-precision="target=%t.no-f16.json policy=bf16-to-f16" 2>&1 | FileCheck %s --check-prefix=NOF16
// NOF16: warning: tgraph-normalize-precision: policy bf16-to-f16 computes in f16, which no-f16 lacks; bf16 ops stay as they are
// NOF16-NOT: tgraph.precision
// NOF16: tgraph.exponential %{{.*}} : tensor<4xbf16>
// The compatibility report counts what was done.
// RUN: tessera-opt %s --split-input-file --tgraph-normalize-precision=target=tile-1472 --tgraph-check-compat="target=tile-1472 print=text" -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: tessera-opt %s --split-input-file --tgraph-check-compat="target=tile-1472 print=text" -o /dev/null | FileCheck %s --check-prefix=BEFORE

// CHECK: module attributes {tgraph.precision = #tgraph.precision<policy = "bf16-to-f32", from = bf16, to = f32, ops = 3, converts = 2, roundings = 1, bytes_added = 40>}
// CHECK-LABEL: func.func @main(%arg0: tensor<4xbf16>, %arg1: tensor<4xbf16>) -> tensor<4xbf16>
// CHECK-NEXT:    %[[X:.*]] = tgraph.convert %arg0 {tgraph.device = "host", tgraph.normalization = "boundary"} : tensor<4xbf16> -> tensor<4xf32>
// CHECK-NEXT:    %[[C:.*]] = tgraph.constant dense<[1.500000e+00, 2.000000e+00, -3.000000e+00, 2.500000e-01]> : tensor<4xf32>
// CHECK-NEXT:    %[[E:.*]] = tgraph.exponential %[[X]] : tensor<4xf32>
// CHECK-NEXT:    %[[A:.*]] = tgraph.add %[[E]], %[[C]] : tensor<4xf32>
// The model's widening convert disappears; its rounding convert stays a
// rounding point.
// CHECK-NEXT:    %[[M:.*]] = tgraph.multiply %[[A]], %[[A]] : tensor<4xf32>
// CHECK-NEXT:    %[[R:.*]] = tgraph.reduce_precision %[[M]], exponent_bits = 8, mantissa_bits = 7 {tgraph.normalization = "rounding"} : tensor<4xf32>
// CHECK-NEXT:    %[[OUT:.*]] = tgraph.convert %[[R]] {tgraph.device = "host", tgraph.normalization = "boundary"} : tensor<4xf32> -> tensor<4xbf16>
// CHECK-NEXT:    return %[[OUT]] : tensor<4xbf16>

// Every op's result rounded to bf16, but for the ops that only move values.
// ROUND: roundings = 3
// ROUND:      %[[E:.*]] = tgraph.exponential
// ROUND-NEXT: %[[E2:.*]] = tgraph.reduce_precision %[[E]], exponent_bits = 8, mantissa_bits = 7
// ROUND-NEXT: %[[A:.*]] = tgraph.add %[[E2]],
// ROUND-NEXT: %[[A2:.*]] = tgraph.reduce_precision %[[A]], exponent_bits = 8, mantissa_bits = 7
// ROUND-NEXT: tgraph.multiply %[[A2]], %[[A2]] : tensor<4xf32>

// F16: policy = "bf16-to-f16", from = bf16, to = f16
// F16: tgraph.exponential %{{.*}} : tensor<4xf16>
// The model's f32 multiply is rounded to bf16 first, then converted.
// F16:      %[[R:.*]] = tgraph.reduce_precision %{{.*}}, exponent_bits = 8, mantissa_bits = 7 {{.*}} : tensor<4xf32>
// F16-NEXT: tgraph.convert %[[R]] : tensor<4xf32> -> tensor<4xf16>

// SAME-NOT: tgraph.precision
// SAME: tgraph.exponential %{{.*}} : tensor<4xbf16>

// REPORT:      Compatibility with tile-1472: 100.0% of 5 assessed ops (5 ok, 0 incompatible, 2 placed on host; 7 ops in all)
// REPORT-NEXT: Precision (bf16-to-f32): 3 ops computed in f32 instead of bf16; 2 converts on the host, 1 rounding inserted; +40 bytes
// BEFORE:      Compatibility with tile-1472: 16.7% of 6 assessed ops (1 ok, 5 incompatible, 0 placed on host; 6 ops in all)
func.func @main(%x: tensor<4xbf16> loc("x"), %unused: tensor<4xbf16> loc("unused")) -> tensor<4xbf16> {
  %c = tgraph.constant dense<[1.5, 2.0, -3.0, 0.25]> : tensor<4xbf16>
  %e = tgraph.exponential %x : tensor<4xbf16> loc("exp.1")
  %a = tgraph.add %e, %c : tensor<4xbf16> loc("add.2")
  %f = tgraph.convert %a : tensor<4xbf16> -> tensor<4xf32> loc("convert.3")
  %m = tgraph.multiply %f, %f : tensor<4xf32> loc("multiply.4")
  %b = tgraph.convert %m : tensor<4xf32> -> tensor<4xbf16> loc("convert.5")
  return %b : tensor<4xbf16>
}

// -----

// Loops, callees and reducer bodies change with the values they carry; a
// custom call keeps its bf16 operands and results, converted on the host.
// CHECK-LABEL: func.func private @body(%arg0: tuple<tensor<i32>, tensor<8xf32>>) -> tuple<tensor<i32>, tensor<8xf32>>
// CHECK:         tgraph.tanh %{{.*}} : tensor<8xf32>
// CHECK-LABEL: func.func @main
// CHECK:         %[[S:.*]] = tgraph.reduce(%{{.*}}) init(%{{.*}}) dims = [0] {
// CHECK-NEXT:    ^bb0(%{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>):
// CHECK-NEXT:      tgraph.add %{{.*}}, %{{.*}} : tensor<f32>
// CHECK:         } : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
// CHECK:         %[[L:.*]] = tgraph.while %{{.*}} cond @cond body @body : tuple<tensor<i32>, tensor<8xf32>>
// CHECK:         %[[IN:.*]] = tgraph.convert %{{.*}} {tgraph.device = "host", tgraph.normalization = "opaque"} : tensor<8xf32> -> tensor<8xbf16>
// CHECK-NEXT:    %[[CC:.*]] = tgraph.custom_call "Mystery"(%[[IN]]) : (tensor<8xbf16>) -> tensor<8xbf16>
// CHECK-NEXT:    tgraph.convert %[[CC]] {tgraph.device = "host", tgraph.normalization = "opaque"} : tensor<8xbf16> -> tensor<8xf32>
func.func private @cond(%s: tuple<tensor<i32>, tensor<8xbf16>>) -> tensor<i1> {
  %i = tgraph.get_tuple_element %s[0] : (tuple<tensor<i32>, tensor<8xbf16>>) -> tensor<i32> loc("i.c")
  %n = tgraph.constant dense<3> : tensor<i32> loc("n")
  %lt = tgraph.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1> loc("lt")
  return %lt : tensor<i1>
}
func.func private @body(%s: tuple<tensor<i32>, tensor<8xbf16>>) -> tuple<tensor<i32>, tensor<8xbf16>> {
  %i = tgraph.get_tuple_element %s[0] : (tuple<tensor<i32>, tensor<8xbf16>>) -> tensor<i32> loc("i.b")
  %x = tgraph.get_tuple_element %s[1] : (tuple<tensor<i32>, tensor<8xbf16>>) -> tensor<8xbf16> loc("x.b")
  %one = tgraph.constant dense<1> : tensor<i32> loc("one")
  %next = tgraph.add %i, %one : tensor<i32> loc("next")
  %y = tgraph.tanh %x : tensor<8xbf16> loc("tanh")
  %t = tgraph.tuple %next, %y : (tensor<i32>, tensor<8xbf16>) -> tuple<tensor<i32>, tensor<8xbf16>> loc("t")
  return %t : tuple<tensor<i32>, tensor<8xbf16>>
}
func.func @main(%x: tensor<8xbf16> loc("x")) -> (tensor<bf16>, tensor<8xbf16>) {
  %z = tgraph.constant dense<0.0> : tensor<bf16> loc("z")
  %s = tgraph.reduce(%x) init(%z) dims = [0] {
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %t = tgraph.add %a, %b : tensor<bf16>
    tgraph.return %t : tensor<bf16>
  } : (tensor<8xbf16>, tensor<bf16>) -> tensor<bf16> loc("sum")
  %zero = tgraph.constant dense<0> : tensor<i32> loc("zero")
  %init = tgraph.tuple %zero, %x : (tensor<i32>, tensor<8xbf16>) -> tuple<tensor<i32>, tensor<8xbf16>> loc("init")
  %loop = tgraph.while %init cond @cond body @body : tuple<tensor<i32>, tensor<8xbf16>> loc("while.1")
  %out = tgraph.get_tuple_element %loop[1] : (tuple<tensor<i32>, tensor<8xbf16>>) -> tensor<8xbf16> loc("out")
  %cc = tgraph.custom_call "Mystery"(%out) : (tensor<8xbf16>) -> tensor<8xbf16> loc("cc")
  %neg = tgraph.negate %cc : tensor<8xbf16> loc("neg")
  return %s, %neg : tensor<bf16>, tensor<8xbf16>
}
