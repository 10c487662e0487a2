//===- CompatReport.h - compatibility reports --------------------*- C++
//-*-===//
//
// Builds the compatibility report of a module whose ops carry verdicts (run
// tgraph-check-compat first): totals, per name-scope node counts, the list of
// incompatible ops with locations and fix hints (docs/compat.md); a Graphviz
// DOT of the name-scope graph; and a short text summary for terminals.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_ANALYSIS_COMPATREPORT_H
#define TESSERA_ANALYSIS_COMPATREPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

namespace tessera {

/// Name-scope nodes of a framework op name: `a/b/MatMul` lies in scopes `a`
/// and `a/b`; a name without '/' is its own node. Ops without an op name go
/// to the `(no op_name)` node.
llvm::SmallVector<std::string> nameScopes(llvm::StringRef opName);

/// The JSON report (schema in docs/compat.md).
nlohmann::ordered_json buildCompatReport(mlir::ModuleOp module,
                                         llvm::StringRef targetName);

/// The name-scope graph at `depth` (0: the first depth with two or more
/// nodes) with each node filled by its compatible / incompatible /
/// not-assessed fractions.
void writeCompatDot(const nlohmann::ordered_json &report, mlir::ModuleOp module,
                    unsigned depth, llvm::raw_ostream &os);

/// A short summary for terminals.
void writeCompatSummary(const nlohmann::ordered_json &report,
                        llvm::raw_ostream &os, unsigned maxListed = 10);

} // namespace tessera

#endif // TESSERA_ANALYSIS_COMPATREPORT_H
