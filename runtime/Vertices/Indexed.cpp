//===- Indexed.cpp - gather, scatter.*, dynamic-slice, dynamic-update-slice
//===//
//
// The vertices of ops indexed at run time (LowerGather.cpp,
// LowerScatter.cpp). The lowering keeps the dimensions a run-time index can
// move in whole on each tile and gives every tile the whole index buffer (or
// one copy of each start scalar), so a tile computes each of its result
// elements from elements it holds: the vertex follows HLO's index
// arithmetic per element and finds the source by its global index in the
// tile's share. A source the tile does not hold means the lowering's layout
// and the data disagree, and is an error naming the tile and the element.
// A `partial` gather is the exception: its result is [tiles, result...], a
// whole result per tile of a table split along the gathered rows, where an
// element the tile does not hold is 0 (the partials are summed after).
//
//===----------------------------------------------------------------------===//

#include "Reducer.h"
#include "VertexLibrary.h"

#include "llvm/ADT/STLExtras.h"

#include <cstring>

using namespace llvm;

namespace tessera::runtime {
namespace {

/// A row-major coordinate counter over a shape.
struct Coords {
  ArrayRef<int64_t> shape;
  SmallVector<int64_t, 8> at;
  explicit Coords(ArrayRef<int64_t> shape) : shape(shape), at(shape.size()) {}
  void set(int64_t e) {
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      at[d] = e % shape[d];
      e /= shape[d];
    }
  }
  void next() {
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++at[d] < shape[d])
        return;
      at[d] = 0;
    }
  }
};

/// Every element a tile holds: fn(global, local) in ascending order, with
/// `c` set to the element's coordinates. Stops at fn's first error.
template <typename Fn>
Error forEachHeld(const TileOperand &op, Coords &c, Fn fn) {
  for (const Interval &iv : op.share->intervals) {
    c.set(iv.begin);
    for (int64_t e = iv.begin; e < iv.end; ++e, c.next())
      if (Error err = fn(e, iv.local + e - iv.begin))
        return err;
  }
  return Error::success();
}

/// The values of an integer operand's tile part, widened.
Expected<std::vector<int64_t>> readInts(const TileOperand &op, DType dtype) {
  std::vector<int64_t> v(op.elements());
  return dispatchStorage(dtype, [&](auto t) -> Expected<std::vector<int64_t>> {
    using T = decltype(t);
    if constexpr (std::is_integral_v<T>) {
      const T *p = op.as<T>();
      for (size_t i = 0; i < v.size(); ++i)
        v[i] = static_cast<int64_t>(p[i]);
      return v;
    } else {
      return createStringError("indices are not integers");
    }
  });
}

int64_t clampStart(int64_t s, int64_t dim, int64_t size) {
  return std::clamp<int64_t>(s, 0, std::max<int64_t>(dim - size, 0));
}

Error notHeld(int64_t tile, StringRef what, int64_t e, const BufferLayout &b) {
  return createStringError("tile " + Twine(tile) + ": " + what + " element " +
                           Twine(e) + " of " + b.describe() +
                           ", which the tile does not hold");
}

/// Where the index vector of each batch position sits in the index buffer:
/// the stride of each batch dimension (in result / update order) and of
/// the index vector's component.
struct IndexAddressing {
  SmallVector<int64_t> batchStride; ///< per batch dim, in order
  int64_t componentStride = 0;
  int64_t numIndices = 1;

  int64_t components = 1; ///< entries of the index vector

  /// Reads `index_vector_dim` and `indices_shape`; the index operand
  /// (input 1) holds one copy of the indices per tile.
  Error init(const VertexSpec &spec, size_t numBatchDims) {
    Expected<int64_t> ivd = spec.requireInt("index_vector_dim");
    if (!ivd)
      return ivd.takeError();
    Expected<std::vector<int64_t>> shape = spec.requireInts("indices_shape");
    if (!shape)
      return shape.takeError();
    std::vector<int64_t> strides = rowMajorStrides(*shape);
    int64_t rank = shape->size();
    if (*ivd < 0 || *ivd > rank)
      return spec.error("index_vector_dim out of range");
    for (int64_t d = 0; d < rank; ++d) {
      numIndices *= (*shape)[d];
      if (d == *ivd)
        componentStride = strides[d], components = (*shape)[d];
      else
        batchStride.push_back(strides[d]);
    }
    if (batchStride.size() != numBatchDims)
      return spec.error("indices_shape has " + Twine(batchStride.size()) +
                        " batch dimensions, the op " + Twine(numBatchDims));
    if (numIndices <= 0 || spec.in(1).numElements % numIndices != 0)
      return spec.error("indices_shape does not match " +
                        spec.in(1).describe());
    return Error::success();
  }
};

