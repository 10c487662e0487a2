//===- InstructionInfo.cpp - tgraph-instruction-info ----------------------===//
//
// Prints the ML role of every dot and convolution (lib/Analysis
// InstructionInfo.cpp) as JSON. The IR is unchanged.
//
//===----------------------------------------------------------------------===//

#include "PassOutput.h"

#include "tessera/Analysis/InstructionInfo.h"
#include "tessera/Passes.h"

#include "llvm/Support/raw_ostream.h"

namespace tessera {
#define GEN_PASS_DEF_TGRAPHINSTRUCTIONINFO
#include "Passes.h.inc"
} // namespace tessera

namespace {

struct TGraphInstructionInfoPass
    : public tessera::impl::TGraphInstructionInfoBase<
          TGraphInstructionInfoPass> {
  using TGraphInstructionInfoBase::TGraphInstructionInfoBase;

  void runOnOperation() override {
    auto write = [&](llvm::raw_ostream &os) {
      os << tessera::buildInstructionInfo(getOperation())
                .dump(2, ' ', false,
                      nlohmann::ordered_json::error_handler_t::replace)
         << "\n";
      return mlir::success();
    };
    if (mlir::failed(tessera::writePassOutput(getOperation(), getArgument(),
                                              output, write)))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
