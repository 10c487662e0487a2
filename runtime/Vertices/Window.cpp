//===- Window.cpp - reduce-window.OP and conv-partial ---------------------===//
//
// Both lowerings (LowerReduceWindow.cpp, LowerConvolution.cpp) cut the
// output into blocks on a grid of tiles, tile t holding block t (row-major
// over the grid), and give each tile the input elements its block reads as
// one or more boxes (`input_boxes`, halo included, padding left out) stored
// one after the other, each row-major. A vertex walks its output block and,
// per window position, finds the input element in its boxes; a position in
// padding (or a hole of a dilated input) reads nothing, as in HLO. A
// position inside the input but outside the boxes means the layout and the
// vertex disagree: an error naming the tile.
//
//  - reduce-window.OP: `grid` (blocks per output dimension) and `block`
//    (block sizes), the window attributes per dimension, and the init value
//    as the second operand (one replicated element per tile).
//  - conv-partial: `grid` = [pk, pb, rows, columns, pf] and `block` = [bb,
//    rows, columns, bf, bk] as in docs/tile-dialect.md; the block sums over
//    its contraction slice of the input features (its partial when pk > 1,
//    written as the block's box row-major); the weights are the block's
//    box of the kernel (every window position, its input-feature slice and
//    output features), row-major.
//
//===----------------------------------------------------------------------===//

#include "Reducer.h"
#include "VertexLibrary.h"

#include "llvm/ADT/STLExtras.h"

#include <Eigen/Dense>

#include <algorithm>

using namespace llvm;