/// The dimensions of [0, rank) not in `dims`, in order.
std::vector<int64_t> complement(ArrayRef<int64_t> dims, int64_t rank) {
  std::vector<int64_t> rest;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(dims, d))
      rest.push_back(d);
  return rest;
}

Expected<std::vector<int64_t>> requireDims(const VertexSpec &spec,
                                           StringRef name, int64_t rank) {
  Expected<std::vector<int64_t>> v = spec.requireInts(name);
  if (!v)
    return v.takeError();
  for (int64_t d : *v)
    if (d < 0 || d >= rank)
      return spec.error("'" + name + "' names dimension " + Twine(d) +
                        " of a rank-" + Twine(rank) + " operand");
  return v;
}

//===----------------------------------------------------------------------===//
// gather
//===----------------------------------------------------------------------===//

class GatherVertex : public Vertex {
public:
  std::vector<int64_t> operandShape, operandStrides, outShape, sliceSizes;
  std::vector<int64_t> batchDims;     ///< result dims indexing the indices
  std::vector<int64_t> offsetDims;    ///< result dims of the window
  std::vector<int64_t> windowDims;    ///< operand dim of each offset dim
  std::vector<int64_t> startIndexMap; ///< operand dim of each component
  IndexAddressing idx;
  DType indexType = DType::S32;
  int64_t elementBytes = 4;
  /// A partial result: the out buffer's leading dimension counts tiles and
  /// elements the tile does not hold read as 0.
  bool partial = false;

  Error run(int64_t tile, ArrayRef<TileOperand> ins,
            ArrayRef<TileOperand> outs) const override {
    if (ins[1].elements() != idx.numIndices)
      return createStringError("tile " + Twine(tile) + ": holds " +
                               Twine(ins[1].elements()) + " indices, not " +
                               Twine(idx.numIndices));
    Expected<std::vector<int64_t>> indices = readInts(ins[1], indexType);
    if (!indices)
      return indices.takeError();
    // A partial result's coordinates have the tile's slice first.
    SmallVector<int64_t, 8> shape;
    if (partial)
      shape.push_back(outs[0].buffer->shape[0]);
    shape.append(outShape.begin(), outShape.end());
    Coords c(shape);
    size_t lead = partial ? 1 : 0;
    SmallVector<int64_t, 8> start(operandShape.size());
    return forEachHeld(outs[0], c, [&](int64_t e, int64_t local) -> Error {
      int64_t base = 0;
      for (size_t b = 0; b < batchDims.size(); ++b)
        base += c.at[lead + batchDims[b]] * idx.batchStride[b];
      std::fill(start.begin(), start.end(), 0);
      for (size_t j = 0; j < startIndexMap.size(); ++j)
        start[startIndexMap[j]] = (*indices)[base + j * idx.componentStride];
      int64_t src = 0;
      for (size_t d = 0; d < operandShape.size(); ++d)
        src += clampStart(start[d], operandShape[d], sliceSizes[d]) *
               operandStrides[d];
      for (size_t j = 0; j < offsetDims.size(); ++j)
        src += c.at[lead + offsetDims[j]] * operandStrides[windowDims[j]];
      int64_t from = ins[0].share->localOf(src);
      if (from < 0 && partial) {
        std::memset(outs[0].data + local * elementBytes, 0, elementBytes);
        return Error::success();
      }
      if (from < 0)
        return notHeld(tile, "gathers", src, *ins[0].buffer);
      std::memcpy(outs[0].data + local * elementBytes,
                  ins[0].data + from * elementBytes, elementBytes);
      return Error::success();
    });
  }
};

//===----------------------------------------------------------------------===//
// scatter.COMBINER
//===----------------------------------------------------------------------===//

