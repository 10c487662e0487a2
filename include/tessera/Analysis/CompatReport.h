//===- CompatReport.h - compatibility reports --------------------*- C++
//-*-===//
//
// The compatibility report of a module whose ops carry verdicts (run
// tgraph-check-compat first), computed once into a CompatReport: totals,
// per name-scope and per-op counts, the incompatible, host and rewritten
// ops with locations and fix hints, and what precision normalization did
// (docs/compat.md). Its forms are formatted from that one object: the JSON
// (the schema of docs/compat.md), a Graphviz DOT of the name-scope graph,
// and a short text summary for terminals. tgraph-check-compat and
// tessera-compile (lib/Compile) share them.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_ANALYSIS_COMPATREPORT_H
#define TESSERA_ANALYSIS_COMPATREPORT_H

#include "tessera/Analysis/Compat.h"
#include "tessera/Analysis/PrecisionLine.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tessera {

/// Name-scope nodes of a framework op name: `a/b/MatMul` lies in scopes `a`
/// and `a/b`; a name without '/' is its own node. Ops without an op name go
/// to the `(no op_name)` node.
llvm::SmallVector<std::string> nameScopes(llvm::StringRef opName);

/// Ops by verdict.
struct CompatCounts {
  int64_t compatible = 0, incompatible = 0, notAssessed = 0;
  int64_t total() const { return compatible + incompatible + notAssessed; }
  void add(CompatStatus status);
};

/// `part` of `whole` in percent, rounded to one decimal (100 when `whole`
/// is 0): the figure the JSON holds and the text prints.
double compatPercent(int64_t part, int64_t whole);

/// One op of the report's op lists.
struct CompatOpEntry {
  std::string instruction, op, opType, opName, function;
  std::string reason, detail, hint, location, source;
};

struct CompatScope {
  std::string name;
  int64_t depth = 1;
  CompatCounts counts;
};

struct CompatReport {
  std::string target;
  CompatCounts totals;
  std::map<std::string, int64_t> byReason;  ///< incompatible ops per reason
  std::map<std::string, CompatCounts> byOp; ///< by op name, dialect dropped
  std::vector<CompatScope> scopes;          ///< by name
  std::vector<CompatOpEntry> incompatibleOps, notAssessedOps, rewrittenOps;
  std::optional<PrecisionSummary> precision;

  /// Compatible of the assessed ops (compatible + incompatible), percent.
  double compatiblePercent() const {
    return compatPercent(totals.compatible,
                         totals.compatible + totals.incompatible);
  }
};

/// The report of `module`'s verdicts against `targetName`.
CompatReport computeCompatReport(mlir::ModuleOp module,
                                 llvm::StringRef targetName);

/// The JSON report (schema in docs/compat.md).
nlohmann::ordered_json compatReportJson(const CompatReport &report);

/// Its `totals` object, which the compilation report copies.
nlohmann::ordered_json compatTotalsJson(const CompatReport &report);

/// The name-scope graph at `depth` (0: the first depth with two or more
/// nodes) with each node filled by its compatible / incompatible /
/// not-assessed fractions. The edges come from `module`'s def-use chains.
void writeCompatDot(const CompatReport &report, mlir::ModuleOp module,
                    unsigned depth, llvm::raw_ostream &os);

/// A short summary for terminals.
void writeCompatSummary(const CompatReport &report, llvm::raw_ostream &os,
                        unsigned maxListed = 10);

} // namespace tessera

#endif // TESSERA_ANALYSIS_COMPATREPORT_H
