//===- ExchangeRuns.cpp - the copy runs of any tile.exchange --------------===//

#include "tessera/Conversion/TGraphToTile/ExchangeRuns.h"

#include "tessera/Conversion/TGraphToTile/ElementCopies.h"
#include "tessera/Conversion/TGraphToTile/MappingPlanner.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace tessera;

std::optional<SmallVector<int64_t>>
tessera::viewCopyRuns(ArrayRef<int64_t> sourceRuns, ArrayRef<int64_t> destRuns,
                      ArrayRef<int64_t> shape, int64_t offset,
                      ArrayRef<int64_t> strides, int64_t maxRuns) {
  // The same view over fewer dimensions: size-1 dimensions read nothing
  // new, and a dimension whose stride steps over the whole next one joins
  // it (a row-major block of a row-major source is a few long rows).
  SmallVector<int64_t> sizes, steps;
  int64_t n = 1;
  for (auto [size, stride] : llvm::zip(shape, strides)) {
    n *= size;
    if (size == 1)
      continue;
    if (!sizes.empty() && steps.back() == stride * size) {
      sizes.back() *= size;
      steps.back() = stride;
      continue;
    }
    sizes.push_back(size);
    steps.push_back(stride);
  }
  if (n == 0)
    return SmallVector<int64_t>();
  // With a unit innermost stride a dest row reads a contiguous source row;
  // otherwise every element is a row of its own.
  int64_t rowLength = 1;
  if (!steps.empty() && steps.back() == 1) {
    rowLength = sizes.pop_back_val();
    steps.pop_back();
  }
  // Each row splits where a source or dest tile's interval ends; the pieces
  // go to the builder in dest order, as the element walk
  // (planElementCopies) would give them one element at a time.
  // The intervals of the last piece are tried first: consecutive rows
  // mostly read the same source interval and write the same dest one.
  TileLookup source(sourceRuns), dest(destRuns);
  CopyRunBuilder builder(1, maxRuns);
  SmallVector<int64_t> idx(sizes.size(), 0);
  int64_t rowStart = offset;
  int64_t srcTile = -1, srcBegin = 0, srcEnd = 0;
  int64_t dstTile = -1, dstBegin = 0, dstEnd = 0;
  for (int64_t i = 0; i < n; i += rowLength) {
    int64_t s = rowStart, d = i, left = rowLength;
    while (left > 0) {
      if ((s < srcBegin || s >= srcEnd) &&
          !source.locate(s, srcTile, srcBegin, srcEnd))
        return std::nullopt;
      if ((d < dstBegin || d >= dstEnd) &&
          !dest.locate(d, dstTile, dstBegin, dstEnd))
        return std::nullopt;
      int64_t length = std::min({left, srcEnd - s, dstEnd - d});
      if (!builder.add(0, srcTile, dstTile, s, d, length))
        return std::nullopt;
      s += length;
      d += length;
      left -= length;
    }
    for (int64_t k = static_cast<int64_t>(sizes.size()) - 1; k >= 0; --k) {
      rowStart += steps[k];
      if (++idx[k] < sizes[k])
        break;
      rowStart -= idx[k] * steps[k];
      idx[k] = 0;
    }
  }
  if (!builder.flush())
    return std::nullopt;
  return std::move(builder.take()[0]);
}

SmallVector<int64_t> tessera::exchangeCopyRuns(tile::ExchangeOp exchange) {
  if (!exchange.isView())
    return SmallVector<int64_t>(exchange.getCopyRuns());
  auto srcVar = exchange.getSource().getDefiningOp<tile::VarOp>();
  auto dstVar = exchange.getDest().getDefiningOp<tile::VarOp>();
  if (!srcVar || !dstVar)
    return {};
  auto runs = viewCopyRuns(
      srcVar.getMapping().getRuns(), dstVar.getMapping().getRuns(),
      cast<tile::BufferType>(exchange.getDest().getType()).getShape(),
      *exchange.getViewOffset(), *exchange.getViewStrides(),
      std::numeric_limits<int64_t>::max());
  return runs ? *runs : SmallVector<int64_t>();
}
