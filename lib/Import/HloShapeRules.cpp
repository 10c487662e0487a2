//===- HloShapeRules.cpp - XLA's shape rules for windowed ops -------------===//
//
// Written from XLA's documented semantics (operation_semantics.md) and
// the behaviour of its shape inference: sizes are checked as XLA checks
// them, and every size computed from the text is checked for int64
// overflow, since the text is not trusted.
//
//===----------------------------------------------------------------------===//

#include "HloShapeRules.h"
#include "HloAttrs.h"
#include "HloOpcodeAttrs.h"

#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace tessera::hlo {

std::string shapeString(const Shape &s) {
  if (s.kind == Shape::Kind::Token)
    return "token[]";
  if (s.kind == Shape::Kind::Tuple) {
    std::string out = "(";
    for (size_t i = 0; i < s.elements.size(); ++i)
      out += (i ? ", " : "") + shapeString(s.elements[i]);
    return out + ")";
  }
  std::string out = s.dtype.str() + "[";
  for (size_t i = 0; i < s.dims.size(); ++i)
    out += (i ? "," : "") +
           (s.dims[i] < 0 ? std::string("?") : std::to_string(s.dims[i]));
  return out + "]";
}

Shape arrayShape(StringRef dtype, ArrayRef<int64_t> dims, SMLoc loc) {
  Shape s;
  s.kind = Shape::Kind::Array;
  s.dtype = dtype;
  s.dims.assign(dims.begin(), dims.end());
  s.loc = loc;
  return s;
}

bool ShapeRule::fail(const Twine &why) const {
  diags.error(instr.opcodeLoc,
              "cannot infer the shape of '" + instr.name + "': " + why);
  return false;
}

bool ShapeRule::needOperands(size_t n) const {
  if (ops.size() == n)
    return true;
  return fail("'" + instr.opcode + "' takes " + Twine(n) + " operands, got " +
              Twine(ops.size()));
}

const Shape *ShapeRule::array(size_t i) const {
  if (ops[i]->kind == Shape::Kind::Array && !ops[i]->isDynamic())
    return ops[i];
  fail("operand " + Twine(i) + " of '" + instr.opcode + "' is " +
       shapeString(*ops[i]) + ", not a static array");
  return nullptr;
}

bool ShapeRule::ints(StringRef name, SmallVectorImpl<int64_t> &out) const {
  const Attr *a = instr.findAttr(name);
  if (!a)
    return missingAttribute(instr, name, diags);
  return parseIntList(*a, diags, out);
}

bool ShapeRule::optionalInts(StringRef name,
                             SmallVectorImpl<int64_t> &out) const {
  const Attr *a = instr.findAttr(name);
  return !a || parseIntList(*a, diags, out);
}

