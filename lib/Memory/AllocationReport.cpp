//===- AllocationReport.cpp - liveness and allocation reports -------------===//

#include "tessera/Memory/AllocationReport.h"

#include "tessera/Memory/PaddingReport.h"

#include "llvm/Support/Format.h"

#include <cmath>

using namespace tessera;
using namespace tessera::memory;
using json = nlohmann::ordered_json;

std::vector<TileLivenessRow>
tessera::memory::tileLivenessRows(const MemoryAnalysis &a) {
  const ProgramLiveness &live = a.liveness;
  std::vector<TileLivenessRow> rows;
  for (int64_t t = 0; t < live.numTiles; ++t) {
    if (live.buffersOnTile[t].empty())
      continue;
    const TileOffsets &alloc = a.tiles[t].allocation;
    TileLivenessRow row{t, alloc.lowerBound, alloc.peakPoint,
                        live.overheads[t].total(), live.overheads[t].total()};
    for (size_t i = 0, e = live.buffersOnTile[t].size(); i < e; ++i)
      if (live.buffers[live.buffersOnTile[t][i]].alwaysLive)
        row.alwaysLive += live.shareOn(t, i).paddedBytes;
    rows.push_back(row);
  }
  return rows;
}

json tessera::memory::livenessReportJson(const MemoryAnalysis &a) {
  const ProgramLiveness &live = a.liveness;
  json r;
  r["program"] = a.program;
  r["target"] = a.target.name;
  r["program_points"] = live.schedule.numPoints();
  json buffers = json::array();
  for (const BufferLiveness &buf : live.buffers) {
    json j;
    j["name"] = buf.var.getName().str();
    j["category"] = categoryLabel(buf.var.getCategory()).str();
    j["live_range"] =
        buf.isLive() ? json::array({buf.first, buf.last}) : json(nullptr);
    j["always_live"] = buf.alwaysLive;
    j["tiles"] = buf.tiles.size();
    j["bytes"] = buf.bytes;
    j["padded_bytes"] = buf.paddedBytes;
    buffers.push_back(j);
  }
  r["buffers"] = buffers;
  json tiles = json::array();
  for (const TileLivenessRow &row : tileLivenessRows(a))
    tiles.push_back({{"tile", row.tile},
                     {"max_live", row.maxLive},
                     {"peak_point", row.peakPoint},
                     {"always_live", row.alwaysLive},
                     {"overheads", row.overheads}});
  r["tiles"] = tiles;
  r["check"] = {{"points_checked", live.check.pointsChecked},
                {"mismatches", live.check.mismatches},
                {"first_mismatch", live.check.firstMismatch}};
  return r;
}

void tessera::memory::writeLivenessText(const MemoryAnalysis &a,
                                        llvm::raw_ostream &os) {
  const ProgramLiveness &live = a.liveness;
  os << "liveness of @" << a.program << " on " << a.target.name << ": "
     << live.schedule.numPoints() << " program points\n";
  for (const BufferLiveness &b : live.buffers) {
    os << "  " << b.var.getName() << " " << categoryLabel(b.var.getCategory())
       << " ";
    if (b.isLive())
      os << "[" << b.first << ", " << b.last << "]";
    else
      os << "never live";
    if (b.alwaysLive)
      os << " always-live";
    os << " tiles " << b.tiles.size() << " bytes " << b.bytes << " padded "
       << b.paddedBytes << "\n";
  }
  for (const TileLivenessRow &row : tileLivenessRows(a))
    os << "  tile " << row.tile << ": max live " << row.maxLive << " at point "
       << row.peakPoint << ", always-live " << row.alwaysLive << " (overheads "
       << row.overheads << ")\n";
  os << "  check: " << live.check.pointsChecked << " points, "
     << live.check.mismatches << " mismatches\n";
}

/// The summary's ratios as the reports print them, to 1/10000.
static double peakToLowerBound(const AllocationSummary &s) {
  return roundedRatio(s.totalPeak, s.totalLowerBound, 10000.0);
}
static double worstPeakToLowerBound(const AllocationSummary &s) {
  return std::round(s.worstRatio * 10000) / 10000;
}

