//===- TileVertexGraph.cpp - tile-vertex-graph ----------------------------===//
//
// Prints the vertex graph of each tile.program as Graphviz DOT
// (tessera/Analysis/Tile/VertexGraph.h); the IR is unchanged.
//
//===----------------------------------------------------------------------===//

#include "PassOutput.h"

#include "tessera/Analysis/Tile/VertexGraph.h"
#include "tessera/Passes.h"

#include "llvm/Support/raw_ostream.h"

namespace tessera {
#define GEN_PASS_DEF_TILEVERTEXGRAPH
#include "Passes.h.inc"
} // namespace tessera

using namespace mlir;
using namespace tessera;

namespace {

struct TileVertexGraphPass
    : public tessera::impl::TileVertexGraphBase<TileVertexGraphPass> {
  using TileVertexGraphBase::TileVertexGraphBase;

  void runOnOperation() override {
    auto write = [&](llvm::raw_ostream &os) {
      getOperation().walk([&](tile::ProgramOp program) {
        writeVertexGraphDot(program, maxVertices, os);
      });
      return success();
    };
    if (failed(writePassOutput(getOperation(), getArgument(), output, write)))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
