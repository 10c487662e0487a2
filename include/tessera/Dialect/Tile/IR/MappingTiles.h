//===- MappingTiles.h - the tiles a mapping puts elements on -----*- C++
//-*-===//
//
// Which tiles hold at least one element of a buffer, as ranges computed from
// the mapping's runs: the compute-set verifier, the lowering's compute-set
// placement and its used-tile count ask this for every buffer, and a
// per-tile count array (MappingAttr::elementsPerTile) costs a pass over
// every tile of the chip each time.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_DIALECT_TILE_IR_MAPPINGTILES_H
#define TESSERA_DIALECT_TILE_IR_MAPPINGTILES_H

#include "tessera/Dialect/Tile/IR/Tile.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <utility>

namespace tessera::tile {

/// The maximal ranges [first, end) of tiles below numTiles that hold at least
/// one element of `mapping`, in tile order: exactly the tiles t with
/// mapping.elementsPerTile(numTiles)[t] > 0.
llvm::SmallVector<std::pair<int64_t, int64_t>>
tilesWithElements(MappingAttr mapping, int64_t numTiles);

} // namespace tessera::tile

#endif // TESSERA_DIALECT_TILE_IR_MAPPINGTILES_H
