//===- ExchangeRuns.cpp - the copy runs of any tile.exchange --------------===//

#include "tessera/Conversion/TGraphToTile/ExchangeRuns.h"

#include "tessera/Conversion/TGraphToTile/ElementCopies.h"

#include <limits>

using namespace mlir;
using namespace tessera;

std::optional<SmallVector<int64_t>>
tessera::viewCopyRuns(ArrayRef<int64_t> sourceRuns, ArrayRef<int64_t> destRuns,
                      ArrayRef<int64_t> shape, int64_t offset,
                      ArrayRef<int64_t> strides, int64_t maxRuns) {
  int64_t n = 1;
  for (int64_t size : shape)
    n *= size;
  // Walk dest elements in order, keeping the coordinates incrementally
  // (planElementCopies asks for 0, 1, 2, ... in turn).
  SmallVector<int64_t> idx(shape.size(), 0);
  int64_t next = 0, source = offset;
  auto sourceOf = [&](int64_t i) {
    for (; next < i; ++next) {
      for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
        source += strides[d];
        if (++idx[d] < shape[d])
          break;
        source -= idx[d] * strides[d];
        idx[d] = 0;
      }
    }
    return ElementSource{0, source};
  };
  auto runs = planElementCopies({sourceRuns}, destRuns, n, sourceOf, maxRuns);
  if (!runs)
    return std::nullopt;
  return (*runs)[0];
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
