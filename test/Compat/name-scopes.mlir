// Name-scope aggregation: only the two AssignAdd ops (f64) under
// root_mean_squared_error are incompatible, so that node is 3/5 = 60% ok
// and every other node is 100% ok.
// RUN: tessera-opt %s --tgraph-check-compat="target=core-8 print=json" -o /dev/null | FileCheck %s --check-prefix=JSON
// RUN: tessera-opt %s --tgraph-check-compat="target=core-8 print=dot" -o /dev/null | FileCheck %s --check-prefix=DOT
// RUN: tessera-opt %s --tgraph-check-compat="target=core-8 print=dot dot-depth=2" -o /dev/null | FileCheck %s --check-prefix=DOT2
// RUN: tessera-opt %s --tgraph-check-compat="target=core-8 print=text" -o /dev/null | FileCheck %s --check-prefix=TEXT

// JSON:      "scopes": [
// JSON-NEXT:   {
// JSON-NEXT:     "name": "dense",
// JSON-NEXT:     "depth": 1,
// JSON-NEXT:     "ops": 2,
// JSON-NEXT:     "compatible": 2,
// JSON-NEXT:     "incompatible": 0,
// JSON-NEXT:     "not_assessed": 0,
// JSON-NEXT:     "compatible_percent": 100.0,
// JSON:          "name": "root_mean_squared_error",
// JSON-NEXT:     "depth": 1,
// JSON-NEXT:     "ops": 5,
// JSON-NEXT:     "compatible": 3,
// JSON-NEXT:     "incompatible": 2,
// JSON-NEXT:     "not_assessed": 0,
// JSON-NEXT:     "compatible_percent": 60.0,
// JSON-NEXT:     "incompatible_percent": 40.0,
// JSON-NEXT:     "not_assessed_percent": 0.0
// JSON:          "name": "root_mean_squared_error/total",
// JSON-NEXT:     "depth": 2,
// JSON-NEXT:     "ops": 2,
// JSON-NEXT:     "compatible": 0,
// JSON-NEXT:     "incompatible": 2,
// JSON:      "incompatible_ops": [
// JSON-NEXT:   {
// JSON-NEXT:     "instruction": "add.6",
// JSON-NEXT:     "op": "tgraph.add",
// JSON-NEXT:     "op_type": "AssignAdd",
// JSON-NEXT:     "op_name": "root_mean_squared_error/total/AssignAdd",
// JSON-NEXT:     "function": "main",
// JSON-NEXT:     "reason": "unsupported-dtype",
// JSON-NEXT:     "detail": "f64 is not supported by core-8",
// JSON-NEXT:     "hint": "cast f64 to f32",
// JSON-NEXT:     "location": "rmse.hlo:6:3",
// JSON-NEXT:     "source": "train.py:42"
// JSON:          "instruction": "add.7",

// DOT:      digraph compat {
// DOT-NEXT:   label="compatibility with core-8";
// DOT:        "dense" [label="dense\n100.0% ok (2 ops)", style=filled, fillcolor="#4caf50;1.000"];
// DOT-NEXT:   "root_mean_squared_error" [label="root_mean_squared_error\n60.0% ok, 40.0% incompatible (5 ops)", style=striped, fillcolor="#4caf50;0.600:#e53935;0.400"];
// DOT-NEXT:   "dense" -> "root_mean_squared_error";
// DOT-NEXT: }

// At depth 2, ops directly in root_mean_squared_error stay in that node.
// DOT2:      "root_mean_squared_error" [label="root_mean_squared_error\n100.0% ok (3 ops)", style=filled, fillcolor="#4caf50;1.000"];
// DOT2-NEXT: "root_mean_squared_error/total" [label="root_mean_squared_error/total\n100.0% incompatible (2 ops)", style=filled, fillcolor="#e53935;1.000"];
// DOT2-NEXT: "dense" -> "root_mean_squared_error";

// TEXT:      Name scopes with incompatible ops:
// TEXT-NEXT:   root_mean_squared_error/total                0.0% ok (0/2)
// TEXT-NEXT:   root_mean_squared_error                     60.0% ok (3/5)
// TEXT-NEXT: Incompatible ops:
// TEXT-NEXT:   add.6 (root_mean_squared_error/total/AssignAdd): unsupported-dtype: f64 is not supported by core-8; fix: cast f64 to f32 [train.py:42]
// TEXT-NEXT:   add.7 (root_mean_squared_error/total/AssignAdd_1): unsupported-dtype: f64 is not supported by core-8; fix: cast f64 to f32 [rmse.hlo:7:3]

func.func @main(%x: tensor<8x4xf32>, %w: tensor<4x1xf32>, %y: tensor<8x1xf32>,
                %acc: tensor<f64>) {
  %0 = tgraph.dot_general %x, %w, batching_dims = [] x [], contracting_dims = [1] x [0]
       {tgraph.op_name = "dense/MatMul", tgraph.op_type = "MatMul"}
       : (tensor<8x4xf32>, tensor<4x1xf32>) -> tensor<8x1xf32> loc("dot.1"("rmse.hlo":1:3))
  %1 = tgraph.logistic %0 {tgraph.op_name = "dense/Sigmoid"} : tensor<8x1xf32> loc("logistic.2"("rmse.hlo":2:3))
  %2 = tgraph.subtract %1, %y {tgraph.op_name = "root_mean_squared_error/sub"} : tensor<8x1xf32> loc("subtract.3"("rmse.hlo":3:3))
  %3 = tgraph.multiply %2, %2 {tgraph.op_name = "root_mean_squared_error/Square"} : tensor<8x1xf32> loc("multiply.4"("rmse.hlo":4:3))
  %4 = tgraph.sqrt %3 {tgraph.op_name = "root_mean_squared_error/Sqrt"} : tensor<8x1xf32> loc("sqrt.5"("rmse.hlo":5:3))
  %5 = tgraph.add %acc, %acc {tgraph.op_name = "root_mean_squared_error/total/AssignAdd", tgraph.op_type = "AssignAdd"} : tensor<f64> loc(fused["add.6"("rmse.hlo":6:3), "train.py":42:0])
  %6 = tgraph.add %5, %acc {tgraph.op_name = "root_mean_squared_error/total/AssignAdd_1", tgraph.op_type = "AssignAdd"} : tensor<f64> loc("add.7"("rmse.hlo":7:3))
  return
}
