// The same model compiles on one preset and not the other: tile-1472 has
// f16 but no bf16; core-8 has bf16 but no f16.
// RUN: tessera-opt %s --tgraph-check-compat="target=tile-1472 print=text" -o /dev/null | FileCheck %s --check-prefix=TILE
// RUN: tessera-opt %s --tgraph-check-compat="target=core-8 print=text" -o /dev/null | FileCheck %s --check-prefix=CORE

// TILE: Compatibility with tile-1472: 100.0% of 2 assessed ops (2 ok, 0 incompatible, 0 placed on host; 2 ops in all)
// TILE-NOT: Incompatible

// CORE: Compatibility with core-8: 0.0% of 2 assessed ops (0 ok, 2 incompatible, 0 placed on host; 2 ops in all)
// CORE-NEXT: Incompatible by reason:
// CORE-NEXT:   unsupported-dtype       2
// CORE:      Incompatible ops:
// CORE-NEXT:   dot.1 (dense/MatMul): unsupported-dtype: f16 is not supported by core-8; fix: cast f16 to f32 [model.py:7]
// CORE-NEXT:   tanh.2 (dense/Tanh): unsupported-dtype: f16 is not supported by core-8; fix: cast f16 to f32 [model.py:8]

func.func @main(%x: tensor<8x16xf16>, %w: tensor<16x4xf16>) -> tensor<8x4xf16> {
  %0 = tgraph.dot_general %x, %w, batching_dims = [] x [], contracting_dims = [1] x [0]
       {tgraph.op_name = "dense/MatMul", tgraph.op_type = "MatMul"}
       : (tensor<8x16xf16>, tensor<16x4xf16>) -> tensor<8x4xf16>
       loc(fused["dot.1"("model.hlo":3:3), "model.py":7:0])
  %1 = tgraph.tanh %0 {tgraph.op_name = "dense/Tanh", tgraph.op_type = "Tanh"} : tensor<8x4xf16>
       loc(fused["tanh.2"("model.hlo":4:3), "model.py":8:0])
  return %1 : tensor<8x4xf16>
}
