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

/// A per-tile list of a memory report (`tiles`, `out_of_memory`) with one
/// entry per tile, whichever form it was written in: by default a run of
/// consecutive tiles whose entries are the same but for the tile number is
/// one entry {"first_tile": a, "last_tile": b, ...}, which stands for
/// {"tile": t, ...} for each t in [a, b]; entries with "tile" are kept.
/// Readers expand before they read (docs/memory.md, "Tile runs").
template <typename Json> Json expandTileRuns(const Json &list) {
  Json out = Json::array();
  if (!list.is_array())
    return out;
  for (const Json &entry : list) {
    auto first = entry.find("first_tile"), last = entry.find("last_tile");
    if (!entry.is_object() || first == entry.end() || last == entry.end() ||
        !first->is_number_integer() || !last->is_number_integer()) {
      out.push_back(entry);
      continue;
    }
    for (int64_t t = first->template get<int64_t>(),
                 end = last->template get<int64_t>();
         t <= end; ++t) {
      Json one = Json::object();
      one["tile"] = t;
      for (auto it = entry.begin(); it != entry.end(); ++it)
        if (it.key() != "first_tile" && it.key() != "last_tile")
          one[it.key()] = it.value();
      out.push_back(std::move(one));
    }
  }
  return out;
}

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
