//===- TileMapTensors.cpp - tile-map-tensors ------------------------------===//
//
// Prints the tensor map (tessera/Analysis/Tile/TensorMap.h) or its summary;
// tessera-compile writes the same map through the report sink.
//
//===----------------------------------------------------------------------===//

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

  void runOnOperation() override {
    if (summary) {
      getOperation().walk([&](tile::ProgramOp program) {
        writeTensorMapSummary(program, llvm::outs());
      });
      return;
    }
    llvm::outs() << buildTensorMap(getOperation())
                        .dump(pretty ? 1 : -1, ' ', false,
                              nlohmann::json::error_handler_t::replace)
                 << "\n";
  }
};

} // namespace
