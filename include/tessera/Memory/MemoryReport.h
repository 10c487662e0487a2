//===- MemoryReport.h - memory reports of a tile program --------*- C++ -*-===//
//
// The report objects of the memory analysis (docs/memory.md): a memory
// viewer (heap per program point, buffers live at the peak), per-tile
// memory by category, the padding of every buffer and matmul, the cost of
// every step, and a summary, all in one nlohmann::ordered_json; the same
// object as CBOR. Nothing here writes files: callers hand the objects to
// the report sink. MemorySummary.h renders them for people.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_MEMORY_MEMORYREPORT_H
#define TESSERA_MEMORY_MEMORYREPORT_H

#include "tessera/Memory/MemoryAnalysis.h"
#include "tessera/Memory/MemorySummary.h"

#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <vector>

namespace tessera::memory {

/// The full report: target, graph, summary (with the tile histogram),
/// memory_viewer, tiles, out_of_memory, buffers, padding, cost.
nlohmann::ordered_json buildMemoryReport(const MemoryAnalysis &analysis);

/// Just the liveness part (buffers' live ranges, per-tile peaks, check).
nlohmann::ordered_json buildLivenessReport(const MemoryAnalysis &analysis);

/// One tile in full (`tile` < the program's tiles): its entry of `tiles`,
/// its heap at every point (padded and unpadded), and every buffer live at
/// its peak, largest first, with offset, live range and writers.
nlohmann::ordered_json buildTileDetail(const MemoryAnalysis &analysis,
                                       int64_t tile);

/// The report's bytes as CBOR (same content as the JSON).
std::vector<uint8_t> toCbor(const nlohmann::ordered_json &report);

} // namespace tessera::memory

#endif // TESSERA_MEMORY_MEMORYREPORT_H
