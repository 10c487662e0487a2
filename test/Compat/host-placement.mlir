// Ops placed on the host by the user are not assessed and are counted
// separately: by attribute (tgraph.device, or XLA's host-offloading frontend
// attribute _xla_compute_type = "host"), or by --host-ops on op names.
// RUN: tessera-opt %s --tgraph-check-compat="target=core-8 print=json" -o /dev/null | FileCheck %s --check-prefix=ATTR
// RUN: tessera-opt %s --tgraph-check-compat="target=core-8 host-ops=^metrics/ print=json" -o /dev/null | FileCheck %s --check-prefix=REGEX
// RUN: not tessera-opt %s --tgraph-check-compat="host-ops=(unclosed" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADRE

// ATTR:      "totals": {
// ATTR-NEXT:   "ops": 4,
// ATTR-NEXT:   "compatible": 1,
// ATTR-NEXT:   "incompatible": 1,
// ATTR-NEXT:   "not_assessed": 2,
// ATTR-NEXT:   "compatible_percent": 50.0
// ATTR:      "not_assessed_ops": [
// ATTR-NEXT:   {
// ATTR-NEXT:     "instruction": "sort.3",
// ATTR:          "reason": "placed-on-host",
// ATTR-NEXT:     "detail": "tgraph.device = \"host\"",
// ATTR:          "instruction": "multiply.4",
// ATTR:          "reason": "placed-on-host",
// ATTR-NEXT:     "detail": "frontend attribute _xla_compute_type = \"host\"",

// REGEX:      "not_assessed": 3,
// REGEX-NEXT: "compatible_percent": 100.0
// REGEX:      "detail": "--host-ops matches 'metrics/Cast'",

// BADRE: error: tgraph-check-compat: host-ops regex '(unclosed' is invalid

func.func @main(%a: tensor<4xf32>, %d: tensor<4xf64>) {
  %0 = tgraph.add %a, %a {tgraph.op_name = "model/add"} : tensor<4xf32> loc("add.1")
  %1 = tgraph.convert %d {tgraph.op_name = "metrics/Cast"} : tensor<4xf64> -> tensor<4xf32> loc("convert.2")
  %2 = tgraph.sort(%a) dim = 0 {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %lt = tgraph.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    tgraph.return %lt : tensor<i1>
  } {tgraph.device = "host"} : (tensor<4xf32>) -> tensor<4xf32> loc("sort.3")
  %3 = tgraph.multiply %a, %a {tgraph.frontend_attributes = {_xla_compute_type = "host"}} : tensor<4xf32> loc("multiply.4")
  return
}