namespace tessera::runtime {
namespace {

/// A box of a row-major tensor, with its elements' offset in the tile's
/// block buffer.
struct Box {
  SmallVector<int64_t, 6> lo, hi, strides;
  int64_t base = 0;
  int64_t volume() const {
    int64_t n = 1;
    for (size_t d = 0; d < lo.size(); ++d)
      n *= std::max<int64_t>(hi[d] - lo[d], 0);
    return n;
  }
  void finish() {
    strides.assign(lo.size(), 1);
    for (int64_t d = int64_t(lo.size()) - 2; d >= 0; --d)
      strides[d] = strides[d + 1] * (hi[d + 1] - lo[d + 1]);
  }
  bool contains(ArrayRef<int64_t> at) const {
    for (size_t d = 0; d < lo.size(); ++d)
      if (at[d] < lo[d] || at[d] >= hi[d])
        return false;
    return true;
  }
  int64_t localOf(ArrayRef<int64_t> at) const {
    int64_t l = base;
    for (size_t d = 0; d < lo.size(); ++d)
      l += (at[d] - lo[d]) * strides[d];
    return l;
  }
};

/// The boxes of each grid tile; an error unless they match the tile's share
/// of the block buffer.
Expected<std::vector<std::vector<Box>>>
readBoxes(const VertexSpec &spec, ArrayRef<int64_t> flat, int64_t tiles,
          ArrayRef<int64_t> shape, bool counted) {
  size_t rank = shape.size(), at = 0;
  std::vector<std::vector<Box>> boxes(tiles);
  for (int64_t t = 0; t < tiles; ++t) {
    int64_t n = 1;
    if (counted) {
      if (at >= flat.size())
        return spec.error("input_boxes ends before tile " + Twine(t));
      n = flat[at++];
    }
    int64_t base = 0;
    for (int64_t k = 0; k < n; ++k) {
      if (at + 2 * rank > flat.size())
        return spec.error("input_boxes ends before tile " + Twine(t));
      Box b;
      b.lo.assign(flat.begin() + at, flat.begin() + at + rank);
      b.hi.assign(flat.begin() + at + rank, flat.begin() + at + 2 * rank);
      at += 2 * rank;
      for (size_t d = 0; d < rank; ++d)
        if (b.lo[d] < 0 || b.lo[d] >= b.hi[d] || b.hi[d] > shape[d])
          return spec.error("input box " + Twine(k) + " of tile " + Twine(t) +
                            " is outside the input");
      b.base = base;
      b.finish();
      base += b.volume();
      boxes[t].push_back(std::move(b));
    }
    const TileShare *share = spec.in(0).shareOn(t);
    if ((share ? share->elements : 0) != base)
      return spec.error("tile " + Twine(t) + " holds " +
                        Twine(share ? share->elements : 0) +
                        " input elements, its boxes " + Twine(base));
  }
  if (at != flat.size())
    return spec.error("input_boxes has values past the last tile");
  return boxes;
}

/// One window dimension's attributes.
struct WindowDim {
  int64_t size = 1, stride = 1, padLow = 0, baseDilation = 1,
          windowDilation = 1, inputSize = 1;
  /// The input index read by output `o` at window position `k`, or -1 for
  /// padding and holes.
  int64_t input(int64_t o, int64_t k) const {
    int64_t pos = o * stride - padLow + k * windowDilation;
    if (pos < 0 || pos % baseDilation)
      return -1;
    pos /= baseDilation;
    return pos < inputSize ? pos : -1;
  }
};

Error readWindow(const VertexSpec &spec, SmallVectorImpl<WindowDim> &dims,
                 ArrayRef<int64_t> sizes, ArrayRef<int64_t> inputSizes,
                 StringRef strideName, StringRef baseName,
                 StringRef windowName) {
  size_t n = sizes.size();
  auto strides = spec.requireInts(strideName, n);
  auto padding = spec.requireInts("padding", 2 * n);
  auto base = spec.requireInts(baseName, n);
  auto window = spec.requireInts(windowName, n);
  if (!strides)
    return strides.takeError();
  if (!padding)
    return padding.takeError();
  if (!base)
    return base.takeError();
  if (!window)
    return window.takeError();
  for (size_t d = 0; d < n; ++d) {
    WindowDim w;
    w.size = sizes[d];
    w.stride = (*strides)[d];
    w.padLow = (*padding)[2 * d];
    w.baseDilation = (*base)[d];
    w.windowDilation = (*window)[d];
    w.inputSize = inputSizes[d];
    if (w.size <= 0 || w.stride <= 0 || w.baseDilation <= 0 ||
        w.windowDilation <= 0)
      return spec.error("window dimension " + Twine(d) +
                        " has a size, stride or dilation below 1");
    dims.push_back(w);
  }
  return Error::success();
}

/// The box's input element of window position `at`, or an error.
Expected<int64_t> findInput(int64_t tile, ArrayRef<Box> boxes,
                            ArrayRef<int64_t> at) {
  for (const Box &b : boxes)
    if (b.contains(at))
      return b.localOf(at);
  std::string coords;
  for (int64_t c : at)
    coords += (coords.empty() ? "" : ", ") + std::to_string(c);
  return createStringError("tile " + Twine(tile) + ": reads input element [" +
                           coords + "], which is not in its input boxes");
}

//===----------------------------------------------------------------------===//
// reduce-window.OP
//===----------------------------------------------------------------------===//

class ReduceWindowVertex : public Vertex {
public:
  Reducer reducer = Reducer::Add;
  DType dtype = DType::F32;
  std::vector<int64_t> count, block, outShape;
  SmallVector<WindowDim, 4> dims;
  std::vector<std::vector<Box>> boxes;

