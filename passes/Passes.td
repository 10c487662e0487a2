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
    Option<"format", "format", "::tessera::PrintFormat",
           /*default=*/"::tessera::PrintFormat::Json", "Output format",
           [{::llvm::cl::values(
             clEnumValN(::tessera::PrintFormat::Json, "json",
                        "a JSON object"),
             clEnumValN(::tessera::PrintFormat::Text, "text",
                        "a table for terminals"))}]>,
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "Write the report to this file (atomically) instead of stdout "
           "(-)">
  ];
}

def TGraphLegalizeForTarget
    : Pass<"tgraph-legalize-for-target", "mlir::ModuleOp"> {
  let summary = "Make exact rewrites that fit ops to the target's limits";
  let description = [{
    Rewrites ops that exceed a per-op limit of the target when an exact
    rewrite makes them fit, so they run on the chip instead of the host.
    Today: a `dot_general` with more batching dimensions than
    `max_batch_dims` has them collapsed into one — each operand is reshaped
    (after a transpose when its batching dimensions are not adjacent and in
    order), the dot contracts with one batching dimension, and its result is
    reshaped back. The new dot_general keeps the original's location and
    says what was done in `tgraph.rewritten`, which the compatibility
    checker reports. `tessera-compile` runs it before `tgraph-check-compat`.

    Before, with `target=tile-1472` (`max_batch_dims` = 1):
    ```mlir
    %d = tgraph.dot_general %q, %k, batching_dims = [0, 1] x [0, 1],
         contracting_dims = [3] x [3]
         : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x8x8xf32>
    ```
    After:
    ```mlir
    %0 = tgraph.reshape %q : (tensor<2x4x8x16xf32>) -> tensor<8x8x16xf32>
    %1 = tgraph.reshape %k : (tensor<2x4x8x16xf32>) -> tensor<8x8x16xf32>
    %2 = tgraph.dot_general %0, %1, batching_dims = [0] x [0],
         contracting_dims = [2] x [2] {tgraph.rewritten = "..."}
         : (tensor<8x8x16xf32>, tensor<8x8x16xf32>) -> tensor<8x8x8xf32>
    %d = tgraph.reshape %2 : (tensor<8x8x8xf32>) -> tensor<2x4x8x8xf32>
    ```

    And on every target: a `dot_general` or `convolution` whose operands
    are floats of two types (XLA allows `f32 dot(f32, f16)`) has the
    narrower operand converted to the wider type, or both to f32 for f16
    with bf16, since the matrix unit's vertices take one operand type. The
    conversion only widens, so it is exact; `tgraph.rewritten` says what
    was converted.

    Before:
    ```mlir
    %d = tgraph.dot_general %a, %b, batching_dims = [] x [],
         contracting_dims = [1] x [0]
         : (tensor<4x8xf32>, tensor<8x4xf16>) -> tensor<4x4xf32>
    ```
    After:
    ```mlir
    %0 = tgraph.convert %b : tensor<8x4xf16> -> tensor<8x4xf32>
    %d = tgraph.dot_general %a, %0, batching_dims = [] x [],
         contracting_dims = [1] x [0] {tgraph.rewritten = "rhs converted
         from f16 to f32 (...)"} : (tensor<4x8xf32>, tensor<8x4xf32>)
         -> tensor<4x4xf32>
    ```
  }];
  let options = [
    Option<"targetName", "target", "std::string", /*default=*/"\"\"",
           "Target preset name or JSON file (default: the default preset)">
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
    (to stdout or `output`) only when `print` asks for it; with
    `fail-on=incompatible` it fails when any op is incompatible.

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
    Option<"failOn", "fail-on", "::tessera::CompatFailOn",
           /*default=*/"::tessera::CompatFailOn::None",
           "When to fail the pipeline",
           [{::llvm::cl::values(
             clEnumValN(::tessera::CompatFailOn::None, "none", "never"),
             clEnumValN(::tessera::CompatFailOn::Incompatible, "incompatible",
                        "when an op is incompatible"))}]>,
    Option<"print", "print", "::tessera::PrintFormat",
           /*default=*/"::tessera::PrintFormat::None",
           "Print the report",
           [{::llvm::cl::values(
             clEnumValN(::tessera::PrintFormat::None, "none", "nothing"),
             clEnumValN(::tessera::PrintFormat::Text, "text",
                        "the summary"),
             clEnumValN(::tessera::PrintFormat::Json, "json",
                        "the report object"),
             clEnumValN(::tessera::PrintFormat::Dot, "dot",
                        "the graph, incompatible ops marked, as DOT"))}]>,
    Option<"dotDepth", "dot-depth", "unsigned", /*default=*/"0",
           "Name-scope depth of the DOT graph nodes (0: first depth that "
           "splits the graph)">,
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "Write the report to this file (atomically) instead of stdout "
           "(-)">
  ];
}

