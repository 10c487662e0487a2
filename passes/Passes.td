//===- Passes.td - Tessera passes --------------------------*- tablegen -*-===//
//
// Every Tessera pass, one implementation file each in this folder. Pass
// arguments start with the layer they work on (tgraph-, tile-).
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_PASSES
#define TESSERA_PASSES

include "mlir/Pass/PassBase.td"

def TGraphOpStats : Pass<"tgraph-op-stats", "mlir::ModuleOp"> {
  let summary = "Print per-opcode counts, FLOPs and bytes of a tgraph module";
  let description = [{
    Counts every tgraph op by opcode and estimates its cost the way XLA's
    cost analysis does: 2·M·N·K FLOPs for a dot, 2·out·window·Cin/groups for
    a convolution, one per output element for elementwise ops and one per
    input element for reductions. Bytes are the operand plus result sizes.
    The IR is left unchanged; the statistics are printed as JSON.

    Before (input), unchanged after:
    ```mlir
    func.func @main(%a: tensor<16x64xf32>, %b: tensor<64x32xf32>) -> tensor<16x32xf32> {
      %d = tgraph.dot_general %a, %b, batching_dims = [] x [],
           contracting_dims = [1] x [0]
           : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
      return %d : tensor<16x32xf32>
    }
    ```
    Printed:
    ```json
    {"total": {"count": 1, "flops": 65536, "bytes": 14336},
     "opcodes": {"dot_general": {"count": 1, "flops": 65536, "bytes": 14336}},
     "ops": [{"name": "d", "opcode": "dot_general", "flops": 65536, "bytes": 14336} ]}
    ```
  }];
  let options = [
    Option<"perOp", "per-op", "bool", /*default=*/"true",
           "List every op, not only the per-opcode totals">
  ];
}

#endif // TESSERA_PASSES
