//===- Resize.cpp - TOSA resize
//--------------------------------------------===//
//
// tosa.resize on NHWC: the TOSA spec's index math is separable (output row
// oy reads rows from oy alone, likewise columns), so it is evaluated here at
// compile time per axis, and each axis becomes the cheapest exact data
// movement: nothing, a strided slice, a repeat (broadcast + reshape), or a
// gather with constant indices. Bilinear reads the four neighbours that way
// and weights them with constants, in the spec's order of operations.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "llvm/ADT/APFloat.h"

#include <map>
#include <vector>

using namespace mlir;
using namespace tessera::tosa_import;

namespace {

/// Where each output position along one axis reads, per the TOSA spec:
/// y = o * d + offset, i = floor(y / n), r = y - i * n; it reads input
/// positions lo = max(i, 0) and hi = min(i + 1, size - 1) with fraction
/// r / n.
struct AxisSamples {
  int64_t n = 1;
  SmallVector<int64_t> lo, hi, rem;
};

int64_t floorDiv(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/// The spec's ERROR_IF conditions for one axis, as a reason, or "".
std::string checkAxis(StringRef axis, int64_t in, int64_t out, int64_t n,
                      int64_t d, int64_t offset, int64_t border) {
  std::string why;
  llvm::raw_string_ostream os(why);
  if (in < 1 || out < 1)
    os << "resize of an empty " << axis << " dimension";
  else if (n <= 0 || d <= 0)
    os << "resize scale " << axis << " = " << n << "/" << d
       << " is not positive";
  else if (n > (1 << 11) || d >= 16 * n)
    os << "resize scale " << axis << " = " << n << "/" << d
       << " is outside TOSA's range (n <= 2048, d < 16 * n)";
  else if (offset < -n || offset >= 16 * n)
    os << "resize offset " << axis << " = " << offset
       << " is outside TOSA's range [-n, 16 * n)";
  else if (border < -16 * n || border >= n)
    os << "resize border " << axis << " = " << border
       << " is outside TOSA's range [-16 * n, n)";
  else if (((in - 1) * n - offset + border) % d != 0 ||
           ((in - 1) * n - offset + border) / d + 1 != out)
    os << "resize output " << axis << " size " << out
       << " does not follow from the scale, offset and border";
  return why;
}

AxisSamples sampleAxis(int64_t in, int64_t out, int64_t n, int64_t d,
                       int64_t offset) {
  AxisSamples s;
  s.n = n;
  for (int64_t o = 0; o < out; ++o) {
    int64_t y = o * d + offset, i = floorDiv(y, n);
    s.lo.push_back(std::max<int64_t>(i, 0));
    s.hi.push_back(std::min<int64_t>(i + 1, in - 1));
    s.rem.push_back(y - i * n);
  }
  return s;
}

/// static_cast<float_t>(r) / static_cast<float_t>(n) in the element type.
APFloat fraction(const llvm::fltSemantics &sem, int64_t r, int64_t n) {
  APFloat num(sem), den(sem);
  num.convertFromAPInt(APInt(64, r, /*isSigned=*/true), true,
                       APFloat::rmNearestTiesToEven);
  den.convertFromAPInt(APInt(64, n, /*isSigned=*/true), true,
                       APFloat::rmNearestTiesToEven);
  num.divide(den, APFloat::rmNearestTiesToEven);
  return num;
}

/// NEAREST picks hi when the fraction is at least one half: compared as the
/// spec does, in the float type for floats and in integers otherwise.
SmallVector<int64_t> nearest(const AxisSamples &s, Type elt) {
  SmallVector<int64_t> idx;
  for (size_t o = 0; o < s.lo.size(); ++o) {
    bool up;
    if (auto f = dyn_cast<FloatType>(elt))
      up = fraction(f.getFloatSemantics(), s.rem[o], s.n)
               .compare(APFloat(f.getFloatSemantics(), "0.5")) !=
           APFloat::cmpLessThan;
    else
      up = 2 * s.rem[o] >= s.n;
    idx.push_back(up ? s.hi[o] : s.lo[o]);
  }
  return idx;
}

/// The repeat factor k when idx is [0 x k, 1 x k, ..., size-1 x k].
int64_t repeatFactor(ArrayRef<int64_t> idx, int64_t size) {
  int64_t out = idx.size();
  if (out % size != 0)
    return 0;
  int64_t k = out / size;
  for (int64_t o = 0; o < out; ++o)
    if (idx[o] != o / k)
      return 0;
  return k;
}

/// Repeats each row k[0] times and each column k[1] times: broadcast NHWC
/// to [N, H, k0, W, k1, C] (factors of 1 left out), reshape to
/// [N, H*k0, W*k1, C].
Value repeatHW(Emitter &e, Value v, int64_t ky, int64_t kx) {
  auto type = rankedOf(v);
  ArrayRef<int64_t> s = type.getShape();
  SmallVector<int64_t> wide = {s[0], s[1]}, dims = {0, 1};
  if (ky > 1)
    wide.push_back(ky);
  dims.push_back(wide.size());
  wide.push_back(s[2]);
  if (kx > 1)
    wide.push_back(kx);
  dims.push_back(wide.size());
  wide.push_back(s[3]);
  Value b = e.make<tg::BroadcastInDimOp>(
      RankedTensorType::get(wide, type.getElementType()), v, dims);
  return reshapeTo(e, b, {s[0], s[1] * ky, s[2] * kx, s[3]});
}

/// Gather index constants built so far, so bilinear's four reads share them.
using IndexCache = std::map<std::vector<int64_t>, Value>;

/// Reads v at positions idx along `dim`: nothing, a slice (an arithmetic
/// progression), a repeat, or a gather with constant indices.
Value pick(Emitter &e, IndexCache &cache, Value v, int64_t dim,
           ArrayRef<int64_t> idx) {
  auto type = rankedOf(v);
  int64_t size = type.getDimSize(dim), out = idx.size();
  SmallVector<int64_t> shape(type.getShape());
  int64_t step = out > 1 ? idx[1] - idx[0] : 1;
  bool progression = step >= 1;
  for (int64_t o = 1; o < out && progression; ++o)
    progression = idx[o] - idx[o - 1] == step;
  if (progression) {
    if (out == size && idx[0] == 0)
      return v;
    SmallVector<int64_t> start(type.getRank(), 0), limit(shape),
        strides(type.getRank(), 1);
    start[dim] = idx[0];
    limit[dim] = idx[0] + step * (out - 1) + 1;
    strides[dim] = step;
    shape[dim] = out;
    return e.make<tg::SliceOp>(
        RankedTensorType::get(shape, type.getElementType()), v, start, limit,
        strides);
  }
  if (int64_t k = repeatFactor(idx, size))
    return repeatHW(e, v, dim == 1 ? k : 1, dim == 2 ? k : 1);
  Value &indices = cache[std::vector<int64_t>(idx.begin(), idx.end())];
  if (!indices) {
    auto indexType = RankedTensorType::get({out, 1}, e.rw.getI32Type());
    SmallVector<int32_t> idx32(idx.begin(), idx.end());
    indices = e.make<tg::ConstantOp>(
        indexType, DenseElementsAttr::get(indexType, ArrayRef<int32_t>(idx32)),
        /*elided=*/false);
  }
  SmallVector<int64_t> sizes(shape), offsetDims;
  sizes[dim] = 1;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (d != dim)
      offsetDims.push_back(d);
  shape[dim] = out;
  return e.make<tg::GatherOp>(
      RankedTensorType::get(shape, type.getElementType()), v, indices,
      offsetDims, ArrayRef<int64_t>{dim}, ArrayRef<int64_t>{dim},
      static_cast<uint64_t>(1), sizes, false);
}

/// A per-row ([1, OH, 1, 1]) or per-column weight, broadcast to `type`.
Value weights(Emitter &e, RankedTensorType type, int64_t dim,
              ArrayRef<APFloat> values) {
  auto vecType = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                       type.getElementType());
  Value c = e.make<tg::ConstantOp>(
      vecType, DenseElementsAttr::get(vecType, values), /*elided=*/false);
  return e.make<tg::BroadcastInDimOp>(type, c, ArrayRef<int64_t>{dim});
}

/// acc = v00*(1-dy)*(1-dx) + v01*(1-dy)*dx + v10*dy*(1-dx) + v11*dy*dx,
/// left to right as the spec writes it, so float rounding matches.
Value bilinear(Emitter &e, Value input, RankedTensorType outType,
               const AxisSamples &y, const AxisSamples &x) {
  const llvm::fltSemantics &sem =
      cast<FloatType>(outType.getElementType()).getFloatSemantics();
  auto complement = [&](const AxisSamples &s, bool one) {
    SmallVector<APFloat> w;
    for (int64_t r : s.rem) {
      APFloat d = fraction(sem, r, s.n);
      if (one) {
        APFloat unit(sem, "1");
        unit.subtract(d, APFloat::rmNearestTiesToEven);
        d = unit;
      }
      w.push_back(d);
    }
    return w;
  };
  Value wy0 = weights(e, outType, 1, complement(y, true));
  Value wy1 = weights(e, outType, 1, complement(y, false));
  Value wx0 = weights(e, outType, 2, complement(x, true));
  Value wx1 = weights(e, outType, 2, complement(x, false));
  IndexCache cache;
  Value rows0 = pick(e, cache, input, 1, y.lo);
  Value rows1 = y.hi == y.lo ? rows0 : pick(e, cache, input, 1, y.hi);
  auto term = [&](Value rows, ArrayRef<int64_t> cols, Value wy, Value wx) {
    Value v = pick(e, cache, rows, 2, cols);
    Value t = e.make<tg::MulOp>(outType, v, wy);
    return e.make<tg::MulOp>(outType, t, wx).getResult();
  };
  Value acc = term(rows0, x.lo, wy0, wx0);
  acc = e.make<tg::AddOp>(outType, acc, term(rows0, x.hi, wy0, wx1));
  acc = e.make<tg::AddOp>(outType, acc, term(rows1, x.lo, wy1, wx0));
  return e.make<tg::AddOp>(outType, acc, term(rows1, x.hi, wy1, wx1));
}

FailureOr<Value> resize(tosa::ResizeOp op, tosa::ResizeOp::Adaptor a,
                        Emitter &e) {
  auto inType = rankedOf(a.getInput());
  auto outType = cast<RankedTensorType>(op.getType());
  if (!inType.hasStaticShape() || !outType.hasStaticShape())
    return e.fail("resize needs static shapes (the sampling positions are "
                  "computed at import)");
  ArrayRef<int64_t> scale = op.getScale(), offset = op.getOffset(),
                    border = op.getBorder();
  int64_t ih = inType.getDimSize(1), iw = inType.getDimSize(2);
  int64_t oh = outType.getDimSize(1), ow = outType.getDimSize(2);
  for (std::string why :
       {checkAxis("y", ih, oh, scale[0], scale[1], offset[0], border[0]),
        checkAxis("x", iw, ow, scale[2], scale[3], offset[1], border[1])})
    if (!why.empty())
      return e.fail(why);
  AxisSamples y = sampleAxis(ih, oh, scale[0], scale[1], offset[0]);
  AxisSamples x = sampleAxis(iw, ow, scale[2], scale[3], offset[1]);
  Type elt = inType.getElementType();
  StringRef mode = op.getMode();
  if (mode == "NEAREST_NEIGHBOR") {
    // Data movement only, so integers are exact too (in_t == out_t).
    SmallVector<int64_t> iy = nearest(y, elt), ix = nearest(x, elt);
    int64_t ky = repeatFactor(iy, ih), kx = repeatFactor(ix, iw);
    if (ky && kx && (ky > 1 || kx > 1))
      return repeatHW(e, a.getInput(), ky, kx);
    IndexCache cache;
    return pick(e, cache, pick(e, cache, a.getInput(), 1, iy), 2, ix);
  }
  if (mode != "BILINEAR")
    return e.fail("resize mode '" + mode +
                  "' is not NEAREST_NEIGHBOR or "
                  "BILINEAR");
  if (!isa<FloatType>(elt))
    return e.fail("integer bilinear resize (accumulating in units of the "
                  "scale numerators into a wider type) is not imported");
  return bilinear(e, a.getInput(), outType, y, x);
}

} // namespace

void tessera::tosa_import::populateResizePatterns(RewritePatternSet &p) {
  add<tosa::ResizeOp>(p, resize);
}