/// Copies the operand's tile part to the result's (same elements; the
/// lowering gives both one layout, checked per interval).
Error copyOperand(int64_t tile, const TileOperand &in, const TileOperand &out,
                  int64_t elementBytes) {
  const auto &a = in.share->intervals, &b = out.share->intervals;
  bool same = a.size() == b.size() &&
              llvm::all_of(llvm::zip(a, b), [](auto p) {
                return std::get<0>(p).begin == std::get<1>(p).begin &&
                       std::get<0>(p).end == std::get<1>(p).end;
              });
  if (!same)
    return createStringError("tile " + Twine(tile) + ": " +
                             in.buffer->describe() + " and " +
                             out.buffer->describe() +
                             " hold different elements");
  std::memcpy(out.data, in.data, out.elements() * elementBytes);
  return Error::success();
}

class ScatterVertex : public Vertex {
public:
  std::optional<Reducer> reducer; ///< none: assign
  std::vector<int64_t> operandShape, operandStrides, updateShape;
  std::vector<int64_t> scatterDims; ///< update dims indexing the indices
  std::vector<int64_t> updateWindowDims, operandWindowDims, toOperand;
  std::vector<int64_t> windowSize; ///< per operand dim
  IndexAddressing idx;
  DType indexType = DType::S32, dtype = DType::F32;
  int64_t elementBytes = 4;

  Error run(int64_t tile, ArrayRef<TileOperand> ins,
            ArrayRef<TileOperand> outs) const override {
    if (ins[1].elements() != idx.numIndices)
      return createStringError("tile " + Twine(tile) + ": holds " +
                               Twine(ins[1].elements()) + " indices, not " +
                               Twine(idx.numIndices));
    if (Error err = copyOperand(tile, ins[0], outs[0], elementBytes))
      return err;
    Expected<std::vector<int64_t>> indices = readInts(ins[1], indexType);
    if (!indices)
      return indices.takeError();
    return dispatchStorage(dtype, [&](auto t) -> Error {
      using T = decltype(t);
      using C = ComputeT<T>;
      T *out = outs[0].as<T>();
      const T *upd = ins[2].as<T>();
      Coords c(updateShape);
      SmallVector<int64_t, 8> start(operandShape.size());
      return forEachHeld(ins[2], c, [&](int64_t, int64_t local) -> Error {
        int64_t base = 0;
        for (size_t b = 0; b < scatterDims.size(); ++b)
          base += c.at[scatterDims[b]] * idx.batchStride[b];
        std::fill(start.begin(), start.end(), 0);
        for (size_t j = 0; j < toOperand.size(); ++j)
          start[toOperand[j]] = (*indices)[base + j * idx.componentStride];
        // A window that does not fit in the operand is skipped whole.
        int64_t dst = 0;
        for (size_t d = 0; d < operandShape.size(); ++d) {
          if (start[d] < 0 || start[d] + windowSize[d] > operandShape[d])
            return Error::success();
          dst += start[d] * operandStrides[d];
        }
        for (size_t j = 0; j < updateWindowDims.size(); ++j)
          dst += c.at[updateWindowDims[j]] * operandStrides[operandWindowDims[j]];
        int64_t to = outs[0].share->localOf(dst);
        if (to < 0)
          return notHeld(tile, "scatters to", dst, *outs[0].buffer);
        if (!reducer)
          out[to] = upd[local];
        else
          out[to] = static_cast<T>(combine<C>(*reducer, static_cast<C>(out[to]),
                                              static_cast<C>(upd[local])));
        return Error::success();
      });
    });
  }
};

//===----------------------------------------------------------------------===//
// dynamic-slice, dynamic-update-slice
//===----------------------------------------------------------------------===//

class DynamicSliceVertex : public Vertex {
public:
  bool update = false; ///< dynamic-update-slice
  std::vector<int64_t> operandShape, operandStrides, windowShape;
  std::vector<int64_t> indexedDims, scalarOperands;
  std::vector<DType> scalarTypes;
  int64_t elementBytes = 4;

