//===- VertexGraph.cpp - compute sets -> vertices -> tiles as DOT ---------===//

#include "tessera/Analysis/Tile/VertexGraph.h"

#include <set>

using namespace mlir;
using namespace tessera;

/// A DOT string; line breaks become DOT's `\n`.
static std::string quoted(llvm::StringRef s) {
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

static int64_t verticesOf(tile::ComputeSetOp cs) {
  return (cs.getEndTile() - cs.getFirstTile()) * cs.getVerticesPerTile();
}

void tessera::writeVertexGraphDot(tile::ProgramOp program, int64_t maxVertices,
                                  llvm::raw_ostream &os) {
  llvm::SmallVector<tile::ComputeSetOp> sets;
  int64_t vertices = 0;
  program.walk([&](tile::ComputeSetOp cs) {
    sets.push_back(cs);
    vertices += verticesOf(cs);
  });
  bool summarise = vertices > maxVertices;
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
      os << "  " << quoted("cs" + std::to_string(i - 1)) << " -> " << quoted(id)
         << " [style=dashed];\n";
    if (summarise)
      continue;
    for (int64_t t = cs.getFirstTile(), e = cs.getEndTile(); t < e; ++t)
      for (int64_t v = 0, n = cs.getVerticesPerTile(); v < n; ++v) {
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
