//===- Matmul.cpp - matmul-partial ----------------------------------------===//
//
// A matmul-partial vertex multiplies the tile's lhs block [bb, bm, bk] by its
// rhs block [bb, bk, bn] into its output block [bb, bm, bn] (the result's
// elements on the tile, or its slot of the K-split partials); `block` is
// [bb, bm, bn, bk]. Float blocks use Eigen's GEMM (16-bit floats through a
// float copy, rounded once on store, or not at all into f32 partials);
// integer blocks wrap as HLO's dot does.
//
//===----------------------------------------------------------------------===//

#include "VertexLibrary.h"

#include <Eigen/Dense>

using namespace llvm;

namespace tessera::runtime {
namespace {

class MatmulPartialVertex : public Vertex {
public:
  int64_t bb = 0, bm = 0, bn = 0, bk = 0;
  DType dtype = DType::F32;
  /// 16-bit float inputs into f32 partials.
  bool wideOut = false;

  Error run(int64_t tile, ArrayRef<TileOperand> ins,
            ArrayRef<TileOperand> outs) const override {
    if (ins[0].elements() != bb * bm * bk ||
        ins[1].elements() != bb * bk * bn || outs[0].elements() != bb * bm * bn)
      return createStringError(
          "tile " + Twine(tile) + ": blocks of " + Twine(ins[0].elements()) +
          ", " + Twine(ins[1].elements()) + " and " +
          Twine(outs[0].elements()) + " elements do not match block [" +
          Twine(bb) + ", " + Twine(bm) + ", " + Twine(bn) + ", " + Twine(bk) +
          "]");
    return dispatchStorage(dtype, [&](auto t) {
      using T = decltype(t);
      if constexpr (!std::is_same_v<T, ComputeT<T>>)
        if (wideOut) {
          multiply<T, float>(ins[0].as<T>(), ins[1].as<T>(),
                             outs[0].as<float>());
          return Error::success();
        }
      multiply<T, T>(ins[0].as<T>(), ins[1].as<T>(), outs[0].as<T>());
      return Error::success();
    });
  }

  TileWork work(const ComputeRates &rates, int64_t, ArrayRef<TileOperand>,
                ArrayRef<TileOperand>) const override {
    // The matrix unit works on whole [m, n, k] blocks: padding costs
    // cycles but does no useful FLOPs.
    int64_t macs = bb * bm * bn * bk;
    if (!rates.onMatrixUnit(dtype))
      return {vectorCycles(macs, rates.vectorWidth(dtype)), 2 * macs};
    const MatrixUnit &unit = rates.matrixUnit();
    int64_t padded = matmulFit(bb, bm, bn, bk, unit).paddedMacs();
    return {vectorCycles(padded, unit.macsPerCycle()), 2 * macs};
  }

private:
  template <typename T, typename O>
  void multiply(const T *lhs, const T *rhs, O *out) const {
    using C = ComputeT<T>;
    using Matrix =
        Eigen::Matrix<C, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    for (int64_t b = 0; b < bb; ++b) {
      const T *l = lhs + b * bm * bk;
      const T *r = rhs + b * bk * bn;
      O *o = out + b * bm * bn;
      if constexpr (std::is_same_v<T, C> && std::is_floating_point_v<C>) {
        Eigen::Map<const Matrix> L(l, bm, bk), R(r, bk, bn);
        Eigen::Map<Matrix> Out(o, bm, bn);
        Out.noalias() = L * R;
      } else if constexpr (std::is_floating_point_v<C>) {
        // 16-bit floats: widen, multiply in float, round once.
        Matrix L(bm, bk), R(bk, bn);
        for (int64_t i = 0; i < bm * bk; ++i)
          L.data()[i] = static_cast<C>(l[i]);
        for (int64_t i = 0; i < bk * bn; ++i)
          R.data()[i] = static_cast<C>(r[i]);
        Matrix Out = L * R;
        for (int64_t i = 0; i < bm * bn; ++i)
          o[i] = static_cast<O>(Out.data()[i]);
      } else {
        using U = std::make_unsigned_t<T>;
        for (int64_t i = 0; i < bm; ++i)
          for (int64_t j = 0; j < bn; ++j) {
            U acc = 0;
            for (int64_t k = 0; k < bk; ++k)
              acc += U(l[i * bk + k]) * U(r[k * bn + j]);
            o[i * bn + j] = T(acc);
          }
      }
    }
  }
};

} // namespace

VertexResult createMatmulPartial(const VertexSpec &spec) {
  if (Error err = spec.expectOperands(2, 1))
    return std::move(err);
  Expected<bool> wide = expectPartialsOutput(spec);
  if (!wide)
    return wide.takeError();
  Expected<std::vector<int64_t>> block = spec.requireInts("block", 4);
  if (!block)
    return block.takeError();
  auto v = std::make_unique<MatmulPartialVertex>();
  v->bb = (*block)[0], v->bm = (*block)[1], v->bn = (*block)[2],
  v->bk = (*block)[3];
  v->dtype = spec.in(0).dtype;
  v->wideOut = *wide;
  if (v->bb <= 0 || v->bm <= 0 || v->bn <= 0 || v->bk <= 0 ||
      v->dtype == DType::Pred)
    return spec.error("bad block or element type");
  return std::unique_ptr<Vertex>(std::move(v));
}

} // namespace tessera::runtime
