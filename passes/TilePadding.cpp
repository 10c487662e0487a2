//===- TilePadding.cpp - tile-padding -------------------------------------===//
//
// Prints the padding of every buffer (unpadded and padded bytes, expansion,
// extra bytes), the matrix-unit fit of every matmul vertex and, per op,
// FLOPs, padded FLOPs and bytes moved (docs/memory.md, "Padding"). The IR
// is unchanged.
//
//===----------------------------------------------------------------------===//

#include "MemoryPass.h"

#include "tessera/Memory/MemoryReport.h"
#include "tessera/Passes.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace tessera {
#define GEN_PASS_DEF_TILEPADDING
#include "Passes.h.inc"
} // namespace tessera

using namespace mlir;
using namespace tessera;
using namespace tessera::memory;
using json = nlohmann::ordered_json;

namespace {

struct TilePaddingPass
    : public tessera::impl::TilePaddingBase<TilePaddingPass> {
  using TilePaddingBase::TilePaddingBase;

  void runOnOperation() override {
    auto writeReport = [&](tile::ProgramOp, const MemoryAnalysis &analysis,
                      llvm::raw_ostream &os) {
      json full = buildMemoryReport(analysis);
      json report = {{"program", full["program"]},
                     {"target", full["target"]["name"]},
                     {"layout_tile", full["target"]["layout_tile"]},
                     {"total", full["summary"]["padding"]},
                     {"buffers", json::array()},
                     {"matmuls", full["padding"]["matmuls"]},
                     {"ops", full["cost"]["ops"]}};
      for (const json &b : full["buffers"])
        if (b["alias_of"].is_null())
          report["buffers"].push_back({{"name", b["name"]},
                                       {"shape", b["shape"]},
                                       {"dtype", b["dtype"]},
                                       {"unpadded_size", b["unpadded_size"]},
                                       {"size", b["size"]},
                                       {"expansion", b["expansion"]},
                                       {"extra", b["extra"]}});
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

  static void writeText(const json &r, llvm::raw_ostream &os) {
    const json &total = r["total"];
    os << "padding of @" << r.value("program", "") << " on "
       << r.value("target", "") << " (layout tile ["
       << r["layout_tile"][0].get<int64_t>() << ", "
       << r["layout_tile"][1].get<int64_t>()
       << "]): " << total["unpadded_bytes"].get<int64_t>() << " -> "
       << total["padded_bytes"].get<int64_t>() << " bytes, expansion "
       << llvm::format("%.2f", total["expansion"].get<double>()) << "x\n";
    for (const json &b : r["buffers"]) {
      os << "  buffer " << b.value("name", "") << " [";
      bool first = true;
      for (const json &d : b["shape"]) {
        os << (first ? "" : ", ") << d.get<int64_t>();
        first = false;
      }
      os << "] " << b.value("dtype", "") << ": "
         << b["unpadded_size"].get<int64_t>() << " -> "
         << b["size"].get<int64_t>() << " bytes, expansion "
         << llvm::format("%.2f", b["expansion"].get<double>()) << "x, extra "
         << b["extra"].get<int64_t>() << "\n";
    }
    for (const json &m : r["matmuls"]) {
      const json &fit = m["fit"];
      os << "  matmul " << m.value("step", "") << " block ["
         << m["block"]["batch"].get<int64_t>() << ", "
         << m["block"]["m"].get<int64_t>() << ", "
         << m["block"]["n"].get<int64_t>() << ", "
         << m["block"]["k"].get<int64_t>() << "]";
      // A ragged grid: the fit is the full block's, the MACs every
      // vertex's (edge blocks included).
      bool ragged = m.contains("edge");
      if (ragged)
        os << " (last m " << m["edge"]["m"].get<int64_t>() << ", last n "
           << m["edge"]["n"].get<int64_t>() << ")";
      os << ": m " << fit.value("m", "") << ", n " << fit.value("n", "")
         << ", k " << fit.value("k", "") << "; "
         << m[ragged ? "step_useful_macs" : "useful_macs"].get<int64_t>() << "/"
         << m[ragged ? "step_padded_macs" : "padded_macs"].get<int64_t>()
         << " MACs useful" << (ragged ? " over every vertex" : "") << " ("
         << llvm::format("%.1f", 100 * m["utilization"].get<double>())
         << "%)\n";
    }
    for (const json &o : r["ops"])
      os << "  op " << o.value("op", "") << ": flops "
         << o["flops"].get<int64_t>() << ", padded flops "
         << o["padded_flops"].get<int64_t>() << ", bytes moved "
         << o["bytes_moved"].get<int64_t>() << ", cycles "
         << o["cycles"].get<int64_t>() << "\n";
  }
};

} // namespace