def ConvertTosaToTGraph : Pass<"convert-tosa-to-tgraph", "mlir::ModuleOp"> {
  let summary = "Import TOSA ops as tgraph ops (one pattern per op family)";
  let description = [{
    Rewrites every TOSA op, and the math, arith and tensor ops on tensors
    and the func.calls that TOSA exports carry beside it, into the tgraph
    ops HLO would use for it: conv2d becomes a convolution with
    `dim_labels = "b01f_o01i->b01f"` plus a broadcast bias add, pooling
    becomes reduce_window, reduce_* becomes a reduce plus a reshape that
    restores TOSA's kept dimension, TOSA's implicit broadcasting becomes
    explicit broadcast_in_dim, math.erf becomes erf, tensor.extract_slice a
    slice. An op without a pattern, with quantized types, or whose semantics
    tgraph cannot express (mul with a shift, math.log2, arith.divui)
    becomes `tgraph.unknown` carrying the op name, its attributes as
    strings and a `reason`, so
    tgraph-check-compat reports it (`unknown-op`); nothing is dropped and the
    pass never fails on an op it does not know. Locations are kept, so
    results keep the op's NameLoc.

    Before:
    ```mlir
    %0 = "tosa.add"(%a, %b) : (tensor<2x3xf32>, tensor<1x3xf32>)
         -> tensor<2x3xf32> loc("sum")
    ```
    After (helper ops are named after the TOSA op):
    ```mlir
    %sum.broadcast_in_dim = tgraph.broadcast_in_dim %b, dims = [0, 1]
         : (tensor<1x3xf32>) -> tensor<2x3xf32>
    %sum = tgraph.add %a, %sum.broadcast_in_dim : tensor<2x3xf32>
    ```
  }];
  let dependentDialects = ["tessera::tgraph::TGraphDialect"];
}

