//===- MemoryPass.h - What the memory passes share --------------*- C++ -*-===//
//
// tile-liveness, tile-print-allocation, tile-padding and tile-memory-report
// print reports built from one MemoryAnalysis per tile.program, which they
// take from the pass's analysis manager (ProgramMemoryAnalysis): the first
// memory pass of a pipeline computes liveness and allocation, the others
// reuse them.
//
// The passes stay anchored on the module, not on tile.program. Anchored on
// the program, consecutive memory passes are merged into one nested
// pipeline run per program (MLIR merges adjacent op adaptors), so with
// several programs their reports would come program by program instead of
// pass by pass, and the programs could run on several threads and print in
// any order: the output would change. The module-level analysis manager
// still keeps one analysis per program (getChildAnalysis).
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_PASSES_MEMORYPASS_H
#define TESSERA_PASSES_MEMORYPASS_H

#include "PassOutput.h"

#include "tessera/Passes.h"

#include "tessera/Dialect/Tile/IR/Tile.h"
#include "tessera/Memory/MemoryAnalysis.h"

#include "mlir/Pass/AnalysisManager.h"

#include <nlohmann/json.hpp>

namespace tessera::memory {

/// Hands the memory analysis of every tile.program under `root`, on the
/// program's target or `targetOverride`, to `fn`, in program order; `fn`
/// returns failure after emitting its own error. A program that cannot be
/// analysed gets a located error and the others are still reported.
inline mlir::LogicalResult forEachProgramMemory(
    mlir::Operation *root, mlir::AnalysisManager analyses,
    llvm::StringRef targetOverride,
    llvm::function_ref<mlir::LogicalResult(tile::ProgramOp,
                                           const MemoryAnalysis &)>
        fn) {
  bool ok = true;
  root->walk([&](tile::ProgramOp program) {
    llvm::Expected<const MemoryAnalysis &> analysis =
        analyses.getChildAnalysis<ProgramMemoryAnalysis>(program).get(
            targetOverride);
    if (!analysis) {
      program.emitError(llvm::toString(analysis.takeError()));
      ok = false;
      return;
    }
    ok &= mlir::succeeded(fn(program, *analysis));
  });
  return mlir::success(ok);
}

/// The body the memory passes share: `report` writes one program's report;
/// the reports of every program go to `output` (stdout for "-", else a
/// file written atomically). The caller marks the analyses preserved
/// afterwards: the IR is unchanged, so the next memory pass reuses them.
inline mlir::LogicalResult writeProgramReports(
    mlir::Operation *root, mlir::AnalysisManager analyses,
    llvm::StringRef pass, llvm::StringRef output,
    llvm::StringRef targetOverride,
    llvm::function_ref<mlir::LogicalResult(
        tile::ProgramOp, const MemoryAnalysis &, llvm::raw_ostream &)>
        report) {
  return writePassOutput(root, pass, output, [&](llvm::raw_ostream &os) {
    return forEachProgramMemory(
        root, analyses, targetOverride,
        [&](tile::ProgramOp program, const MemoryAnalysis &analysis) {
          return report(program, analysis, os);
        });
  });
}

/// A report as one line of JSON (an indented document with `pretty`);
/// invalid UTF-8 in names is replaced rather than aborting the dump.
inline void writeJsonReport(const nlohmann::ordered_json &report,
                            llvm::raw_ostream &os, bool pretty = false) {
  os << report.dump(pretty ? 1 : -1, ' ', false,
                    nlohmann::json::error_handler_t::replace)
     << "\n";
}

/// The pass body of a memory pass, `Base` its generated base: `Derived`
/// has `output` and `targetName` options and a
/// `LogicalResult writeReport(tile::ProgramOp, const MemoryAnalysis &,
/// raw_ostream &)` that formats one program's report from the lib/Memory
/// report model.
template <typename Derived, template <typename> class Base>
class MemoryReportPass : public Base<Derived> {
public:
  using BaseT = Base<Derived>;
  using BaseT::BaseT;

  void runOnOperation() override {
    Derived &self = static_cast<Derived &>(*this);
    if (mlir::failed(writeProgramReports(
            this->getOperation(), this->getAnalysisManager(),
            this->getArgument(), self.output, self.targetName,
            [&](tile::ProgramOp program, const MemoryAnalysis &analysis,
                llvm::raw_ostream &os) {
              return self.writeReport(program, analysis, os);
            })))
      return this->signalPassFailure();
    // The IR is unchanged: the next memory pass reuses the analysis.
    this->markAllAnalysesPreserved();
  }
};

/// A memory pass whose report is JSON (`print=json`) or text, `Base` its
/// generated base and `toJson` / `writeText` its lib/Memory formatters. It
/// needs no class of its own: the pass's file instantiates it explicitly,
/// which also defines the pass's generated create function.
template <template <typename> class Base,
          nlohmann::ordered_json (*toJson)(const MemoryAnalysis &),
          void (*writeText)(const MemoryAnalysis &, llvm::raw_ostream &)>
class JsonOrTextReportPass
    : public MemoryReportPass<JsonOrTextReportPass<Base, toJson, writeText>,
                              Base> {
public:
  using MemoryReportPass<JsonOrTextReportPass, Base>::MemoryReportPass;

  mlir::LogicalResult writeReport(tile::ProgramOp, const MemoryAnalysis &a,
                                  llvm::raw_ostream &os) {
    if (this->print == PrintFormat::Json)
      writeJsonReport(toJson(a), os);
    else
      writeText(a, os);
    return mlir::success();
  }
};

} // namespace tessera::memory

#endif // TESSERA_PASSES_MEMORYPASS_H
