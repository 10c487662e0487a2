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
           "List every op, not only the per-opcode totals (JSON only)">,
    Option<"format", "format", "std::string", /*default=*/"\"json\"",
           "json | text: a JSON object, or a table for terminals">
  ];
}

def TGraphCheckCompat : Pass<"tgraph-check-compat", "mlir::ModuleOp"> {
  let summary = "Decide, per op, whether the target can run it and why not";
  let description = [{
    Gives every tgraph op in a function body a verdict against the target
    description: `ok`, `not-assessed` (placed on the host by the user with
    `tgraph.device = "host"` or `host-ops`), or `incompatible` with a reason
    code (`unsupported-op`, `unsupported-dtype`, `dynamic-shape`,
    `unsupported-attribute`, `exceeds-memory`, `unknown-op`), a detail and a
    fix hint. Verdicts are recorded as the `tgraph.compat` attribute; the
    reports (docs/compat.md) are built from them. The pass prints the report
    to stdout only when `print` asks for it; with `fail-on=incompatible` it
    fails when any op is incompatible.

    Before, with `target=core-8` (which has no f64):
    ```mlir
    %0 = tgraph.add %a, %b : tensor<4xf64> loc("add.1")
    ```
    After:
    ```mlir
    %add.1 = tgraph.add %a, %b {tgraph.compat = {detail = "f64 is not
        supported by core-8", hint = "cast f64 to f32",
        reason = "unsupported-dtype", status = "incompatible"}} : tensor<4xf64>
    ```
  }];
  let options = [
    Option<"targetName", "target", "std::string", /*default=*/"\"\"",
           "Target preset name or JSON file (default: the default preset)">,
    Option<"hostOps", "host-ops", "std::string", /*default=*/"\"\"",
           "Regex on framework op names / HLO instruction names of ops "
           "placed on the host (not assessed)">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit an MLIR remark at each incompatible op">,
    Option<"failOn", "fail-on", "std::string", /*default=*/"\"none\"",
           "none | incompatible: fail the pipeline when an op is incompatible">,
    Option<"print", "print", "std::string", /*default=*/"\"none\"",
           "none | text | json | dot: print the report to stdout">,
    Option<"dotDepth", "dot-depth", "unsigned", /*default=*/"0",
           "Name-scope depth of the DOT graph nodes (0: first depth that "
           "splits the graph)">
  ];
}

#endif // TESSERA_PASSES
