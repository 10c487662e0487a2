//===- HloShapeInference.cpp - result shapes the text leaves out ----------===//
//
// The rules are XLA's shape inference for the opcodes its parser lets the
// text leave the shape out of (the windowed and indexed ones are in
// HloShapeRules.cpp); opcodes whose shape XLA's parser always wants
// written (slice, reshape, convert, constant, async ops, ...) are refused
// with its reason.
//
//===----------------------------------------------------------------------===//

#include "HloShapeInference.h"
#include "HloAttrs.h"
#include "HloOpcodeAttrs.h"
#include "HloShapeRules.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <string>
#include <vector>

using namespace llvm;

namespace tessera::hlo {
namespace {

/// Opcodes XLA's parser never infers a shape for: the shape carries what
/// the operands do not (a target type, a slice, a literal's type).
bool shapeMustBeWritten(StringRef opcode) {
  StringRef wrapped, kind;
  if (isAsyncShortForm(opcode, wrapped, kind))
    return true;
  static const StringSet<> kWritten = {"bitcast",
                                       "bitcast-convert",
                                       "constant",
                                       "convert",
                                       "custom-call",
                                       "fusion",
                                       "infeed",
                                       "iota",
                                       "outfeed",
                                       "parameter",
                                       "reduce-precision",
                                       "reshape",
                                       "rng",
                                       "rng-bit-generator",
                                       "rng-get-and-update-state",
                                       "stochastic-convert",
                                       "slice",
                                       "dynamic-slice",
                                       "dynamic-update-slice",
                                       "dynamic-reshape",
                                       "all-gather",
                                       "all-reduce",
                                       "all-to-all",
                                       "reduce-scatter",
                                       "collective-permute",
                                       "collective-broadcast",
                                       "send",
                                       "send-done",
                                       "recv",
                                       "recv-done",
                                       "copy-start",
                                       "copy-done",
                                       "async-start",
                                       "async-update",
                                       "async-done",
                                       "all-gather-start",
                                       "all-gather-done",
                                       "all-reduce-start",
                                       "all-reduce-done",
                                       "collective-permute-start",
                                       "collective-permute-done",
                                       "ragged-all-to-all"};
  return kWritten.contains(opcode);
}

/// Elementwise opcodes whose result is their first operand's shape.
bool isSameShapeUnary(StringRef op) {
  static const StringSet<> kOps = {"abs",
                                   "acos",
                                   "acosh",
                                   "asin",
                                   "asinh",
                                   "atanh",
                                   "cbrt",
                                   "ceil",
                                   "clz",
                                   "copy",
                                   "cos",
                                   "cosh",
                                   "erf",
                                   "exp",
                                   "exponential",
                                   "exponential-minus-one",
                                   "expm1",
                                   "floor",
                                   "log",
                                   "log-plus-one",
                                   "log1p",
                                   "logistic",
                                   "negate",
                                   "not",
                                   "popcnt",
                                   "population-count",
                                   "round-nearest-afz",
                                   "round-nearest-even",
                                   "rsqrt",
                                   "sign",
                                   "sin",
                                   "sine",
                                   "cosine",
                                   "count-leading-zeros",
                                   "sinh",
                                   "sqrt",
                                   "tan",
                                   "tanh",
                                   "opt-barrier",
                                   "optimization-barrier",
                                   "reverse",
                                   "real",
                                   "imag"};
  return kOps.contains(op);
}

bool isBinary(StringRef op) {
  static const StringSet<> kOps = {"add",
                                   "subtract",
                                   "multiply",
                                   "divide",
                                   "maximum",
                                   "minimum",
                                   "power",
                                   "remainder",
                                   "and",
                                   "or",
                                   "xor",
                                   "shift-left",
                                   "shift-right-arithmetic",
                                   "shift-right-logical",
                                   "atan2",
                                   "complex"};
  return kOps.contains(op);
}

/// The rule of an opcode HloShapeRules.cpp infers, or null.
using RuleFn = bool (*)(const ShapeRule &, Shape &);
RuleFn windowedRule(StringRef op) {
  return StringSwitch<RuleFn>(op)
      .Case("broadcast", inferBroadcast)
      .Case("gather", inferGather)
      .Case("convolution", inferConvolution)
      .Case("reduce-window", inferReduceWindow)
      .Case("fft", inferFft)
      .Case("topk", inferTopK)
      .Case("cholesky", inferCholesky)
      .Case("triangular-solve", inferTriangularSolve)
      .Case("set-dimension-size", inferSetDimensionSize)
      .Default(nullptr);
}

class Inferrer {
public:
  Inferrer(Module &module, DiagnosticSink &diags)
      : module(module), diags(diags), state(module.computations.size(), 0) {
    for (auto [i, comp] : llvm::enumerate(module.computations))
      compIndex.try_emplace(comp.name, i);
  }

