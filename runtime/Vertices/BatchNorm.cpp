//===- BatchNorm.cpp - batch-norm.{statistics,moments,normalise,grad...} --===//
//
// Batch norm on tiles (LowerBatchNorm.cpp): the operand x stays where it
// is and each tile holding x elements has one *slot* per feature it holds,
// in ascending feature order, for its partial sums and for the per-feature
// values broadcast to it.
//  - batch-norm.statistics: x -> per-slot sum and sum of squares;
//  - batch-norm.moments: the slots gathered on each feature's owner (in
//    feature order, `partials_per_output_runs` slots per feature) -> mean
//    and (biased) variance over `count` elements;
//  - batch-norm.normalise: x, scale, offset, mean, variance slots -> y;
//  - batch-norm.grad-statistics: x, dy, mean, variance slots -> per-slot
//    sums of dy and of dy * xhat;
//  - batch-norm.grad: x, dy, mean, variance, scale, grad-scale, grad-offset
//    slots -> dx.
// Sums are taken in double and rounded once on store.
//
//===----------------------------------------------------------------------===//

#include "VertexLibrary.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace llvm;

namespace tessera::runtime {
namespace {

enum class Kind { Statistics, Moments, Normalise, GradStatistics, Grad };

class BatchNormVertex : public Vertex {
public:
  Kind kind = Kind::Normalise;
  DType dtype = DType::F32;
  int64_t featureStride = 1, numFeatures = 1;
  double epsilon = 0, count = 1;
  std::vector<int64_t> firstSlot; ///< moments: per feature, size F + 1

  Error run(int64_t tile, ArrayRef<TileOperand> ins,
            ArrayRef<TileOperand> outs) const override;

private:
  int64_t featureOf(int64_t e) const {
    return (e / featureStride) % numFeatures;
  }

  /// The slot of each feature on the tile (-1 where it holds none), and the
  /// number of slots.
  int64_t slotsOf(const TileOperand &x, std::vector<int32_t> &slot) const {
    slot.assign(numFeatures, -1);
    for (const Interval &iv : x.share->intervals)
      for (int64_t e = iv.begin; e < iv.end; ++e)
        slot[featureOf(e)] = 0;
    int32_t n = 0;
    for (int32_t &s : slot)
      if (s == 0)
        s = n++;
    return n;
  }