  Error run(int64_t tile, ArrayRef<TileOperand> ins,
            ArrayRef<TileOperand> outs) const override {
    if (tile >= int64_t(boxes.size()))
      return createStringError("tile " + Twine(tile) + " is not in the grid");
    size_t rank = outShape.size();
    SmallVector<int64_t, 6> lo(rank), hi(rank);
    int64_t rest = tile, volume = 1;
    for (int64_t d = rank - 1; d >= 0; --d) {
      int64_t i = rest % count[d];
      rest /= count[d];
      lo[d] = i * block[d];
      hi[d] = std::min(outShape[d], lo[d] + block[d]);
      volume *= hi[d] - lo[d];
    }
    if (outs[0].elements() != volume)
      return createStringError("tile " + Twine(tile) + ": holds " +
                               Twine(outs[0].elements()) +
                               " outputs, its block " + Twine(volume));
    return dispatchStorage(dtype, [&](auto t) -> Error {
      using T = decltype(t);
      using C = ComputeT<T>;
      const T *in = ins[0].as<T>();
      T *out = outs[0].as<T>();
      C init = static_cast<C>(ins[1].as<T>()[0]);
      SmallVector<int64_t, 6> o(lo.begin(), lo.end()), k(rank, 0), at(rank);
      for (int64_t e = 0; e < volume; ++e) {
        C acc = init;
        std::fill(k.begin(), k.end(), 0);
        bool more = true;
        while (more) {
          bool padding = false;
          for (size_t d = 0; d < rank && !padding; ++d)
            padding = (at[d] = dims[d].input(o[d], k[d])) < 0;
          if (!padding) {
            Expected<int64_t> l = findInput(tile, boxes[tile], at);
            if (!l)
              return l.takeError();
            acc = combine<C>(reducer, acc, static_cast<C>(in[*l]));
          }
          more = false;
          for (int64_t d = rank - 1; d >= 0; --d) {
            if (++k[d] < dims[d].size) {
              more = true;
              break;
            }
            k[d] = 0;
          }
        }
        out[e] = static_cast<T>(acc);
        for (int64_t d = rank - 1; d >= 0; --d) {
          if (++o[d] < hi[d])
            break;
          o[d] = lo[d];
        }
      }
      return Error::success();
    });
  }
};

//===----------------------------------------------------------------------===//
// conv-partial
//===----------------------------------------------------------------------===//

/// One part of dim_labels: batch (or kernel input feature), feature (or
/// kernel output feature), spatial dimensions in order.
struct DimPart {
  int64_t first = -1, second = -1;
  SmallVector<int64_t, 4> spatial;
};

std::optional<DimPart> parsePart(StringRef part, char first, char second) {
  DimPart p;
  SmallVector<int64_t, 4> spatial(part.size(), -1);
  size_t numSpatial = 0;
  for (auto [pos, c] : llvm::enumerate(part)) {
    if (c == first && p.first < 0)
      p.first = pos;
    else if (c == second && p.second < 0)
      p.second = pos;
    else if (c >= '0' && c <= '9' && size_t(c - '0') < part.size() &&
             spatial[c - '0'] < 0)
      spatial[c - '0'] = pos, ++numSpatial;
    else
      return std::nullopt;
  }
  if (p.first < 0 || p.second < 0 || numSpatial + 2 != part.size())
    return std::nullopt;
  p.spatial.assign(spatial.begin(), spatial.begin() + numSpatial);
  if (llvm::is_contained(p.spatial, -1))
    return std::nullopt;
  return p;
}

class ConvPartialVertex : public Vertex {
public:
  DType dtype = DType::F32;
  /// 16-bit float inputs into f32 partials.
  bool wideOut = false;
  DimPart in, ker, res;
  std::vector<int64_t> grid, block, kernelShape, outShape;
  SmallVector<WindowDim, 4> dims;
  std::vector<bool> reversed;
  int64_t B = 1, F = 1, Cg = 1, perGroup = 1, featureGroups = 1,
          batchGroups = 1;
  std::vector<std::vector<Box>> boxes;

  struct Block {
    int64_t b0, b1, f0, f1, c0, c1;
    int64_t s0[2], s1[2];
  };
  Block blockOf(int64_t t) const {
    int64_t jf = t % grid[4], ic = (t / grid[4]) % grid[3],
            ir = (t / (grid[4] * grid[3])) % grid[2],
            ib = (t / (grid[4] * grid[3] * grid[2])) % grid[1],
            kk = t / (grid[4] * grid[3] * grid[2] * grid[1]);
    Block b;
    b.b0 = ib * block[0], b.b1 = std::min(B, b.b0 + block[0]);
    int64_t is[2] = {ir, ic};
    for (size_t i = 0; i < 2; ++i) {
      int64_t size = i < dims.size() ? outShape[res.spatial[i]] : 1;
      b.s0[i] = is[i] * block[1 + i];
      b.s1[i] = std::min(size, b.s0[i] + block[1 + i]);
    }
    b.f0 = jf * block[3], b.f1 = std::min(F, b.f0 + block[3]);
    b.c0 = kk * block[4], b.c1 = std::min(Cg, b.c0 + block[4]);
    return b;
  }
  /// The block's output box (and the partials' order when pk > 1).
  void outputBox(const Block &b, Box &box) const {
    box.lo.assign(outShape.size(), 0);
    box.hi.assign(outShape.begin(), outShape.end());
    box.lo[res.first] = b.b0, box.hi[res.first] = b.b1;
    box.lo[res.second] = b.f0, box.hi[res.second] = b.f1;
    for (size_t i = 0; i < 2 && i < dims.size(); ++i)
      box.lo[res.spatial[i]] = b.s0[i], box.hi[res.spatial[i]] = b.s1[i];
    box.finish();
  }
  void weightBox(const Block &b, Box &box) const {
    box.lo.assign(kernelShape.size(), 0);
    box.hi.assign(kernelShape.begin(), kernelShape.end());
    box.lo[ker.first] = b.c0, box.hi[ker.first] = b.c1;
    box.lo[ker.second] = b.f0, box.hi[ker.second] = b.f1;
    box.finish();
  }

