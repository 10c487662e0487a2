//===- TileMapTensors.cpp - tile-map-tensors ------------------------------===//
//
// Prints the tensor map (tessera/Analysis/Tile/TensorMap.h) or its summary;
// tessera-compile writes the same map through the report sink.
//
//===----------------------------------------------------------------------===//

#include "PassOutput.h"

#include "tessera/Analysis/Tile/TensorMap.h"
#include "tessera/Passes.h"

#include "llvm/Support/raw_ostream.h"

namespace tessera {
#define GEN_PASS_DEF_TILEMAPTENSORS
#include "Passes.h.inc"
} // namespace tessera

using namespace mlir;
using namespace tessera;

namespace {

struct TileMapTensorsPass
    : public tessera::impl::TileMapTensorsBase<TileMapTensorsPass> {
  using TileMapTensorsBase::TileMapTensorsBase;

  LogicalResult initialize(MLIRContext *context) override {
    parsed = parseTensorMapFormat(format);
    if (!parsed)
      return emitError(UnknownLoc::get(context))
             << "tile-map-tensors: format must be runs or tiles, got '"
             << format << "'";
    return success();
  }

  void runOnOperation() override {
    auto write = [&](llvm::raw_ostream &os) {
      if (summary) {
        getOperation().walk([&](tile::ProgramOp program) {
          writeTensorMapSummary(program, os);
        });
        return success();
      }
      os << buildTensorMap(getOperation(), *parsed)
                .dump(pretty ? 1 : -1, ' ', false,
                      nlohmann::json::error_handler_t::replace)
         << "\n";
      return success();
    };
    if (failed(writePassOutput(getOperation(), getArgument(), output, write)))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }

private:
  std::optional<TensorMapFormat> parsed;
};

} // namespace
