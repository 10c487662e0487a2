//===- TileMemoryReport.cpp - tile-memory-report --------------------------===//
//
// Prints the full memory report of each tile program (docs/memory.md): the
// text summary, the JSON object, or the SVG heat map of bytes per tile.
// tessera-compile writes the same objects through its report sink; this
// pass is for lit tests and tessera-opt users. The IR is unchanged.
//
//===----------------------------------------------------------------------===//

#include "MemoryPass.h"

#include "tessera/Memory/MemoryReport.h"
#include "tessera/Passes.h"

namespace tessera {
#define GEN_PASS_DEF_TILEMEMORYREPORT
#include "Passes.h.inc"
} // namespace tessera

using namespace tessera;
using namespace tessera::memory;

namespace {

struct TileMemoryReportPass
    : MemoryReportPass<TileMemoryReportPass, impl::TileMemoryReportBase> {
  using MemoryReportPass::MemoryReportPass;

  mlir::LogicalResult writeReport(tile::ProgramOp program,
                                  const MemoryAnalysis &analysis,
                                  llvm::raw_ostream &os) {
    if (tile >= static_cast<int64_t>(program.getTiles())) {
      program.emitError() << "tile-memory-report: tile " << int64_t(tile)
                          << " is not a tile of the program (it has "
                          << program.getTiles() << ")";
      return mlir::failure();
    }
    nlohmann::ordered_json report = buildMemoryReport(analysis);
    nlohmann::ordered_json detail;
    if (tile >= 0)
      detail = buildTileDetail(analysis, tile);
    if (format == PrintFormat::Json) {
      if (tile >= 0)
        report["tile_detail"] = detail;
      writeJsonReport(report, os, pretty);
    } else if (format == PrintFormat::Svg) {
      writeTileHeatmapSvg(report, os);
    } else {
      writeMemorySummary(report, os);
      if (tile >= 0)
        writeTileDetail(detail, os);
    }
    return mlir::success();
  }
};

} // namespace