def TGraphNormalizePrecision
    : Pass<"tgraph-normalize-precision", "mlir::ModuleOp"> {
  let summary = "Compute a float type the target lacks in one it has";
  let description = [{
    On a target without bf16 (tile-1472), rewrites the module to compute in
    f32 (or f16, by policy) instead of reporting every bf16 op
    incompatible, as XLA's float normalization does. Types change in place:
    every function body, callee and region; constants are converted
    exactly. The entry function keeps its signature: its bf16 parameters
    and results are converted on the host (`tgraph.device = "host"`,
    `tgraph.normalization = "boundary"`), as are the operands and results
    of opaque ops (custom calls, bitcasts, infeed/outfeed). The model's own
    converts to bf16 stay rounding points (`tgraph.reduce_precision` to
    bf16's 8 exponent and 7 mantissa bits). The module's
    `#tgraph.precision` attribute records the policy and counts; the
    compatibility report shows them (docs/compat.md, "Precision"). On a
    target that has bf16, or with `policy=keep`, nothing changes.

    Before, with `target=tile-1472`:
    ```mlir
    func.func @main(%x: tensor<4xbf16>) -> tensor<4xbf16> {
      %e = tgraph.exponential %x : tensor<4xbf16> loc("exp.1")
      return %e : tensor<4xbf16>
    }
    ```
    After (`policy=bf16-to-f32`):
    ```mlir
    module attributes {tgraph.precision = #tgraph.precision<policy =
        "bf16-to-f32", from = bf16, to = f32, ops = 1, converts = 2,
        roundings = 0, bytes_added = 16>} {
      func.func @main(%x: tensor<4xbf16>) -> tensor<4xbf16> {
        %0 = tgraph.convert %x {tgraph.device = "host",
            tgraph.normalization = "boundary"} : tensor<4xbf16> -> tensor<4xf32>
        %e = tgraph.exponential %0 : tensor<4xf32> loc("exp.1")
        %1 = tgraph.convert %e {tgraph.device = "host",
            tgraph.normalization = "boundary"} : tensor<4xf32> -> tensor<4xbf16>
        return %1 : tensor<4xbf16>
      }
    }
    ```
  }];
  let options = [
    Option<"targetName", "target", "std::string", /*default=*/"\"\"",
           "Target preset or JSON file (default: the default preset)">,
    Option<"policy", "policy", "::tessera::PrecisionPolicy",
           /*default=*/"::tessera::PrecisionPolicy::Bf16ToF32",
           "What to compute bf16 in on a target without it",
           [{::llvm::cl::values(
             clEnumValN(::tessera::PrecisionPolicy::Keep, "keep",
                        "nothing: bf16 ops are incompatible"),
             clEnumValN(::tessera::PrecisionPolicy::Bf16ToF32, "bf16-to-f32",
                        "f32; the model's converts to bf16 round"),
             clEnumValN(::tessera::PrecisionPolicy::Bf16ToF32Round,
                        "bf16-to-f32-round",
                        "f32, every op's result rounded to bf16"),
             clEnumValN(::tessera::PrecisionPolicy::Bf16ToF16, "bf16-to-f16",
                        "f16 (lossy: f16's range is 6.5e4)"))}]>
  ];
}

def TGraphRecompute : Pass<"tgraph-recompute", "mlir::ModuleOp"> {
  let summary = "Recompute cheap values at their far uses instead of keeping "
                "them live";
  let description = [{
    A memory-saving option (docs/memory.md, "Memory-saving options"), in the
    spirit of Graphcore's recomputation: a cheap value — an elementwise op,
    convert or broadcast_in_dim whose operands are all parameters or
    constants, which stay live anyway — is computed again right before each
    use that comes more than `distance` ops after the use before it, so the
    value is not live in between. The copies read only always-live values,
    so no other live range grows; each costs one more vertex run. A copy is
    named after its original (`NAME.recompute1`, ...) and carries
    `tgraph.recomputes = "NAME"`; the module records
    `tgraph.recompute = {distance, values, copies}`, and the memory report's
    `memory_options.recompute` says what it saved at the fullest tile's
    peak. `distance = 0` (the default) does nothing. `tessera-compile` runs
    it with `--recompute_distance=N`.

    Before, with `distance=2`:
    ```mlir
    %b = tgraph.broadcast_in_dim %bias, dims = [1] : (tensor<4xf32>) -> tensor<8x4xf32> loc("bias.b")
    %0 = tgraph.add %x, %b : tensor<8x4xf32>
    %1 = tgraph.tanh %0 : tensor<8x4xf32>
    %2 = tgraph.tanh %1 : tensor<8x4xf32>
    %3 = tgraph.tanh %2 : tensor<8x4xf32>
    %4 = tgraph.add %3, %b : tensor<8x4xf32>
    ```
    After:
    ```mlir
    %b = tgraph.broadcast_in_dim %bias, dims = [1] : (tensor<4xf32>) -> tensor<8x4xf32> loc("bias.b")
    %0 = tgraph.add %x, %b : tensor<8x4xf32>
    ...
    %3 = tgraph.tanh %2 : tensor<8x4xf32>
    %b1 = tgraph.broadcast_in_dim %bias, dims = [1] {tgraph.recomputes = "bias.b"}
        : (tensor<4xf32>) -> tensor<8x4xf32> loc("bias.b.recompute1")
    %4 = tgraph.add %3, %b1 : tensor<8x4xf32>
    ```
  }];
  let options = [
    Option<"distance", "distance", "int64_t", /*default=*/"0",
           "Ops between two uses beyond which the later use recomputes the "
           "value (0: off)">
  ];
}

def TGraphToTile : Pass<"tgraph-to-tile", "mlir::ModuleOp"> {
  let summary = "Lower the entry function to a tile program over the chip";
  let description = [{
    Lowers the entry function of a module checked by tgraph-check-compat
    (`@main`, else the only public function) into a `tile.program
    @<entry>.tile` appended to the module (the tgraph functions
    stay, so reports can refer back to them; the program's `entry` names the
    function). Every tensor becomes a `tile.var` with a mapping chosen by the
    mapping planner (its `why` says which policy and why); every op becomes
    compute sets, exchanges and syncs. Ops the checker marked incompatible,
    ops placed on the host, and ops this lowering does not handle yet become
    `tile.host_compute` (reason: the checker's code, `placed-on-host` or
    `not-lowered`) between an outfeed of their inputs and an infeed of their
    results. See docs/tile-dialect.md, "Lowering and mapping policy".

    On a target with several chips the program is one replica's and spans
    `chips` of them: given, or the `sharding={maximal device=N}`
    annotations', or found (the fewest chips whose tiles hold the program
    without a tile out of memory: lower, allocate, and try more chips while
    some tile overflows; when no spread try fits, a mixed placement on all
    chips, then the fewest chips it fits by bisection, else pipeline
    stages). Its `placement` attribute says how it chose; `placement=`
    forces a mode (docs/multichip.md).

    Before (`--tgraph-check-compat=target=core-8`):
    ```mlir
    func.func @main(%x: tensor<64xf32> loc("x")) -> tensor<64xf32> {
      %n = tgraph.negate %x : tensor<64xf32> loc("negate.1")
      return %n : tensor<64xf32>
    }
    ```
    After (added to the module):
    ```mlir
    tile.program @main.tile target "core-8" tiles 8 attributes {entry = @main} {
      %0 = tile.var "x" parameter mapping<[0, 1] x 32 from 0> {hlo = "x",
           why = "linear: 32 per tile (grain 32, reduced from 1024 to spread
           over more than one tile) over 2 tiles"} : !tile.buffer<64xf32>
      tile.host_copy infeed %0 : !tile.buffer<64xf32>
      %1 = tile.var "negate.1" output mapping<[0, 1] x 32 from 0>
           {hlo = "negate.1", why = "in place: same layout as operand 0 ('x')"}
           : !tile.buffer<64xf32>
      tile.sync
      tile.compute_set "negate.1" kind "elementwise.negate" tiles [0, 1]
          ins(%0 : !tile.buffer<64xf32>) outs(%1 : !tile.buffer<64xf32>)
      tile.sync
      tile.host_copy outfeed %1 : !tile.buffer<64xf32>
    }
    ```
  }];
  let dependentDialects = ["::tessera::tile::TileDialect"];
  let options = [
    Option<"targetName", "target", "std::string", /*default=*/"\"\"",
           "Target preset or JSON file (default: the module's tgraph.target, "
           "set by tgraph-check-compat)">,
    Option<"printStats", "print-stats", "bool", /*default=*/"false",
           "Print one line of counts (tiles used, vars, compute sets, "
           "exchanges, host_compute per reason) to stdout">,
    Option<"chips", "chips", "int64_t", /*default=*/"0",
           "Chips the program spans (model parallel); 0: the sharding "
           "annotations' chips, else the fewest of a replica's chips whose "
           "tiles hold the program (docs/multichip.md)">,
    Option<"placementMode", "placement", "std::string", /*default=*/"\"auto\"",
           "How ops go to a replica's chips when no sharding annotation "
           "places them: auto (spread when an op with its operands fills "
           "over half a chip, else pipeline stages), stages, spread or mixed "
           "(the ops touching over a quarter of a chip spread over a group "
           "of the last chips, the rest in stages)">
  ];
}

