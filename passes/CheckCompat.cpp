//===- CheckCompat.cpp - tgraph-check-compat ------------------------------===//
//
// Attaches a compatibility verdict to every assessed op; reports are built
// from the verdicts (lib/Analysis/CompatReport.cpp).
//
//===----------------------------------------------------------------------===//

#include "PassOutput.h"

#include "PassTarget.h"
#include "tessera/Analysis/Compat.h"
#include "tessera/Analysis/CompatReport.h"
#include "tessera/Passes.h"
#include "tessera/Target/Presets.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

namespace tessera {
#define GEN_PASS_DEF_TGRAPHCHECKCOMPAT
#include "Passes.h.inc"
} // namespace tessera

using namespace mlir;
using namespace tessera;

namespace {

struct TGraphCheckCompatPass
    : TargetPass<TGraphCheckCompatPass, tessera::impl::TGraphCheckCompatBase> {
  using TargetPass::TargetPass;

  LogicalResult initialize(MLIRContext *context) override {
    Location loc = UnknownLoc::get(context);
    if (failed(TargetPass::initialize(context)))
      return failure();
    if (!hostOps.empty()) {
      hostRegex = std::make_shared<llvm::Regex>(hostOps);
      std::string error;
      if (!hostRegex->isValid(error))
        return emitError(loc) << "tgraph-check-compat: host-ops regex '"
                              << hostOps << "' is invalid: " << error;
    }
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    CompatOptions options;
    options.hostOps = hostRegex.get();
    int64_t incompatible = 0;
    module.walk([&](Operation *op) {
      if (!isAssessedOp(op))
        return;
      CompatVerdict verdict = checkOp(op, target, options);
      setVerdict(op, verdict);
      if (verdict.status != CompatStatus::Incompatible)
        return;
      ++incompatible;
      if (remarks) {
        InFlightDiagnostic remark =
            op->emitRemark() << "incompatible with " << target.name << ": "
                             << verdict.reason << ": " << verdict.detail;
        if (!verdict.hint.empty())
          remark << " (fix: " << verdict.hint << ")";
      }
    });
    module->setAttr("tgraph.target",
                    StringAttr::get(module.getContext(), target.name));

    if (print != PrintFormat::None ||
        (failOn == CompatFailOn::Incompatible && incompatible)) {
      CompatReport report = computeCompatReport(module, target.name);
      auto write = [&](llvm::raw_ostream &os) {
        if (print == PrintFormat::Json)
          os << compatReportJson(report).dump(
                    2, ' ', false,
                    nlohmann::ordered_json::error_handler_t::replace)
             << "\n";
        else if (print == PrintFormat::Dot)
          writeCompatDot(report, module, dotDepth, os);
        else
          writeCompatSummary(report, os);
        return success();
      };
      if (print != PrintFormat::None &&
          failed(writePassOutput(module, getArgument(), output, write)))
        return signalPassFailure();
      if (failOn == CompatFailOn::Incompatible && incompatible) {
        std::string summary;
        llvm::raw_string_ostream os(summary);
        writeCompatSummary(report, os, /*maxListed=*/5);
        module.emitError() << incompatible << " op(s) cannot run on "
                           << target.name << " (--compat-fail-on="
                           << "incompatible)\n"
                           << summary;
        return signalPassFailure();
      }
    }
    // Every assessed op got a verdict attribute and the module its target:
    // the IR changed, so no analysis is marked preserved.
  }

  std::shared_ptr<llvm::Regex> hostRegex;
};

} // namespace
