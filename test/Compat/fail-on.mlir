// Report-only by default; fail-on=incompatible fails the pipeline with a
// summary, and remarks point at each incompatible op.
// RUN: tessera-opt %s --tgraph-check-compat=target=core-8 -o /dev/null
// RUN: not tessera-opt %s --tgraph-check-compat="target=core-8 fail-on=incompatible" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FAIL
// RUN: tessera-opt %s --tgraph-check-compat="target=tile-1472 fail-on=incompatible" -o /dev/null
// RUN: tessera-opt %s --tgraph-check-compat="target=core-8 remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: not tessera-opt %s --tgraph-check-compat=target=no-such-chip -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADTARGET
// RUN: not tessera-opt %s --tgraph-check-compat="fail-on=sometimes" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADOPT

// FAIL: error: 1 op(s) cannot run on core-8 (--compat-fail-on=incompatible)
// FAIL: Compatibility with core-8: 50.0% of 2 assessed ops
// FAIL: sort.2: unsupported-op: tgraph.sort is not supported by core-8; fix: place on host

// REMARK: model.hlo:2:3: remark: incompatible with core-8: unsupported-op: tgraph.sort is not supported by core-8 (fix: place on host)
// BADTARGET: error: tgraph-check-compat: {{.*}}no-such-chip
// BADOPT: for the --fail-on option: Cannot find option named 'sometimes'!

func.func @main(%a: tensor<4xf32>) {
  %0 = tgraph.add %a, %a : tensor<4xf32> loc("add.1")
  %1 = tgraph.sort(%a) dim = 0 {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %lt = tgraph.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    tgraph.return %lt : tensor<i1>
  } : (tensor<4xf32>) -> tensor<4xf32> loc("sort.2"("model.hlo":2:3))
  return
}
