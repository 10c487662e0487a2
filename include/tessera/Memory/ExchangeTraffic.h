//===- ExchangeTraffic.h - bytes each tile and chip pair moves ----*- C++
//-*-===//
//
// What one tile.exchange moves: bytes sent and received per tile and bytes
// from chip to chip, for listed copies and views alike. The cost model
// prices an exchange from it and the pod view routes its chip bytes over
// the links, so both see the same traffic; the model device counts the
// same bytes when it runs the exchange (runtime/CycleClock.cpp).
//
// A view's copies are implied by an affine map from dest coordinates to
// source elements. Walking every element would cost as much as running it
// (a BERT step's views read 1.3 G elements), so the walk goes by boxes of
// the dest's per-tile intervals, folds broadcast dimensions (stride 0) into
// a multiplier, merges dimensions that read contiguously, and steps the
// innermost dimension a source tile's interval at a time. See
// docs/memory.md, "Exchanges".
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_MEMORY_EXCHANGETRAFFIC_H
#define TESSERA_MEMORY_EXCHANGETRAFFIC_H

#include "tessera/Dialect/Tile/IR/Tile.h"

#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <map>
#include <utility>

namespace tessera::memory {

struct ExchangeTraffic {
  llvm::DenseMap<int64_t, int64_t> sent;     ///< bytes per source tile
  llvm::DenseMap<int64_t, int64_t> received; ///< bytes per dest tile
  /// Bytes from chip to chip (pairs of different chips only).
  std::map<std::pair<int64_t, int64_t>, int64_t> chipBytes;
  int64_t bytesMoved = 0; ///< every copy's bytes, once
  /// False when a view's walk would take more than the budget's steps:
  /// `received` is still exact, `sent` and `chipBytes` are left empty.
  bool complete = true;
};

/// The traffic of `exchange`, whose elements are `elementBytes` wide, on a
/// target of `tilesPerChip` tiles a chip. A view whose walk needs more
/// than `maxSteps` steps (innermost-dimension pieces) comes back
/// incomplete.
ExchangeTraffic exchangeTraffic(tile::ExchangeOp exchange, int64_t elementBytes,
                                int64_t tilesPerChip,
                                int64_t maxSteps = int64_t(1) << 22);

} // namespace tessera::memory

#endif // TESSERA_MEMORY_EXCHANGETRAFFIC_H
