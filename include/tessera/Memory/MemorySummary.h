//===- MemorySummary.h - memory reports for people --------------*- C++ -*-===//
//
// The text and SVG forms of a memory report (MemoryReport.h). They read
// only the report object, never the IR, so this library links no MLIR:
// tessera-prof renders a report from an event file with the same code the
// compiler prints it with, and the numbers are those of the JSON.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_MEMORY_MEMORYSUMMARY_H
#define TESSERA_MEMORY_MEMORYSUMMARY_H

#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

namespace tessera::memory {

/// The text summary (Target, Graph, Memory Usage, tile histogram, tiles out
/// of memory, the five most-loaded tiles) of a buildMemoryReport() object.
void writeMemorySummary(const nlohmann::ordered_json &report,
                        llvm::raw_ostream &os);

/// The text form of a buildTileDetail() object.
void writeTileDetail(const nlohmann::ordered_json &detail,
                     llvm::raw_ostream &os);

/// An SVG heat map of each tile's bytes (including gaps) over its SRAM.
void writeTileHeatmapSvg(const nlohmann::ordered_json &report,
                         llvm::raw_ostream &os);

} // namespace tessera::memory

#endif // TESSERA_MEMORY_MEMORYSUMMARY_H
