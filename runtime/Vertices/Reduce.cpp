//===- Reduce.cpp - reduce-partial.OP and reduce.OP -----------------------===//
//
// A reduction runs in two compute sets around an exchange (LowerReduce.cpp):
//  - reduce-partial.OP: each tile combines its input elements into one slot
//    per output element they reduce to, slots in the order the tile's
//    elements (ascending) first reach each output;
//  - reduce.OP: each output's tile combines the slots gathered for it with
//    the init value (the second input, one replicated element per tile).
//    `partials_per_output_runs` = [count, outputs, ...] gives the slots per
//    output in output order, slots output-major. Without the init (batch
//    norm's gradient sums) the slots alone are combined. The K-split sums
//    of matmul and convolution instead give `partials_per_output` = pk
//    with slots slice-major ([pk, outputs on the tile]) and no init.
//
//===----------------------------------------------------------------------===//

#include "Reducer.h"
#include "VertexLibrary.h"

using namespace llvm;

namespace tessera::runtime {
namespace {

class ReducePartialVertex : public Vertex {
public:
  Reducer reducer = Reducer::Add;
  DType dtype = DType::F32;
  std::vector<int64_t> inShape;
  std::vector<bool> reduced;
  std::vector<int64_t> outStrides; ///< per input dim, 0 when reduced

  /// One combine per input element.
  TileWork work(const ComputeRates &rates, int64_t, ArrayRef<TileOperand> ins,
                ArrayRef<TileOperand>) const override {
    int64_t n = ins.empty() ? 0 : ins[0].elements();
    return {vectorCycles(n, rates.vectorWidth(dtype)), n};
  }

  Error run(int64_t tile, ArrayRef<TileOperand> ins,
            ArrayRef<TileOperand> outs) const override {
    return dispatchStorage(dtype, [&](auto t) -> Error {
      using T = decltype(t);
      using C = ComputeT<T>;
      const T *in = ins[0].as<T>();
      T *slots = outs[0].as<T>();
      int64_t numSlots = outs[0].elements();
      // Output of each element, and its slot by first appearance. The
      // tile's outputs are few; a small map from output to slot suffices.
      DenseMap<int64_t, int64_t> slotOf;
      std::vector<C> acc;
      int64_t rank = inShape.size();
      SmallVector<int64_t, 8> idx(rank);
      for (const Interval &iv : ins[0].share->intervals) {
        int64_t rest = iv.begin, o = 0;
        for (int64_t d = rank - 1; d >= 0; --d) {
          idx[d] = rest % inShape[d];
          rest /= inShape[d];
          o += idx[d] * outStrides[d];
        }
        int64_t lastOutput = -1, lastSlot = -1;
        for (int64_t e = iv.begin; e < iv.end; ++e) {
          if (o != lastOutput) {
            auto [it, fresh] = slotOf.try_emplace(o, acc.size());
            lastOutput = o, lastSlot = it->second;
            if (fresh)
              acc.push_back(static_cast<C>(in[iv.local + e - iv.begin]));
            else
              acc[lastSlot] = combine<C>(
                  reducer, acc[lastSlot],
                  static_cast<C>(in[iv.local + e - iv.begin]));
          } else {
            acc[lastSlot] = combine<C>(
                reducer, acc[lastSlot],
                static_cast<C>(in[iv.local + e - iv.begin]));
          }
          for (int64_t d = rank - 1; d >= 0; --d) {
            o += outStrides[d];
            if (++idx[d] < inShape[d])
              break;
            o -= outStrides[d] * inShape[d];
            idx[d] = 0;
          }
        }
      }
      if (static_cast<int64_t>(acc.size()) != numSlots)
        return createStringError("tile " + Twine(tile) + ": its inputs reach " +
                                 Twine(acc.size()) + " outputs, but it has " +
                                 Twine(numSlots) + " partial slots");
      for (int64_t s = 0; s < numSlots; ++s)
        slots[s] = static_cast<T>(acc[s]);
      return Error::success();
    });
  }
};

class ReduceVertex : public Vertex {
public:
  Reducer reducer = Reducer::Add;
  DType dtype = DType::F32;
  bool hasInit = false;
  /// Slice-major slots, this many per output (matmul / conv K split).
  int64_t perOutput = 0;
  /// Otherwise output-major: the first slot of each output (size n + 1).
  std::vector<int64_t> firstSlot;
  /// 16-bit float outputs from f32 slots (a split contraction's partials).
  bool wideSlots = false;

  /// One combine per input element.
  TileWork work(const ComputeRates &rates, int64_t, ArrayRef<TileOperand> ins,
                ArrayRef<TileOperand>) const override {
    int64_t n = ins.empty() ? 0 : ins[0].elements();
    return {vectorCycles(n, rates.vectorWidth(dtype)), n};
  }

  /// Combines the perOutput slice-major slots of each of the n outputs.
  template <typename S, typename T>
  void sumSlices(const S *slots, T *out, int64_t n) const {
    using C = ComputeT<T>;
    for (int64_t j = 0; j < n; ++j) {
      C acc = static_cast<C>(slots[j]);
      for (int64_t p = 1; p < perOutput; ++p)
        acc = combine<C>(reducer, acc, static_cast<C>(slots[p * n + j]));
      out[j] = static_cast<T>(acc);
    }
  }

