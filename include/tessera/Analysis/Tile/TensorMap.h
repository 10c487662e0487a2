//===- TensorMap.h - where every tensor element lives ------------*- C++
//-*-===//
//
// The tensor map of the lowered tile programs of a module (docs/
// tile-dialect.md, "Tensor map"):
//
//   {"tile_format": "runs", "mappings": {computation: [[hlo_instruction,
//     output_index, shape, dtype, has_constant, has_alias, total_elements,
//     [[first_tile, last_tile, elements_each], ...], tensor_name], ...]}}
//
// One entry per tile.var holding an HLO instruction's value (attributes
// `hlo` and `result`, the output index); helper buffers (operand blocks,
// partials, re-layouts) are not tensors of the model. Only tiles holding
// elements are listed: by default as runs of consecutive tiles holding the
// same number of elements each; with "tile_format": "tiles" as one
// [tile, elements] pair per tile (the seed's form, --tensor_map_format=
// tiles). tessera-compile hands it to the report sink (tensor_map.json);
// `tile-map-tensors` prints it.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_ANALYSIS_TILE_TENSORMAP_H
#define TESSERA_ANALYSIS_TILE_TENSORMAP_H

#include "tessera/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace tessera {

/// How an entry lists its tiles: runs [first_tile, last_tile,
/// elements_each] or pairs [tile, elements].
enum class TensorMapFormat { Runs, Tiles };

/// "runs" or "tiles" (the flag's and the document's names).
std::optional<TensorMapFormat> parseTensorMapFormat(llvm::StringRef name);
llvm::StringRef tensorMapFormatName(TensorMapFormat format);

/// The tiles field of one entry, from the elements on each tile (tiles
/// without elements are left out).
nlohmann::ordered_json tensorTiles(llvm::ArrayRef<int64_t> elementsPerTile,
                                   TensorMapFormat format);

/// The same from a mapping, for a program of `numTiles` tiles: from its
/// runs when they share no tile (a pass over a few runs rather than over
/// every tile of the chip, which was most of a small model's tensor map).
nlohmann::ordered_json tensorTiles(tile::MappingAttr mapping, int64_t numTiles,
                                   TensorMapFormat format);

/// The tensor map of every tile.program in `module`.
nlohmann::ordered_json
buildTensorMap(mlir::ModuleOp module,
               TensorMapFormat format = TensorMapFormat::Runs);

/// Tiles used and elements per used tile (min/mean/max, busiest tile) over
/// the tensors of `program`: how evenly it spreads the model over the chip.
void writeTensorMapSummary(tile::ProgramOp program, llvm::raw_ostream &os);

} // namespace tessera

#endif // TESSERA_ANALYSIS_TILE_TENSORMAP_H
