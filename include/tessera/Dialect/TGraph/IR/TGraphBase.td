//===- TGraphBase.td - tgraph dialect definition -----------*- tablegen -*-===//
//
// The graph-level dialect of Tessera: one op per HLO opcode family, on ranked
// tensors. Imported HLO keeps instruction names as locations (NameLoc) and the
// framework metadata as the `tgraph.op_name` / `tgraph.op_type` attributes.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TGRAPH_BASE
#define TESSERA_TGRAPH_BASE

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"

def TGraph_Dialect : Dialect {
  let name = "tgraph";
  let summary = "HLO-like tensor graph dialect of the Tessera backend";
  let description = [{
    `tgraph` holds a model as XLA holds it: one op per HLO opcode family on
    ranked tensors, with HLO's attribute vocabulary (dimension numbers, window
    descriptions, replica groups). Each HLO computation is a `func.func`;
    reducers and comparators are inlined as regions. Every op keeps the name
    of the HLO instruction it came from as its location, so reports can point
    back at it.
  }];
  let cppNamespace = "::tessera::tgraph";
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

class TGraph_Type<string name, string typeMnemonic>
    : TypeDef<TGraph_Dialect, name> {
  let mnemonic = typeMnemonic;
}

def TGraph_TokenType : TGraph_Type<"Token", "token"> {
  let summary = "ordering token (HLO `token[]`)";
  let description = [{
    Orders side-effecting ops such as infeed and outfeed, like HLO's
    `token[]`. It carries no data.
  }];
}

// Anything an HLO value can be: a ranked tensor (static or dynamic), a
// token, or a (possibly nested) tuple of those.
def TGraph_Tensor : RankedTensorOf<[AnyType]>;
def TGraph_Value : AnyTypeOf<[AnyRankedTensor, TGraph_TokenType, AnyTuple],
                             "HLO value (ranked tensor, token or tuple)">;

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def TGraph_CmpEQ : I32EnumAttrCase<"EQ", 0>;
def TGraph_CmpNE : I32EnumAttrCase<"NE", 1>;
def TGraph_CmpGE : I32EnumAttrCase<"GE", 2>;
def TGraph_CmpGT : I32EnumAttrCase<"GT", 3>;
def TGraph_CmpLE : I32EnumAttrCase<"LE", 4>;
def TGraph_CmpLT : I32EnumAttrCase<"LT", 5>;
def TGraph_ComparisonDirection
    : I32EnumAttr<"ComparisonDirection", "HLO comparison direction",
                  [TGraph_CmpEQ, TGraph_CmpNE, TGraph_CmpGE, TGraph_CmpGT,
                   TGraph_CmpLE, TGraph_CmpLT]> {
  let cppNamespace = "::tessera::tgraph";
  let genSpecializedAttr = 0;
}
def TGraph_ComparisonDirectionAttr
    : EnumAttr<TGraph_Dialect, TGraph_ComparisonDirection, "comparison"> {
  let assemblyFormat = "`<` $value `>`";
}

def TGraph_RngUniform : I32EnumAttrCase<"UNIFORM", 0>;
def TGraph_RngNormal : I32EnumAttrCase<"NORMAL", 1>;
def TGraph_RngDistribution
    : I32EnumAttr<"RngDistribution", "HLO random distribution",
                  [TGraph_RngUniform, TGraph_RngNormal]> {
  let cppNamespace = "::tessera::tgraph";
  let genSpecializedAttr = 0;
}
def TGraph_RngDistributionAttr
    : EnumAttr<TGraph_Dialect, TGraph_RngDistribution, "rng_distribution"> {
  let assemblyFormat = "`<` $value `>`";
}

def TGraph_CompatOk : I32EnumAttrCase<"Ok", 0, "ok">;
def TGraph_CompatIncompatible : I32EnumAttrCase<"Incompatible", 1,
                                                "incompatible">;
def TGraph_CompatNotAssessed : I32EnumAttrCase<"NotAssessed", 2,
                                               "not_assessed">;
def TGraph_CompatStatus
    : I32EnumAttr<"CompatStatus", "compatibility verdict",
                  [TGraph_CompatOk, TGraph_CompatIncompatible,
                   TGraph_CompatNotAssessed]> {
  let cppNamespace = "::tessera::tgraph";
  let genSpecializedAttr = 0;
}

