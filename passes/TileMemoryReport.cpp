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

#include "llvm/Support/raw_ostream.h"

namespace tessera {
#define GEN_PASS_DEF_TILEMEMORYREPORT
#include "Passes.h.inc"
} // namespace tessera

using namespace mlir;
using namespace tessera;
using namespace tessera::memory;

namespace {

struct TileMemoryReportPass
    : public tessera::impl::TileMemoryReportBase<TileMemoryReportPass> {
  using TileMemoryReportBase::TileMemoryReportBase;

  void runOnOperation() override {
    auto writeReport = [&](tile::ProgramOp program,
                           const MemoryAnalysis &analysis,
                           llvm::raw_ostream &os) -> LogicalResult {
      if (tile >= static_cast<int64_t>(program.getTiles())) {
        program.emitError() << "tile-memory-report: tile " << int64_t(tile)
                            << " is not a tile of the program (it has "
                            << program.getTiles() << ")";
        return failure();
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
      return success();
    };
    if (failed(writeProgramReports(getOperation(), getAnalysisManager(),
                                   getArgument(), output, targetName,
                                   writeReport)))
      return signalPassFailure();
    // The IR is unchanged: the next memory pass reuses the analysis.
    markAllAnalysesPreserved();
  }
};

} // namespace