  /// Every output of the block accumulates over its input channels and
  /// window: 2 FLOPs a MAC, on the vector unit.
  TileWork work(const ComputeRates &rates, int64_t tile, ArrayRef<TileOperand>,
                ArrayRef<TileOperand>) const override {
    if (tile >= int64_t(boxes.size()))
      return {};
    Block b = blockOf(tile);
    Box ob, wb;
    outputBox(b, ob);
    weightBox(b, wb);
    int64_t features = b.f1 - b.f0;
    int64_t macs = features > 0 ? ob.volume() * (wb.volume() / features) : 0;
    return {vectorCycles(2 * macs, rates.vectorWidth(dtype)), 2 * macs};
  }

  Error run(int64_t tile, ArrayRef<TileOperand> ins,
            ArrayRef<TileOperand> outs) const override;

private:
  /// The box holding input element `at` and the `len` channels after it,
  /// trying `hint` (the last one found) first.
  const Box *boxFor(int64_t tile, ArrayRef<int64_t> at, int64_t len,
                    const Box *hint) const {
    auto fits = [&](const Box &b) {
      return b.contains(at) && at[in.second] + len <= b.hi[in.second];
    };
    if (hint && fits(*hint))
      return hint;
    for (const Box &candidate : boxes[tile])
      if (fits(candidate))
        return &candidate;
    return nullptr;
  }

  /// Floats: per group of output features, the block's input patches
  /// (positions x window x channels, zeros for padding) times the weights
  /// (window x channels x features) by Eigen's GEMM, in chunks of positions
  /// so the patch matrix stays small.
  template <typename T, typename C, typename O>
  Error computeGemm(int64_t tile, const Block &b, const Box &ob,
                    const Box &wb, const T *input, const T *weights,
                    O *out) const {
    using Matrix = Eigen::Matrix<C, Eigen::Dynamic, Eigen::Dynamic,
                                 Eigen::RowMajor>;
    size_t S = dims.size(), inRank = in.spatial.size() + 2;
    int64_t window = 1;
    for (const WindowDim &d : dims)
      window *= d.size;
    int64_t len = b.c1 - b.c0;
    int64_t kdim = window * len;
    // The block's positions: its output box without the feature dimension.
    Box positions = ob;
    positions.lo[res.second] = 0, positions.hi[res.second] = 1;
    positions.finish();
    int64_t numPositions = positions.volume();
    if (numPositions == 0 || len <= 0)
      return Error::success();
    int64_t chunk =
        std::clamp<int64_t>((int64_t(1) << 20) / std::max<int64_t>(kdim, 1),
                            1, numPositions);
    int64_t wStrideC = wb.strides[ker.first], wStrideF = wb.strides[ker.second];
    SmallVector<int64_t, 6> o(ob.lo.begin(), ob.lo.end()), at(inRank), k(S);
    for (int64_t g = b.f0 / perGroup; g * perGroup < b.f1; ++g) {
      int64_t fLo = std::max(b.f0, g * perGroup);
      int64_t fHi = std::min(b.f1, (g + 1) * perGroup);
      int64_t fg = fHi - fLo;
      int64_t c0 = b.c0 + (featureGroups > 1 ? g * Cg : 0);
      int64_t batchOffset = batchGroups > 1 ? g * B : 0;
      // Weights: row (window position, channel), column feature.
      Matrix W(kdim, fg);
      std::fill(k.begin(), k.end(), 0);
      for (int64_t kw = 0; kw < window; ++kw) {
        int64_t w = 0;
        for (size_t s = 0; s < S; ++s) {
          int64_t kp = reversed[s] ? dims[s].size - 1 - k[s] : k[s];
          w += kp * wb.strides[ker.spatial[s]];
        }
        for (int64_t c = 0; c < len; ++c)
          for (int64_t j = 0; j < fg; ++j)
            W(kw * len + c, j) = static_cast<C>(
                weights[w + c * wStrideC + (fLo + j - b.f0) * wStrideF]);
        for (int64_t s = int64_t(S) - 1; s >= 0; --s) {
          if (++k[s] < dims[s].size)
            break;
          k[s] = 0;
        }
      }
      const Box *hint = nullptr;
      for (int64_t p0 = 0; p0 < numPositions; p0 += chunk) {
        int64_t rows = std::min(chunk, numPositions - p0);
        Matrix A = Matrix::Zero(rows, kdim);
        std::vector<int64_t> outBase(rows);
        for (int64_t r = 0; r < rows; ++r) {
          // Position p0 + r's output coordinates.
          int64_t p = p0 + r;
          for (int64_t d = int64_t(o.size()) - 1; d >= 0; --d) {
            int64_t extent = positions.hi[d] - positions.lo[d];
            o[d] = positions.lo[d] + p % extent;
            p /= extent;
          }
          o[res.second] = fLo;
          outBase[r] = ob.localOf(o);
          at[in.first] = o[res.first] + batchOffset;
          at[in.second] = c0;
          std::fill(k.begin(), k.end(), 0);
          for (int64_t kw = 0; kw < window; ++kw) {
            bool padding = false;
            for (size_t s = 0; s < S && !padding; ++s) {
              int64_t i = dims[s].input(o[res.spatial[s]], k[s]);
              padding = i < 0;
              at[in.spatial[s]] = i;
            }
            if (!padding) {
              const Box *box = boxFor(tile, at, len, hint);
              if (!box)
                return findInput(tile, {}, at).takeError();
              hint = box;
              const T *x = input + box->localOf(at);
              int64_t xs = box->strides[in.second];
              C *row = &A(r, kw * len);
              for (int64_t c = 0; c < len; ++c)
                row[c] = static_cast<C>(x[c * xs]);
            }
            for (int64_t s = int64_t(S) - 1; s >= 0; --s) {
              if (++k[s] < dims[s].size)
                break;
              k[s] = 0;
            }
          }
        }
        Matrix R = A * W;
        int64_t fStride = ob.strides[res.second];
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t j = 0; j < fg; ++j)
            out[outBase[r] + j * fStride] = static_cast<O>(R(r, j));
      }
    }
    return Error::success();
  }

