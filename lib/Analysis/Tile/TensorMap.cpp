//===- TensorMap.cpp - where every tensor element lives -------------------===//

#include "tessera/Analysis/Tile/TensorMap.h"

#include "tessera/Dialect/TGraph/IR/HloTypes.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/Parallel.h"

using namespace mlir;
using json = nlohmann::ordered_json;

namespace tessera {

/// The computation a program implements: its entry function's name.
static std::string computationOf(tile::ProgramOp program) {
  if (auto entry = program->getAttrOfType<FlatSymbolRefAttr>("entry"))
    return entry.getValue().str();
  return program.getSymName().str();
}

std::optional<TensorMapFormat> parseTensorMapFormat(llvm::StringRef name) {
  if (name == "runs")
    return TensorMapFormat::Runs;
  if (name == "tiles")
    return TensorMapFormat::Tiles;
  return std::nullopt;
}

llvm::StringRef tensorMapFormatName(TensorMapFormat format) {
  return format == TensorMapFormat::Runs ? "runs" : "tiles";
}

json tensorTiles(llvm::ArrayRef<int64_t> elementsPerTile,
                 TensorMapFormat format) {
  json tiles = json::array();
  if (format == TensorMapFormat::Tiles) {
    for (auto [t, n] : llvm::enumerate(elementsPerTile))
      if (n > 0)
        tiles.push_back({int64_t(t), n});
    return tiles;
  }
  // A linear mapping gives long runs of tiles with equal shares: one
  // [first, last, elements] for each, where the per-tile list has a pair
  // per tile.
  int64_t first = -1, last = -1, each = 0;
  auto flush = [&] {
    if (first >= 0)
      tiles.push_back({first, last, each});
  };
  for (auto [t, n] : llvm::enumerate(elementsPerTile)) {
    if (n <= 0)
      continue;
    if (first >= 0 && last + 1 == int64_t(t) && each == n) {
      last = t;
      continue;
    }
    flush();
    first = last = t;
    each = n;
  }
  flush();
  return tiles;
}

/// Programs of at least this many mapped vars build their entries as
/// tasks (a 10k-op graph has ~10k; the corpus models at most 1,193).
static constexpr size_t kParallelVars = 2048;

json tensorTiles(tile::MappingAttr mapping, int64_t numTiles,
                 TensorMapFormat format) {
  using Run = tile::MappingAttr::Run;
  llvm::SmallVector<Run, 8> runs;
  for (size_t i = 0, e = mapping.getNumRuns(); i < e; ++i) {
    Run r = mapping.getRun(i);
    if (r.perTile < 0)
      return tensorTiles(mapping.elementsPerTile(numTiles), format);
    r.endTile = std::min(r.endTile, numTiles);
    if (r.firstTile < r.endTile && r.perTile > 0)
      runs.push_back(r);
  }
  llvm::sort(runs, [](const Run &x, const Run &y) {
    return x.firstTile < y.firstTile;
  });
  // Runs sharing a tile add up there: the per-tile counts say how.
  for (size_t i = 1; i < runs.size(); ++i)
    if (runs[i].firstTile < runs[i - 1].endTile)
      return tensorTiles(mapping.elementsPerTile(numTiles), format);
  json tiles = json::array();
  if (format == TensorMapFormat::Tiles) {
    for (const Run &r : runs)
      for (int64_t t = r.firstTile; t < r.endTile; ++t)
        tiles.push_back({t, r.perTile});
    return tiles;
  }
  // Touching runs with the same count are one [first, last, elements].
  for (const Run &r : runs) {
    if (!tiles.empty()) {
      json &last = tiles.back();
      if (last[1].get<int64_t>() + 1 == r.firstTile &&
          last[2].get<int64_t>() == r.perTile) {
        last[1] = r.endTile - 1;
        continue;
      }
    }
    tiles.push_back({r.firstTile, r.endTile - 1, r.perTile});
  }
  return tiles;
}

static json programEntries(tile::ProgramOp program, TensorMapFormat format) {
  std::vector<tile::VarOp> vars;
  program.walk([&](tile::VarOp var) {
    if (var.getHlo() && var.getResultLeaf())
      vars.push_back(var);
  });
  // Each entry reads its var alone (a 30k-op map was a second of one
  // thread): built side by side, listed in program order; a small map on
  // this thread, where tasks cost more than they save.
  std::vector<json> built(vars.size());
  auto build = [&](size_t i) {
    tile::VarOp var = vars[i];
    tile::BufferType type = var.getType();
    json tiles = tensorTiles(var.getMapping(), program.getTiles(), format);
    built[i] = {var.getHlo()->str(),
                int64_t(*var.getResultLeaf()),
                type.getShape().vec(),
                hloDtypeName(type.getElementType()),
                var.getCategory() == tile::Category::Constant,
                bool(var.getAlias()),
                type.getNumElements(),
                std::move(tiles),
                var.getName().str()};
  };
  if (vars.size() >= kParallelVars)
    llvm::parallelFor(0, vars.size(), build);
  else
    for (size_t i = 0; i < vars.size(); ++i)
      build(i);
  json entries = json::array();
  entries.get_ref<json::array_t &>().reserve(built.size());
  for (json &entry : built)
    entries.push_back(std::move(entry));
  return entries;
}

json buildTensorMap(ModuleOp module, TensorMapFormat format) {
  json mappings = json::object();
  module.walk([&](tile::ProgramOp program) {
    mappings[computationOf(program)] = programEntries(program, format);
  });
  return {{"tile_format", tensorMapFormatName(format).str()},
          {"mappings", std::move(mappings)}};
}

void writeTensorMapSummary(tile::ProgramOp program, llvm::raw_ostream &os) {
  llvm::SmallVector<int64_t> perTile(program.getTiles(), 0);
  int64_t tensors = 0, elements = 0;
  program.walk([&](tile::VarOp var) {
    if (!var.getHlo() || !var.getResultLeaf())
      return;
    ++tensors;
    elements += var.getType().getNumElements();
    for (auto [t, n] :
         llvm::enumerate(var.getMapping().elementsPerTile(program.getTiles())))
      perTile[t] += n;
  });
  int64_t used = 0, minimum = INT64_MAX, maximum = 0, busiest = 0;
  for (auto [t, n] : llvm::enumerate(perTile)) {
    if (n == 0)
      continue;
    ++used;
    minimum = std::min(minimum, n);
    if (n > maximum)
      maximum = n, busiest = t;
  }
  os << "tensor map of " << program.getSymName() << " on "
     << program.getTarget() << ": " << tensors << " tensors, " << elements
     << " elements\n";
  os << "  tiles used: " << used << " of " << program.getTiles() << "\n";
  if (used == 0)
    return;
  os << "  elements per used tile: min " << minimum << ", mean "
     << llvm::format("%.1f", static_cast<double>(elements) / used) << ", max "
     << maximum << " (tile " << busiest << ")\n";
}

} // namespace tessera