  Error run(int64_t tile, ArrayRef<TileOperand> ins,
            ArrayRef<TileOperand> outs) const override {
    SmallVector<int64_t, 8> start(operandShape.size(), 0);
    for (size_t k = 0; k < indexedDims.size(); ++k) {
      const TileOperand &s = ins[scalarOperands[k]];
      if (s.elements() != 1)
        return createStringError("tile " + Twine(tile) + ": holds " +
                                 Twine(s.elements()) +
                                 " elements of a start index, not 1");
      Expected<std::vector<int64_t>> v = readInts(s, scalarTypes[k]);
      if (!v)
        return v.takeError();
      int64_t d = indexedDims[k];
      start[d] = clampStart((*v)[0], operandShape[d], windowShape[d]);
    }
    auto sourceOf = [&](ArrayRef<int64_t> at) {
      int64_t e = 0;
      for (size_t d = 0; d < at.size(); ++d)
        e += (start[d] + at[d]) * operandStrides[d];
      return e;
    };
    Coords c(windowShape);
    if (!update)
      return forEachHeld(outs[0], c, [&](int64_t, int64_t local) -> Error {
        int64_t src = sourceOf(c.at);
        int64_t from = ins[0].share->localOf(src);
        if (from < 0)
          return notHeld(tile, "slices", src, *ins[0].buffer);
        std::memcpy(outs[0].data + local * elementBytes,
                    ins[0].data + from * elementBytes, elementBytes);
        return Error::success();
      });
    if (Error err = copyOperand(tile, ins[0], outs[0], elementBytes))
      return err;
    return forEachHeld(ins[1], c, [&](int64_t, int64_t local) -> Error {
      int64_t dst = sourceOf(c.at);
      int64_t to = outs[0].share->localOf(dst);
      if (to < 0)
        return notHeld(tile, "updates", dst, *outs[0].buffer);
      std::memcpy(outs[0].data + to * elementBytes,
                  ins[1].data + local * elementBytes, elementBytes);
      return Error::success();
    });
  }
};

Error checkIndexType(const VertexSpec &spec, size_t operand) {
  if (isFloat(spec.in(operand).dtype))
    return spec.error("input " + Twine(operand) + " " +
                      spec.in(operand).describe() + " holds indices, which "
                      "must be integers");
  return Error::success();
}

Error checkData(const VertexSpec &spec, ArrayRef<size_t> operands) {
  for (size_t i : operands)
    if (spec.in(i).dtype != spec.out(0).dtype)
      return spec.error("input " + Twine(i) + " " + spec.in(i).describe() +
                        " is not " + dtypeName(spec.out(0).dtype));
  return Error::success();
}

} // namespace

VertexResult createGather(const VertexSpec &spec) {
  if (Error err = spec.expectOperands(2, 1))
    return std::move(err);
  if (Error err = checkData(spec, {0}))
    return std::move(err);
  if (Error err = checkIndexType(spec, 1))
    return std::move(err);
  auto v = std::make_unique<GatherVertex>();
  v->operandShape = spec.in(0).shape;
  v->operandStrides = rowMajorStrides(v->operandShape);
  v->outShape = spec.out(0).shape;
  v->partial = spec.hasFlag("partial");
  if (v->partial) {
    if (v->outShape.empty())
      return spec.error("a partial gather's result needs a leading dimension "
                        "of tiles");
    v->outShape.erase(v->outShape.begin());
  }
  v->indexType = spec.in(1).dtype;
  v->elementBytes = spec.out(0).elementBytes;
  int64_t rank = v->operandShape.size(), outRank = v->outShape.size();
  auto offsetDims = requireDims(spec, "offset_dims", outRank);
  if (!offsetDims)
    return offsetDims.takeError();
  auto collapsed = requireDims(spec, "collapsed_slice_dims", rank);
  if (!collapsed)
    return collapsed.takeError();
  auto startMap = requireDims(spec, "start_index_map", rank);
  if (!startMap)
    return startMap.takeError();
  auto sizes = spec.requireInts("slice_sizes", rank);
  if (!sizes)
    return sizes.takeError();
  v->offsetDims = *offsetDims;
  v->startIndexMap = *startMap;
  v->sliceSizes = *sizes;
  v->windowDims = complement(*collapsed, rank);
  v->batchDims = complement(v->offsetDims, outRank);
  if (v->windowDims.size() != v->offsetDims.size())
    return spec.error("offset_dims and the uncollapsed operand dimensions "
                      "differ in number");
  if (Error err = v->idx.init(spec, v->batchDims.size()))
    return std::move(err);
  if (v->idx.components < int64_t(v->startIndexMap.size()))
    return spec.error("start_index_map has more entries than the index "
                      "vector");
  return std::unique_ptr<Vertex>(std::move(v));
}