namespace {

bool isComplex(StringRef t) { return t == "c64" || t == "c128"; }
bool isFloat(StringRef t) { return t.starts_with("f") || t == "bf16"; }

/// XLA's "higher precision" of two element types, for ops whose operands
/// may differ (convolution): complex over float over integer over pred,
/// then the wider; the first on a tie.
StringRef higherPrecision(StringRef a, StringRef b) {
  auto rank = [](StringRef t) {
    int category = isComplex(t) ? 3 : isFloat(t) ? 2 : t == "pred" ? 0 : 1;
    unsigned bits = 0;
    StringRef digits = t.drop_while([](char c) {
                          return !isDigit(c);
                        }).take_while([](char c) { return isDigit(c); });
    (void)digits.getAsInteger(10, bits);
    return category * 1000 + static_cast<int>(bits);
  };
  return rank(b) > rank(a) ? b : a;
}

/// The size of one windowed dimension: the base dilated and padded, then
/// windows of the dilated size placed every `stride` (XLA's
/// InferWindowOutputShape); false after reporting bad window numbers.
bool windowedSize(const ShapeRule &r, const Window &w, size_t d, int64_t base,
                  int64_t &out) {
  auto field = [](ArrayRef<int64_t> v, size_t i, int64_t fallback) {
    return i < v.size() ? v[i] : fallback;
  };
  int64_t size = w.size[d], stride = field(w.stride, d, 1);
  int64_t baseDilate = field(w.lhsDilate, d, 1);
  int64_t windowDilate = field(w.rhsDilate, d, 1);
  int64_t low = field(w.padding, 2 * d, 0),
          high = field(w.padding, 2 * d + 1, 0);
  if (size <= 0 || stride <= 0 || baseDilate <= 0 || windowDilate <= 0)
    return r.fail("window dimension " + Twine(d) +
                  " needs a positive size, stride and dilations");
  int64_t dilatedBase = 0, padded, dilatedWindow;
  if (base > 0 && (MulOverflow(base - 1, baseDilate, dilatedBase) ||
                   AddOverflow(dilatedBase, int64_t(1), dilatedBase)))
    return r.fail("window dimension " + Twine(d) + " overflows int64");
  if (AddOverflow(dilatedBase, low, padded) ||
      AddOverflow(padded, high, padded) ||
      MulOverflow(size - 1, windowDilate, dilatedWindow) ||
      AddOverflow(dilatedWindow, int64_t(1), dilatedWindow))
    return r.fail("window dimension " + Twine(d) + " overflows int64");
  if (padded < 0)
    return r.fail("window dimension " + Twine(d) +
                  " pads the base to a negative size");
  out = padded < dilatedWindow ? 0 : (padded - dilatedWindow) / stride + 1;
  return true;
}

/// The window attribute, which XLA lets the text leave out (no window
/// dimensions); `rank` window dimensions are needed.
bool readWindow(const ShapeRule &r, size_t rank, Window &w) {
  if (const Attr *a = r.instr.findAttr("window"))
    if (!parseWindow(*a, r.diags, w))
      return false;
  auto fits = [&](size_t n, size_t per) { return n == 0 || n == per * rank; };
  if (w.size.size() != rank)
    return r.fail("the window has " + Twine(w.size.size()) +
                  " dimensions, the operand " + Twine(rank));
  if (!fits(w.stride.size(), 1) || !fits(w.lhsDilate.size(), 1) ||
      !fits(w.rhsDilate.size(), 1) || !fits(w.padding.size(), 2))
    return r.fail("the window's fields have different numbers of dimensions");
  return true;
}

} // namespace

bool inferBroadcast(const ShapeRule &r, Shape &out) {
  // XLA's parser reads a shape-less broadcast's dimensions= as the sizes
  // of new leading dimensions (its client Broadcast): `broadcast(s),
  // dimensions={}` of a scalar is the scalar; the tgraph verifier then
  // checks the mapping as XLA's verifier does.
  SmallVector<int64_t, 4> sizes;
  const Shape *x;
  if (!r.needOperands(1) || !(x = r.array(0)))
    return false;
  const Attr *a = r.instr.findAttr("dimensions");
  if (!a && !x->dims.empty())
    return missingAttribute(r.instr, "dimensions", r.diags);
  if (a && !parseIntList(*a, r.diags, sizes))
    return false;
  for (int64_t s : sizes)
    if (s < 0)
      return r.fail("broadcast with negative dimension size " + Twine(s));
  sizes.append(x->dims.begin(), x->dims.end());
  out = arrayShape(x->dtype, sizes, r.instr.opcodeLoc);
  return true;
}