  /// Integers: one output at a time, accumulating in int64 (wrapping as
  /// HLO's convolution does).
  template <typename T, typename C, typename Acc, typename O>
  Error compute(int64_t tile, const Block &b, const Box &ob, const Box &wb,
                const T *input, const T *weights, O *out) const {
    size_t S = dims.size(), inRank = in.spatial.size() + 2;
    SmallVector<int64_t, 6> o(ob.lo.begin(), ob.lo.end()), at(inRank),
        k(S, 0);
    int64_t volume = ob.volume();
    int64_t wStrideC = wb.strides[ker.first];
    for (int64_t e = 0; e < volume; ++e) {
      int64_t n = o[res.first], f = o[res.second];
      int64_t g = f / perGroup;
      at[in.first] = n + (batchGroups > 1 ? g * B : 0);
      int64_t c0 = b.c0 + (featureGroups > 1 ? g * Cg : 0);
      int64_t len = b.c1 - b.c0;
      Acc acc = 0;
      std::fill(k.begin(), k.end(), 0);
      bool more = true;
      while (more) {
        bool padding = false;
        int64_t w = (f - b.f0) * wb.strides[ker.second];
        for (size_t s = 0; s < S && !padding; ++s) {
          int64_t i = dims[s].input(o[res.spatial[s]], k[s]);
          padding = i < 0;
          at[in.spatial[s]] = i;
          int64_t kp = reversed[s] ? dims[s].size - 1 - k[s] : k[s];
          w += kp * wb.strides[ker.spatial[s]];
        }
        if (!padding) {
          at[in.second] = c0;
          const Box *box = nullptr;
          for (const Box &candidate : boxes[tile])
            if (candidate.contains(at) &&
                c0 + len <= candidate.hi[in.second]) {
              box = &candidate;
              break;
            }
          if (!box)
            return findInput(tile, {}, at).takeError();
          const T *x = input + box->localOf(at);
          const T *y = weights + w;
          int64_t xs = box->strides[in.second];
          for (int64_t c = 0; c < len; ++c)
            acc += static_cast<Acc>(static_cast<C>(x[c * xs])) *
                   static_cast<Acc>(static_cast<C>(y[c * wStrideC]));
        }
        more = false;
        for (int64_t s = int64_t(S) - 1; s >= 0; --s) {
          if (++k[s] < dims[s].size) {
            more = true;
            break;
          }
          k[s] = 0;
        }
      }
      out[e] = static_cast<O>(static_cast<C>(acc));
      for (int64_t d = int64_t(o.size()) - 1; d >= 0; --d) {
        if (++o[d] < ob.hi[d])
          break;
        o[d] = ob.lo[d];
      }
    }
    return Error::success();
  }
};

// Out of the class: clang 19 does not instantiate member templates that a
// generic lambda in an earlier in-class member calls (the fuzz build links
// this file with clang).
Error ConvPartialVertex::run(int64_t tile, ArrayRef<TileOperand> ins,
                             ArrayRef<TileOperand> outs) const {
  if (tile >= int64_t(boxes.size()))
    return createStringError("tile " + Twine(tile) + " is not in the grid");
  Block b = blockOf(tile);
  Box ob, wb;
  outputBox(b, ob);
  weightBox(b, wb);
  if (outs[0].elements() != ob.volume() || ins[1].elements() != wb.volume())
    return createStringError("tile " + Twine(tile) + ": holds " +
                             Twine(outs[0].elements()) + " outputs and " +
                             Twine(ins[1].elements()) + " weights, its block " +
                             Twine(ob.volume()) + " and " + Twine(wb.volume()));
  return dispatchStorage(dtype, [&](auto t) -> Error {
    using T = decltype(t);
    using C = ComputeT<T>;
    using Acc = std::conditional_t<std::is_floating_point_v<C>, C, int64_t>;
    if constexpr (!std::is_floating_point_v<C>)
      return compute<T, C, Acc, T>(tile, b, ob, wb, ins[0].as<T>(),
                                   ins[1].as<T>(), outs[0].as<T>());
    else if constexpr (!std::is_same_v<T, C>)
      if (wideOut)
        return computeGemm<T, C, float>(tile, b, ob, wb, ins[0].as<T>(),
                                        ins[1].as<T>(), outs[0].as<float>());
    if constexpr (std::is_floating_point_v<C>)
      return computeGemm<T, C, T>(tile, b, ob, wb, ins[0].as<T>(),
                                  ins[1].as<T>(), outs[0].as<T>());
    return Error::success();
  });
}

} // namespace