  Error run(int64_t tile, ArrayRef<TileOperand> ins,
            ArrayRef<TileOperand> outs) const override {
    return dispatchStorage(dtype, [&](auto t) -> Error {
      using T = decltype(t);
      using C = ComputeT<T>;
      const T *slots = ins[0].as<T>();
      T *out = outs[0].as<T>();
      int64_t n = outs[0].elements();
      if (perOutput > 0) {
        if (ins[0].elements() != perOutput * n)
          return createStringError("tile " + Twine(tile) + ": " +
                                   Twine(ins[0].elements()) + " slots for " +
                                   Twine(n) + " outputs x " +
                                   Twine(perOutput));
        if constexpr (!std::is_same_v<T, C>)
          if (wideSlots) {
            sumSlices(ins[0].as<float>(), out, n);
            return Error::success();
          }
        sumSlices(slots, out, n);
        return Error::success();
      }
      C init = hasInit ? static_cast<C>(ins[1].as<T>()[0])
                       : identity<C>(reducer);
      int64_t slot = 0;
      for (const Interval &iv : outs[0].share->intervals)
        for (int64_t o = iv.begin; o < iv.end; ++o) {
          int64_t count = firstSlot[o + 1] - firstSlot[o];
          if (slot + count > ins[0].elements())
            return createStringError("tile " + Twine(tile) +
                                     ": too few gathered slots");
          // Without an init, the first slot starts the sum, as the K-split
          // form does (no identity rounding in between).
          int64_t k = 0;
          C acc = init;
          if (!hasInit && count > 0)
            acc = static_cast<C>(slots[slot + k++]);
          for (; k < count; ++k)
            acc = combine<C>(reducer, acc, static_cast<C>(slots[slot + k]));
          slot += count;
          out[iv.local + o - iv.begin] = static_cast<T>(acc);
        }
      if (slot != ins[0].elements())
        return createStringError("tile " + Twine(tile) + ": " +
                                 Twine(ins[0].elements() - slot) +
                                 " gathered slots left unused");
      return Error::success();
    });
  }
};

Error checkReducerType(const VertexSpec &spec, Reducer r, DType t) {
  if ((r == Reducer::And || r == Reducer::Or) && isFloat(t))
    return spec.error("a logical reducer on " + dtypeName(t));
  return Error::success();
}

} // namespace

bool isReducer(StringRef op) { return parseReducer(op) != Reducer::Invalid; }

VertexResult createReducePartial(const VertexSpec &spec, StringRef op) {
  if (Error err = spec.expectOperands(1, 1))
    return std::move(err);
  if (Error err = expectSameType(spec))
    return std::move(err);
  auto v = std::make_unique<ReducePartialVertex>();
  v->reducer = parseReducer(op);
  v->dtype = spec.out(0).dtype;
  if (Error err = checkReducerType(spec, v->reducer, v->dtype))
    return std::move(err);
  v->inShape = spec.in(0).shape;
  Expected<std::vector<int64_t>> dims = spec.requireInts("dimensions");
  if (!dims)
    return dims.takeError();
  int64_t rank = v->inShape.size();
  v->reduced.assign(rank, false);
  for (int64_t d : *dims) {
    if (d < 0 || d >= rank || v->reduced[d])
      return spec.error("dimensions names dimension " + Twine(d) + " of a rank-" +
                        Twine(rank) + " input");
    v->reduced[d] = true;
  }
  std::vector<int64_t> outShape;
  for (int64_t d = 0; d < rank; ++d)
    if (!v->reduced[d])
      outShape.push_back(v->inShape[d]);
  std::vector<int64_t> strides = rowMajorStrides(outShape);
  v->outStrides.assign(rank, 0);
  for (int64_t d = 0, k = 0; d < rank; ++d)
    if (!v->reduced[d])
      v->outStrides[d] = strides[k++];
  return std::unique_ptr<Vertex>(std::move(v));
}

VertexResult createReduce(const VertexSpec &spec, StringRef op) {
  auto v = std::make_unique<ReduceVertex>();
  v->reducer = parseReducer(op);
  v->dtype = spec.out(0).dtype;
  if (Error err = checkReducerType(spec, v->reducer, v->dtype))
    return std::move(err);
  if (std::optional<int64_t> pk = spec.getInt("partials_per_output")) {
    if (Error err = spec.expectOperands(1, 1))
      return std::move(err);
    if (*pk <= 0)
      return spec.error("partials_per_output must be positive");
    v->perOutput = *pk;
    // A 16-bit float contraction's partials may be f32.
    v->wideSlots = spec.in(0).dtype == DType::F32 &&
                   (v->dtype == DType::F16 || v->dtype == DType::BF16);
    if (!v->wideSlots)
      if (Error err = expectSameType(spec))
        return std::move(err);
    return std::unique_ptr<Vertex>(std::move(v));
  }
  if (Error err = expectSameType(spec))
    return std::move(err);
  // The init is optional: batch norm's per-feature sums have none.
  if (spec.numIns() != 1)
    if (Error err = spec.expectOperands(2, 1))
      return std::move(err);
  if (spec.numOuts() != 1)
    return spec.expectOperands(1, 1);
  Expected<std::vector<int64_t>> first = readFirstSlots(spec);
  if (!first)
    return first.takeError();
  v->firstSlot = std::move(*first);
  v->hasInit = spec.numIns() == 2;
  return std::unique_ptr<Vertex>(std::move(v));
}

} // namespace tessera::runtime