bool inferGather(const ShapeRule &r, Shape &out) {
  SmallVector<int64_t, 4> offsetDims, collapsed, startMap, sliceSizes,
      operandBatch, indexBatch;
  int64_t indexVectorDim;
  const Shape *x, *idx;
  const Attr *ivd = r.instr.findAttr("index_vector_dim");
  if (!r.needOperands(2) || !(x = r.array(0)) || !(idx = r.array(1)) ||
      !r.ints("offset_dims", offsetDims) ||
      !r.ints("collapsed_slice_dims", collapsed) ||
      !r.ints("start_index_map", startMap) ||
      !r.ints("slice_sizes", sliceSizes) ||
      !r.optionalInts("operand_batching_dims", operandBatch) ||
      !r.optionalInts("start_indices_batching_dims", indexBatch))
    return false;
  if (!ivd)
    return missingAttribute(r.instr, "index_vector_dim", r.diags);
  if (!parseIntValue(*ivd, r.diags, indexVectorDim))
    return false;
  int64_t rank = x->dims.size(), indexRank = idx->dims.size();
  if (static_cast<int64_t>(sliceSizes.size()) != rank)
    return r.fail("slice_sizes has " + Twine(sliceSizes.size()) +
                  " entries for an operand of rank " + Twine(rank));
  if (indexVectorDim < 0 || indexVectorDim > indexRank)
    return r.fail("index_vector_dim " + Twine(indexVectorDim) +
                  " is out of range for indices of rank " + Twine(indexRank));
  // Each operand dimension is collapsed, a batching dimension, or kept as
  // an offset (window) dimension of the result.
  SmallVector<bool, 4> dropped(rank, false);
  for (int64_t d : llvm::concat<const int64_t>(collapsed, operandBatch)) {
    if (d < 0 || d >= rank || dropped[d])
      return r.fail("collapsed or batching dimension " + Twine(d) +
                    " is out of range or repeated");
    if (sliceSizes[d] > 1)
      return r.fail("collapsed or batching dimension " + Twine(d) +
                    " has slice size " + Twine(sliceSizes[d]));
    dropped[d] = true;
  }
  SmallVector<int64_t, 4> windowSizes;
  for (int64_t d = 0; d < rank; ++d) {
    if (sliceSizes[d] < 0 || (x->dims[d] < sliceSizes[d]))
      return r.fail("slice size " + Twine(sliceSizes[d]) +
                    " does not fit operand dimension " + Twine(d));
    if (!dropped[d])
      windowSizes.push_back(sliceSizes[d]);
  }
  if (windowSizes.size() != offsetDims.size())
    return r.fail("offset_dims has " + Twine(offsetDims.size()) +
                  " entries for " + Twine(windowSizes.size()) +
                  " kept slice dimensions");
  SmallVector<int64_t, 4> batchSizes;
  for (int64_t d = 0; d < indexRank; ++d)
    if (d != indexVectorDim)
      batchSizes.push_back(idx->dims[d]);
  int64_t outRank = batchSizes.size() + offsetDims.size();
  for (auto [i, d] : llvm::enumerate(offsetDims))
    if (d < 0 || d >= outRank || (i && d <= offsetDims[i - 1]))
      return r.fail("offset_dims must be sorted and within the result's " +
                    Twine(outRank) + " dimensions");
  int64_t indexVectorSize =
      indexVectorDim < indexRank ? idx->dims[indexVectorDim] : 1;
  if (static_cast<int64_t>(startMap.size()) != indexVectorSize)
    return r.fail("start_index_map has " + Twine(startMap.size()) +
                  " entries for index vectors of " + Twine(indexVectorSize));
  out = arrayShape(x->dtype, {}, r.instr.opcodeLoc);
  size_t nextOffset = 0, nextBatch = 0;
  for (int64_t d = 0; d < outRank; ++d)
    out.dims.push_back(llvm::is_contained(offsetDims, d)
                           ? windowSizes[nextOffset++]
                           : batchSizes[nextBatch++]);
  return true;
}