// The compatibility checker's verdict on an op (the `tgraph.compat`
// attribute, docs/compat.md): a status and, for an incompatible op, the
// reason code, what is in the way and how to fix it.
def TGraph_CompatAttr : AttrDef<TGraph_Dialect, "Compat"> {
  let mnemonic = "compat";
  let summary = "will this op run on the target";
  let description = [{
    ```mlir
    {tgraph.compat = #tgraph.compat<status = ok>}
    {tgraph.compat = #tgraph.compat<status = incompatible,
        reason = "unsupported-dtype", detail = "f64 is not supported by core-8",
        hint = "cast f64 to f32">}
    ```
    `not_assessed`: the user placed the op on the host (`reason` says how).
  }];
  let parameters = (ins EnumParameter<TGraph_CompatStatus>:$status,
                        StringRefParameter<"reason code", "\"\"">:$reason,
                        StringRefParameter<"what is in the way", "\"\"">:$detail,
                        StringRefParameter<"how to fix it", "\"\"">:$hint);
  let assemblyFormat = "`<` struct(params) `>`";
}

// What precision normalization did to a module (the module's
// `tgraph.precision` attribute, docs/compat.md "Precision"): the policy, the
// element type the target lacks and the one it was computed in, and counts
// the compatibility report shows.
def TGraph_PrecisionAttr : AttrDef<TGraph_Dialect, "Precision"> {
  let mnemonic = "precision";
  let summary = "element types the target lacks, and what replaced them";
  let description = [{
    ```mlir
    module attributes {tgraph.precision = #tgraph.precision<
        policy = "bf16-to-f32", from = bf16, to = f32, ops = 12,
        converts = 3, roundings = 1, bytes_added = 4096>} { ... }
    ```
    `ops`: ops whose types changed; `converts`: converts inserted where a
    value keeps the old type (the entry's parameters and results, opaque
    ops); `roundings`: `tgraph.reduce_precision` ops inserted; `bytes_added`:
    the extra bytes of every changed value in a function body.
  }];
  let parameters = (ins StringRefParameter<"policy name">:$policy,
                        "::mlir::Type":$from, "::mlir::Type":$to,
                        "int64_t":$ops, "int64_t":$converts,
                        "int64_t":$roundings, "int64_t":$bytes_added);
  let assemblyFormat = "`<` struct(params) `>`";
}

//===----------------------------------------------------------------------===//
// Op base classes
//===----------------------------------------------------------------------===//

// Every op names its results after the HLO instruction it came from (taken
// from its NameLoc), so printed IR reads like the HLO dump.
class TGraph_Op<string mnemonic, list<Trait> traits = []>
    : Op<TGraph_Dialect, mnemonic,
         !listconcat(traits, [DeclareOpInterfaceMethods<OpAsmOpInterface,
                                  ["getAsmResultNames"]>])> {
  let extraClassDefinition = [{
    void $cppClass::getAsmResultNames(::mlir::OpAsmSetValueNameFn setNameFn) {
      nameResultAfterInstruction(getOperation(), setNameFn);
    }
  }];
}

class TGraph_UnaryElementwiseOp<string mnemonic, string desc,
                                list<Trait> traits = []>
    : TGraph_Op<mnemonic, !listconcat(traits, [Pure, Elementwise,
                                              SameOperandsAndResultType])> {
  let summary = desc;
  let description = "Elementwise " # desc # ", as HLO `" # mnemonic #
      "`.\n\n```mlir\n%r = tgraph." # mnemonic #
      " %x : tensor<4x8xf32>\n```";
  let arguments = (ins TGraph_Tensor:$operand);
  let results = (outs TGraph_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
}

class TGraph_BinaryElementwiseOp<string mnemonic, string desc,
                                 list<Trait> traits = []>
    : TGraph_Op<mnemonic, !listconcat(traits, [Pure, Elementwise,
                                              SameOperandsAndResultType])> {
  let summary = desc;
  let description = "Elementwise " # desc # ", as HLO `" # mnemonic #
      "`. Operands and result have one type; HLO broadcasts explicitly.\n\n"
      "```mlir\n%r = tgraph." # mnemonic #
      " %a, %b : tensor<4x8xf32>\n```";
  let arguments = (ins TGraph_Tensor:$lhs, TGraph_Tensor:$rhs);
  let results = (outs TGraph_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

#endif // TESSERA_TGRAPH_BASE
