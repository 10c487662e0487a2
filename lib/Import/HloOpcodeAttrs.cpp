//===- HloOpcodeAttrs.cpp - which attributes each opcode takes ------------===//
//
// XLA's parser refuses an attribute its opcode does not take
// (`unexpected attribute "calls"`): `add(x, y), calls=c` is not HLO, and
// a typo (`dimension=` for `dimensions=`) would otherwise be carried along
// unnoticed. The lists are XLA's; an opcode not listed here (one the
// importer keeps as tgraph.unknown, or whose options XLA reads as a proto
// message, as triangular-solve's) takes any attribute.
//
//===----------------------------------------------------------------------===//

#include "HloOpcodeAttrs.h"
#include "HloAttrs.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

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

} // namespace

bool checkOpcodeAttributes(const Instruction &instr, DiagnosticSink &diags) {
  if (const Attr *accuracy = instr.findAttr("result_accuracy"))
    if (!checkResultAccuracy(*accuracy, diags))
      return false;
  const StringMap<Names> &table = opcodeAttributes();
  auto it = table.find(instr.opcode);
  if (it == table.end())
    return true;
  for (const Attr &attr : instr.attrs) {
    if (isCommonAttribute(attr.name) ||
        llvm::is_contained(it->second, attr.name))
      continue;
    diags.error(attr.nameLoc, "unexpected attribute \"" + attr.name +
                                  "\" for '" + instr.opcode + "'");
    return false;
  }
  return true;
}

} // namespace tessera::hlo
