//===- TargetSchema.cpp - vocabularies of the target format ---------------===//

#include "tessera/Target/TargetSchema.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

using namespace tessera;
using llvm::StringLiteral;
using llvm::StringRef;

static const DtypeInfo kDtypes[] = {
    {"pred", 1},   {"s8", 1},    {"s16", 2},  {"s32", 4}, {"s64", 8},
    {"u8", 1},     {"u16", 2},   {"u32", 4},  {"u64", 8}, {"f8e4m3fn", 1},
    {"f8e5m2", 1}, {"f16", 2},   {"bf16", 2}, {"f32", 4}, {"f64", 8},
    {"c64", 8},    {"c128", 16},
};

llvm::ArrayRef<DtypeInfo> tessera::knownDtypes() { return kDtypes; }

std::optional<int64_t> tessera::dtypeBytes(StringRef dtype) {
  for (const DtypeInfo &info : kDtypes)
    if (info.name == dtype)
      return info.bytes;
  return std::nullopt;
}

// Mirrors include/tessera/Dialect/TGraph/IR/TGraphOps.td. Duplicated on
// purpose so this library stays free of MLIR; TargetTest checks that the two
// lists agree.
static const StringLiteral kOpNames[] = {
    "constant",
    "iota",
    "rng",
    "abs",
    "negate",
    "exponential",
    "exponential_minus_one",
    "log",
    "log_plus_one",
    "sqrt",
    "rsqrt",
    "cbrt",
    "tanh",
    "logistic",
    "sign",
    "floor",
    "ceil",
    "round_nearest_afz",
    "round_nearest_even",
    "cosine",
    "sine",
    "tan",
    "erf",
    "not",
    "popcnt",
    "count_leading_zeros",
    "copy",
    "optimization_barrier",
    "is_finite",
    "add",
    "subtract",
    "multiply",
    "divide",
    "remainder",
    "power",
    "maximum",
    "minimum",
    "and",
    "or",
    "xor",
    "shift_left",
    "shift_right_arithmetic",
    "shift_right_logical",
    "atan2",
    "compare",
    "select",
    "clamp",
    "convert",
    "bitcast_convert",
    "bitcast",
    "reduce_precision",
    "broadcast_in_dim",
    "reshape",
    "transpose",
    "reverse",
    "slice",
    "dynamic_slice",
    "dynamic_update_slice",
    "concatenate",
    "pad",
    "gather",
    "dot_general",
    "convolution",
    "return",
    "reduce",
    "reduce_window",
    "select_and_scatter",
    "scatter",
    "sort",
    "tuple",
    "get_tuple_element",
    "call",
    "fusion",
    "while",
    "conditional",
    "all_reduce",
    "all_gather",
    "all_to_all",
    "reduce_scatter",
    "collective_permute",
    "replica_id",
    "partition_id",
    "after_all",
    "infeed",
    "outfeed",
    "batch_norm_training",
    "batch_norm_inference",
    "batch_norm_grad",
    "custom_call",
    "unknown",
};

llvm::ArrayRef<StringLiteral> tessera::knownOpNames() { return kOpNames; }

bool tessera::isKnownOpName(StringRef op) {
  return llvm::is_contained(kOpNames, op);
}