def TileMapTensors : Pass<"tile-map-tensors", "mlir::ModuleOp"> {
  let summary = "Print the tensor map: the tiles holding each tensor";
  let description = [{
    For every `tile.program` (keyed by the function it was lowered from),
    lists each buffer holding an HLO instruction's data as
    `[hlo_instruction, output_index, shape, dtype, has_constant, has_alias,
    total_elements, tiles, tensor_name]`, only tiles holding elements
    listed: `tiles` is `[[first_tile, last_tile, elements_each], ...]`,
    runs of consecutive tiles holding the same number of elements
    (`format=runs`, the default), or `[[tile, elements], ...]`
    (`format=tiles`). The IR is unchanged.

    Before (after `tgraph-to-tile` on core-8):
    ```mlir
    tile.program @main.tile target "core-8" tiles 8 attributes {entry = @main} {
      %0 = tile.var "x" parameter mapping<[0, 1] x 32 from 0> {hlo = "x"}
           : !tile.buffer<64xf32>
    }
    ```
    Printed:
    ```json
    {"tile_format":"runs","mappings":{"main":[["x",0,[64],"f32",false,false,64,[[0,1,32]],"x"]]}}
    ```
  }];
  let options = [
    Option<"pretty", "pretty", "bool", /*default=*/"false",
           "Indent the JSON">,
    Option<"summary", "summary", "bool", /*default=*/"false",
           "Print a text summary instead: tensors, tiles used, elements "
           "per used tile (min / mean / max)">,
    Option<"format", "format", "std::string", /*default=*/"\"runs\"",
           "How each tensor's tiles are listed: runs ([first_tile, "
           "last_tile, elements_each]) or tiles ([tile, elements])">,
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "Write the report to this file (atomically) instead of stdout "
           "(-)">
  ];
}

