//===- TilePrintAllocation.cpp - tile-print-allocation --------------------===//
//
// Assigns every buffer an offset on each tile it lives on (best fit with
// the target's alignment) and prints per tile the allocated peak, the
// liveness lower bound and the gaps; a tile that does not fit is marked
// with how much it is over, and allocation goes on (docs/memory.md,
// "Allocation"). The offsets are printed, not attached: the IR is
// unchanged, hence "print" in the name.
//
//===----------------------------------------------------------------------===//

#include "MemoryPass.h"

#include "tessera/Memory/MemoryAnalysis.h"
#include "tessera/Passes.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace tessera {
#define GEN_PASS_DEF_TILEPRINTALLOCATION
#include "Passes.h.inc"
} // namespace tessera

using namespace mlir;
using namespace tessera;
using namespace tessera::memory;
using json = nlohmann::ordered_json;

namespace {

struct TilePrintAllocationPass
    : public tessera::impl::TilePrintAllocationBase<TilePrintAllocationPass> {
  using TilePrintAllocationBase::TilePrintAllocationBase;

  void runOnOperation() override {
    auto writeReport = [&](tile::ProgramOp, const MemoryAnalysis &analysis,
                      llvm::raw_ostream &os) {
      json report = build(analysis);
      if (print == PrintFormat::Summary)
        writeSummary(report, os);
      else if (print == PrintFormat::Json)
        writeJsonReport(report, os);
      else
        writeText(report, os);
      return success();
    };
    if (failed(writeProgramReports(getOperation(), getAnalysisManager(),
                                   getArgument(), output, targetName,
                                   writeReport)))
      return signalPassFailure();
    // The IR is unchanged: the next memory pass reuses the analysis.
    markAllAnalysesPreserved();
  }

  json build(const MemoryAnalysis &a) {
    const ProgramLiveness &live = a.liveness;
    AllocationSummary summary = summarizeAllocation(a);
    json tiles = json::array();
    for (int64_t t = 0; t < live.numTiles; ++t) {
      if (live.buffersOnTile[t].empty())
        continue;
      const TileAllocation &alloc = a.tiles[t];
      json j = {{"tile", t},
                {"peak", alloc.allocation.peak},
                {"lower_bound", alloc.allocation.lowerBound},
                {"gaps", alloc.gaps()},
                {"overheads", alloc.overheads},
                {"total", alloc.includingGaps()},
                {"capacity", alloc.capacity},
                {"out_of_memory", alloc.outOfMemory()},
                {"over_by", alloc.overBy()}};
      if (offsets) {
        json buffers = json::array();
        const std::vector<uint32_t> &onTile = live.buffersOnTile[t];
        for (size_t i = 0; i < onTile.size(); ++i) {
          const BufferLiveness &b = live.buffers[onTile[i]];
          const TileBytes &share = live.shareOn(t, i);
          buffers.push_back({{"name", b.var.getName().str()},
                             {"offset", alloc.allocation.offsets[i]},
                             {"size", share.paddedBytes},
                             {"live_range", {share.first, share.last}}});
        }
        j["buffers"] = buffers;
      }
      tiles.push_back(j);
    }
    int64_t sumPeak = summary.totalPeak, sumBound = summary.totalLowerBound;
    return {{"program", a.program},
            {"target", a.target.name},
            {"alignment_bytes", a.target.alignmentBytes},
            {"tiles_out_of_memory", summary.tilesOutOfMemory},
            {"worst_peak_to_lower_bound",
             std::round(summary.worstRatio * 10000) / 10000},
            {"worst_tile", summary.worstTile},
            {"peak_to_lower_bound",
             sumBound ? std::round(10000.0 * sumPeak / sumBound) / 10000 : 1.0},
            {"max_tile", summary.maxUsedTile},
            {"max_tile_bytes", std::max<int64_t>(summary.maxUsedTileBytes, 0)},
            {"used_tiles", summary.usedTiles},
            {"mean_used_tile_bytes", summary.meanUsedTileBytes()},
            {"total_peak", sumPeak},
            {"total_lower_bound", sumBound},
            {"tiles", tiles}};
  }

  /// One line: the figures the corpus conformance test pins.
  static void writeSummary(const json &r, llvm::raw_ostream &os) {
    os << "@" << r.value("program", "") << " on " << r.value("target", "")
       << ": peak/lower-bound "
       << llvm::format("%.4f", r["peak_to_lower_bound"].get<double>())
       << " (worst tile " << r["worst_tile"].get<int64_t>() << ": "
       << llvm::format("%.4f", r["worst_peak_to_lower_bound"].get<double>())
       << "), max tile " << r["max_tile_bytes"].get<int64_t>() << " B (tile "
       << r["max_tile"].get<int64_t>() << "), mean tile "
       << r["mean_used_tile_bytes"].get<int64_t>() << " B over "
       << r["used_tiles"].get<int64_t>() << " tiles, "
       << r["tiles_out_of_memory"].get<int64_t>() << " tile(s) out of memory\n";
  }

  static void writeText(const json &r, llvm::raw_ostream &os) {
    os << "allocation of @" << r.value("program", "") << " on "
       << r.value("target", "") << " (alignment "
       << r["alignment_bytes"].get<int64_t>()
       << "): " << r["tiles_out_of_memory"].get<int64_t>()
       << " tile(s) out of memory, worst peak / lower bound "
       << llvm::format("%.4f", r["worst_peak_to_lower_bound"].get<double>())
       << "\n";
    for (const json &t : r["tiles"]) {
      os << "  tile " << t["tile"].get<int64_t>() << ": peak "
         << t["peak"].get<int64_t>() << ", lower bound "
         << t["lower_bound"].get<int64_t>() << ", gaps "
         << t["gaps"].get<int64_t>() << ", with overheads "
         << t["total"].get<int64_t>() << " of " << t["capacity"].get<int64_t>();
      if (t["out_of_memory"].get<bool>())
        os << ", OUT OF MEMORY by " << t["over_by"].get<int64_t>();
      os << "\n";
      if (!t.contains("buffers"))
        continue;
      for (const json &b : t["buffers"])
        os << "    " << b.value("name", "") << " at "
           << b["offset"].get<int64_t>() << " size " << b["size"].get<int64_t>()
           << " live [" << b["live_range"][0].get<int64_t>() << ", "
           << b["live_range"][1].get<int64_t>() << "]\n";
    }
  }
};

} // namespace
