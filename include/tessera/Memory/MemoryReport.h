//===- MemoryReport.h - memory reports of a tile program --------*- C++ -*-===//
//
// The report objects of the memory analysis (docs/memory.md): a memory
// viewer (heap per program point, buffers live at the peak), per-tile
// memory by category, the padding of every buffer and matmul, the cost of
// every step, and a summary, all in one nlohmann::ordered_json; the same
// object as CBOR. The padding and cost sections are formatted from the
// structs of PaddingReport.h, the allocation figures from
// AllocationSummary. Nothing here writes files: callers hand the objects
// to the report sink. MemorySummary.h renders them for people (from the
// JSON, so that tessera-prof renders a report read from an event file with
// the same code).
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_MEMORY_MEMORYREPORT_H
#define TESSERA_MEMORY_MEMORYREPORT_H

#include "tessera/Memory/MemoryAnalysis.h"
#include "tessera/Memory/MemorySummary.h"
#include "tessera/Memory/ReportForms.h"

#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <vector>

namespace tessera::memory {

/// The full report: target, graph, summary (with the tile histogram),
/// memory_viewer, tile_format, tiles, out_of_memory, buffers, padding,
/// cost. With `tileRuns`, consecutive tiles whose entries of `tiles` (or of
/// `out_of_memory`) are the same but for the tile are one entry with
/// first_tile and last_tile instead of tile (expandTileRuns undoes it);
/// otherwise every tile has its own entry. ReportForm::Compact builds
/// what compactMemoryReport() (ReportForms.h) makes of the complete form,
/// without building the complete form first.
nlohmann::ordered_json
buildMemoryReport(const MemoryAnalysis &analysis, bool tileRuns = false,
                  ReportForm form = ReportForm::Complete);

/// Consecutive entries of a per-tile list that differ only in "tile", as
/// runs {"first_tile", "last_tile", ...}; the inverse of expandTileRuns.
nlohmann::ordered_json compactTileRuns(const nlohmann::ordered_json &list);

/// One tile in full (`tile` < the program's tiles): its entry of `tiles`,
/// its heap at every point (padded and unpadded), and every buffer live at
/// its peak, largest first, with offset, live range and writers.
nlohmann::ordered_json buildTileDetail(const MemoryAnalysis &analysis,
                                       int64_t tile);

/// The report's bytes as CBOR (same content as the JSON).
std::vector<uint8_t> toCbor(const nlohmann::ordered_json &report);

} // namespace tessera::memory

#endif // TESSERA_MEMORY_MEMORYREPORT_H