bool inferConvolution(const ShapeRule &r, Shape &out) {
  const Shape *lhs, *rhs;
  const Attr *labelsAttr = r.instr.findAttr("dim_labels");
  if (!r.needOperands(2) || !(lhs = r.array(0)) || !(rhs = r.array(1)))
    return false;
  if (!labelsAttr)
    return missingAttribute(r.instr, "dim_labels", r.diags);
  std::string why;
  FailureOr<tgraph::ConvDimLabels> labels =
      tgraph::parseConvDimLabels(labelsAttr->value, why);
  if (failed(labels)) {
    r.diags.error(labelsAttr->valueLoc(), why);
    return false;
  }
  size_t spatial = labels->input.spatial.size();
  if (lhs->dims.size() != spatial + 2 || rhs->dims.size() != spatial + 2)
    return r.fail("dim_labels describe rank " + Twine(spatial + 2) +
                  ", the operands have ranks " + Twine(lhs->dims.size()) +
                  " and " + Twine(rhs->dims.size()));
  int64_t featureGroups = 1, batchGroups = 1;
  for (auto [name, value] :
       {std::pair<StringRef, int64_t *>("feature_group_count", &featureGroups),
        {"batch_group_count", &batchGroups}})
    if (const Attr *a = r.instr.findAttr(name))
      if (!parseIntValue(*a, r.diags, *value))
        return false;
  if (featureGroups <= 0 || batchGroups <= 0)
    return r.fail("group counts must be positive");
  int64_t batch = lhs->dims[labels->input.batchOrInput];
  int64_t inFeatures = lhs->dims[labels->input.featureOrOutput];
  int64_t kernelIn = rhs->dims[labels->kernel.batchOrInput];
  int64_t kernelOut = rhs->dims[labels->kernel.featureOrOutput];
  if (inFeatures % featureGroups || kernelOut % featureGroups ||
      inFeatures / featureGroups != kernelIn)
    return r.fail("input features " + Twine(inFeatures) + " / " +
                  Twine(featureGroups) + " groups do not match the kernel's " +
                  Twine(kernelIn) + " input features");
  if (batch % batchGroups || kernelOut % batchGroups)
    return r.fail("batch " + Twine(batch) + " or output features " +
                  Twine(kernelOut) + " are not divisible by " +
                  Twine(batchGroups) + " batch groups");
  Window w;
  if (!readWindow(r, spatial, w))
    return false;
  out = arrayShape(higherPrecision(lhs->dtype, rhs->dtype),
                   SmallVector<int64_t, 4>(spatial + 2, 0), r.instr.opcodeLoc);
  out.dims[labels->output.batchOrInput] = batch / batchGroups;
  out.dims[labels->output.featureOrOutput] = kernelOut;
  for (size_t i = 0; i < spatial; ++i) {
    if (w.size[i] != rhs->dims[labels->kernel.spatial[i]])
      return r.fail("window size " + Twine(w.size[i]) + " of dimension " +
                    Twine(i) + " is not the kernel's " +
                    Twine(rhs->dims[labels->kernel.spatial[i]]));
    if (!windowedSize(r, w, i, lhs->dims[labels->input.spatial[i]],
                      out.dims[labels->output.spatial[i]]))
      return false;
  }
  return true;
}

bool inferReduceWindow(const ShapeRule &r, Shape &out) {
  // XLA's parser infers from the first input and init only; a variadic
  // reduce-window must be written with its shape.
  const Shape *x;
  if (r.ops.size() != 2)
    return r.fail("a reduce-window of " + Twine(r.ops.size() / 2) +
                  " inputs needs its result shape written");
  if (!(x = r.array(0)))
    return false;
  if (r.ops[1]->kind != Shape::Kind::Array || !r.ops[1]->dims.empty())
    return r.fail("the init value is " + shapeString(*r.ops[1]) +
                  ", not a scalar");
  Window w;
  if (!readWindow(r, x->dims.size(), w))
    return false;
  out = arrayShape(r.ops[1]->dtype, x->dims, r.instr.opcodeLoc);
  for (size_t d = 0; d < x->dims.size(); ++d)
    if (!windowedSize(r, w, d, x->dims[d], out.dims[d]))
      return false;
  return true;
}

