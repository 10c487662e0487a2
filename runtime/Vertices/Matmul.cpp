//===- Matmul.cpp - matmul-partial ----------------------------------------===//
//
// A matmul-partial vertex multiplies the tile's lhs block [bb, bm, bk] by its
// rhs block [bb, bk, bn] into its output block [bb, bm, bn] (the result's
// elements on the tile, or its slot of the K-split partials); `block` is
// [bb, bm, bn, bk]. On a ragged grid (`edge` = [em, en]) the last row and
// column of the grid hold smaller blocks: a vertex takes em rows when its
// lhs holds em rows' elements, en columns likewise, and its rhs block is
// [bn, bk] (`rhs_transposed`). Float blocks use Eigen's GEMM (16-bit floats
// through a float copy, rounded once on store, or not at all into f32
// partials); integer blocks wrap as HLO's dot does. With `accumulate` a
// third input, of the output's type and layout, is added to the product:
// a contraction in passes sums each pass into its running sum in place
// (the third input and the output are then the same buffer).
//
//===----------------------------------------------------------------------===//

#include "VertexLibrary.h"

#include <Eigen/Dense>

#include <array>

using namespace llvm;

namespace tessera::runtime {
namespace {

class MatmulPartialVertex : public Vertex {
public:
  int64_t bb = 0, bm = 0, bn = 0, bk = 0;
  DType dtype = DType::F32;
  /// 16-bit float inputs into f32 partials.
  bool wideOut = false;

  /// The last block along m and n (a ragged grid), else bm and bn.
  int64_t em = 0, en = 0;
  bool rhsTransposed = false;
  /// out = ins[2] + lhs x rhs (ins[2] may be the output itself).
  bool accumulate = false;

  /// This tile's block: [bb, m, n, bk] with m in {bm, em} and n in {bn, en}
  /// as its operands hold, or an error naming the tile.
  Expected<std::array<int64_t, 2>> blockOn(int64_t tile,
                                           ArrayRef<TileOperand> ins,
                                           ArrayRef<TileOperand> outs) const {
    auto pick = [&](int64_t elements, int64_t full, int64_t edge) {
      if (elements == bb * full * bk)
        return full;
      return elements == bb * edge * bk ? edge : int64_t(-1);
    };
    int64_t m = pick(ins[0].elements(), bm, em);
    int64_t n = pick(ins[1].elements(), bn, en);
    if (m < 0 || n < 0 || outs[0].elements() != bb * m * n) {
      std::string edge;
      if (em != bm || en != bn)
        edge =
            " (edge [" + std::to_string(em) + ", " + std::to_string(en) + "])";
      return createStringError(
          "tile " + Twine(tile) + ": blocks of " + Twine(ins[0].elements()) +
          ", " + Twine(ins[1].elements()) + " and " +
          Twine(outs[0].elements()) + " elements do not match block [" +
          Twine(bb) + ", " + Twine(bm) + ", " + Twine(bn) + ", " + Twine(bk) +
          "]" + edge);
    }
    return std::array<int64_t, 2>{m, n};
  }

  Error run(int64_t tile, ArrayRef<TileOperand> ins,
            ArrayRef<TileOperand> outs) const override {
    Expected<std::array<int64_t, 2>> mn = blockOn(tile, ins, outs);
    if (!mn)
      return mn.takeError();
    auto [m, n] = *mn;
    if (accumulate && ins[2].elements() != outs[0].elements())
      return createStringError("tile " + Twine(tile) + ": the accumulated " +
                               "input has " + Twine(ins[2].elements()) +
                               " elements, the output " +
                               Twine(outs[0].elements()));
    return dispatchStorage(dtype, [&](auto t) {
      using T = decltype(t);
      if constexpr (!std::is_same_v<T, ComputeT<T>>)
        if (wideOut) {
          accumulateFrom<float>(ins, outs);
          multiply<T, float>(m, n, ins[0].as<T>(), ins[1].as<T>(),
                             outs[0].as<float>());
          return Error::success();
        }
      accumulateFrom<T>(ins, outs);
      multiply<T, T>(m, n, ins[0].as<T>(), ins[1].as<T>(), outs[0].as<T>());
      return Error::success();
    });
  }

  TileWork work(const ComputeRates &rates, int64_t tile,
                ArrayRef<TileOperand> ins,
                ArrayRef<TileOperand> outs) const override {
    // The matrix unit works on whole [m, n, k] blocks: padding costs
    // cycles but does no useful FLOPs. (run() has checked the block.)
    Expected<std::array<int64_t, 2>> mn = blockOn(tile, ins, outs);
    if (!mn) {
      consumeError(mn.takeError());
      return {};
    }
    auto [m, n] = *mn;
    int64_t macs = bb * m * n * bk;
    if (!rates.onMatrixUnit(dtype))
      return {vectorCycles(macs, rates.vectorWidth(dtype)), 2 * macs};
    const MatrixUnit &unit = rates.matrixUnit();
    int64_t padded = matmulFit(bb, m, n, bk, unit).paddedMacs();
    return {vectorCycles(padded, unit.macsPerCycle()), 2 * macs};
  }

private:
  /// Accumulating into a buffer other than the output: start the output
  /// as a copy of it (then the product is added as it is in place).
  template <typename O>
  void accumulateFrom(ArrayRef<TileOperand> ins,
                      ArrayRef<TileOperand> outs) const {
    if (accumulate && ins[2].as<O>() != outs[0].as<O>())
      std::copy_n(ins[2].as<O>(), outs[0].elements(), outs[0].as<O>());
  }

