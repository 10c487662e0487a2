//===- TensorMap.h - where every tensor element lives ------------*- C++
//-*-===//
//
// The tensor map of the lowered tile programs of a module (docs/
// tile-dialect.md, "Tensor map"):
//
//   {"mappings": {computation: [[hlo_instruction, output_index, shape,
//     dtype, has_constant, has_alias, total_elements,
//     [[tile, elements], ...], tensor_name], ...]}}
//
// One entry per tile.var holding an HLO instruction's value (attributes
// `hlo` and `result`, the output index); helper buffers (operand blocks,
// partials, re-layouts) are not tensors of the model. Only tiles holding
// elements are listed. tessera-compile hands it to the report
// sink (tensor_map.json); `tile-map-tensors` prints it.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_ANALYSIS_TILE_TENSORMAP_H
#define TESSERA_ANALYSIS_TILE_TENSORMAP_H

#include "tessera/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

namespace tessera {

/// The tensor map of every tile.program in `module`.
nlohmann::ordered_json buildTensorMap(mlir::ModuleOp module);

/// Tiles used and elements per used tile (min/mean/max, busiest tile) over
/// the tensors of `program`: how evenly it spreads the model over the chip.
void writeTensorMapSummary(tile::ProgramOp program, llvm::raw_ostream &os);

} // namespace tessera

#endif // TESSERA_ANALYSIS_TILE_TENSORMAP_H