  template <typename T>
  Error runTyped(int64_t tile, ArrayRef<TileOperand> ins,
                 ArrayRef<TileOperand> outs) const {
    auto val = [](const TileOperand &op, int64_t i) {
      return static_cast<double>(op.as<T>()[i]);
    };
    auto put = [](const TileOperand &op, int64_t i, double v) {
      op.as<T>()[i] = static_cast<T>(static_cast<ComputeT<T>>(v));
    };
    if (kind == Kind::Moments) {
      // Owned features in ascending order; their slots follow in order.
      int64_t slot = 0;
      for (const Interval &iv : outs[0].share->intervals)
        for (int64_t f = iv.begin; f < iv.end; ++f) {
          int64_t n = firstSlot[f + 1] - firstSlot[f];
          if (slot + n > ins[0].elements())
            return createStringError("tile " + Twine(tile) +
                                     ": too few gathered slots");
          double sum = 0, squares = 0;
          for (int64_t k = 0; k < n; ++k) {
            sum += val(ins[0], slot + k);
            squares += val(ins[1], slot + k);
          }
          slot += n;
          double mean = sum / count;
          int64_t o = iv.local + f - iv.begin;
          put(outs[0], o, mean);
          put(outs[1], o, std::max(squares / count - mean * mean, 0.0));
        }
      if (slot != ins[0].elements())
        return createStringError("tile " + Twine(tile) + ": " +
                                 Twine(ins[0].elements() - slot) +
                                 " gathered slots left unused");
      return Error::success();
    }
    const TileOperand &x = ins[0];
    std::vector<int32_t> slot;
    int64_t numSlots = slotsOf(x, slot);
    // Slot operands: every input but x (and dy); slot outputs: statistics.
    bool hasDy = kind == Kind::GradStatistics || kind == Kind::Grad;
    for (size_t i = hasDy ? 2 : 1; i < ins.size(); ++i)
      if (ins[i].elements() != numSlots)
        return createStringError("tile " + Twine(tile) + ": holds " +
                                 Twine(numSlots) + " features but " +
                                 Twine(ins[i].elements()) + " slots of " +
                                 ins[i].buffer->describe());
    if (hasDy && ins[1].share->intervals.size() != x.share->intervals.size())
      return createStringError("tile " + Twine(tile) +
                               ": dy is not laid out like x");
    auto forEachX = [&](auto fn) {
      for (const Interval &iv : x.share->intervals)
        for (int64_t e = iv.begin; e < iv.end; ++e)
          fn(iv.local + e - iv.begin, slot[featureOf(e)]);
    };
    if (kind == Kind::Statistics || kind == Kind::GradStatistics) {
      for (const TileOperand &o : outs)
        if (o.elements() != numSlots)
          return createStringError("tile " + Twine(tile) + ": holds " +
                                   Twine(numSlots) + " features but " +
                                   Twine(o.elements()) + " slots of " +
                                   o.buffer->describe());
      std::vector<double> a(numSlots, 0.0), b(numSlots, 0.0);
      if (kind == Kind::Statistics)
        forEachX([&](int64_t i, int32_t s) {
          double v = val(x, i);
          a[s] += v;
          b[s] += v * v;
        });
      else
        forEachX([&](int64_t i, int32_t s) {
          double dy = val(ins[1], i);
          double inv = 1.0 / std::sqrt(val(ins[3], s) + epsilon);
          a[s] += dy;
          b[s] += dy * (val(x, i) - val(ins[2], s)) * inv;
        });
      for (int64_t s = 0; s < numSlots; ++s) {
        put(outs[0], s, a[s]);
        put(outs[1], s, b[s]);
      }
      return Error::success();
    }
    if (kind == Kind::Normalise) {
      // x, scale, offset, mean, variance
      forEachX([&](int64_t i, int32_t s) {
        double inv = 1.0 / std::sqrt(val(ins[4], s) + epsilon);
        put(outs[0], i,
            (val(x, i) - val(ins[3], s)) * inv * val(ins[1], s) +
                val(ins[2], s));
      });
      return Error::success();
    }
    // grad: x, dy, mean, variance, scale, grad-scale, grad-offset
    forEachX([&](int64_t i, int32_t s) {
      double inv = 1.0 / std::sqrt(val(ins[3], s) + epsilon);
      double xhat = (val(x, i) - val(ins[2], s)) * inv;
      put(outs[0], i,
          val(ins[4], s) * inv *
              (val(ins[1], i) - val(ins[6], s) / count -
               xhat * val(ins[5], s) / count));
    });
    return Error::success();
  }
};

// Out of the class: clang 19 does not instantiate member templates that a
// generic lambda in an earlier in-class member calls (the fuzz build links
// this file with clang).
Error BatchNormVertex::run(int64_t tile, ArrayRef<TileOperand> ins,
                           ArrayRef<TileOperand> outs) const {
  return dispatchStorage(dtype, [&](auto t) -> Error {
    using T = decltype(t);
    if constexpr (std::is_floating_point_v<ComputeT<T>>)
      return runTyped<T>(tile, ins, outs);
    else
      return createStringError("batch norm of integers");
  });
}

} // namespace

VertexResult createBatchNorm(const VertexSpec &spec, StringRef op) {
  std::optional<Kind> kind = StringSwitch<std::optional<Kind>>(op)
                                 .Case("statistics", Kind::Statistics)
                                 .Case("moments", Kind::Moments)
                                 .Case("normalise", Kind::Normalise)
                                 .Case("grad-statistics", Kind::GradStatistics)
                                 .Case("grad", Kind::Grad)
                                 .Default(std::nullopt);
  if (!kind)
    return spec.error("unknown batch-norm vertex");
  static const std::pair<size_t, size_t> operands[] = {
      {1, 2}, {2, 2}, {5, 1}, {4, 2}, {7, 1}};
  auto [ins, outs] = operands[static_cast<int>(*kind)];
  if (Error err = spec.expectOperands(ins, outs))
    return std::move(err);
  if (Error err = expectSameType(spec))
    return std::move(err);
  auto v = std::make_unique<BatchNormVertex>();
  v->kind = *kind;
  v->dtype = spec.out(0).dtype;
  if (!isFloat(v->dtype))
    return spec.error("batch norm of " + dtypeName(v->dtype));
  if (*kind == Kind::Moments || *kind == Kind::Grad) {
    Expected<int64_t> count = spec.requireInt("count");
    if (!count)
      return count.takeError();
    if (*count <= 0)
      return spec.error("count must be positive");
    v->count = static_cast<double>(*count);
  }
  if (*kind == Kind::Moments) {
    Expected<std::vector<int64_t>> first = readFirstSlots(spec);
    if (!first)
      return first.takeError();
    v->firstSlot = std::move(*first);
    return std::unique_ptr<Vertex>(std::move(v));
  }
  Expected<int64_t> f = spec.requireInt("feature_index");
  if (!f)
    return f.takeError();
  const std::vector<int64_t> &shape = spec.in(0).shape;
  if (*f < 0 || *f >= int64_t(shape.size()))
    return spec.error("feature_index " + Twine(*f) + " of a rank-" +
                      Twine(shape.size()) + " operand");
  v->numFeatures = shape[*f];
  v->featureStride = rowMajorStrides(shape)[*f];
  if (*kind != Kind::Statistics) {
    std::optional<double> eps = spec.getFloat("epsilon");
    if (!eps)
      return spec.error("missing float parameter 'epsilon'");
    v->epsilon = *eps;
  }
  if (v->numFeatures <= 0)
    return spec.error("no features");
  return std::unique_ptr<Vertex>(std::move(v));
}

} // namespace tessera::runtime
