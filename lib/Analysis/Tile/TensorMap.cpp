//===- TensorMap.cpp - where every tensor element lives -------------------===//

#include "tessera/Analysis/Tile/TensorMap.h"

#include "tessera/Dialect/TGraph/IR/HloTypes.h"

#include "tessera/Support/JsonBuild.h"
#include "tessera/Support/Parallel.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using json = nlohmann::ordered_json;
using tessera::json_build::array;

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

namespace {
/// An entry's tiles, given as ranges of tiles with the same count in tile
/// order: a pair per tile, or (runs) one [first, last, elements] for each
/// stretch of touching tiles with equal counts. A linear mapping gives
/// long stretches, where the per-tile list has a pair per tile.
class TileList {
public:
  explicit TileList(TensorMapFormat format) : format(format) {}
  /// Tiles [first, end) hold `n` elements each (n > 0).
  void add(int64_t first, int64_t end, int64_t n) {
    if (format == TensorMapFormat::Tiles) {
      for (int64_t t = first; t < end; ++t)
        tiles.push_back(array<json>(t, n));
      return;
    }
    if (runFirst >= 0 && runLast + 1 == first && each == n) {
      runLast = end - 1;
      return;
    }
    flush();
    runFirst = first;
    runLast = end - 1;
    each = n;
  }
  json finish() {
    flush();
    return std::move(tiles);
  }

private:
  void flush() {
    if (runFirst >= 0)
      tiles.push_back(array<json>(runFirst, runLast, each));
    runFirst = -1;
  }
  TensorMapFormat format;
  json tiles = json::array();
  int64_t runFirst = -1, runLast = -1, each = 0;
};
} // namespace

json tensorTiles(llvm::ArrayRef<int64_t> elementsPerTile,
                 TensorMapFormat format) {
  TileList tiles(format);
  for (auto [t, n] : llvm::enumerate(elementsPerTile))
    if (n > 0)
      tiles.add(t, t + 1, n);
  return tiles.finish();
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
  // Runs sharing a tile add up there: the per-tile counts say how. Runs
  // over more tiles than there are must share one (a mapping that wraps
  // around the chip): no need to sort them to see it (sorting such runs
  // was three fifths of bert's tensor map).
  int64_t covered = 0;
  for (const Run &r : runs)
    covered += r.endTile - r.firstTile;
  if (covered > numTiles)
    return tensorTiles(mapping.elementsPerTile(numTiles), format);
  auto byFirstTile = [](const Run &x, const Run &y) {
    return x.firstTile < y.firstTile;
  };
  if (!llvm::is_sorted(runs, byFirstTile))
    llvm::sort(runs, byFirstTile);
  for (size_t i = 1; i < runs.size(); ++i)
    if (runs[i].firstTile < runs[i - 1].endTile)
      return tensorTiles(mapping.elementsPerTile(numTiles), format);
  TileList tiles(format);
  for (const Run &r : runs)
    tiles.add(r.firstTile, r.endTile, r.perTile);
  return tiles.finish();
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
    built[i] = array<json>(
        var.getHlo()->str(), int64_t(*var.getResultLeaf()),
        type.getShape().vec(), hloDtypeName(type.getElementType()),
        var.getCategory() == tile::Category::Constant, bool(var.getAlias()),
        type.getNumElements(), std::move(tiles), var.getName().str());
  };
  parallelForIf(vars.size() >= kParallelVars, vars.size(), build);
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