VertexResult createReduceWindow(const VertexSpec &spec, StringRef op) {
  if (Error err = spec.expectOperands(2, 1))
    return std::move(err);
  if (Error err = expectSameType(spec))
    return std::move(err);
  auto v = std::make_unique<ReduceWindowVertex>();
  v->reducer = parseReducer(op);
  v->dtype = spec.out(0).dtype;
  if ((v->reducer == Reducer::And || v->reducer == Reducer::Or) &&
      isFloat(v->dtype))
    return spec.error("a logical reducer on " + dtypeName(v->dtype));
  v->outShape = spec.out(0).shape;
  size_t rank = v->outShape.size();
  auto count = spec.requireInts("grid", rank);
  auto block = spec.requireInts("block", rank);
  auto window = spec.requireInts("window_dimensions", rank);
  auto inShape = spec.requireInts("input_shape", rank);
  auto flat = spec.requireInts("input_boxes");
  if (!count)
    return count.takeError();
  if (!block)
    return block.takeError();
  if (!window)
    return window.takeError();
  if (!inShape)
    return inShape.takeError();
  if (!flat)
    return flat.takeError();
  v->count = *count;
  v->block = *block;
  int64_t tiles = 1;
  for (size_t d = 0; d < rank; ++d) {
    if (v->count[d] <= 0 || v->block[d] <= 0 ||
        v->count[d] * v->block[d] < v->outShape[d])
      return spec.error("grid and block do not cover dimension " + Twine(d));
    tiles *= v->count[d];
  }
  if (tiles > spec.program.numTiles())
    return spec.error("a grid of " + Twine(tiles) + " tiles");
  if (Error err = readWindow(spec, v->dims, *window, *inShape,
                             "window_strides", "base_dilations",
                             "window_dilations"))
    return std::move(err);
  auto boxes = readBoxes(spec, *flat, tiles, *inShape, /*counted=*/false);
  if (!boxes)
    return boxes.takeError();
  v->boxes = std::move(*boxes);
  return std::unique_ptr<Vertex>(std::move(v));
}

