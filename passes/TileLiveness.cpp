//===- TileLiveness.cpp - tile-liveness -----------------------------------===//
//
// Prints the live range of every buffer of each tile program and each
// tile's largest live bytes (docs/memory.md, "Liveness"). The IR is
// unchanged.
//
//===----------------------------------------------------------------------===//

#include "MemoryPass.h"

#include "tessera/Memory/MemoryReport.h"
#include "tessera/Passes.h"

#include "llvm/Support/raw_ostream.h"

namespace tessera {
#define GEN_PASS_DEF_TILELIVENESS
#include "Passes.h.inc"
} // namespace tessera

using namespace mlir;
using namespace tessera;
using namespace tessera::memory;

namespace {

struct TileLivenessPass
    : public tessera::impl::TileLivenessBase<TileLivenessPass> {
  using TileLivenessBase::TileLivenessBase;

  void runOnOperation() override {
    auto writeReport = [&](tile::ProgramOp, const MemoryAnalysis &analysis,
                      llvm::raw_ostream &os) {
      nlohmann::ordered_json report = buildLivenessReport(analysis);
      if (print == PrintFormat::Json)
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

  static void writeText(const nlohmann::ordered_json &r,
                        llvm::raw_ostream &os) {
    os << "liveness of @" << r.value("program", "") << " on "
       << r.value("target", "") << ": " << r["program_points"].get<int64_t>()
       << " program points\n";
    for (const auto &b : r["buffers"]) {
      os << "  " << b.value("name", "") << " " << b.value("category", "")
         << " ";
      if (b["live_range"].is_null())
        os << "never live";
      else
        os << "[" << b["live_range"][0].get<int64_t>() << ", "
           << b["live_range"][1].get<int64_t>() << "]";
      if (b.value("always_live", false))
        os << " always-live";
      os << " tiles " << b["tiles"].get<int64_t>() << " bytes "
         << b["bytes"].get<int64_t>() << " padded "
         << b["padded_bytes"].get<int64_t>() << "\n";
    }
    for (const auto &t : r["tiles"])
      os << "  tile " << t["tile"].get<int64_t>() << ": max live "
         << t["max_live"].get<int64_t>() << " at point "
         << t["peak_point"].get<int64_t>() << ", always-live "
         << t["always_live"].get<int64_t>() << " (overheads "
         << t["overheads"].get<int64_t>() << ")\n";
    os << "  check: " << r["check"]["points_checked"].get<int64_t>()
       << " points, " << r["check"]["mismatches"].get<int64_t>()
       << " mismatches\n";
  }
};

} // namespace
