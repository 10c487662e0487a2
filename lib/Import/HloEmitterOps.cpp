//===- HloEmitterOps.cpp - one HLO instruction to one tgraph op -----------===//
//
// Maps each HLO opcode to its tgraph op and reads the attributes that op
// needs. Attributes no op consumes are kept verbatim in
// `tgraph.hlo_attributes`; opcodes (or forms of them) the dialect does not
// model become `tgraph.unknown`, never an import failure.
//
//===----------------------------------------------------------------------===//

#include "HloAttrs.h"
#include "HloEmitterImpl.h"

#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace tessera::hlo;
using namespace tessera::hlo::detail;
using llvm::SMLoc;
using llvm::StringRef;
using llvm::Twine;

namespace tessera::hlo::detail {

/// HLO opcode -> tgraph op name for the elementwise families.
StringRef unaryOpName(StringRef opcode) {
  return llvm::StringSwitch<StringRef>(opcode)
      .Case("abs", "tgraph.abs")
      .Case("negate", "tgraph.negate")
      .Case("exponential", "tgraph.exponential")
      .Case("exponential-minus-one", "tgraph.exponential_minus_one")
      .Case("log", "tgraph.log")
      .Case("log-plus-one", "tgraph.log_plus_one")
      .Case("sqrt", "tgraph.sqrt")
      .Case("rsqrt", "tgraph.rsqrt")
      .Case("cbrt", "tgraph.cbrt")
      .Case("tanh", "tgraph.tanh")
      .Case("logistic", "tgraph.logistic")
      .Case("sign", "tgraph.sign")
      .Case("floor", "tgraph.floor")
      .Case("ceil", "tgraph.ceil")
      .Case("round-nearest-afz", "tgraph.round_nearest_afz")
      .Case("round-nearest-even", "tgraph.round_nearest_even")
      .Case("cosine", "tgraph.cosine")
      .Case("sine", "tgraph.sine")
      .Case("tan", "tgraph.tan")
      .Case("erf", "tgraph.erf")
      .Case("not", "tgraph.not")
      .Case("popcnt", "tgraph.popcnt")
      .Case("count-leading-zeros", "tgraph.count_leading_zeros")
      .Case("clz", "tgraph.count_leading_zeros")
      .Case("copy", "tgraph.copy")
      .Default("");
}

StringRef binaryOpName(StringRef opcode) {
  return llvm::StringSwitch<StringRef>(opcode)
      .Case("add", "tgraph.add")
      .Case("subtract", "tgraph.subtract")
      .Case("multiply", "tgraph.multiply")
      .Case("divide", "tgraph.divide")
      .Case("remainder", "tgraph.remainder")
      .Case("power", "tgraph.power")
      .Case("maximum", "tgraph.maximum")
      .Case("minimum", "tgraph.minimum")
      .Case("and", "tgraph.and")
      .Case("or", "tgraph.or")
      .Case("xor", "tgraph.xor")
      .Case("shift-left", "tgraph.shift_left")
      .Case("shift-right-arithmetic", "tgraph.shift_right_arithmetic")
      .Case("shift-right-logical", "tgraph.shift_right_logical")
      .Case("atan2", "tgraph.atan2")
      .Default("");
}

Op classify(StringRef opcode) {
  if (!unaryOpName(opcode).empty())
    return Op::Unary;
  if (!binaryOpName(opcode).empty())
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

/// Whether `to_apply=` of this opcode is inlined as a region.
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

/// Attributes that name computations by symbol.
bool isSymbolComputationAttr(StringRef name) {
  return name == "calls" || name == "condition" || name == "body" ||
         name == "true_computation" || name == "false_computation" ||
         name == "branch_computations" || name == "called_computations" ||
         name == "to_apply";
}

} // namespace tessera::hlo::detail

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

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
                               ArrayRef<Value> operands, Block *block) {
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
  OperationState state(loc, "tgraph.unknown");
  state.addOperands(operands);
  state.addTypes(resultType);
  auto set = [&](StringRef name, Attribute value) {
    state.addAttribute(name, value);
  };
  auto i64 = [&](int64_t v) { return builder.getI64IntegerAttr(v); };
  auto arr = [&](ArrayRef<int64_t> v) {
    return builder.getDenseI64ArrayAttr(v);
  };
  auto arity = [&](size_t n) {
    if (operands.size() == n)
      return true;
    return error(instr.opcodeLoc, "'" + instr.opcode + "' takes " + Twine(n) +
                                      " operand" + (n == 1 ? "" : "s") +
                                      ", got " + Twine(operands.size()));
  };
  auto required = [&](StringRef name) -> const Attr * {
    const Attr *a = attrs.take(name);
    if (!a)
      error(instr.opcodeLoc,
            "'" + instr.opcode + "' needs the attribute '" + name + "'");
    return a;
  };
  auto intList = [&](StringRef name, llvm::SmallVectorImpl<int64_t> &out,
                     bool isRequired) {
    const Attr *a = isRequired ? required(name) : attrs.take(name);
    if (!a)
      return !isRequired;
    return parseIntList(*a, diags, out);
  };
  auto intAttr = [&](StringRef name, int64_t &out, bool isRequired) {
    const Attr *a = isRequired ? required(name) : attrs.take(name);
    if (!a)
      return !isRequired;
    return parseIntValue(*a, diags, out);
  };
  auto flag = [&](StringRef name, StringRef mlirName) {
    const Attr *a = attrs.take(name);
    if (!a)
      return true;
    bool v;
    if (!parseBoolValue(*a, diags, v))
      return false;
    if (v)
      set(mlirName, builder.getUnitAttr());
    return true;
  };
  auto singleDim = [&](StringRef name, int64_t &out) {
    llvm::SmallVector<int64_t, 1> dims;
    if (!intList(name, dims, true))
      return false;
    if (dims.size() != 1)
      return error(attrs.take(name)->valueLoc(),
                   "'" + instr.opcode + "' needs exactly one dimension in '" +
                       name + "'");
    out = dims[0];
    return true;
  };
  auto calleeAttr = [&](StringRef name) -> FlatSymbolRefAttr {
    const Attr *a = required(name);
    if (!a)
      return nullptr;
    StringRef comp;
    SMLoc at;
    unsigned idx;
    if (!parseComputationRef(*a, diags, comp, at) ||
        !lookupComputation(comp, at, idx))
      return nullptr;
    return FlatSymbolRefAttr::get(ctx, comps[idx].symbol);
  };
  auto segments = [&](ArrayRef<int32_t> sizes) {
    set("operandSegmentSizes", builder.getDenseI32ArrayAttr(sizes));
  };
  auto replicaAttrs = [&]() {
    if (const Attr *a = attrs.take("replica_groups")) {
      std::vector<llvm::SmallVector<int64_t, 8>> groups;
      if (!parseReplicaGroups(*a, diags, groups))
        return false;
      llvm::SmallVector<Attribute> list;
      for (auto &g : groups)
        list.push_back(arr(g));
      set("replica_groups", builder.getArrayAttr(list));
    }
    int64_t channel;
    if (const Attr *a = attrs.take("channel_id")) {
      if (!parseIntValue(*a, diags, channel))
        return false;
      set("channel_id", i64(channel));
    }
    return flag("use_global_device_ids", "use_global_device_ids");
  };
  // Forms of known opcodes the dialect does not model are kept as unknown.
  bool asUnknown = false;

  switch (kind) {
  case Op::Unknown:
  case Op::Parameter:
    asUnknown = true;
    break;
  case Op::Unary:
    if (!arity(1))
      return Value();
    state.name = OperationName(unaryOpName(instr.opcode), ctx);
    break;
  case Op::Binary:
    if (!arity(2))
      return Value();
    state.name = OperationName(binaryOpName(instr.opcode), ctx);
    break;
  case Op::OptimizationBarrier:
    if (!arity(1))
      return Value();
    state.name = OperationName("tgraph.optimization_barrier", ctx);
    break;
  case Op::IsFinite:
    if (!arity(1))
      return Value();
    state.name = OperationName("tgraph.is_finite", ctx);
    break;
  case Op::Constant: {
    if (!arity(0))
      return Value();
    auto tensor = dyn_cast<RankedTensorType>(resultType);
    if (!tensor) {
      // Tuple-shaped literals have no tgraph form.
      asUnknown = true;
      break;
    }
    state.name = OperationName("tgraph.constant", ctx);
    StringRef text = instr.literal.trim();
    if (text == "{...}" || text == "...") {
      set("elided", builder.getUnitAttr());
    } else {
      Attribute value = convertLiteral(instr, tensor);
      if (!value)
        return Value();
      set("value", value);
    }
    break;
  }
  case Op::Iota: {
    int64_t dim;
    if (!arity(0) || !intAttr("iota_dimension", dim, true))
      return Value();
    state.name = OperationName("tgraph.iota", ctx);
    set("iota_dimension", i64(dim));
    break;
  }
  case Op::Rng: {
    if (!arity(2))
      return Value();
    const Attr *a = required("distribution");
    if (!a)
      return Value();
    std::optional<tessera::tgraph::RngDistribution> dist;
    if (a->value == "rng_uniform")
      dist = tessera::tgraph::RngDistribution::UNIFORM;
    else if (a->value == "rng_normal")
      dist = tessera::tgraph::RngDistribution::NORMAL;
    else {
      error(a->valueLoc(), "unknown rng distribution '" + a->value +
                               "' (expected rng_uniform or rng_normal)");
      return Value();
    }
    state.name = OperationName("tgraph.rng", ctx);
    set("distribution", tessera::tgraph::RngDistributionAttr::get(ctx, *dist));
    break;
  }
  case Op::Compare: {
    if (!arity(2))
      return Value();
    const Attr *a = required("direction");
    if (!a)
      return Value();
    auto dir = tessera::tgraph::symbolizeComparisonDirection(a->value);
    if (!dir) {
      error(a->valueLoc(), "unknown comparison direction '" + a->value +
                               "' (expected EQ, NE, GE, GT, LE or LT)");
      return Value();
    }
    state.name = OperationName("tgraph.compare", ctx);
    set("comparison_direction",
        tessera::tgraph::ComparisonDirectionAttr::get(ctx, *dir));
    if (const Attr *t = attrs.take("type"))
      set("compare_type", builder.getStringAttr(t->value));
    break;
  }
  case Op::Select:
    if (!arity(3))
      return Value();
    state.name = OperationName("tgraph.select", ctx);
    break;
  case Op::Clamp:
    if (!arity(3))
      return Value();
    state.name = OperationName("tgraph.clamp", ctx);
    break;
  case Op::Convert:
    if (!arity(1))
      return Value();
    state.name = OperationName("tgraph.convert", ctx);
    break;
  case Op::BitcastConvert:
    if (!arity(1))
      return Value();
    state.name = OperationName("tgraph.bitcast_convert", ctx);
    break;
  case Op::Bitcast:
    if (!arity(1))
      return Value();
    state.name = OperationName("tgraph.bitcast", ctx);
    break;
  case Op::ReducePrecision: {
    int64_t e, m;
    if (!arity(1) || !intAttr("exponent_bits", e, true) ||
        !intAttr("mantissa_bits", m, true))
      return Value();
    state.name = OperationName("tgraph.reduce_precision", ctx);
    set("exponent_bits", builder.getI32IntegerAttr(e));
    set("mantissa_bits", builder.getI32IntegerAttr(m));
    break;
  }
  case Op::Broadcast: {
    llvm::SmallVector<int64_t, 4> dims;
    if (!arity(1) || !intList("dimensions", dims, true))
      return Value();
    state.name = OperationName("tgraph.broadcast_in_dim", ctx);
    set("broadcast_dimensions", arr(dims));
    break;
  }
  case Op::Reshape:
    if (!arity(1))
      return Value();
    state.name = OperationName("tgraph.reshape", ctx);
    break;
  case Op::Transpose: {
    llvm::SmallVector<int64_t, 4> dims;
    if (!arity(1) || !intList("dimensions", dims, true))
      return Value();
    state.name = OperationName("tgraph.transpose", ctx);
    set("permutation", arr(dims));
    break;
  }
  case Op::Reverse: {
    llvm::SmallVector<int64_t, 4> dims;
    if (!arity(1) || !intList("dimensions", dims, true))
      return Value();
    state.name = OperationName("tgraph.reverse", ctx);
    set("dimensions", arr(dims));
    break;
  }
  case Op::Slice: {
    const Attr *a = required("slice");
    llvm::SmallVector<int64_t, 4> start, limit, strides;
    if (!arity(1) || !a || !parseSlice(*a, diags, start, limit, strides))
      return Value();
    state.name = OperationName("tgraph.slice", ctx);
    set("start_indices", arr(start));
    set("limit_indices", arr(limit));
    set("strides", arr(strides));
    break;
  }
  case Op::DynamicSlice: {
    llvm::SmallVector<int64_t, 4> sizes;
    if (operands.empty() || !intList("dynamic_slice_sizes", sizes, true)) {
      if (operands.empty())
        arity(2);
      return Value();
    }
    state.name = OperationName("tgraph.dynamic_slice", ctx);
    set("slice_sizes", arr(sizes));
    break;
  }
  case Op::DynamicUpdateSlice:
    if (operands.size() < 2) {
      arity(2);
      return Value();
    }
    state.name = OperationName("tgraph.dynamic_update_slice", ctx);
    break;
  case Op::Concatenate: {
    int64_t dim;
    if (!singleDim("dimensions", dim))
      return Value();
    state.name = OperationName("tgraph.concatenate", ctx);
    set("dimension", i64(dim));
    break;
  }
  case Op::Pad: {
    const Attr *a = required("padding");
    llvm::SmallVector<int64_t, 4> lo, hi, in;
    if (!arity(2) || !a || !parsePadding(*a, diags, lo, hi, in))
      return Value();
    state.name = OperationName("tgraph.pad", ctx);
    set("edge_padding_low", arr(lo));
    set("edge_padding_high", arr(hi));
    set("interior_padding", arr(in));
    break;
  }
  case Op::Gather: {
    llvm::SmallVector<int64_t, 4> offset, collapsed, startMap, sizes, b1, b2;
    int64_t ivd;
    if (!arity(2) || !intList("offset_dims", offset, true) ||
        !intList("collapsed_slice_dims", collapsed, true) ||
        !intList("start_index_map", startMap, true) ||
        !intAttr("index_vector_dim", ivd, true) ||
        !intList("slice_sizes", sizes, true) ||
        !intList("operand_batching_dims", b1, false) ||
        !intList("start_indices_batching_dims", b2, false) ||
        !flag("indices_are_sorted", "indices_are_sorted"))
      return Value();
    if (!b1.empty() || !b2.empty()) {
      asUnknown = true; // batched gather is not modelled
      break;
    }
    state.name = OperationName("tgraph.gather", ctx);
    set("offset_dims", arr(offset));
    set("collapsed_slice_dims", arr(collapsed));
    set("start_index_map", arr(startMap));
    set("index_vector_dim", i64(ivd));
    set("slice_sizes", arr(sizes));
    break;
  }
  case Op::Scatter: {
    if (operands.size() < 3 || operands.size() % 2 == 0) {
      error(instr.opcodeLoc, "'scatter' takes N inputs, the indices and N "
                             "updates (an odd number >= 3), got " +
                                 Twine(operands.size()));
      return Value();
    }
    llvm::SmallVector<int64_t, 4> window, inserted, toOperand, b1, b2;
    int64_t ivd;
    if (!intList("update_window_dims", window, true) ||
        !intList("inserted_window_dims", inserted, true) ||
        !intList("scatter_dims_to_operand_dims", toOperand, true) ||
        !intAttr("index_vector_dim", ivd, true) ||
        !intList("input_batching_dims", b1, false) ||
        !intList("scatter_indices_batching_dims", b2, false) ||
        !flag("indices_are_sorted", "indices_are_sorted") ||
        !flag("unique_indices", "unique_indices"))
      return Value();
    if (!b1.empty() || !b2.empty()) {
      asUnknown = true;
      break;
    }
    int32_t n = (operands.size() - 1) / 2;
    state.name = OperationName("tgraph.scatter", ctx);
    segments({n, 1, n});
    set("update_window_dims", arr(window));
    set("inserted_window_dims", arr(inserted));
    set("scatter_dims_to_operand_dims", arr(toOperand));
    set("index_vector_dim", i64(ivd));
    if (!buildRegion(*state.addRegion(), attrs.take("to_apply"), instr,
                     "to_apply"))
      return Value();
    break;
  }
  case Op::Dot: {
    llvm::SmallVector<int64_t, 2> lb, rb, lc, rc;
    bool hasL = instr.findAttr("lhs_contracting_dims"),
         hasR = instr.findAttr("rhs_contracting_dims");
    if (!arity(2) || !intList("lhs_batch_dims", lb, false) ||
        !intList("rhs_batch_dims", rb, false) ||
        !intList("lhs_contracting_dims", lc, false) ||
        !intList("rhs_contracting_dims", rc, false))
      return Value();
    // Dumps from before dot dimension numbers existed contract the last
    // lhs dimension with the first (vector) or second-to-last rhs one.
    auto lhsT = dyn_cast<RankedTensorType>(operands[0].getType());
    auto rhsT = dyn_cast<RankedTensorType>(operands[1].getType());
    if (!hasL && !hasR && lhsT && rhsT && lhsT.getRank() >= 1 &&
        rhsT.getRank() >= 1) {
      lc.push_back(lhsT.getRank() - 1);
      rc.push_back(rhsT.getRank() == 1 ? 0 : rhsT.getRank() - 2);
    }
    state.name = OperationName("tgraph.dot_general", ctx);
    set("lhs_batching_dimensions", arr(lb));
    set("rhs_batching_dimensions", arr(rb));
    set("lhs_contracting_dimensions", arr(lc));
    set("rhs_contracting_dimensions", arr(rc));
    break;
  }
  case Op::Convolution: {
    if (!arity(2))
      return Value();
    const Attr *labels = required("dim_labels");
    if (!labels)
      return Value();
    state.name = OperationName("tgraph.convolution", ctx);
    set("dim_labels", builder.getStringAttr(labels->value));
    if (const Attr *w = attrs.take("window")) {
      Window window;
      if (!parseWindow(*w, diags, window))
        return Value();
      if (!window.stride.empty())
        set("window_strides", arr(window.stride));
      if (!window.padding.empty())
        set("padding", arr(window.padding));
      if (!window.lhsDilate.empty())
        set("lhs_dilation", arr(window.lhsDilate));
      if (!window.rhsDilate.empty())
        set("rhs_dilation", arr(window.rhsDilate));
      if (!window.reversal.empty())
        set("window_reversal", builder.getDenseBoolArrayAttr(window.reversal));
    }
    int64_t fgc = 1, bgc = 1;
    if (!intAttr("feature_group_count", fgc, false) ||
        !intAttr("batch_group_count", bgc, false))
      return Value();
    set("feature_group_count", i64(fgc));
    set("batch_group_count", i64(bgc));
    break;
  }
  case Op::Reduce:
  case Op::ReduceWindow: {
    if (operands.size() < 2 || operands.size() % 2) {
      error(instr.opcodeLoc, "'" + instr.opcode +
                                 "' takes N inputs and N init values, got " +
                                 Twine(operands.size()) + " operands");
      return Value();
    }
    int32_t n = operands.size() / 2;
    segments({n, n});
    if (kind == Op::Reduce) {
      llvm::SmallVector<int64_t, 4> dims;
      if (!intList("dimensions", dims, true))
        return Value();
      state.name = OperationName("tgraph.reduce", ctx);
      set("dimensions", arr(dims));
    } else {
      state.name = OperationName("tgraph.reduce_window", ctx);
      Window window;
      const Attr *w = required("window");
      if (!w || !parseWindow(*w, diags, window))
        return Value();
      set("window_dimensions", arr(window.size));
      if (!window.stride.empty())
        set("window_strides", arr(window.stride));
      if (!window.lhsDilate.empty())
        set("base_dilations", arr(window.lhsDilate));
      if (!window.rhsDilate.empty())
        set("window_dilations", arr(window.rhsDilate));
      if (!window.padding.empty())
        set("padding", arr(window.padding));
    }
    if (!buildRegion(*state.addRegion(), attrs.take("to_apply"), instr,
                     "to_apply"))
      return Value();
    break;
  }
  case Op::SelectAndScatter: {
    if (!arity(3))
      return Value();
    state.name = OperationName("tgraph.select_and_scatter", ctx);
    if (const Attr *w = attrs.take("window")) {
      Window window;
      if (!parseWindow(*w, diags, window))
        return Value();
      set("window_dimensions", arr(window.size));
      if (!window.stride.empty())
        set("window_strides", arr(window.stride));
      if (!window.padding.empty())
        set("padding", arr(window.padding));
    }
    if (!buildRegion(*state.addRegion(), attrs.take("select"), instr,
                     "select") ||
        !buildRegion(*state.addRegion(), attrs.take("scatter"), instr,
                     "scatter"))
      return Value();
    break;
  }
  case Op::Sort: {
    int64_t dim;
    if (operands.empty()) {
      arity(1);
      return Value();
    }
    if (!singleDim("dimensions", dim) || !flag("is_stable", "is_stable"))
      return Value();
    state.name = OperationName("tgraph.sort", ctx);
    set("dimension", i64(dim));
    if (!buildRegion(*state.addRegion(), attrs.take("to_apply"), instr,
                     "to_apply"))
      return Value();
    break;
  }
  case Op::Tuple:
    state.name = OperationName("tgraph.tuple", ctx);
    break;
  case Op::GetTupleElement: {
    int64_t index;
    if (!arity(1) || !intAttr("index", index, true))
      return Value();
    state.name = OperationName("tgraph.get_tuple_element", ctx);
    set("index", i64(index));
    break;
  }
  case Op::Call: {
    FlatSymbolRefAttr callee = calleeAttr("to_apply");
    if (!callee)
      return Value();
    state.name = OperationName("tgraph.call", ctx);
    set("callee", callee);
    break;
  }
  case Op::Fusion: {
    FlatSymbolRefAttr callee = calleeAttr("calls");
    const Attr *k = required("kind");
    if (!callee || !k)
      return Value();
    state.name = OperationName("tgraph.fusion", ctx);
    set("callee", callee);
    set("kind", builder.getStringAttr(k->value));
    break;
  }
  case Op::While: {
    if (!arity(1))
      return Value();
    FlatSymbolRefAttr cond = calleeAttr("condition");
    FlatSymbolRefAttr body = cond ? calleeAttr("body") : nullptr;
    if (!body)
      return Value();
    state.name = OperationName("tgraph.while", ctx);
    set("condition", cond);
    set("body", body);
    break;
  }
  case Op::Conditional: {
    llvm::SmallVector<Attribute, 2> branches;
    if (const Attr *list = attrs.take("branch_computations")) {
      llvm::SmallVector<std::pair<StringRef, SMLoc>, 4> names;
      if (!parseComputationList(*list, diags, names))
        return Value();
      for (auto [name, at] : names) {
        unsigned idx;
        if (!lookupComputation(name, at, idx))
          return Value();
        branches.push_back(FlatSymbolRefAttr::get(ctx, comps[idx].symbol));
      }
    } else {
      FlatSymbolRefAttr t = calleeAttr("true_computation");
      FlatSymbolRefAttr f = t ? calleeAttr("false_computation") : nullptr;
      if (!f)
        return Value();
      branches = {t, f};
    }
    if (operands.empty()) {
      arity(branches.size() + 1);
      return Value();
    }
    state.name = OperationName("tgraph.conditional", ctx);
    set("branches", builder.getArrayAttr(branches));
    break;
  }
  case Op::AllReduce: {
    if (operands.empty()) {
      arity(1);
      return Value();
    }
    if (!replicaAttrs())
      return Value();
    state.name = OperationName("tgraph.all_reduce", ctx);
    if (!buildRegion(*state.addRegion(), attrs.take("to_apply"), instr,
                     "to_apply"))
      return Value();
    break;
  }
  case Op::AllGather:
  case Op::ReduceScatter: {
    if (operands.size() != 1) {
      asUnknown = true; // the variadic forms are not modelled
      break;
    }
    int64_t dim;
    if (!singleDim("dimensions", dim) || !replicaAttrs())
      return Value();
    if (kind == Op::AllGather) {
      state.name = OperationName("tgraph.all_gather", ctx);
      set("all_gather_dim", i64(dim));
    } else {
      state.name = OperationName("tgraph.reduce_scatter", ctx);
      set("scatter_dimension", i64(dim));
      if (!buildRegion(*state.addRegion(), attrs.take("to_apply"), instr,
                       "to_apply"))
        return Value();
    }
    break;
  }
  case Op::CollectivePermute: {
    if (operands.size() != 1) {
      asUnknown = true; // the in-place (4-operand) form is not modelled
      break;
    }
    const Attr *pairsAttr = required("source_target_pairs");
    llvm::SmallVector<int64_t, 8> pairs;
    if (!pairsAttr || !parsePairs(*pairsAttr, diags, pairs))
      return Value();
    state.name = OperationName("tgraph.collective_permute", ctx);
    set("source_target_pairs", arr(pairs));
    if (const Attr *a = attrs.take("channel_id")) {
      int64_t channel;
      if (!parseIntValue(*a, diags, channel))
        return Value();
      set("channel_id", i64(channel));
    }
    break;
  }
  case Op::ReplicaId:
    if (!arity(0))
      return Value();
    state.name = OperationName("tgraph.replica_id", ctx);
    break;
  case Op::PartitionId:
    if (!arity(0))
      return Value();
    state.name = OperationName("tgraph.partition_id", ctx);
    break;
  case Op::AfterAll:
    state.name = OperationName("tgraph.after_all", ctx);
    break;
  case Op::Infeed: {
    if (!arity(1))
      return Value();
    state.name = OperationName("tgraph.infeed", ctx);
    if (const Attr *a = attrs.take("infeed_config")) {
      std::string config;
      if (!parseStringValue(*a, diags, config))
        return Value();
      set("infeed_config", builder.getStringAttr(config));
    }
    break;
  }
  case Op::Outfeed: {
    if (!arity(2))
      return Value();
    state.name = OperationName("tgraph.outfeed", ctx);
    if (const Attr *a = attrs.take("outfeed_config")) {
      std::string config;
      if (!parseStringValue(*a, diags, config))
        return Value();
      set("outfeed_config", builder.getStringAttr(config));
    }
    break;
  }
  case Op::BatchNormTraining:
  case Op::BatchNormInference:
  case Op::BatchNormGrad: {
    const Attr *eps = required("epsilon");
    double epsilon;
    int64_t feature;
    if (!eps || !parseFloatValue(*eps, diags, epsilon) ||
        !intAttr("feature_index", feature, true))
      return Value();
    state.name = OperationName(
        kind == Op::BatchNormTraining    ? "tgraph.batch_norm_training"
        : kind == Op::BatchNormInference ? "tgraph.batch_norm_inference"
                                         : "tgraph.batch_norm_grad",
        ctx);
    set("epsilon", builder.getF32FloatAttr(epsilon));
    set("feature_index", i64(feature));
    break;
  }
  case Op::CustomCall: {
    const Attr *target = required("custom_call_target");
    std::string name;
    if (!target || !parseStringValue(*target, diags, name))
      return Value();
    state.name = OperationName("tgraph.custom_call", ctx);
    set("call_target_name", builder.getStringAttr(name));
    if (const Attr *a = attrs.take("backend_config")) {
      std::string config;
      if (!parseStringValue(*a, diags, config))
        return Value();
      set("backend_config", builder.getStringAttr(config));
    }
    if (!flag("custom_call_has_side_effect", "has_side_effect"))
      return Value();
    if (const Attr *a = instr.findAttr("api_version")) {
      std::optional<int32_t> version =
          llvm::StringSwitch<std::optional<int32_t>>(a->value)
              .Case("API_VERSION_UNSPECIFIED", 0)
              .Case("API_VERSION_ORIGINAL", 1)
              .Case("API_VERSION_STATUS_RETURNING", 2)
              .Case("API_VERSION_STATUS_RETURNING_UNIFIED", 3)
              .Case("API_VERSION_TYPED_FFI", 4)
              .Default(std::nullopt);
      if (version) {
        attrs.take("api_version");
        set("api_version", builder.getI32IntegerAttr(*version));
      }
    }
    break;
  }
  }

  if (asUnknown) {
    // Keep everything: opcode, operands, type and every attribute as text.
    state.name = OperationName("tgraph.unknown", ctx);
    state.attributes.clear();
    state.regions.clear();
    NamedAttrList hloAttrs;
    for (const Attr &a : instr.attrs) {
      if (a.name == "metadata")
        continue;
      std::string value;
      if (!parseStringValue(a, diags, value))
        return Value();
      hloAttrs.set(a.name, builder.getStringAttr(value));
    }
    if (kind == Op::Constant)
      hloAttrs.set("literal", builder.getStringAttr(instr.literal));
    set("opcode", builder.getStringAttr(instr.opcode));
    if (!hloAttrs.empty())
      set("hlo_attributes", hloAttrs.getDictionary(ctx));
    attrs.takeAll();
  }

  if (!addCommonAttrs(attrs, instr, md, state.attributes))
    return Value();
  Operation *op = builder.create(state);
  return op->getResult(0);
}