  bool computation(unsigned idx, unsigned depth);

private:
  bool error(SMLoc loc, const Twine &message) {
    diags.error(loc, message);
    return false;
  }
  bool instruction(Instruction &instr, ArrayRef<const Shape *> operands,
                   unsigned depth);
  /// The root shape of the computation an attribute names.
  const Shape *calleeRoot(const Instruction &instr, StringRef attrName,
                          unsigned depth);
  bool elementwise(const Instruction &instr, ArrayRef<const Shape *> ops,
                   Shape &out);

  Module &module;
  DiagnosticSink &diags;
  StringMap<unsigned> compIndex;
  /// Per computation: 0 not visited, 1 in progress, 2 done.
  std::vector<uint8_t> state;
};

/// Inference follows calls into computations whose root has no written
/// shape either; hostile chains of such calls stop here, not at the stack.
constexpr unsigned kMaxCallDepth = 64;

const Shape *Inferrer::calleeRoot(const Instruction &instr, StringRef attrName,
                                  unsigned depth) {
  const Attr *attr = instr.findAttr(attrName);
  if (!attr) {
    missingAttribute(instr, attrName, diags);
    return nullptr;
  }
  StringRef name;
  SMLoc loc;
  if (attr->value.starts_with("{")) {
    SmallVector<std::pair<StringRef, SMLoc>, 2> names;
    if (!parseComputationList(*attr, diags, names))
      return nullptr;
    if (names.empty()) {
      error(attr->valueLoc(), "cannot infer the shape of '" + instr.name +
                                  "': " + attrName + " names no computation");
      return nullptr;
    }
    std::tie(name, loc) = names.front();
  } else if (!parseComputationRef(*attr, diags, name, loc)) {
    return nullptr;
  }
  auto it = compIndex.find(name);
  if (it == compIndex.end()) {
    error(loc, "unknown computation '" + name + "'");
    return nullptr;
  }
  if (!computation(it->second, depth + 1))
    return nullptr;
  Computation &callee = module.computations[it->second];
  return &callee.instructions[callee.rootIndex].shape;
}

bool Inferrer::elementwise(const Instruction &instr,
                           ArrayRef<const Shape *> ops, Shape &out) {
  for (const Shape *s : ops)
    if (s->kind != Shape::Kind::Array)
      return error(instr.opcodeLoc, "cannot infer the shape of '" + instr.name +
                                        "': '" + instr.opcode + "' of " +
                                        shapeString(*s));
  for (const Shape *s : ops.drop_front())
    if (s->dims != ops[0]->dims)
      return error(instr.opcodeLoc,
                   "cannot infer the shape of '" + instr.name + "': '" +
                       instr.opcode + "' of " + shapeString(*ops[0]) + " and " +
                       shapeString(*s) + " (dimensions differ)");
  out = *ops[0];
  out.layout = StringRef();
  return true;
}

bool Inferrer::instruction(Instruction &instr, ArrayRef<const Shape *> ops,
                           unsigned depth) {
  StringRef op = instr.opcode;
  auto fail = [&](const Twine &why) {
    return error(instr.opcodeLoc,
                 "cannot infer the shape of '" + instr.name + "': " + why);
  };
  auto needOperands = [&](size_t n) {
    if (ops.size() == n)
      return true;
    return fail("'" + op + "' takes " + Twine(n) + " operands, got " +
                Twine(ops.size()));
  };
  auto intList = [&](StringRef name, SmallVectorImpl<int64_t> &out) {
    const Attr *a = instr.findAttr(name);
    if (!a)
      return missingAttribute(instr, name, diags);
    return parseIntList(*a, diags, out);
  };
  // An array operand's dimension list, which the rules below index.
  auto arrayOp = [&](size_t i) -> const Shape * {
    if (ops[i]->kind == Shape::Kind::Array && !ops[i]->isDynamic())
      return ops[i];
    fail("operand " + Twine(i) + " of '" + op + "' is " + shapeString(*ops[i]) +
         ", not a static array");
    return nullptr;
  };
  Shape out;
  out.loc = instr.opcodeLoc;

  if (shapeMustBeWritten(op))
    return error(instr.opcodeLoc,
                 "'" + op +
                     "' needs its result shape written before the "
                     "opcode (XLA cannot infer it either)");
  if (isSameShapeUnary(op) || op == "is-finite") {
    if (!needOperands(1) || !elementwise(instr, ops, out))
      return false;
    // The real part (and the absolute value) of a complex number is real.
    if ((op == "real" || op == "imag" || op == "abs") &&
        (out.dtype == "c64" || out.dtype == "c128"))
      out.dtype = out.dtype == "c64" ? "f32" : "f64";
    if (op == "is-finite")
      out.dtype = "pred";
  } else if (isBinary(op) || op == "compare") {
    if (!needOperands(2) || !elementwise(instr, ops, out))
      return false;
    if (op == "compare")
      out.dtype = "pred";
    if (op == "complex")
      out.dtype = out.dtype == "f64" ? "c128" : "c64";
  } else if (op == "select" || op == "clamp") {
    // select(pred, on_true, on_false), clamp(min, operand, max): the
    // second operand's shape; a scalar pred or bound broadcasts.
    if (!needOperands(3))
      return false;
    out = *ops[1];
    out.layout = StringRef();
  } else if (op == "tuple") {
    out.kind = Shape::Kind::Tuple;
    for (const Shape *s : ops)
      out.elements.push_back(*s);
  } else if (op == "get-tuple-element") {
    int64_t index;
    const Attr *a = instr.findAttr("index");
    if (!needOperands(1))
      return false;
    if (!a)
      return missingAttribute(instr, "index", diags);
    if (!parseIntValue(*a, diags, index))
      return false;
    if (ops[0]->kind != Shape::Kind::Tuple || index < 0 ||
        index >= static_cast<int64_t>(ops[0]->elements.size()))
      return fail("index " + Twine(index) + " is not an element of " +
                  shapeString(*ops[0]));
    out = ops[0]->elements[index];
  } else if (op == "after-all" || op == "add-dependency") {
    if (op == "add-dependency") {
      if (!needOperands(2))
        return false;
      out = *ops[0];
    } else {
      out.kind = Shape::Kind::Token;
      out.dtype = "token";
    }
  } else if (op == "replica-id" || op == "partition-id") {
    out = arrayShape("u32", {}, instr.opcodeLoc);
  } else if (op == "get-dimension-size") {
    out = arrayShape("s32", {}, instr.opcodeLoc);
  } else if (op == "call" || op == "conditional" || op == "map") {
    StringRef attr = op == "call" || op == "map" ? "to_apply"
                     : instr.findAttr("branch_computations")
                         ? "branch_computations"
                         : "true_computation";
    const Shape *root = calleeRoot(instr, attr, depth);
    if (!root)
      return false;
    out = *root;
    if (op == "map") {
      if (ops.empty())
        return fail("'map' has no operands");
      if (!arrayOp(0))
        return false;
      out = arrayShape(root->dtype, ops[0]->dims, instr.opcodeLoc);
    }
  } else if (op == "while") {
    if (!needOperands(1))
      return false;
    out = *ops[0];
  } else if (op == "transpose") {
    SmallVector<int64_t, 4> perm;
    if (!needOperands(1) || !arrayOp(0) || !intList("dimensions", perm))
      return false;
    size_t rank = ops[0]->dims.size();
    SmallVector<bool, 4> seen(rank, false);
    if (perm.size() != rank)
      return fail("dimensions= has " + Twine(perm.size()) +
                  " entries for an operand of rank " + Twine(rank));
    out = arrayShape(ops[0]->dtype, {}, instr.opcodeLoc);
    for (int64_t p : perm) {
      if (p < 0 || p >= static_cast<int64_t>(rank) || seen[p])
        return fail("dimensions= is not a permutation of the operand's " +
                    Twine(rank) + " dimensions");
      seen[p] = true;
      out.dims.push_back(ops[0]->dims[p]);
    }
  } else if (op == "reduce") {
    // reduce(inputs..., inits...): the inputs without the reduced
    // dimensions, in the inits' element types; a tuple for several.
    SmallVector<int64_t, 4> reduced;
    if (ops.empty() || ops.size() % 2)
      return fail("'reduce' takes inputs and as many init values, got " +
                  Twine(ops.size()) + " operands");
    if (!intList("dimensions", reduced))
      return false;
    size_t n = ops.size() / 2;
    out.kind = n > 1 ? Shape::Kind::Tuple : Shape::Kind::Array;
    for (size_t k = 0; k < n; ++k) {
      if (!arrayOp(k))
        return false;
      if (ops[n + k]->kind != Shape::Kind::Array)
        return fail("init value " + Twine(k) + " is " +
                    shapeString(*ops[n + k]));
      size_t rank = ops[k]->dims.size();
      SmallVector<bool, 4> gone(rank, false);
      for (int64_t d : reduced) {
        if (d < 0 || d >= static_cast<int64_t>(rank) || gone[d])
          return fail("dimensions= names dimension " + Twine(d) +
                      " of a rank-" + Twine(rank) +
                      " input twice or "
                      "out of range");
        gone[d] = true;
      }
      Shape r = arrayShape(ops[n + k]->dtype, {}, instr.opcodeLoc);
      for (size_t d = 0; d < rank; ++d)
        if (!gone[d])
          r.dims.push_back(ops[k]->dims[d]);
      if (n == 1)
        out = std::move(r);
      else
        out.elements.push_back(std::move(r));
    }
  } else if (op == "concatenate") {
    SmallVector<int64_t, 1> dim;
    if (ops.empty())
      return fail("'concatenate' has no operands");
    if (!intList("dimensions", dim))
      return false;
    if (dim.size() != 1)
      return fail("dimensions= must name one dimension");
    for (size_t i = 0; i < ops.size(); ++i)
      if (!arrayOp(i))
        return false;
    size_t rank = ops[0]->dims.size();
    if (dim[0] < 0 || dim[0] >= static_cast<int64_t>(rank))
      return fail("dimension " + Twine(dim[0]) + " is out of range");
    out = arrayShape(ops[0]->dtype, ops[0]->dims, instr.opcodeLoc);
    for (const Shape *s : ops.drop_front()) {
      if (s->dims.size() != rank)
        return fail("operands of ranks " + Twine(rank) + " and " +
                    Twine(s->dims.size()));
      for (size_t d = 0; d < rank; ++d)
        if (static_cast<int64_t>(d) != dim[0] && s->dims[d] != out.dims[d])
          return fail("operands differ in dimension " + Twine(d));
      if (AddOverflow(out.dims[dim[0]], s->dims[dim[0]], out.dims[dim[0]]))
        return fail("the concatenated dimension overflows int64");
    }
  } else if (op == "pad") {
    SmallVector<int64_t, 4> low, high, interior;
    const Attr *a = instr.findAttr("padding");
    if (!needOperands(2) || !arrayOp(0))
      return false;
    if (!a)
      return missingAttribute(instr, "padding", diags);
    if (!parsePadding(*a, diags, low, high, interior))
      return false;
    size_t rank = ops[0]->dims.size();
    if (low.size() != rank)
      return fail("padding= has " + Twine(low.size()) +
                  " dimensions for an operand of rank " + Twine(rank));
    out = arrayShape(ops[0]->dtype, {}, instr.opcodeLoc);
    for (size_t d = 0; d < rank; ++d) {
      int64_t n = ops[0]->dims[d], size = n, gaps = 0;
      if (interior[d] < 0)
        return fail("negative interior padding");
      if ((n > 0 && MulOverflow(n - 1, interior[d], gaps)) ||
          AddOverflow(size, gaps, size) || AddOverflow(size, low[d], size) ||
          AddOverflow(size, high[d], size))
        return fail("a padded dimension overflows int64");
      if (size < 0)
        return fail("padding makes dimension " + Twine(d) + " negative");
      out.dims.push_back(size);
    }
  } else if (op == "dot" || op == "scaled-dot" || op == "ragged-dot") {
    // scaled-dot(lhs, lhs_scale, rhs, rhs_scale) has the dot's shape;
    // ragged-dot(lhs, rhs, group_sizes) too but for its groups (below).
    SmallVector<int64_t, 2> lb, rb, lc, rc, ragged, group;
    bool raggedDot = op == "ragged-dot";
    size_t rhsIdx = op == "scaled-dot" ? 2 : 1;
    if (!needOperands(op == "dot" ? 2
                      : raggedDot ? 3
                                  : 4) ||
        !arrayOp(0) || !arrayOp(rhsIdx) || (raggedDot && !arrayOp(2)))
      return false;
    auto optionalList = [&](StringRef name, SmallVectorImpl<int64_t> &v) {
      const Attr *a = instr.findAttr(name);
      return !a || parseIntList(*a, diags, v);
    };
    if (!optionalList("lhs_batch_dims", lb) ||
        !optionalList("rhs_batch_dims", rb) ||
        !optionalList("lhs_contracting_dims", lc) ||
        !optionalList("rhs_contracting_dims", rc) ||
        !optionalList("lhs_ragged_dims", ragged) ||
        !optionalList("rhs_group_dims", group))
      return false;
    // ragged-dot: lhs dimension `ragged[0]` is cut into groups whose sizes
    // are group_sizes' last dimension. Ragged in a free dimension, each
    // group meets its own rhs slice along the rhs group dimension, which
    // is gone from the result; ragged in a contracting dimension, each
    // group makes its own result, stacked in front; ragged in a batch
    // dimension, the result is the dot's.
    bool raggedContracting = false;
    if (raggedDot) {
      if (ragged.size() != 1)
        return fail("lhs_ragged_dims must name one dimension");
      int64_t r = ragged[0];
      if (r < 0 || r >= static_cast<int64_t>(ops[0]->dims.size()))
        return fail("lhs ragged dimension " + Twine(r) + " is out of range");
      raggedContracting = llvm::is_contained(lc, r);
      bool raggedFree = !raggedContracting && !llvm::is_contained(lb, r);
      if (raggedFree != (group.size() == 1) || group.size() > 1)
        return fail(raggedFree ? "a ragged free dimension needs one "
                                 "rhs_group_dims"
                               : "rhs_group_dims is only for a ragged free "
                                 "dimension");
      if (ops[2]->dims.empty())
        return fail("group_sizes " + shapeString(*ops[2]) +
                    " has no group dimension");
    }
    auto rest = [&](const Shape &s, ArrayRef<int64_t> batch,
                    ArrayRef<int64_t> contracting,
                    SmallVectorImpl<int64_t> &dims) {
      SmallVector<bool, 4> used(s.dims.size(), false);
      for (int64_t d : llvm::concat<const int64_t>(batch, contracting)) {
        if (d < 0 || d >= static_cast<int64_t>(s.dims.size()) || used[d])
          return fail("dot dimension " + Twine(d) + " of " + shapeString(s) +
                      " is out of range or repeated");
        used[d] = true;
      }
      for (size_t d = 0; d < s.dims.size(); ++d)
        if (!used[d])
          dims.push_back(s.dims[d]);
      return true;
    };
    if (lb.size() != rb.size() || lc.size() != rc.size())
      return fail("the dot's lhs and rhs dimension lists differ in length");
    out = arrayShape(ops[0]->dtype, {}, instr.opcodeLoc);
    if (raggedContracting)
      out.dims.push_back(ops[2]->dims.back());
    for (int64_t d : lb) {
      if (d < 0 || d >= static_cast<int64_t>(ops[0]->dims.size()))
        return fail("lhs batch dimension " + Twine(d) + " is out of range");
      out.dims.push_back(ops[0]->dims[d]);
    }
    SmallVector<int64_t, 4> rhsGone(rc.begin(), rc.end());
    rhsGone.append(group.begin(), group.end());
    if (!rest(*ops[0], lb, lc, out.dims) ||
        !rest(*ops[rhsIdx], rb, rhsGone, out.dims))
      return false;
  } else if (op == "sort" || op == "scatter") {
    // sort(keys, values...) and scatter(operands..., indices, updates...):
    // the (first half of the) operands' shapes, a tuple for several.
    size_t n = ops.size();
    if (op == "scatter") {
      if (n < 3 || n % 2 == 0)
        return fail("'scatter' takes N operands, indices and N updates");
      n = (n - 1) / 2;
    }
    if (n == 0)
      return fail("'" + op + "' has no operands");
    if (n == 1) {
      out = *ops[0];
    } else {
      out.kind = Shape::Kind::Tuple;
      for (size_t i = 0; i < n; ++i)
        out.elements.push_back(*ops[i]);
    }
  } else if (op == "select-and-scatter") {
    if (!needOperands(3))
      return false;
    out = *ops[0];
  } else if (op == "batch-norm-inference") {
    if (!needOperands(5))
      return false;
    out = *ops[0];
  } else if (op == "batch-norm-training" || op == "batch-norm-grad") {
    // (operand, per-feature statistics twice); the feature dimension is
    // feature_index of the operand.
    int64_t f;
    const Attr *a = instr.findAttr("feature_index");
    if (!needOperands(op == "batch-norm-training" ? 3 : 5) || !arrayOp(0))
      return false;
    if (!a)
      return missingAttribute(instr, "feature_index", diags);
    if (!parseIntValue(*a, diags, f))
      return false;
    if (f < 0 || f >= static_cast<int64_t>(ops[0]->dims.size()))
      return fail("feature_index " + Twine(f) + " is out of range");
    Shape stats = arrayShape(ops[0]->dtype, {ops[0]->dims[f]}, instr.opcodeLoc);
    out.kind = Shape::Kind::Tuple;
    out.elements = {*ops[0], stats, stats};
  } else if (op == "scan") {
    // scan(inputs..., carries...): the to_apply root's outputs, each but
    // the carries (the last num_carries) stacked along the scanned
    // dimension, as XLA's parser infers it.
    SmallVector<int64_t, 1> dim;
    int64_t carries;
    const Attr *nc = instr.findAttr("num_carries");
    if (!intList("dimensions", dim))
      return false;
    if (!nc)
      return missingAttribute(instr, "num_carries", diags);
    if (!parseIntValue(*nc, diags, carries))
      return false;
    if (dim.size() != 1)
      return fail("dimensions= must name one dimension");
    if (carries < 0 || carries >= static_cast<int64_t>(ops.size()))
      return fail("a scan of " + Twine(ops.size()) + " operands with " +
                  Twine(carries) + " carries has no inputs");
    if (!arrayOp(0))
      return false;
    int64_t d = dim[0];
    if (d < 0 || d >= static_cast<int64_t>(ops[0]->dims.size()))
      return fail("dimension " + Twine(d) + " is out of range");
    const Shape *root = calleeRoot(instr, "to_apply", depth);
    if (!root)
      return false;
    auto stacked = [&](const Shape &s, Shape &r) {
      if (s.kind != Shape::Kind::Array || s.isDynamic() ||
          d > static_cast<int64_t>(s.dims.size()))
        return fail("the scanned output " + shapeString(s) +
                    " cannot take dimension " + Twine(d));
      r = arrayShape(s.dtype, s.dims, instr.opcodeLoc);
      r.dims.insert(r.dims.begin() + d, ops[0]->dims[d]);
      return true;
    };
    if (root->kind != Shape::Kind::Tuple) {
      if (carries > 0)
        out = *root;
      else if (!stacked(*root, out))
        return false;
    } else {
      out.kind = Shape::Kind::Tuple;
      size_t n = root->elements.size();
      for (size_t i = 0; i < n; ++i) {
        Shape e = root->elements[i];
        if (static_cast<int64_t>(i) + carries < static_cast<int64_t>(n) &&
            !stacked(root->elements[i], e))
          return false;
        out.elements.push_back(std::move(e));
      }
    }
  } else if (op == "domain") {
    if (!needOperands(1))
      return false;
    out = *ops[0];
  } else if (auto rule = windowedRule(op)) {
    if (!rule(ShapeRule{instr, ops, diags}, out))
      return false;
  } else {
    // No opcode XLA's parser infers is left here; an opcode the list
    // above misses is refused rather than guessed.
    return error(instr.opcodeLoc,
                 "the importer cannot infer the shape of '" + op +
                     "'; write the result shape before the opcode");
  }
  if (out.kind == Shape::Kind::Array && !out.dtype.empty() &&
      !fitsInInt64Bytes(out))
    return fail("its shape " + shapeString(out) +
                " is larger than 2^63 - 1 bytes");
  out.loc = instr.opcodeLoc;
  instr.shape = std::move(out);
  instr.hasShape = true;
  return true;
}

bool Inferrer::computation(unsigned idx, unsigned depth) {
  if (state[idx] == 2)
    return true;
  Computation &comp = module.computations[idx];
  if (state[idx] == 1)
    return error(comp.loc, "computation '" + comp.name +
                               "' calls itself (recursion is not allowed in "
                               "HLO)");
  if (depth > kMaxCallDepth)
    return error(comp.loc, "inferring shapes follows calls more than " +
                               Twine(kMaxCallDepth) +
                               " deep; write the result shapes of the calls");
  state[idx] = 1;
  StringMap<size_t> index;
  for (auto [i, instr] : llvm::enumerate(comp.instructions))
    index.try_emplace(instr.name, i);
  // Depth-first over the instructions without a shape, operands first
  // (names may be used before their definition); an explicit stack, as
  // the emitter's, so long chains cannot exhaust the call stack.
  enum : uint8_t { kNew, kActive, kDone };
  std::vector<uint8_t> seen(comp.instructions.size(), kNew);
  struct Frame {
    size_t idx;
    size_t nextOperand;
  };
  std::vector<Frame> stack;
  SmallVector<const Shape *, 4> shapes;
  for (size_t start = 0; start < comp.instructions.size(); ++start) {
    if (comp.instructions[start].hasShape || seen[start] != kNew)
      continue;
    stack.push_back({start, 0});
    seen[start] = kActive;
    while (!stack.empty()) {
      Frame &top = stack.back();
      Instruction &instr = comp.instructions[top.idx];
      if (top.nextOperand < instr.operands.size()) {
        const OperandRef &ref = instr.operands[top.nextOperand++];
        auto it = index.find(ref.name);
        if (it == index.end())
          return error(ref.loc, "use of undefined value '" + ref.name +
                                    "' in computation '" + comp.name + "'");
        Instruction &dep = comp.instructions[it->second];
        if (dep.hasShape || seen[it->second] == kDone)
          continue;
        if (seen[it->second] == kActive)
          return error(ref.loc, "instruction '" + instr.name +
                                    "' depends on itself through '" + ref.name +
                                    "' (cycle)");
        seen[it->second] = kActive;
        stack.push_back({it->second, 0});
        continue;
      }
      size_t i = top.idx;
      stack.pop_back();
      seen[i] = kDone;
      shapes.clear();
      for (const OperandRef &ref : instr.operands)
        shapes.push_back(
            &comp.instructions[index.find(ref.name)->second].shape);
      if (!instruction(instr, shapes, depth))
        return false;
    }
  }
  state[idx] = 2;
  return true;
}

} // namespace

bool inferShapes(Module &module, DiagnosticSink &diags) {
  Inferrer inferrer(module, diags);
  for (unsigned i = 0; i < module.computations.size(); ++i)
    if (!inferrer.computation(i, 0))
      return false;
  return true;
}

} // namespace tessera::hlo