def TileVertexGraph : Pass<"tile-vertex-graph", "mlir::ModuleOp"> {
  let summary = "Print the vertex graph of tile programs as Graphviz DOT";
  let description = [{
    Shows which vertices each compute set runs and where: compute sets in
    program order, each with its vertices and the tiles they run on. A
    program with more than `max-vertices` vertices in all is summarised
    instead: one node per compute set listing its vertex count per kind and
    its tile range. The IR is unchanged.

    Before:
    ```mlir
    tile.program @main.tile target "core-8" tiles 8 attributes {entry = @main} {
      %x = tile.var "x" parameter mapping<[0, 1] x 32 from 0> : !tile.buffer<64xf32>
      tile.compute_set "neg.1" kind "elementwise.negate" tiles [0, 1]
          outs(%x : !tile.buffer<64xf32>)
    }
    ```
    Printed (abridged):
    ```
    digraph "main.tile" {
      "cs0" [shape=box, label="neg.1\nelementwise.negate x 2"];
      "cs0.v0" [label="elementwise.negate"]; "cs0" -> "cs0.v0"; "cs0.v0" -> "tile0";
      ...
    }
    ```
  }];
  let options = [
    Option<"maxVertices", "max-vertices", "int64_t", /*default=*/"256",
           "Draw every vertex up to this many in a program; summarise above">,
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "Write the report to this file (atomically) instead of stdout "
           "(-)">
  ];
}

