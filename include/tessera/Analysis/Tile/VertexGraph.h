//===- VertexGraph.h - compute sets -> vertices -> tiles as DOT --*- C++
//-*-===//
//
// The vertex graph of a tile program as Graphviz DOT: compute sets in
// program order, each with its vertices and the tiles they run on; above
// `maxVertices` vertices in all, each compute set is one node labelled with
// its vertex kind and count (thousands of tiles would make an unreadable
// drawing). Used by `tile-vertex-graph` and tessera-compile's
// save_vertex_graph flag.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_ANALYSIS_TILE_VERTEXGRAPH_H
#define TESSERA_ANALYSIS_TILE_VERTEXGRAPH_H

#include "tessera/Dialect/Tile/IR/Tile.h"

#include "llvm/Support/raw_ostream.h"

namespace tessera {

void writeVertexGraphDot(tile::ProgramOp program, int64_t maxVertices,
                         llvm::raw_ostream &os);

} // namespace tessera

#endif // TESSERA_ANALYSIS_TILE_VERTEXGRAPH_H
