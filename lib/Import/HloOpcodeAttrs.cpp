//===- HloOpcodeAttrs.cpp - which attributes each opcode takes ------------===//
//
// XLA's parser refuses an opcode it does not know (`expects opcode but
// sees: foo`), an attribute its opcode does not take (`unexpected
// attribute "calls"`): `add(x, y), calls=c` is not HLO, and a typo
// (`dimension=` for `dimensions=`) would otherwise be carried along
// unnoticed, and an instruction without an attribute its opcode needs
// (`attribute dimensions is expected but not seen`). The lists are XLA's;
// an opcode without a list (one whose options XLA reads as a proto
// message, as triangular-solve's) takes any attribute.
//
// XLA also reads `<opcode>-start`, `-update` and `-done` for any opcode
// without such a form of its own as the short form of an async wrapper:
// `reduce-scatter-start(x), dimensions={0}, to_apply=add` is an
// async-start running a reduce-scatter, and takes that opcode's
// attributes.
//
//===----------------------------------------------------------------------===//

#include "HloOpcodeAttrs.h"
#include "HloAttrs.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

#include <initializer_list>
#include <vector>

using namespace llvm;

namespace tessera::hlo {
namespace {

using Names = std::vector<StringRef>;

/// Attributes every instruction may carry.
bool isCommonAttribute(StringRef name) {
  return name == "metadata" || name == "sharding" ||
         name == "frontend_attributes" || name == "backend_config" ||
         name == "statistics" || name == "parameter_replication" ||
         name == "control-predecessors" || name == "origin";
}

void add(StringMap<Names> &table, std::initializer_list<StringRef> opcodes,
         const Names &names) {
  for (StringRef op : opcodes)
    table[op] = names;
}

/// XLA's opcode names (hlo_opcode.h), and names older XLA printed or the
/// importer has always read (`clz`, `optimization-barrier`,
/// `cross-replica-sum`, ...), so old dumps still import.
bool isKnownOpcode(StringRef opcode) {
  static const StringSet<> kOpcodes = {
      "abs", "acos", "acosh", "add", "add-dependency", "after-all",
      "all-gather", "all-gather-done", "all-gather-start", "all-reduce",
      "all-reduce-done", "all-reduce-start", "all-to-all", "and", "asin",
      "asinh", "async-done", "async-start", "async-update", "atan", "atan2",
      "atanh", "batch-norm-grad", "batch-norm-inference", "batch-norm-training",
      "bitcast", "bitcast-convert", "broadcast", "call", "cbrt", "ceil",
      "cholesky", "clamp", "count-leading-zeros", "collective-broadcast",
      "collective-permute", "collective-permute-done",
      "collective-permute-start", "collective-reduce", "compare", "complex",
      "concatenate", "conditional", "constant", "convert", "convolution",
      "copy", "copy-done", "copy-start", "cosine", "cosh", "custom-call",
      "divide", "domain", "dot", "dynamic-reshape", "dynamic-slice",
      "dynamic-update-slice", "erf", "exponential", "exponential-minus-one",
      "fft", "floor", "fusion", "gather", "get-dimension-size",
      "get-tuple-element", "imag", "infeed", "iota", "is-finite", "log",
      "log-plus-one", "logistic", "map", "maximum", "minimum", "mulhi",
      "multiply", "negate", "not", "opt-barrier", "or", "outfeed", "pad",
      "parameter", "partition-id", "popcnt", "power", "ragged-all-to-all",
      "ragged-dot", "real", "recv", "recv-done", "reduce", "reduce-precision",
      "reduce-scatter", "reduce-window", "remainder", "replica-id", "reshape",
      "reverse", "rng", "rng-bit-generator", "rng-get-and-update-state",
      "round-nearest-afz", "round-nearest-even", "rsqrt", "scaled-dot", "scan",
      "scatter", "select", "select-and-scatter", "send", "send-done",
      "set-dimension-size", "shift-left", "shift-right-arithmetic",
      "shift-right-logical", "shuffle", "sign", "sine", "sinh", "slice", "sort",
      "sqrt", "stochastic-convert", "subtract", "tan", "tanh", "topk",
      "transpose", "triangular-solve", "tuple", "while", "xor",
      // Older spellings.
      "clz", "optimization-barrier", "cross-replica-sum", "generate-token",
      "trace", "tuple-select"};
  return kOpcodes.contains(opcode);
}

/// Attributes each opcode cannot do without, as XLA's parser requires
/// them. Those that depend on the operands (broadcast's dimensions=
/// unless its operand is a scalar, conditional's computations by the
/// index type) are checked once shapes are known (HloModuleChecks).
const StringMap<Names> &requiredAttributes() {
  static const StringMap<Names> table = [] {
    StringMap<Names> t;
    add(t, {"iota"}, {"iota_dimension"});
    add(t, {"topk"}, {"k"});
    add(t,
        {"all-gather", "all-gather-start", "concatenate", "reverse",
         "transpose", "get-dimension-size", "set-dimension-size"},
        {"dimensions"});
    add(t, {"all-reduce", "all-reduce-start", "call", "map", "reduce-window"},
        {"to_apply"});
    add(t, {"reduce-scatter", "sort", "reduce"}, {"dimensions", "to_apply"});
    add(t, {"collective-permute", "collective-permute-start"},
        {"source_target_pairs"});
    add(t, {"while"}, {"condition", "body"});
    add(t, {"get-tuple-element"}, {"index"});
    add(t, {"convolution"}, {"dim_labels"});
    add(t, {"fft"}, {"fft_type", "fft_length"});
    add(t, {"compare"}, {"direction"});
    add(t, {"scan"}, {"to_apply", "dimensions", "num_carries"});
    add(t, {"select-and-scatter"}, {"select", "scatter"});
    add(t, {"slice"}, {"slice"});
    add(t, {"dynamic-slice"}, {"dynamic_slice_sizes"});
    add(t, {"batch-norm-training", "batch-norm-inference", "batch-norm-grad"},
        {"epsilon", "feature_index"});
    add(t, {"pad"}, {"padding"});
    add(t, {"fusion"}, {"calls", "kind"});
    add(t, {"rng"}, {"distribution"});
    add(t, {"rng-get-and-update-state"}, {"delta"});
    add(t, {"rng-bit-generator"}, {"algorithm"});
    add(t, {"reduce-precision"}, {"exponent_bits", "mantissa_bits"});
    add(t, {"custom-call"}, {"custom_call_target"});
    add(t, {"gather"},
        {"offset_dims", "collapsed_slice_dims", "start_index_map",
         "index_vector_dim", "slice_sizes"});
    add(t, {"scatter"},
        {"update_window_dims", "inserted_window_dims",
         "scatter_dims_to_operand_dims", "index_vector_dim", "to_apply"});
    add(t, {"domain"}, {"domain"});
    add(t, {"async-start"}, {"calls"});
    return t;
  }();
  return table;
}

const StringMap<Names> &opcodeAttributes() {
  static const StringMap<Names> table = [] {
    StringMap<Names> t;
    // Element-wise and data movement without options of their own.
    add(t,
        {"abs",
         "add",
         "after-all",
         "add-dependency",
         "and",
         "atan2",
         "bitcast",
         "bitcast-convert",
         "ceil",
         "clamp",
         "clz",
         "count-leading-zeros",
         "complex",
         "constant",
         "convert",
         "copy",
         "copy-done",
         "divide",
         "dynamic-reshape",
         "dynamic-update-slice",
         "floor",
         "imag",
         "is-finite",
         "maximum",
         "minimum",
         "multiply",
         "negate",
         "not",
         "opt-barrier",
         "optimization-barrier",
         "or",
         "parameter",
         "partition-id",
         "popcnt",
         "power",
         "real",
         "remainder",
         "replica-id",
         "round-nearest-afz",
         "round-nearest-even",
         "select",
         "shift-left",
         "shift-right-arithmetic",
         "shift-right-logical",
         "sign",
         "stochastic-convert",
         "subtract",
         "tuple",
         "xor",
         "all-gather-done",
         "all-reduce-done",
         "collective-permute-done"},
        {});
    // Transcendental ops may state the accuracy they need.
    add(t,
        {"acos",
         "acosh",
         "asin",
         "asinh",
         "atanh",
         "cbrt",
         "cosine",
         "cosh",
         "erf",
         "exponential",
         "exponential-minus-one",
         "log",
         "log-plus-one",
         "logistic",
         "rsqrt",
         "sine",
         "sinh",
         "sqrt",
         "tan",
         "tanh"},
        {"result_accuracy"});
    add(t, {"iota"}, {"iota_dimension"});
    add(t, {"topk"}, {"k", "largest"});
    add(t, {"all-gather", "all-gather-start"},
        {"replica_groups", "channel_id", "dimensions", "constrain_layout",
         "use_global_device_ids"});
    add(t, {"all-reduce", "all-reduce-start"},
        {"to_apply", "replica_groups", "channel_id", "constrain_layout",
         "use_global_device_ids", "mode"});
    add(t, {"reduce-scatter"},
        {"to_apply", "replica_groups", "channel_id", "constrain_layout",
         "use_global_device_ids", "mode", "dimensions"});
    add(t, {"all-to-all"},
        {"replica_groups", "channel_id", "dimensions", "constrain_layout"});
    add(t, {"ragged-all-to-all"},
        {"replica_groups", "channel_id", "dimensions"});
    add(t, {"collective-broadcast"}, {"replica_groups", "channel_id"});
    add(t, {"collective-permute", "collective-permute-start"},
        {"source_target_pairs", "channel_id", "slice_sizes"});
    add(t, {"async-start"},
        {"calls", "async_execution_thread", "output_to_operand_aliasing"});
    add(t, {"async-update", "async-done"}, {"calls", "async_execution_thread"});
    add(t, {"copy-start"}, {"cross_program_prefetch_index"});
    add(t, {"reshape"}, {"inferred_dimension"});
    add(t, {"sort"}, {"dimensions", "is_stable", "to_apply"});
    add(t, {"while"}, {"condition", "body"});
    add(t, {"send", "send-done", "recv", "recv-done"},
        {"channel_id", "is_host_transfer"});
    add(t, {"get-tuple-element"}, {"index"});
    add(t, {"call"}, {"to_apply", "is_composite"});
    add(t, {"reduce-window"}, {"window", "to_apply"});
    add(t, {"convolution"},
        {"window", "dim_labels", "feature_group_count", "batch_group_count",
         "conv_kind", "operand_precision"});
    add(t, {"fft"}, {"fft_type", "fft_length"});
    add(t, {"compare"}, {"direction", "type"});
    add(t,
        {"broadcast", "concatenate", "reverse", "transpose",
         "get-dimension-size", "set-dimension-size"},
        {"dimensions"});
    add(t, {"map"}, {"to_apply", "dimensions"});
    add(t, {"scan"},
        {"to_apply", "dimensions", "num_carries", "is_reverse",
         "is_associative"});
    add(t, {"reduce"}, {"to_apply", "dimensions"});
    add(t, {"select-and-scatter"}, {"select", "scatter", "window"});
    add(t, {"slice"}, {"slice"});
    add(t, {"dynamic-slice"}, {"dynamic_slice_sizes"});
    add(t, {"batch-norm-training", "batch-norm-inference", "batch-norm-grad"},
        {"epsilon", "feature_index"});
    add(t, {"pad"}, {"padding"});
    add(t, {"fusion"}, {"calls", "kind", "output_to_operand_aliasing"});
    add(t, {"infeed"}, {"infeed_config"});
    add(t, {"outfeed"}, {"outfeed_config", "outfeed_shape"});
    add(t, {"rng"}, {"distribution"});
    add(t, {"rng-get-and-update-state"}, {"delta"});
    add(t, {"rng-bit-generator"}, {"algorithm"});
    add(t, {"reduce-precision"}, {"exponent_bits", "mantissa_bits"});
    add(t, {"conditional"},
        {"true_computation", "false_computation", "branch_computations"});
    add(t, {"custom-call"},
        {"custom_call_target", "window", "dim_labels", "feature_group_count",
         "batch_group_count", "operand_layout_constraints",
         "custom_call_has_side_effect", "to_apply", "called_computations",
         "output_to_operand_aliasing", "padding_type", "literal",
         "operand_precision", "schedule", "api_version"});
    add(t, {"dot"},
        {"lhs_contracting_dims", "rhs_contracting_dims", "lhs_batch_dims",
         "rhs_batch_dims", "operand_precision", "algorithm"});
    add(t, {"ragged-dot"},
        {"lhs_contracting_dims", "rhs_contracting_dims", "lhs_batch_dims",
         "rhs_batch_dims", "lhs_ragged_dims", "rhs_group_dims",
         "operand_precision"});
    add(t, {"gather"},
        {"offset_dims", "collapsed_slice_dims", "start_index_map",
         "index_vector_dim", "slice_sizes", "indices_are_sorted",
         "operand_batching_dims", "start_indices_batching_dims"});
    add(t, {"scatter"},
        {"update_window_dims", "inserted_window_dims",
         "scatter_dims_to_operand_dims", "index_vector_dim", "to_apply",
         "indices_are_sorted", "unique_indices", "input_batching_dims",
         "scatter_indices_batching_dims"});
    add(t, {"domain"}, {"domain"});
    return t;
  }();
  return table;
}

/// `result_accuracy={mode=highest}` or
/// `result_accuracy={tolerance={atol=1e-5, rtol=0, ulps=2}}`, as XLA reads
/// it: one of the two, the known modes and tolerance fields only.
bool checkResultAccuracy(const Attr &attr, DiagnosticSink &diags) {
  ValueCursor c(attr.value, diags, "attribute 'result_accuracy'");
  StringRef name;
  if (!c.expect('{'))
    return false;
  size_t at = (c.skipSpace(), c.position());
  if (!c.parseWord(name) || !c.expect('='))
    return false;
  if (name == "mode") {
    StringRef mode;
    at = (c.skipSpace(), c.position());
    if (!c.parseWord(mode))
      return false;
    if (!mode.equals_insensitive("default") &&
        !mode.equals_insensitive("highest"))
      return c.errorAt(at, "unknown mode '" + mode +
                               "' (expected default or highest)");
  } else if (name == "tolerance") {
    if (!c.expect('{'))
      return false;
    while (!c.consumeIf('}')) {
      StringRef field;
      at = (c.skipSpace(), c.position());
      if (!c.parseWord(field) || !c.expect('='))
        return false;
      if (field != "atol" && field != "rtol" && field != "ulps")
        return c.errorAt(at, "unknown tolerance '" + field +
                                 "' (expected atol, rtol or ulps)");
      StringRef number;
      at = (c.skipSpace(), c.position());
      double value;
      if (!c.parseWord(number) || number.getAsDouble(value))
        return c.errorAt(at, "expected a number");
      if (!c.consumeIf(',') && c.peek() != '}')
        return c.error("expected ',' or '}'");
    }
  } else {
    return c.errorAt(at, "expected mode= or tolerance=, got '" + name + "'");
  }
  if (!c.expect('}'))
    return false;
  return c.atEnd() || c.error("unexpected text after the accuracy");
}

bool asyncShortForm(StringRef opcode, StringRef &wrapped, StringRef &kind) {
  if (isKnownOpcode(opcode))
    return false;
  for (StringRef suffix : {"-start", "-update", "-done"}) {
    if (opcode.ends_with(suffix)) {
      wrapped = opcode.drop_back(suffix.size());
      kind = suffix.drop_front();
      return true;
    }
  }
  return false;
}

} // namespace

bool isAsyncShortForm(StringRef opcode, StringRef &wrapped, StringRef &kind) {
  return asyncShortForm(opcode, wrapped, kind) && isKnownOpcode(wrapped);
}

bool missingAttribute(const Instruction &instr, StringRef name,
                      DiagnosticSink &diags) {
  diags.error(instr.opcodeLoc, "attribute " + name +
                                   " is expected but not seen ('" +
                                   instr.opcode + "' needs it)");
  return false;
}

bool checkOpcodeAttributes(const Instruction &instr, DiagnosticSink &diags) {
  StringRef opcode = instr.opcode, wrapped, kind;
  if (asyncShortForm(opcode, wrapped, kind)) {
    if (!isKnownOpcode(wrapped)) {
      diags.error(instr.opcodeLoc, "expects async wrapped opcode but sees '" +
                                       opcode + "' ('" + wrapped +
                                       "' is not an HLO opcode)");
      return false;
    }
  } else if (!isKnownOpcode(opcode)) {
    diags.error(instr.opcodeLoc,
                "expects opcode but sees '" + opcode + "' (not an HLO opcode)");
    return false;
  }
  if (const Attr *accuracy = instr.findAttr("result_accuracy"))
    if (!checkResultAccuracy(*accuracy, diags))
      return false;
  // A short-form start takes its wrapped opcode's attributes; update and
  // done take only the async ones (they inherit the rest from the start).
  const StringMap<Names> &table = opcodeAttributes();
  Names allowed;
  bool anyAllowed = false;
  if (!kind.empty()) {
    allowed = {"async_execution_thread"};
    if (kind == "start") {
      auto it = table.find(wrapped);
      anyAllowed = it == table.end();
      if (!anyAllowed)
        allowed.insert(allowed.end(), it->second.begin(), it->second.end());
      allowed.push_back("output_to_operand_aliasing");
    }
  } else {
    auto it = table.find(opcode);
    anyAllowed = it == table.end();
    if (!anyAllowed)
      allowed = it->second;
  }
  for (const Attr &attr : instr.attrs) {
    if (anyAllowed || isCommonAttribute(attr.name) ||
        llvm::is_contained(allowed, attr.name))
      continue;
    diags.error(attr.nameLoc, "unexpected attribute \"" + attr.name +
                                  "\" for '" + opcode + "'");
    return false;
  }
  StringRef requiredOf = kind.empty() ? opcode : kind == "start" ? wrapped : "";
  auto it = requiredAttributes().find(requiredOf);
  if (it != requiredAttributes().end())
    for (StringRef name : it->second)
      if (!instr.findAttr(name))
        return missingAttribute(instr, name, diags);
  return true;
}

} // namespace tessera::hlo