  template <typename T, typename O>
  void multiply(int64_t m, int64_t n, const T *lhs, const T *rhs,
                O *out) const {
    using C = ComputeT<T>;
    using Matrix =
        Eigen::Matrix<C, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    using ColMatrix =
        Eigen::Matrix<C, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>;
    // rhs element (k, j): row-major [bk, n], or [n, bk] when transposed.
    int64_t rk = rhsTransposed ? 1 : n, rj = rhsTransposed ? bk : 1;
    for (int64_t b = 0; b < bb; ++b) {
      const T *l = lhs + b * m * bk;
      const T *r = rhs + b * bk * n;
      O *o = out + b * m * n;
      if constexpr (std::is_same_v<T, C> && std::is_floating_point_v<C>) {
        Eigen::Map<const Matrix> L(l, m, bk);
        Eigen::Map<Matrix> Out(o, m, n);
        if (rhsTransposed && accumulate)
          Out.noalias() += L * Eigen::Map<const ColMatrix>(r, bk, n);
        else if (rhsTransposed)
          Out.noalias() = L * Eigen::Map<const ColMatrix>(r, bk, n);
        else if (accumulate)
          Out.noalias() += L * Eigen::Map<const Matrix>(r, bk, n);
        else
          Out.noalias() = L * Eigen::Map<const Matrix>(r, bk, n);
      } else if constexpr (std::is_floating_point_v<C>) {
        // 16-bit floats: widen, multiply in float, round once.
        Matrix L(m, bk), R(bk, n);
        for (int64_t i = 0; i < m * bk; ++i)
          L.data()[i] = static_cast<C>(l[i]);
        for (int64_t k = 0; k < bk; ++k)
          for (int64_t j = 0; j < n; ++j)
            R(k, j) = static_cast<C>(r[k * rk + j * rj]);
        Matrix Out = L * R;
        for (int64_t i = 0; i < m * n; ++i)
          o[i] =
              static_cast<O>(accumulate ? static_cast<C>(o[i]) + Out.data()[i]
                                        : Out.data()[i]);
      } else {
        using U = std::make_unsigned_t<T>;
        for (int64_t i = 0; i < m; ++i)
          for (int64_t j = 0; j < n; ++j) {
            U acc = accumulate ? U(o[i * n + j]) : U(0);
            for (int64_t k = 0; k < bk; ++k)
              acc += U(l[i * bk + k]) * U(r[k * rk + j * rj]);
            o[i * n + j] = T(acc);
          }
      }
    }
  }
};

} // namespace

VertexResult createMatmulPartial(const VertexSpec &spec) {
  bool accumulate = spec.hasFlag("accumulate");
  if (Error err = spec.expectOperands(accumulate ? 3 : 2, 1))
    return std::move(err);
  if (accumulate && spec.in(2).dtype != spec.out(0).dtype)
    return spec.error("the accumulated input " + spec.in(2).describe() +
                      " is not of the output's type");
  // (The accumulated input has the output's type, not the operands'.)
  Expected<bool> wide = expectPartialsOutput(spec, 2);
  if (!wide)
    return wide.takeError();
  Expected<std::vector<int64_t>> block = spec.requireInts("block", 4);
  if (!block)
    return block.takeError();
  auto v = std::make_unique<MatmulPartialVertex>();
  v->bb = (*block)[0], v->bm = (*block)[1], v->bn = (*block)[2],
  v->bk = (*block)[3];
  v->em = v->bm, v->en = v->bn;
  if (std::optional<std::vector<int64_t>> edge = spec.getInts("edge")) {
    if (edge->size() != 2 || (*edge)[0] <= 0 || (*edge)[0] > v->bm ||
        (*edge)[1] <= 0 || (*edge)[1] > v->bn)
      return spec.error("edge must be [m, n] within the block");
    v->em = (*edge)[0], v->en = (*edge)[1];
  }
  v->rhsTransposed = spec.hasFlag("rhs_transposed");
  v->accumulate = accumulate;
  v->dtype = spec.in(0).dtype;
  v->wideOut = *wide;
  if (v->bb <= 0 || v->bm <= 0 || v->bn <= 0 || v->bk <= 0 ||
      v->dtype == DType::Pred)
    return spec.error("bad block or element type");
  return std::unique_ptr<Vertex>(std::move(v));
}

} // namespace tessera::runtime