json tessera::memory::allocationReportJson(const MemoryAnalysis &a,
                                           bool offsets) {
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
      llvm::ArrayRef<uint32_t> onTile = live.buffersOnTile[t];
      for (size_t i = 0; i < onTile.size(); ++i) {
        const TileBytes &share = live.shareOn(t, i);
        buffers.push_back(
            {{"name", live.buffers[onTile[i]].var.getName().str()},
             {"offset", alloc.allocation.offsets()[i]},
             {"size", share.paddedBytes},
             {"live_range", {share.first, share.last}}});
      }
      j["buffers"] = buffers;
    }
    tiles.push_back(j);
  }
  return {{"program", a.program},
          {"target", a.target.name},
          {"alignment_bytes", a.target.alignmentBytes},
          {"tiles_out_of_memory", summary.tilesOutOfMemory},
          {"worst_peak_to_lower_bound", worstPeakToLowerBound(summary)},
          {"worst_tile", summary.worstTile},
          {"peak_to_lower_bound", peakToLowerBound(summary)},
          {"max_tile", summary.maxUsedTile},
          {"max_tile_bytes", std::max<int64_t>(summary.maxUsedTileBytes, 0)},
          {"used_tiles", summary.usedTiles},
          {"mean_used_tile_bytes", summary.meanUsedTileBytes()},
          {"total_peak", summary.totalPeak},
          {"total_lower_bound", summary.totalLowerBound},
          {"tiles", tiles}};
}

void tessera::memory::writeAllocationSummaryLine(const MemoryAnalysis &a,
                                                 llvm::raw_ostream &os) {
  AllocationSummary s = summarizeAllocation(a);
  os << "@" << a.program << " on " << a.target.name << ": peak/lower-bound "
     << llvm::format("%.4f", peakToLowerBound(s)) << " (worst tile "
     << s.worstTile << ": " << llvm::format("%.4f", worstPeakToLowerBound(s))
     << "), max tile " << std::max<int64_t>(s.maxUsedTileBytes, 0)
     << " B (tile " << s.maxUsedTile << "), mean tile " << s.meanUsedTileBytes()
     << " B over " << s.usedTiles << " tiles, " << s.tilesOutOfMemory
     << " tile(s) out of memory\n";
}

void tessera::memory::writeAllocationText(const MemoryAnalysis &a, bool offsets,
                                          llvm::raw_ostream &os) {
  const ProgramLiveness &live = a.liveness;
  AllocationSummary s = summarizeAllocation(a);
  os << "allocation of @" << a.program << " on " << a.target.name
     << " (alignment " << a.target.alignmentBytes << "): " << s.tilesOutOfMemory
     << " tile(s) out of memory, worst peak / lower bound "
     << llvm::format("%.4f", worstPeakToLowerBound(s)) << "\n";
  for (int64_t t = 0; t < live.numTiles; ++t) {
    if (live.buffersOnTile[t].empty())
      continue;
    const TileAllocation &alloc = a.tiles[t];
    os << "  tile " << t << ": peak " << alloc.allocation.peak
       << ", lower bound " << alloc.allocation.lowerBound << ", gaps "
       << alloc.gaps() << ", with overheads " << alloc.includingGaps() << " of "
       << alloc.capacity;
    if (alloc.outOfMemory())
      os << ", OUT OF MEMORY by " << alloc.overBy();
    os << "\n";
    if (!offsets)
      continue;
    llvm::ArrayRef<uint32_t> onTile = live.buffersOnTile[t];
    for (size_t i = 0; i < onTile.size(); ++i) {
      const TileBytes &share = live.shareOn(t, i);
      os << "    " << live.buffers[onTile[i]].var.getName() << " at "
         << alloc.allocation.offsets()[i] << " size " << share.paddedBytes
         << " live [" << share.first << ", " << share.last << "]\n";
    }
  }
}
