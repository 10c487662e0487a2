//===- HloEmitterOps.cpp - one HLO instruction to one tgraph op -----------===//
//
// Classifies each HLO opcode and hands the instruction to the family that
// builds its tgraph op (HloEmit*.cpp). Attributes no op consumes are kept
// verbatim in `tgraph.hlo_attributes`; opcodes (or forms of them) the
// dialect does not model become `tgraph.unknown`, never an import failure.
//
//===----------------------------------------------------------------------===//

#include "HloEmitOps.h"
#include "HloOpcodeAttrs.h"

#include "tessera/Dialect/TGraph/IR/InstructionNames.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using llvm::SMLoc;
using llvm::StringRef;
using llvm::Twine;

namespace tessera::hlo::detail {

Op classify(StringRef opcode) {
  if (unaryBuilder(opcode))
    return Op::Unary;
  if (binaryBuilder(opcode))
    return Op::Binary;
  return llvm::StringSwitch<Op>(opcode)
      .Case("parameter", Op::Parameter)
      .Case("constant", Op::Constant)
      .Case("iota", Op::Iota)
      .Case("rng", Op::Rng)
      .Case("is-finite", Op::IsFinite)
      .Case("compare", Op::Compare)
      .Case("select", Op::Select)
      .Case("clamp", Op::Clamp)
      .Case("convert", Op::Convert)
      .Case("bitcast-convert", Op::BitcastConvert)
      .Case("bitcast", Op::Bitcast)
      .Case("reduce-precision", Op::ReducePrecision)
      .Case("broadcast", Op::Broadcast)
      .Case("reshape", Op::Reshape)
      .Case("transpose", Op::Transpose)
      .Case("reverse", Op::Reverse)
      .Case("slice", Op::Slice)
      .Case("dynamic-slice", Op::DynamicSlice)
      .Case("dynamic-update-slice", Op::DynamicUpdateSlice)
      .Case("concatenate", Op::Concatenate)
      .Case("pad", Op::Pad)
      .Case("gather", Op::Gather)
      .Case("scatter", Op::Scatter)
      .Case("dot", Op::Dot)
      .Case("convolution", Op::Convolution)
      .Case("reduce", Op::Reduce)
      .Case("reduce-window", Op::ReduceWindow)
      .Case("select-and-scatter", Op::SelectAndScatter)
      .Case("sort", Op::Sort)
      .Case("tuple", Op::Tuple)
      .Case("get-tuple-element", Op::GetTupleElement)
      .Case("call", Op::Call)
      .Case("fusion", Op::Fusion)
      .Case("while", Op::While)
      .Case("conditional", Op::Conditional)
      .Case("all-reduce", Op::AllReduce)
      .Case("all-gather", Op::AllGather)
      .Case("all-to-all", Op::AllToAll)
      .Case("reduce-scatter", Op::ReduceScatter)
      .Case("collective-permute", Op::CollectivePermute)
      .Case("replica-id", Op::ReplicaId)
      .Case("partition-id", Op::PartitionId)
      .Case("after-all", Op::AfterAll)
      .Case("infeed", Op::Infeed)
      .Case("outfeed", Op::Outfeed)
      .Case("batch-norm-training", Op::BatchNormTraining)
      .Case("batch-norm-inference", Op::BatchNormInference)
      .Case("batch-norm-grad", Op::BatchNormGrad)
      .Case("custom-call", Op::CustomCall)
      .Case("opt-barrier", Op::OptimizationBarrier)
      .Case("optimization-barrier", Op::OptimizationBarrier)
      .Default(Op::Unknown);
}

bool usesRegionForToApply(Op op) {
  switch (op) {
  case Op::Reduce:
  case Op::ReduceWindow:
  case Op::Scatter:
  case Op::Sort:
  case Op::AllReduce:
  case Op::ReduceScatter:
    return true;
  default:
    return false;
  }
}

bool isSymbolComputationAttr(StringRef name) {
  return name == "calls" || name == "condition" || name == "body" ||
         name == "true_computation" || name == "false_computation" ||
         name == "branch_computations" || name == "called_computations" ||
         name == "to_apply";
}

//===----------------------------------------------------------------------===//
// Attribute readers
//===----------------------------------------------------------------------===//

Location renamed(Location loc, StringRef name) {
  return tgraph::renameInstruction(loc, [&](StringRef) { return name.str(); });
}

mlir::Location InstrEmit::helperLoc(llvm::StringRef suffix) const {
  return renamed(loc, (instr.name + "." + suffix).str());
}

bool arity(InstrEmit &e, size_t n) {
  if (e.operands.size() == n)
    return true;
  return e.error(e.instr.opcodeLoc,
                 "'" + e.instr.opcode + "' takes " + Twine(n) + " operand" +
                     (n == 1 ? "" : "s") + ", got " + Twine(e.operands.size()));
}

const Attr *required(InstrEmit &e, StringRef name) {
  // The parser checks XLA's required attributes already; this is the
  // same message for the forms it leaves to the emitter.
  const Attr *a = e.attrs.take(name);
  if (!a)
    missingAttribute(e.instr, name, e.diags());
  return a;
}

bool requiredInts(InstrEmit &e, StringRef name,
                  llvm::SmallVectorImpl<int64_t> &out) {
  const Attr *a = required(e, name);
  return a && parseIntList(*a, e.diags(), out);
}

bool optionalInts(InstrEmit &e, StringRef name,
                  llvm::SmallVectorImpl<int64_t> &out) {
  const Attr *a = e.attrs.take(name);
  return !a || parseIntList(*a, e.diags(), out);
}

bool requiredInt(InstrEmit &e, StringRef name, int64_t &out) {
  const Attr *a = required(e, name);
  return a && parseIntValue(*a, e.diags(), out);
}

bool optionalInt(InstrEmit &e, StringRef name, int64_t &out) {
  const Attr *a = e.attrs.take(name);
  return !a || parseIntValue(*a, e.diags(), out);
}

bool optionalI64(InstrEmit &e, StringRef name, IntegerAttr &out) {
  const Attr *a = e.attrs.take(name);
  if (!a)
    return true;
  int64_t value;
  if (!parseIntValue(*a, e.diags(), value))
    return false;
  out = e.builder().getI64IntegerAttr(value);
  return true;
}

bool optionalString(InstrEmit &e, StringRef name, std::string &out) {
  const Attr *a = e.attrs.take(name);
  return !a || parseStringValue(*a, e.diags(), out);
}

bool flag(InstrEmit &e, StringRef name, bool &out) {
  const Attr *a = e.attrs.take(name);
  return !a || parseBoolValue(*a, e.diags(), out);
}

bool singleDim(InstrEmit &e, StringRef name, int64_t &out) {
  llvm::SmallVector<int64_t, 1> dims;
  if (!requiredInts(e, name, dims))
    return false;
  if (dims.size() != 1)
    return e.error(e.attrs.take(name)->valueLoc(),
                   "'" + e.instr.opcode + "' needs exactly one dimension in '" +
                       name + "'");
  out = dims[0];
  return true;
}

FlatSymbolRefAttr callee(InstrEmit &e, StringRef name) {
  const Attr *a = required(e, name);
  StringRef comp;
  SMLoc at;
  if (!a || !parseComputationRef(*a, e.diags(), comp, at))
    return nullptr;
  return e.symbol(comp, at);
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

namespace {

Emitted emitFamily(Op kind, InstrEmit &e) {
  switch (kind) {
  case Op::Unknown:
  case Op::Parameter:
    return keepAsUnknown();
  case Op::Unary:
  case Op::Binary:
  case Op::IsFinite:
  case Op::Compare:
  case Op::Select:
  case Op::Clamp:
  case Op::Convert:
  case Op::BitcastConvert:
  case Op::Bitcast:
  case Op::ReducePrecision:
    return emitElementwise(kind, e);
  case Op::Constant:
  case Op::Iota:
  case Op::Rng:
    return emitGenerator(kind, e);
  case Op::Broadcast:
  case Op::Reshape:
  case Op::Transpose:
  case Op::Reverse:
  case Op::Slice:
  case Op::DynamicSlice:
  case Op::DynamicUpdateSlice:
  case Op::Concatenate:
  case Op::Pad:
  case Op::Gather:
    return emitShape(kind, e);
  case Op::Dot:
  case Op::Convolution:
  case Op::BatchNormTraining:
  case Op::BatchNormInference:
  case Op::BatchNormGrad:
    return emitNn(kind, e);
  case Op::Reduce:
  case Op::ReduceWindow:
  case Op::SelectAndScatter:
  case Op::Scatter:
  case Op::Sort:
    return emitRegionOp(kind, e);
  case Op::Tuple:
  case Op::GetTupleElement:
  case Op::Call:
  case Op::Fusion:
  case Op::While:
  case Op::Conditional:
    return emitControlFlow(kind, e);
  case Op::AllReduce:
  case Op::AllGather:
  case Op::AllToAll:
  case Op::ReduceScatter:
  case Op::CollectivePermute:
  case Op::ReplicaId:
  case Op::PartitionId:
    return emitCollective(kind, e);
  case Op::CustomCall:
  case Op::OptimizationBarrier:
  case Op::AfterAll:
  case Op::Infeed:
  case Op::Outfeed:
    return emitOpaque(kind, e);
  }
  llvm_unreachable("unhandled HLO opcode kind");
}

/// Keeps everything of an instruction the dialect does not model: opcode,
/// operands, type and every attribute but the metadata, as text, so the
/// compatibility checker can report it.
Operation *emitUnknown(InstrEmit &e, Op kind) {
  NamedAttrList hloAttrs;
  for (const Attr &a : e.instr.attrs) {
    if (a.name == "metadata")
      continue;
    std::string value;
    if (!parseStringValue(a, e.diags(), value))
      return nullptr;
    hloAttrs.set(a.name, e.builder().getStringAttr(value));
  }
  // A tuple-shaped constant has no tgraph form; its literal is kept too.
  if (kind == Op::Constant)
    hloAttrs.set("literal", e.builder().getStringAttr(e.instr.literal));
  e.attrs.takeAll();
  DictionaryAttr dict;
  if (!hloAttrs.empty())
    dict = hloAttrs.getDictionary(e.context());
  return e.emit<tg::UnknownOp>(e.instr.opcode, e.operands, dict);
}

} // namespace

bool Emitter::addCommonAttrs(AttrTable &attrs, const Instruction &instr,
                             const Metadata &md, NamedAttrList &out) {
  if (!md.opName.empty())
    out.set(tessera::tgraph::kOpNameAttr, builder.getStringAttr(md.opName));
  if (!md.opType.empty())
    out.set(tessera::tgraph::kOpTypeAttr, builder.getStringAttr(md.opType));
  if (const Attr *a = attrs.take("sharding"))
    out.set("tgraph.sharding", builder.getStringAttr(a->value));
  if (const Attr *a = attrs.take("frontend_attributes")) {
    llvm::SmallVector<std::pair<std::string, std::string>, 4> entries;
    if (!parseStringDict(*a, diags, entries))
      return false;
    NamedAttrList dict;
    for (auto &[k, v] : entries)
      dict.set(k, builder.getStringAttr(v));
    out.set("tgraph.frontend_attributes", dict.getDictionary(ctx));
  }
  std::string layout;
  if (nonDefaultLayout(instr.shape, layout))
    out.set("tgraph.layout", builder.getStringAttr(layout));
  if (instr.shape.isDynamic())
    out.set("tgraph.dynamic_bounds",
            builder.getDenseI64ArrayAttr(instr.shape.bounds));
  NamedAttrList leftovers;
  bool ok = true;
  attrs.forEachUnused([&](const Attr &a) {
    std::string value;
    if (!parseStringValue(a, diags, value))
      ok = false;
    leftovers.set(a.name, builder.getStringAttr(value));
  });
  if (!leftovers.empty())
    out.set("tgraph.hlo_attributes", leftovers.getDictionary(ctx));
  return ok;
}

Value Emitter::emitInstruction(const Instruction &instr,
                               ArrayRef<Value> operands) {
  AttrTable attrs(instr);
  Metadata md;
  if (const Attr *a = attrs.take("metadata"))
    if (!parseMetadata(*a, diags, md))
      return Value();
  Location loc = instrLoc(instr, md);
  Type resultType = convertShape(instr.shape);
  if (!resultType)
    return Value();

  Op kind = classify(instr.opcode);
  InstrEmit e{*this, instr, operands, attrs, loc, resultType, {}, {}};
  Emitted built = emitFamily(kind, e);
  if (failed(built))
    return Value();
  Operation *op = *built;
  if (!op)
    op = emitUnknown(e, kind);
  if (!op)
    return Value();

  // The op's own attributes are in its properties already; these are the
  // discardable ones any op may carry. On error nothing of the instruction
  // stays in the block.
  NamedAttrList common;
  if (!addCommonAttrs(attrs, instr, md, common)) {
    op->erase();
    for (Operation *helper : llvm::reverse(e.helpers))
      helper->erase();
    return Value();
  }
  common.append(e.extraAttrs);
  // A family may have marked its op already (tgraph.library_call).
  for (NamedAttribute a : op->getDiscardableAttrs())
    common.set(a.getName(), a.getValue());
  op->setDiscardableAttrs(common);
  // The ops of a library call's math are the instruction too: host
  // placement, sharding and name scopes apply to each of them.
  for (Operation *helper : e.helpers)
    for (StringRef name :
         {StringRef(tessera::tgraph::kOpNameAttr),
          StringRef(tessera::tgraph::kOpTypeAttr), StringRef("tgraph.sharding"),
          StringRef("tgraph.frontend_attributes")})
      if (Attribute value = common.get(name))
        helper->setAttr(name, value);
  return op->getResult(0);
}

} // namespace tessera::hlo::detail