bool inferFft(const ShapeRule &r, Shape &out) {
  SmallVector<int64_t, 3> length;
  const Shape *x;
  const Attr *type = r.instr.findAttr("fft_type");
  if (!r.needOperands(1) || !(x = r.array(0)) || !r.ints("fft_length", length))
    return false;
  if (!type)
    return missingAttribute(r.instr, "fft_type", r.diags);
  StringRef kind = type->value;
  if (kind != "FFT" && kind != "IFFT" && kind != "RFFT" && kind != "IRFFT") {
    r.diags.error(type->valueLoc(), "expects fft type but sees '" + kind +
                                        "' (FFT, IFFT, RFFT or IRFFT)");
    return false;
  }
  size_t n = length.size(), rank = x->dims.size();
  if (n < 1 || n > 3 || rank < n)
    return r.fail("fft_length has " + Twine(n) +
                  " entries (1 to 3, at most the operand's rank " +
                  Twine(rank) + ")");
  bool fromReal = kind == "RFFT", toReal = kind == "IRFFT";
  StringRef t = x->dtype;
  if (fromReal ? !(t == "f32" || t == "f64") : !isComplex(t))
    return r.fail("'" + kind + "' of " + shapeString(*x) + " (needs a " +
                  (fromReal ? "f32 or f64" : "c64 or c128") + " operand)");
  out = *x;
  out.layout = StringRef();
  if (fromReal)
    out.dtype = t == "f32" ? "c64" : "c128";
  if (toReal)
    out.dtype = t == "c64" ? "f32" : "f64";
  // The transformed dimensions are the innermost ones; a real transform
  // keeps the n/2 + 1 non-redundant complex values of the last.
  for (size_t i = 0; i < n; ++i) {
    size_t d = rank - n + i;
    int64_t want = length[i];
    if (toReal && i == n - 1)
      want = length[i] / 2 + 1;
    if (x->dims[d] != want)
      return r.fail("dimension " + Twine(d) + " of the operand is " +
                    Twine(x->dims[d]) + ", fft_length needs " + Twine(want));
  }
  if (fromReal)
    out.dims.back() = length.back() / 2 + 1;
  if (toReal)
    out.dims.back() = length.back();
  return true;
}

bool inferTopK(const ShapeRule &r, Shape &out) {
  const Shape *x;
  const Attr *k = r.instr.findAttr("k");
  int64_t count;
  if (!r.needOperands(1) || !(x = r.array(0)))
    return false;
  if (!k)
    return missingAttribute(r.instr, "k", r.diags);
  if (!parseIntValue(*k, r.diags, count))
    return false;
  if (x->dims.empty() || count < 0 || count > x->dims.back())
    return r.fail("k=" + Twine(count) + " does not fit the last dimension of " +
                  shapeString(*x));
  SmallVector<int64_t, 4> dims(x->dims.begin(), x->dims.end());
  dims.back() = count;
  out.kind = Shape::Kind::Tuple;
  out.elements = {arrayShape(x->dtype, dims, r.instr.opcodeLoc),
                  arrayShape("s32", dims, r.instr.opcodeLoc)};
  return true;
}

bool inferCholesky(const ShapeRule &r, Shape &out) {
  const Shape *a;
  if (!r.needOperands(1) || !(a = r.array(0)))
    return false;
  size_t rank = a->dims.size();
  if (rank < 2 || a->dims[rank - 1] != a->dims[rank - 2])
    return r.fail("'cholesky' needs square matrices, got " + shapeString(*a));
  out = *a;
  out.layout = StringRef();
  return true;
}

bool inferTriangularSolve(const ShapeRule &r, Shape &out) {
  const Shape *a, *b;
  if (!r.needOperands(2) || !(a = r.array(0)) || !(b = r.array(1)))
    return false;
  size_t rank = a->dims.size();
  if (rank < 2 || a->dims[rank - 1] != a->dims[rank - 2] ||
      b->dims.size() != rank ||
      !llvm::equal(ArrayRef(a->dims).drop_back(2),
                   ArrayRef(b->dims).drop_back(2)))
    return r.fail("'triangular-solve' needs a square a and a b of its batch "
                  "dimensions, got " +
                  shapeString(*a) + " and " + shapeString(*b));
  out = *b;
  out.layout = StringRef();
  return true;
}

bool inferSetDimensionSize(const ShapeRule &r, Shape &out) {
  SmallVector<int64_t, 1> dim;
  const Shape *x;
  if (!r.needOperands(2) || !(x = r.array(0)) || !r.ints("dimensions", dim))
    return false;
  if (dim.size() != 1 || dim[0] < 0 ||
      dim[0] >= static_cast<int64_t>(x->dims.size()))
    return r.fail("dimensions= must name one dimension of " + shapeString(*x));
  // The dimension becomes dynamic, bounded by its static size.
  out = arrayShape(x->dtype, x->dims, r.instr.opcodeLoc);
  out.bounds.assign(x->dims.begin(), x->dims.end());
  out.dims[dim[0]] = -1;
  return true;
}

} // namespace tessera::hlo