// The constraint vocabulary. Each key names one property the compatibility
// checker can compute from an op's attributes and types; adding a key here
// (and its check in the checker) is all a new kind of constraint needs.
static const ConstraintKey kConstraintKeys[] = {
    {"max_rank", ConstraintKind::Limit, "*",
     "largest rank of any operand or result"},
    {"max_window", ConstraintKind::Limit,
     "convolution,reduce_window,select_and_scatter",
     "largest window size along any spatial dimension"},
    {"max_spatial_dims", ConstraintKind::Limit, "convolution",
     "largest number of spatial dimensions"},
    {"allow_lhs_dilation", ConstraintKind::Flag, "convolution",
     "lhs (input) dilation > 1, as in transposed convolution"},
    {"allow_rhs_dilation", ConstraintKind::Flag, "convolution",
     "rhs (kernel) dilation > 1, as in atrous convolution"},
    {"allow_feature_groups", ConstraintKind::Flag, "convolution",
     "feature_group_count > 1 (grouped and depthwise convolution)"},
    {"allow_batch_groups", ConstraintKind::Flag, "convolution",
     "batch_group_count > 1"},
    {"allow_window_reversal", ConstraintKind::Flag, "convolution",
     "window_reversal set on any dimension"},
    {"allow_base_dilation", ConstraintKind::Flag, "reduce_window",
     "base_dilations > 1"},
    {"allow_window_dilation", ConstraintKind::Flag, "reduce_window",
     "window_dilations > 1"},
    {"max_batch_dims", ConstraintKind::Limit, "dot_general",
     "largest number of batching dimensions"},
    {"max_contracting_dims", ConstraintKind::Limit, "dot_general",
     "largest number of contracting dimensions"},
    {"max_operands", ConstraintKind::Limit,
     "reduce,sort,scatter,reduce_window,all_reduce,concatenate",
     "largest number of (variadic) tensor operands"},
    {"allow_interior_padding", ConstraintKind::Flag, "pad",
     "interior padding > 0"},
    {"allow_negative_padding", ConstraintKind::Flag, "pad",
     "negative edge padding (cropping)"},
    {"allow_non_unique_indices", ConstraintKind::Flag, "scatter",
     "scatter without unique_indices"},
    {"allow_stable", ConstraintKind::Flag, "sort", "is_stable sort"},
    {"max_sort_size", ConstraintKind::Limit, "sort",
     "largest size of the sorted dimension"},
    {"targets", ConstraintKind::NameList, "custom_call",
     "call_target_name values the target implements"},
};

bool ConstraintKey::appliesTo(StringRef op) const {
  if (ops == "*")
    return true;
  llvm::SmallVector<StringRef> names;
  StringRef(ops).split(names, ',');
  return llvm::is_contained(names, op);
}

llvm::ArrayRef<ConstraintKey> tessera::constraintKeys() {
  return kConstraintKeys;
}

const ConstraintKey *tessera::findConstraintKey(StringRef name) {
  for (const ConstraintKey &key : kConstraintKeys)
    if (key.name == name)
      return &key;
  return nullptr;
}

// Coarse operation classes of the tile runtime's vertex library: the
// lowering maps each tgraph op to one or more of these.
static const StringLiteral kVertexKinds[] = {
    "copy",          "fill",
    "cast",          "unary",
    "binary",        "compare",
    "select",        "reduce",
    "reduce_window", "select_and_scatter",
    "matmul",        "conv",
    "gather",        "scatter",
    "dynamic_slice", "dynamic_update_slice",
    "sort",          "rng",
    "iota",          "collective",
};

llvm::ArrayRef<StringLiteral> tessera::vertexKinds() { return kVertexKinds; }

bool tessera::isVertexKind(StringRef kind) {
  return llvm::is_contained(kVertexKinds, kind);
}

std::optional<std::string>
tessera::closestMatch(StringRef word, llvm::ArrayRef<StringRef> candidates) {
  // A third of the word's length (at least 2) tolerates a slip or two of the
  // keyboard without suggesting unrelated names for short words.
  unsigned best = std::max<unsigned>(2, word.size() / 3) + 1;
  std::optional<std::string> match;
  for (StringRef candidate : candidates) {
    unsigned distance =
        word.edit_distance(candidate, /*AllowReplacements=*/true,
                           /*MaxEditDistance=*/best);
    if (distance < best) {
      best = distance;
      match = candidate.str();
    }
  }
  if (match || word.size() < 4)
    return match;
  // A truncated name (`vertex_code` for `vertex_code_bytes`) is far in edit
  // distance but an obvious intent when exactly one candidate extends it.
  for (StringRef candidate : candidates) {
    if (!candidate.starts_with(word))
      continue;
    if (match)
      return std::nullopt;
    match = candidate.str();
  }
  return match;
}
