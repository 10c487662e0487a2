//===- Sort.cpp - sort ----------------------------------------------------===//
//
// A sort vertex sorts every row along `dimension` that its tile holds (the
// lowering keeps rows whole on one tile, LowerSort.cpp) by the first
// operand, with `direction` as the comparator applied to (a, b), and
// permutes the other operands with it. The sort is stable whether or not
// `is_stable` is set (a stable order is always a valid result, and it is
// the reference interpreter's). The lowering keeps any other comparator on
// the host, so a sort without a direction is a malformed executable.
//
//===----------------------------------------------------------------------===//

#include "VertexLibrary.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstring>
#include <numeric>

using namespace llvm;

namespace tessera::runtime {
namespace {

enum class Direction { LT, LE, GT, GE, EQ, NE };

class SortVertex : public Vertex {
public:
  int64_t dimension = 0, length = 0, stride = 0;
  Direction direction = Direction::LT;
  DType keyType = DType::F32;
  std::vector<int64_t> shape;

  /// A comparison sort of each row: length * ceil(log2 length) compares
  /// per row, one at a time (data-dependent branches do not vectorize).
  TileWork work(const ComputeRates &, int64_t, ArrayRef<TileOperand> ins,
                ArrayRef<TileOperand>) const override {
    int64_t rows = length > 0 ? ins[0].elements() / length : 0;
    int64_t depth = length > 1 ? llvm::Log2_64_Ceil(uint64_t(length)) : 0;
    return {rows * length * depth, 0};
  }

  Error run(int64_t tile, ArrayRef<TileOperand> ins,
            ArrayRef<TileOperand> outs) const override {
    // Every held element with coordinate 0 along the dimension starts a row.
    std::vector<int64_t> rows;
    for (const Interval &iv : ins[0].share->intervals)
      for (int64_t e = iv.begin; e < iv.end; ++e)
        if ((e / stride) % length == 0)
          rows.push_back(e);
    std::vector<int64_t> local(length), order(length);
    return dispatchStorage(keyType, [&](auto t) -> Error {
      using T = decltype(t);
      using C = ComputeT<T>;
      const T *keys = ins[0].as<T>();
      auto less = [&](int64_t a, int64_t b) {
        C x = static_cast<C>(keys[local[a]]), y = static_cast<C>(keys[local[b]]);
        switch (direction) {
        case Direction::LT:
          return x < y;
        case Direction::LE:
          return x <= y;
        case Direction::GT:
          return x > y;
        case Direction::GE:
          return x >= y;
        case Direction::EQ:
          return x == y;
        case Direction::NE:
          return x != y;
        }
        return false;
      };
      for (int64_t base : rows) {
        for (int64_t j = 0; j < length; ++j) {
          local[j] = ins[0].share->localOf(base + j * stride);
          if (local[j] < 0)
            return createStringError(
                "tile " + Twine(tile) + ": holds part of the row at element " +
                Twine(base) + " of " + ins[0].buffer->describe() +
                " but not its element " + Twine(base + j * stride));
        }
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), less);
        for (size_t v = 0; v < ins.size(); ++v) {
          int64_t bytes = ins[v].buffer->elementBytes;
          for (int64_t j = 0; j < length; ++j) {
            int64_t to = outs[v].share->localOf(base + j * stride);
            int64_t from = ins[v].share->localOf(base + order[j] * stride);
            if (to < 0 || from < 0)
              return createStringError(
                  "tile " + Twine(tile) + ": operand " + Twine(v) +
                  " or its result is not laid out like the keys");
            std::memcpy(outs[v].data + to * bytes, ins[v].data + from * bytes,
                        bytes);
          }
        }
      }
      return Error::success();
    });
  }
};

} // namespace

VertexResult createSort(const VertexSpec &spec) {
  Expected<int64_t> n = spec.requireInt("num_operands");
  if (!n)
    return n.takeError();
  if (*n <= 0)
    return spec.error("num_operands must be positive");
  if (Error err = spec.expectOperands(*n, *n))
    return std::move(err);
  auto v = std::make_unique<SortVertex>();
  v->shape = spec.in(0).shape;
  for (int64_t i = 0; i < *n; ++i)
    if (spec.in(i).shape != v->shape || spec.out(i).shape != v->shape ||
        spec.in(i).dtype != spec.out(i).dtype)
      return spec.error("operand " + Twine(i) + " " + spec.in(i).describe() +
                        " does not match its result or the keys' shape");
  Expected<int64_t> dim = spec.requireInt("dimension");
  if (!dim)
    return dim.takeError();
  if (*dim < 0 || *dim >= int64_t(v->shape.size()))
    return spec.error("dimension " + Twine(*dim) + " of a rank-" +
                      Twine(v->shape.size()) + " operand");
  v->dimension = *dim;
  v->length = v->shape[*dim];
  v->stride = rowMajorStrides(v->shape)[*dim];
  v->keyType = spec.in(0).dtype;
  std::optional<std::string> dir = spec.getString("direction");
  if (!dir)
    return spec.error("no direction: the vertex sorts by one compare of the "
                      "keys (other comparators run on the host)");
  std::optional<Direction> d =
      StringSwitch<std::optional<Direction>>(*dir)
          .Case("LT", Direction::LT)
          .Case("LE", Direction::LE)
          .Case("GT", Direction::GT)
          .Case("GE", Direction::GE)
          .Case("EQ", Direction::EQ)
          .Case("NE", Direction::NE)
          .Default(std::nullopt);
  if (!d)
    return spec.error("unknown direction '" + *dir + "'");
  v->direction = *d;
  return std::unique_ptr<Vertex>(std::move(v));
}

} // namespace tessera::runtime
