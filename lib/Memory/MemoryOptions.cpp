//===- MemoryOptions.cpp - what the memory-saving options saved -----------===//

#include "tessera/Memory/MemoryOptions.h"

#include "tessera/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>

using namespace mlir;
using namespace tessera;
using namespace tessera::memory;

/// "NAME" for a copy named "NAME.recomputeK", else "".
static StringRef originalOf(StringRef name) {
  size_t dot = name.rfind(".recompute");
  if (dot == StringRef::npos)
    return "";
  StringRef k = name.drop_front(dot + strlen(".recompute"));
  if (k.empty() || !llvm::all_of(k, [](char c) { return llvm::isDigit(c); }))
    return "";
  return name.take_front(dot);
}

std::vector<DotWithinBudget>
tessera::memory::collectDotsWithinBudget(const MemoryAnalysis &a) {
  std::vector<DotWithinBudget> fits;
  if (a.liveness.buffers.empty())
    return fits;
  auto program =
      a.liveness.buffers.front().var->getParentOfType<tile::ProgramOp>();
  if (!program)
    return fits;
  // A dot in passes has a compute set per pass, each with the record.
  llvm::StringSet<> seen;
  program.walk([&](tile::ComputeSetOp cs) {
    auto fit = cs->getAttrOfType<DenseI64ArrayAttr>("memory_fit");
    if (!fit || fit.size() != 4 || cs.getOuts().empty())
      return;
    auto var = cs.getOuts().front().getDefiningOp<tile::VarOp>();
    std::string op =
        (var ? var.getHlo().value_or(var.getName()) : cs.getName()).str();
    if (!seen.insert(op).second)
      return;
    fits.push_back({op, fit[0], fit[1], fit[2], fit[3]});
  });
  return fits;
}

std::optional<RecomputeSaving>
tessera::memory::computeRecomputeSaving(const MemoryAnalysis &a) {
  const ProgramLiveness &live = a.liveness;
  if (live.buffers.empty() || a.tiles.empty())
    return std::nullopt;
  auto module = live.buffers.front().var->getParentOfType<ModuleOp>();
  auto record = module
                    ? module->getAttrOfType<DictionaryAttr>("tgraph.recompute")
                    : DictionaryAttr();
  if (!record)
    return std::nullopt;
  RecomputeSaving s;
  auto field = [&](StringRef name) {
    auto v = record.getAs<IntegerAttr>(name);
    return v ? v.getInt() : 0;
  };
  s.distance = field("distance");
  s.values = field("values");
  s.copies = field("copies");

  // The fullest tile and the point where its live bytes peak.
  for (size_t t = 1; t < a.tiles.size(); ++t)
    if (a.tiles[t].includingGaps() > a.tiles[s.tile].includingGaps())
      s.tile = t;
  std::vector<int64_t> curve = live.tileCurve(s.tile, /*padded=*/true);
  s.point = std::max_element(curve.begin(), curve.end()) - curve.begin();

  // Originals by their instruction name, copies by their original's. A
  // value whose every use was far has no original left: its first copy
  // stands for it.
  llvm::StringMap<uint32_t> byName;
  llvm::StringMap<std::vector<uint32_t>> copiesOf;
  for (uint32_t b = 0; b < live.buffers.size(); ++b) {
    StringRef name = live.buffers[b].var.getHlo().value_or("");
    if (StringRef original = originalOf(name); !original.empty())
      copiesOf[original].push_back(b);
    else if (!name.empty())
      byName.try_emplace(name, b);
  }
  for (auto &[name, copies] : copiesOf) {
    auto it = byName.find(name);
    uint32_t original = it != byName.end() ? it->second : copies.front();
    int64_t lastUse = -1;
    for (uint32_t c : copies) {
      std::optional<TileBytes> share = live.share(c, s.tile);
      if (!share)
        continue;
      lastUse = std::max(lastUse, share->last);
      if (c != original && share->liveAt(s.point))
        s.savedBytes -= share->paddedBytes;
    }
    std::optional<TileBytes> share = live.share(original, s.tile);
    if (share && share->first <= s.point && s.point <= lastUse &&
        !share->liveAt(s.point))
      s.savedBytes += share->paddedBytes;
  }
  return s;
}
