//===- TileVertexGraph.cpp - tile-vertex-graph ----------------------------===//
//
// The vertex graph of each tile.program as Graphviz DOT: compute sets ->
// vertices -> tiles for small programs, and per compute set the vertex count
// per kind for large ones (thousands of tiles would make an unreadable
// drawing). Printed to stdout; the IR is unchanged.
//
//===----------------------------------------------------------------------===//

#include "tessera/Dialect/Tile/IR/Tile.h"
#include "tessera/Passes.h"

#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

namespace tessera {
#define GEN_PASS_DEF_TILEVERTEXGRAPH
#include "Passes.h.inc"
} // namespace tessera

using namespace mlir;
using namespace tessera;

namespace {

/// A DOT string; line breaks become DOT's `\n`.
std::string quoted(llvm::StringRef s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

int64_t verticesOf(tile::ComputeSetOp cs) {
  return (cs.getEndTile() - cs.getFirstTile()) * cs.getVerticesPerTile();
}

struct TileVertexGraphPass
    : public tessera::impl::TileVertexGraphBase<TileVertexGraphPass> {
  using TileVertexGraphBase::TileVertexGraphBase;

  void runOnOperation() override {
    getOperation().walk([&](tile::ProgramOp program) { print(program); });
  }

  void print(tile::ProgramOp program) {
    llvm::SmallVector<tile::ComputeSetOp> sets;
    int64_t vertices = 0;
    program.walk([&](tile::ComputeSetOp cs) {
      sets.push_back(cs);
      vertices += verticesOf(cs);
    });
    bool summarise = vertices > maxVertices;
    llvm::raw_ostream &os = llvm::outs();
    os << "digraph " << quoted(program.getSymName()) << " {\n";
    os << "  label="
       << quoted((program.getSymName() + " on " + program.getTarget() + ": " +
                  llvm::Twine(sets.size()) + " compute sets, " +
                  llvm::Twine(vertices) + " vertices" +
                  (summarise ? " (summarised)" : ""))
                     .str())
       << ";\n  rankdir=LR;\n  node [fontname=\"Helvetica\"];\n";
    std::set<int64_t> tiles;
    for (auto [i, cs] : llvm::enumerate(sets)) {
      std::string id = "cs" + std::to_string(i);
      std::string range = "[" + std::to_string(cs.getFirstTile()) + ", " +
                          std::to_string(cs.getEndTile() - 1) + "]";
      os << "  " << quoted(id) << " [shape=box, label="
         << quoted((cs.getName() + "\n" + cs.getKind() + " x " +
                    llvm::Twine(verticesOf(cs)) + " on tiles " + range)
                       .str())
         << "];\n";
      if (i > 0)
        os << "  " << quoted("cs" + std::to_string(i - 1)) << " -> "
           << quoted(id) << " [style=dashed];\n";
      if (summarise)
        continue;
      for (int64_t t = cs.getFirstTile(); t < cs.getEndTile(); ++t)
        for (int64_t v = 0; v < cs.getVerticesPerTile(); ++v) {
          std::string vid =
              id + ".t" + std::to_string(t) + ".v" + std::to_string(v);
          os << "  " << quoted(vid) << " [label=" << quoted(cs.getKind())
             << "];\n";
          os << "  " << quoted(id) << " -> " << quoted(vid) << ";\n";
          os << "  " << quoted(vid) << " -> "
             << quoted("tile" + std::to_string(t)) << ";\n";
          tiles.insert(t);
        }
    }
    for (int64_t t : tiles)
      os << "  " << quoted("tile" + std::to_string(t))
         << " [shape=circle, label=" << quoted(std::to_string(t)) << "];\n";
    os << "}\n";
  }
};

} // namespace