VertexResult createConvPartial(const VertexSpec &spec) {
  if (Error err = spec.expectOperands(2, 1))
    return std::move(err);
  Expected<bool> wide = expectPartialsOutput(spec);
  if (!wide)
    return wide.takeError();
  auto v = std::make_unique<ConvPartialVertex>();
  v->dtype = spec.in(0).dtype;
  v->wideOut = *wide;
  std::optional<std::string> labels = spec.getString("dim_labels");
  if (!labels)
    return spec.error("missing string parameter 'dim_labels'");
  auto [operands, output] = StringRef(*labels).split("->");
  auto [input, kernel] = operands.split('_');
  auto inPart = parsePart(input, 'b', 'f'), kerPart = parsePart(kernel, 'i', 'o'),
       outPart = parsePart(output, 'b', 'f');
  if (!inPart || !kerPart || !outPart ||
      inPart->spatial.size() != kerPart->spatial.size() ||
      inPart->spatial.size() != outPart->spatial.size())
    return spec.error("bad dim_labels '" + *labels + "'");
  v->in = *inPart, v->ker = *kerPart, v->res = *outPart;
  size_t S = v->in.spatial.size(), rank = S + 2;
  auto grid = spec.requireInts("grid", 5);
  auto block = spec.requireInts("block", 5);
  auto inShape = spec.requireInts("input_shape", rank);
  auto kShape = spec.requireInts("kernel_shape", rank);
  auto oShape = spec.requireInts("output_shape", rank);
  auto flat = spec.requireInts("input_boxes");
  if (!grid)
    return grid.takeError();
  if (!block)
    return block.takeError();
  if (!inShape)
    return inShape.takeError();
  if (!kShape)
    return kShape.takeError();
  if (!oShape)
    return oShape.takeError();
  if (!flat)
    return flat.takeError();
  v->grid = *grid, v->block = *block, v->kernelShape = *kShape,
  v->outShape = *oShape;
  int64_t tiles = 1;
  for (int i = 0; i < 5; ++i) {
    if (v->grid[i] <= 0 || v->block[i] <= 0)
      return spec.error("grid and block must be positive");
    tiles *= v->grid[i];
  }
  if (tiles > spec.program.numTiles())
    return spec.error("a grid of " + Twine(tiles) + " tiles");
  v->B = v->outShape[v->res.first];
  v->F = v->outShape[v->res.second];
  v->Cg = v->kernelShape[v->ker.first];
  v->featureGroups = spec.getInt("feature_group_count").value_or(1);
  v->batchGroups = spec.getInt("batch_group_count").value_or(1);
  int64_t groups = std::max(v->featureGroups, v->batchGroups);
  if (groups <= 0 || v->F % groups || v->Cg <= 0)
    return spec.error("the group count does not divide the output features");
  v->perGroup = v->F / groups;
  SmallVector<int64_t, 4> window, inputSizes;
  for (size_t s = 0; s < S; ++s) {
    window.push_back(v->kernelShape[v->ker.spatial[s]]);
    inputSizes.push_back((*inShape)[v->in.spatial[s]]);
  }
  if (Error err = readWindow(spec, v->dims, window, inputSizes,
                             "window_strides", "lhs_dilation", "rhs_dilation"))
    return std::move(err);
  std::vector<int64_t> rev =
      spec.getInts("window_reversal").value_or(std::vector<int64_t>(S, 0));
  if (rev.size() != S)
    return spec.error("window_reversal has " + Twine(rev.size()) +
                      " values for " + Twine(S) + " spatial dimensions");
  for (int64_t r : rev)
    v->reversed.push_back(r != 0);
  auto boxes = readBoxes(spec, *flat, tiles, *inShape, /*counted=*/true);
  if (!boxes)
    return boxes.takeError();
  v->boxes = std::move(*boxes);
  return std::unique_ptr<Vertex>(std::move(v));
}

} // namespace tessera::runtime
