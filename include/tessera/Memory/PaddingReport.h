//===- PaddingReport.h - the padding and cost report model ------*- C++ -*-===//
//
// What padding costs a tile program, and what each step costs, computed
// once from a MemoryAnalysis into plain structs (docs/memory.md, "Padding"
// and "Cost"). The memory report's `padding`, `summary.padding` and `cost`
// sections and tile-padding's text and JSON are all formatted from these
// objects, so the figures agree by construction.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_MEMORY_PADDINGREPORT_H
#define TESSERA_MEMORY_PADDINGREPORT_H

#include "tessera/Memory/MemoryAnalysis.h"
#include "tessera/Memory/ReportForms.h"

#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera::memory {

/// a / b rounded to 1/`digits` (1 when b is 0): the reports' ratios.
double roundedRatio(int64_t a, int64_t b, double digits = 100.0);

struct PaddingTotals {
  int64_t unpaddedBytes = 0, paddedBytes = 0;
  int64_t extraBytes() const { return paddedBytes - unpaddedBytes; }
  double expansion() const { return roundedRatio(paddedBytes, unpaddedBytes); }
};

/// One matmul step's fit on the matrix unit.
struct MatmulPadding {
  int64_t point = 0;
  std::string step, op;
  MatmulFit fit; ///< of the full block
  /// A ragged grid: the last row's and column's block extents [m, n], and
  /// the MACs over every vertex of the step (edge blocks included).
  std::optional<std::pair<int64_t, int64_t>> edge;
  int64_t stepUsefulMacs = 0, stepPaddedMacs = 0;
  /// Useful over padded MACs (the step's on a ragged grid, else the
  /// block's), rounded to 1/10000.
  double utilization = 1.0;
};

struct PaddingReport {
  /// Over the buffers that own storage (aliases share their source's).
  PaddingTotals total;
  /// Those buffers (indices into the liveness's buffers), program order.
  std::vector<uint32_t> buffers;
  /// The ten with the most extra bytes, most first.
  std::vector<uint32_t> mostPadded;
  std::vector<MatmulPadding> matmuls; ///< program order
};

PaddingReport computePaddingReport(const MemoryAnalysis &analysis);

/// The cost of one HLO instruction's steps (syncs and control steps are
/// nobody's).
struct OpCostTotals {
  std::string op;
  int64_t steps = 0, cycles = 0, flops = 0, paddedFlops = 0, bytesMoved = 0;
};

struct CostReport {
  /// The whole program's (ProgramCost), and per op in first-step order.
  int64_t totalCycles = 0, unknownTripCounts = 0;
  double seconds = 0;
  std::vector<OpCostTotals> ops;
};

CostReport computeCostReport(const MemoryAnalysis &analysis);

/// The memory report's `cost` section: totals, `ops` and every step; in
/// the compact form (ReportForms.h) `ops` is a table and the steps are
/// left out.
nlohmann::ordered_json costReportJson(const MemoryAnalysis &analysis,
                                      const CostReport &cost,
                                      ReportForm form = ReportForm::Complete);

/// The `ops` list of the cost report.
nlohmann::ordered_json opCostsJson(const CostReport &cost);

/// A matmul's entry of the padding report's `matmuls`.
nlohmann::ordered_json matmulPaddingJson(const MatmulPadding &matmul);

/// The totals object (`summary.padding` of the memory report, `total` of
/// tile-padding's).
nlohmann::ordered_json paddingTotalsJson(const PaddingTotals &total);

/// tile-padding's report: the program's padding, each buffer's, each
/// matmul's fit and each op's cost, as JSON and as text.
nlohmann::ordered_json paddingReportJson(const MemoryAnalysis &analysis,
                                         const PaddingReport &padding,
                                         const CostReport &cost);
void writePaddingText(const MemoryAnalysis &analysis,
                      const PaddingReport &padding, const CostReport &cost,
                      llvm::raw_ostream &os);
/// The same, computing the padding and cost reports from `analysis`.
nlohmann::ordered_json paddingReportJson(const MemoryAnalysis &analysis);
void writePaddingText(const MemoryAnalysis &analysis, llvm::raw_ostream &os);

} // namespace tessera::memory

#endif // TESSERA_MEMORY_PADDINGREPORT_H