VertexResult createScatter(const VertexSpec &spec, StringRef combiner) {
  if (Error err = spec.expectOperands(3, 1))
    return std::move(err);
  if (Error err = checkData(spec, {0, 2}))
    return std::move(err);
  if (Error err = checkIndexType(spec, 1))
    return std::move(err);
  auto v = std::make_unique<ScatterVertex>();
  if (combiner != "assign") {
    Reducer r = parseReducer(combiner);
    if (r == Reducer::Invalid || r == Reducer::And || r == Reducer::Or)
      return spec.error("unknown combiner '" + combiner + "'");
    v->reducer = r;
  }
  v->dtype = spec.out(0).dtype;
  v->operandShape = spec.in(0).shape;
  v->operandStrides = rowMajorStrides(v->operandShape);
  v->updateShape = spec.in(2).shape;
  v->indexType = spec.in(1).dtype;
  v->elementBytes = spec.out(0).elementBytes;
  int64_t rank = v->operandShape.size(), updRank = v->updateShape.size();
  auto windowDims = requireDims(spec, "update_window_dims", updRank);
  if (!windowDims)
    return windowDims.takeError();
  auto inserted = requireDims(spec, "inserted_window_dims", rank);
  if (!inserted)
    return inserted.takeError();
  auto toOperand = requireDims(spec, "scatter_dims_to_operand_dims", rank);
  if (!toOperand)
    return toOperand.takeError();
  v->updateWindowDims = *windowDims;
  v->toOperand = *toOperand;
  v->operandWindowDims = complement(*inserted, rank);
  v->scatterDims = complement(v->updateWindowDims, updRank);
  if (v->operandWindowDims.size() != v->updateWindowDims.size())
    return spec.error("update_window_dims and the operand dimensions not "
                      "inserted differ in number");
  v->windowSize.assign(rank, 1);
  for (size_t j = 0; j < v->updateWindowDims.size(); ++j)
    v->windowSize[v->operandWindowDims[j]] =
        v->updateShape[v->updateWindowDims[j]];
  if (Error err = v->idx.init(spec, v->scatterDims.size()))
    return std::move(err);
  return std::unique_ptr<Vertex>(std::move(v));
}

VertexResult createDynamicSlice(const VertexSpec &spec, bool update) {
  size_t data = update ? 2 : 1;
  auto v = std::make_unique<DynamicSliceVertex>();
  v->update = update;
  v->operandShape = spec.in(0).shape;
  v->operandStrides = rowMajorStrides(v->operandShape);
  v->elementBytes = spec.out(0).elementBytes;
  int64_t rank = v->operandShape.size();
  auto indexed = requireDims(spec, "indexed_dims", rank);
  if (!indexed)
    return indexed.takeError();
  v->indexedDims = *indexed;
  if (Error err = spec.expectOperands(data + v->indexedDims.size(), 1))
    return std::move(err);
  if (Error err = checkData(spec, update ? ArrayRef<size_t>{0, 1}
                                         : ArrayRef<size_t>{0}))
    return std::move(err);
  auto scalars = spec.requireInts("scalar_operands", v->indexedDims.size());
  if (!scalars)
    return scalars.takeError();
  v->scalarOperands = *scalars;
  for (int64_t s : v->scalarOperands) {
    if (s < int64_t(data) || s >= int64_t(spec.numIns()))
      return spec.error("scalar_operands names input " + Twine(s));
    if (Error err = checkIndexType(spec, s))
      return std::move(err);
    v->scalarTypes.push_back(spec.in(s).dtype);
  }
  if (update) {
    v->windowShape = spec.in(1).shape;
  } else {
    auto sizes = spec.requireInts("slice_sizes", rank);
    if (!sizes)
      return sizes.takeError();
    v->windowShape = *sizes;
    if (v->windowShape != spec.out(0).shape)
      return spec.error("slice_sizes is not the result's shape");
  }
  if (int64_t(v->windowShape.size()) != rank)
    return spec.error("the window's rank is not the operand's");
  for (int64_t d = 0; d < rank; ++d)
    if (v->windowShape[d] > v->operandShape[d])
      return spec.error("the window is larger than the operand along "
                        "dimension " + Twine(d));
  return std::unique_ptr<Vertex>(std::move(v));
}

} // namespace tessera::runtime
