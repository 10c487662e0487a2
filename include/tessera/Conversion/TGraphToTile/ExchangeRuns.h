//===- ExchangeRuns.h - the copy runs of any tile.exchange -------*- C++
//-*-===//
//
// A tile.exchange lists its copy runs or stands for them with a view. Cost
// models and traffic reports need the runs either way; this expands a view
// against the two buffers' mappings, row by row: a dest row whose source
// elements are contiguous (unit innermost stride, after joining dimensions
// that continue each other) splits only where a tile's interval ends, so the
// cost is O((rows + copies) · log tiles) rather than one lookup per element.
// A view with a non-unit innermost stride (a transpose, a broadcast) has
// one-element rows: the element walk.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_CONVERSION_TGRAPHTOTILE_EXCHANGERUNS_H
#define TESSERA_CONVERSION_TGRAPHTOTILE_EXCHANGERUNS_H

#include "tessera/Dialect/Tile/IR/Tile.h"

#include <optional>

namespace tessera {

/// The flat 8-integer copy runs of `exchange` (see tile.exchange), listed or
/// implied by its view.
llvm::SmallVector<int64_t> exchangeCopyRuns(tile::ExchangeOp exchange);

/// The copy runs of a view exchange from a buffer mapped on `sourceRuns` to
/// one of `shape` mapped on `destRuns` (dest element idx reads source element
/// offset + sum idx[d] * strides[d]); nullopt when more than `maxRuns`.
std::optional<llvm::SmallVector<int64_t>>
viewCopyRuns(llvm::ArrayRef<int64_t> sourceRuns,
             llvm::ArrayRef<int64_t> destRuns, llvm::ArrayRef<int64_t> shape,
             int64_t offset, llvm::ArrayRef<int64_t> strides, int64_t maxRuns);

} // namespace tessera

#endif // TESSERA_CONVERSION_TGRAPHTOTILE_EXCHANGERUNS_H