def TGraphInstructionInfo : Pass<"tgraph-instruction-info", "mlir::ModuleOp"> {
  let summary = "Print the ML role of every dot and convolution as JSON";
  let description = [{
    Classifies each `dot_general` and `convolution`: 1 inference forward,
    2 training forward, 3 training input-gradient, 4 training weight-update.
    Backward ops are those the framework names so (TF `gradients/`, JAX
    `transpose(jvp(...))`, torch_xla `...Backward...`, op types
    `Conv2DBackpropInput` / `Conv2DBackpropFilter`) and everything computed
    from them; a backward contraction whose result has a weight's shape (an
    argument used as a forward contraction's rhs or kernel) is the weight
    update. The IR is unchanged; the JSON goes to stdout or `output`.

    Before (a JAX training step, abridged):
    ```mlir
    %dot.14 = tgraph.dot_general %x, %w1 ... {tgraph.op_name = "jit(train_step)/dot_general"}
    %dot.46 = tgraph.dot_general %x, %g ...
        {tgraph.op_name = "jit(train_step)/transpose(jvp(dot_general))/dot_general"}
        : (tensor<32x784xf32>, tensor<32x128xf32>) -> tensor<784x128xf32>
    ```
    Printed:
    ```json
    {"ml_types": {"jit(train_step)/dot_general/dot.14": 2,
                  "jit(train_step)/transpose(jvp(dot_general))/dot_general/dot.46": 4}}
    ```
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "Write the report to this file (atomically) instead of stdout "
           "(-)">
  ];
}

def TileLiveness : Pass<"tile-liveness", "mlir::ModuleOp"> {
  let summary = "Print each buffer's live range and each tile's live bytes";
  let description = [{
    Numbers the steps of every `tile.program` in program order (program
    points; a `tile.repeat` body is the sub-range after its point) and
    gives every buffer, on each of its tiles, its live range [first def,
    last use] over the steps touching that tile, stretched over loops it
    crosses or carries; constants and parameters are always live.
    Per tile it prints the largest live bytes (padded to the layout tile
    and aligned) and the always-live bytes including the program overheads
    estimated from the target. The sweep is checked against a direct sum
    of the live buffers (`check`). The IR is unchanged. See docs/memory.md.

    Before (core-8):
    ```mlir
    tile.program @p target "core-8" tiles 8 {
      %a = tile.var "a" temporary mapping<[0, 0] x 64 from 0> : !tile.buffer<64xf32>
      %b = tile.var "b" temporary mapping<[0, 0] x 64 from 0> : !tile.buffer<64xf32>
      tile.compute_set "fill" kind "fill" tiles [0, 0] outs(%a : !tile.buffer<64xf32>)
      tile.compute_set "neg" kind "elementwise.negate" tiles [0, 0]
          ins(%a : !tile.buffer<64xf32>) outs(%b : !tile.buffer<64xf32>)
      tile.host_copy outfeed %b : !tile.buffer<64xf32>
    }
    ```
    Printed (`print=text`, abridged):
    ```
    liveness of @p on core-8: 3 program points
      a Temporary [0, 1] tiles 1 bytes 256 padded 4096
      b Temporary [1, 2] tiles 1 bytes 256 padded 4096
      tile 0: max live 8192 at point 1, always-live 1122432 (overheads 1122432)
    ```
  }];
  let options = [
    Option<"targetName", "target", "std::string", /*default=*/"\"\"",
           "Target preset or JSON file (default: the program's target)">,
    Option<"print", "print", "::tessera::PrintFormat",
           /*default=*/"::tessera::PrintFormat::Text", "Output format",
           [{::llvm::cl::values(
             clEnumValN(::tessera::PrintFormat::Text, "text",
                        "lines for terminals and FileCheck"),
             clEnumValN(::tessera::PrintFormat::Json, "json",
                        "one JSON object per program"))}]>,
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "Write the report to this file (atomically) instead of stdout "
           "(-)">
  ];
}

def TilePrintAllocation : Pass<"tile-print-allocation", "mlir::ModuleOp"> {
  let summary = "Print per-tile buffer offsets, peaks, bounds and overflow";
  let description = [{
    On every tile, places the buffers live there at byte offsets (best fit,
    largest first, aligned to the target's `alignment_bytes`) so that no
    two buffers live at the same program point overlap. Prints per tile the
    allocated peak, the liveness lower bound (the largest live bytes), the
    gaps between them, and the total with the always-live program overheads
    against the tile's SRAM. A tile that does not fit is marked `OUT OF
    MEMORY by N` and allocation goes on, so every tile is reported. The IR
    is unchanged (offsets are printed, not attached), hence the name. See
    docs/memory.md.

    Before: the program of `tile-liveness`. Printed (`offsets=true`):
    ```
    allocation of @p on core-8 (alignment 64): 0 tile(s) out of memory, worst peak / lower bound 1.0000
      tile 0: peak 8192, lower bound 8192, gaps 0, with overheads 1130624 of 16777216
        a at 0 size 4096 live [0, 1]
        b at 4096 size 4096 live [1, 2]
    ```
  }];
  let options = [
    Option<"targetName", "target", "std::string", /*default=*/"\"\"",
           "Target preset or JSON file (default: the program's target)">,
    Option<"print", "print", "::tessera::PrintFormat",
           /*default=*/"::tessera::PrintFormat::Text", "Output format",
           [{::llvm::cl::values(
             clEnumValN(::tessera::PrintFormat::Text, "text",
                        "per tile: peak, lower bound, gaps, total"),
             clEnumValN(::tessera::PrintFormat::Json, "json",
                        "one JSON object per program"),
             clEnumValN(::tessera::PrintFormat::Summary, "summary",
                        "one line per program: peak / lower bound, max and "
                        "mean tile bytes, tiles out of memory"))}]>,
    Option<"offsets", "offsets", "bool", /*default=*/"false",
           "List every buffer's offset on every tile">,
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "Write the report to this file (atomically) instead of stdout "
           "(-)">
  ];
}

def TilePadding : Pass<"tile-padding", "mlir::ModuleOp"> {
  let summary = "Print buffer padding, matrix-unit fit and per-op FLOPs";
  let description = [{
    For every buffer: its bytes, its bytes stored in whole layout tiles of
    the target (the two minor dimensions rounded up to `layout_tile`, per
    tile, then aligned), the expansion padded / unpadded and the extra
    bytes. For every matmul vertex: per dimension `exact fit` or `padded
    a→b` against the matrix unit, and useful / padded MACs. Per op: FLOPs,
    padded FLOPs, bytes moved and estimated cycles. The IR is unchanged.
    See docs/memory.md.

    Before (core-8, layout tile [8, 128]):
    ```mlir
    %x = tile.var "x" parameter mapping<[0, 0] x 48 from 0> : !tile.buffer<3x16xf32>
    ```
    Printed:
    ```
      buffer x [3, 16] f32: 192 -> 4096 bytes, expansion 21.33x, extra 3904
    ```
  }];
  let options = [
    Option<"targetName", "target", "std::string", /*default=*/"\"\"",
           "Target preset or JSON file (default: the program's target)">,
    Option<"print", "print", "::tessera::PrintFormat",
           /*default=*/"::tessera::PrintFormat::Text", "Output format",
           [{::llvm::cl::values(
             clEnumValN(::tessera::PrintFormat::Text, "text",
                        "lines for terminals and FileCheck"),
             clEnumValN(::tessera::PrintFormat::Json, "json",
                        "one JSON object per program"))}]>,
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "Write the report to this file (atomically) instead of stdout "
           "(-)">
  ];
}

def TileMemoryReport : Pass<"tile-memory-report", "mlir::ModuleOp"> {
  let summary = "Print the memory report of tile programs (text, JSON, SVG)";
  let description = [{
    Runs liveness, allocation, padding and the cost estimate and prints the
    report of docs/memory.md: `format=text` the summary (target, graph,
    memory usage by region, category and dtype, a histogram of bytes per
    tile, tiles out of memory, the five fullest tiles), `format=json` the
    whole report object (memory viewer, per-tile memory, buffers, padding,
    cost), `format=svg` a heat map of bytes per tile. A program that does
    not fit still gets every report. The IR is unchanged.

    Before: any tile program. Printed (`format=text`, abridged):
    ```
    Memory report of @main.tile on core-8
    Target:
      Number of tiles:                8
    ...
    Tile memory histogram (bytes including gaps, 1024 KB buckets):
            0 -    1024 KB                                          0
         1024 -    2048 KB ****************************************  8
      0 tile(s) out of memory
    ```
  }];
  let options = [
    Option<"targetName", "target", "std::string", /*default=*/"\"\"",
           "Target preset or JSON file (default: the program's target)">,
    Option<"format", "format", "::tessera::PrintFormat",
           /*default=*/"::tessera::PrintFormat::Text", "Output format",
           [{::llvm::cl::values(
             clEnumValN(::tessera::PrintFormat::Text, "text", "the summary"),
             clEnumValN(::tessera::PrintFormat::Json, "json",
                        "the whole report object"),
             clEnumValN(::tessera::PrintFormat::Svg, "svg",
                        "a heat map of bytes per tile"))}]>,
    Option<"tile", "tile", "int64_t", /*default=*/"-1",
           "Also show this tile in full: its heap at every point and every "
           "buffer live at its peak (text; `tile_detail` in JSON)">,
    Option<"pretty", "pretty", "bool", /*default=*/"false",
           "Indent the JSON">,
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "Write the report to this file (atomically) instead of stdout "
           "(-)">
  ];
}

#endif // TESSERA_PASSES
