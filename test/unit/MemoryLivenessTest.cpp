//===- MemoryLivenessTest.cpp - per-tile shares and the tiles sharing them ===//
//
// The liveness marks the tiles whose shares differ from the tile before;
// the allocation and the peak check do their per-tile work only there. A
// tile left unmarked must really hold its predecessor's buffers with the
// same shares, and get the allocation its own requests would get.
//
//===----------------------------------------------------------------------===//

#include "tessera/Memory/MemoryAnalysis.h"
#include "tessera/Memory/ShareCache.h"

#include "tessera/Dialect/Tile/IR/Tile.h"
#include "tessera/Target/Layout.h"
#include "tessera/Target/Presets.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>

using namespace mlir;
using namespace tessera;
using namespace tessera::memory;

namespace {

// Buffers over different tile spans with different live ranges: `a` on
// tiles 0-99, `b` and `y` on 0-49, `c` on 10-29 but read again on 20-29
// only, `d` 7 elements on each of tiles 0-2 and 5 on tile 3.
constexpr const char *kProgram = R"mlir(
tile.program @p target "tile-1472" tiles 1472 {
  %a = tile.var "a" parameter mapping<[0, 99] x 10 from 0> : !tile.buffer<10x100xf32>
  %b = tile.var "b" temporary mapping<[0, 49] x 20 from 0> : !tile.buffer<10x100xf32>
  %c = tile.var "c" temporary mapping<[10, 29] x 5 from 0> : !tile.buffer<100xf32>
  %d = tile.var "d" partials mapping<[0, 2] x 7 from 0, [3, 3] x 5 from 21> : !tile.buffer<26xf32>
  %y = tile.var "y" output mapping<[0, 49] x 20 from 0> : !tile.buffer<10x100xf32>
  tile.host_copy infeed %a : !tile.buffer<10x100xf32>
  tile.sync
  tile.compute_set "one" kind "elementwise.negate" tiles [0, 49]
      ins(%a : !tile.buffer<10x100xf32>) outs(%b : !tile.buffer<10x100xf32>)
  tile.compute_set "two" kind "elementwise.negate" tiles [10, 29]
      ins(%b : !tile.buffer<10x100xf32>) outs(%c : !tile.buffer<100xf32>)
  tile.sync
  tile.compute_set "three" kind "elementwise.negate" tiles [20, 29]
      ins(%c : !tile.buffer<100xf32>) outs(%b : !tile.buffer<10x100xf32>)
  tile.compute_set "part" kind "reduce-partial.add" tiles [0, 3]
      ins(%b : !tile.buffer<10x100xf32>) outs(%d : !tile.buffer<26xf32>)
  tile.sync
  tile.compute_set "out" kind "elementwise.negate" tiles [0, 49]
      ins(%b : !tile.buffer<10x100xf32>) outs(%y : !tile.buffer<10x100xf32>)
  tile.host_copy outfeed %y : !tile.buffer<10x100xf32>
}
)mlir";

bool sameShare(const TileBytes &x, const TileBytes &y) {
  return x.elements == y.elements && x.bytes == y.bytes &&
         x.paddedBytes == y.paddedBytes && x.first == y.first &&
         x.last == y.last;
}

/// The requests tile `t`'s shares make of the allocator.
std::vector<LiveInterval> requestsOn(const ProgramLiveness &live, int64_t t) {
  std::vector<LiveInterval> requests;
  for (size_t i = 0; i < live.buffersOnTile[t].size(); ++i) {
    TileBytes s = live.shareOn(t, i);
    requests.push_back({s.first, s.last, s.paddedBytes});
  }
  return requests;
}

/// Expects tile `t`'s allocation to be the one its own requests get.
void expectAllocatedAsAlone(const MemoryAnalysis &analysis, int64_t t) {
  Allocation alone = allocate(requestsOn(analysis.liveness, t),
                              analysis.target.alignmentBytes);
  const TileOffsets &got = analysis.tiles[t].allocation;
  EXPECT_EQ(got.offsets(), llvm::ArrayRef<int64_t>(alone.offsets))
      << "tile " << t;
  EXPECT_EQ(got.peak, alone.peak) << "tile " << t;
  EXPECT_EQ(got.lowerBound, alone.lowerBound) << "tile " << t;
}

/// Expects tile `t`'s allocation to place its own requests: no two live at
/// one point overlap, and the peak is no higher than allocating them alone
/// gives (a list may be built from the list before it: allocateTiles).
void expectAnAllocationOf(const MemoryAnalysis &analysis, int64_t t) {
  std::vector<LiveInterval> requests = requestsOn(analysis.liveness, t);
  int64_t alignment = analysis.target.alignmentBytes;
  Allocation alone = allocate(requests, alignment);
  const TileOffsets &got = analysis.tiles[t].allocation;
  ASSERT_EQ(got.offsets().size(), requests.size()) << "tile " << t;
  for (size_t i = 0; i < requests.size(); ++i)
    for (size_t j = i + 1; j < requests.size(); ++j) {
      const LiveInterval &x = requests[i], &y = requests[j];
      if (x.size <= 0 || y.size <= 0 || x.last < y.first || y.last < x.first)
        continue;
      int64_t xo = got.offsets()[i], yo = got.offsets()[j];
      EXPECT_TRUE(xo + alignTo(x.size, alignment) <= yo ||
                  yo + alignTo(y.size, alignment) <= xo)
          << "tile " << t << ": buffers " << i << " and " << j;
    }
  EXPECT_LE(got.peak, alone.peak) << "tile " << t;
  EXPECT_EQ(got.lowerBound, alone.lowerBound) << "tile " << t;
}

/// A program's text parsed and analysed; null (and a test failure saying
/// why) when either fails.
struct Analysed {
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::optional<MemoryAnalysis> analysis;
};
std::unique_ptr<Analysed> analyse(llvm::StringRef text) {
  auto a = std::make_unique<Analysed>();
  a->context.loadDialect<tile::TileDialect, func::FuncDialect>();
  a->module = parseSourceString<ModuleOp>(text, &a->context);
  if (!a->module) {
    ADD_FAILURE() << "the program does not parse";
    return nullptr;
  }
  tile::ProgramOp program = *a->module->getOps<tile::ProgramOp>().begin();
  llvm::Expected<MemoryAnalysis> analysis = analyzeMemory(program);
  if (!analysis) {
    ADD_FAILURE() << llvm::toString(analysis.takeError());
    return nullptr;
  }
  a->analysis.emplace(std::move(*analysis));
  return a;
}
std::unique_ptr<Analysed> analyseProgram() { return analyse(kProgram); }

TEST(MemoryLivenessTest, TilesLeftUnmarkedRepeatTheirPredecessor) {
  std::unique_ptr<Analysed> a = analyseProgram();
  ASSERT_TRUE(a);
  const MemoryAnalysis *analysis = &*a->analysis;
  const ProgramLiveness &live = analysis->liveness;
  ASSERT_EQ(live.sharesChange.size(), static_cast<size_t>(live.numTiles));

  int64_t repeated = 0, marked = 0;
  for (int64_t t = 0; t < live.numTiles; ++t) {
    // Whatever the mark, the tile's allocation places its own requests.
    expectAnAllocationOf(*analysis, t);
    if (!live.sameSharesAsPrevious(t)) {
      ++marked;
      continue;
    }
    ++repeated;
    ASSERT_EQ(live.buffersOnTile[t], live.buffersOnTile[t - 1]) << "tile " << t;
    for (size_t i = 0; i < live.buffersOnTile[t].size(); ++i)
      EXPECT_TRUE(sameShare(live.shareOn(t, i), live.shareOn(t - 1, i)))
          << "tile " << t << ", buffer " << live.buffersOnTile[t][i];
  }
  // Both kinds occur: the tiles where a buffer's span or range changes
  // (0, 3 and 4 for `d`, 10, 20, 30, 50, 100) and the tiles in between.
  EXPECT_GT(repeated, 1000);
  for (int64_t t : {0, 3, 4, 10, 20, 30, 50, 100})
    EXPECT_FALSE(live.sameSharesAsPrevious(t)) << "tile " << t;
  EXPECT_EQ(marked, 8);

  // The check still covers every tile holding buffers.
  int64_t used =
      llvm::count_if(llvm::seq<int64_t>(0, live.numTiles),
                     [&](int64_t t) { return !live.buffersOnTile[t].empty(); });
  EXPECT_EQ(live.check.mismatches, 0);
  EXPECT_EQ(live.check.pointsChecked, live.numPoints() + used);
}

// The marked tiles are grouped by equal requests, each group (list) placed
// once: tiles of one list ask for the same ranges and bytes, tiles of two
// lists do not, and a list is known by the first tile with it.
TEST(MemoryLivenessTest, MarkedTilesWithEqualRequestsShareAList) {
  std::unique_ptr<Analysed> a = analyseProgram();
  ASSERT_TRUE(a);
  const ProgramLiveness &live = a->analysis->liveness;
  auto requestsOf = [&](int64_t t) {
    std::vector<std::tuple<int64_t, int64_t, int64_t>> requests;
    for (const LiveInterval &r : requestsOn(live, t))
      requests.push_back({r.first, r.last, r.size});
    return requests;
  };
  std::vector<int64_t> marked;
  for (int64_t t = 0; t < live.numTiles; ++t)
    if (!live.sameSharesAsPrevious(t))
      marked.push_back(t);
  ASSERT_EQ(live.listOfTile.size(), marked.size());
  std::vector<bool> seen(live.listFirstTile.size(), false);
  int64_t repeats = 0;
  for (auto [k, entry] : llvm::enumerate(live.listOfTile)) {
    auto [t, list] = entry;
    EXPECT_EQ(t, marked[k]);
    ASSERT_LT(list, live.listFirstTile.size());
    if (!seen[list]) {
      // New lists are numbered in tile order.
      EXPECT_EQ(live.listFirstTile[list], t);
      EXPECT_TRUE(list == 0 || seen[list - 1]);
      seen[list] = true;
    } else {
      ++repeats;
    }
    for (auto [other, otherList] : live.listOfTile)
      EXPECT_EQ(list == otherList, requestsOf(t) == requestsOf(other))
          << "tiles " << t << " and " << other;
  }
  // Tiles 4-9 and 30-49 both hold a, b and y, live alike: one list for
  // two stretches that are not neighbours.
  EXPECT_GE(repeats, 1);
  EXPECT_TRUE(llvm::all_of(seen, [](bool s) { return s; }));
}

} // namespace

namespace {

// Each tile's live range of a buffer comes from the steps that touch that
// tile: kProgram's `b` is written on tiles 0-49 (step one), read on 10-29
// (two), written again on 20-29 (three), read on 0-3 (part) and on 0-49
// (out). The liveness gathers a buffer's references between the tile
// cuts of their ranges; here each range is checked against the steps.
TEST(MemoryLivenessTest, EachTileTakesTheReferencesOnIt) {
  std::unique_ptr<Analysed> a = analyseProgram();
  ASSERT_TRUE(a);
  const MemoryAnalysis *analysis = &*a->analysis;
  const ProgramLiveness &live = analysis->liveness;
  // The program point of each step, by name.
  llvm::StringMap<int64_t> pointOf;
  for (const Step &step : live.schedule.steps)
    if (auto cs = dyn_cast_or_null<tile::ComputeSetOp>(step.op))
      pointOf[cs.getName()] = step.point;
  ASSERT_EQ(pointOf.size(), 5u);
  auto rangeOf = [&](StringRef buffer, int64_t t) {
    for (size_t i = 0; i < live.buffersOnTile[t].size(); ++i)
      if (live.buffers[live.buffersOnTile[t][i]].var.getName() == buffer) {
        TileBytes s = live.shareOn(t, i);
        return std::make_pair(s.first, s.last);
      }
    return std::make_pair(int64_t(0), int64_t(-1));
  };
  using Range = std::pair<int64_t, int64_t>;
  // b: written by one, last read by out, on every tile of 0-49; the cuts
  // at 3/4, 10, 20 and 30 split tiles with the same range, and the
  // reads by two and part or the write by three change no range.
  for (int64_t t : {0, 3, 4, 9, 10, 19, 20, 29, 30, 49})
    EXPECT_EQ(rangeOf("b", t), Range(pointOf["one"], pointOf["out"]))
        << "tile " << t;
  // c: written by two on 10-29, read by three on 20-29 only.
  for (int64_t t : {10, 19})
    EXPECT_EQ(rangeOf("c", t), Range(pointOf["two"], pointOf["two"]))
        << "tile " << t;
  for (int64_t t : {20, 29})
    EXPECT_EQ(rangeOf("c", t), Range(pointOf["two"], pointOf["three"]))
        << "tile " << t;
  // d: written by part on 0-3, never read.
  for (int64_t t : {0, 3})
    EXPECT_EQ(rangeOf("d", t), Range(pointOf["part"], pointOf["part"]))
        << "tile " << t;
  EXPECT_EQ(live.check.mismatches, 0);
}

} // namespace

// Lists of 32k buffers or more are placed first, on two threads, before
// the cost model and the small lists (allocateTiles): a chain of that many
// short-lived buffers over tiles 0 and 1, with different shares on each,
// gives two such lists, and each tile still gets the allocation its own
// requests get.
TEST(MemoryLiveness, LargeListsAreAllocatedAsAlone) {
  constexpr int kBuffers = 33000;
  std::string text = "tile.program @p target \"tile-1472\" tiles 1472 {\n";
  auto var = [&](int k, const char *category) {
    text += "  %v" + std::to_string(k) + " = tile.var \"v" + std::to_string(k) +
            "\" " + category +
            " mapping<[0, 0] x 60 from 0, [1, 1] x 40 from 60> : "
            "!tile.buffer<100xf32>\n";
  };
  var(0, "parameter");
  text += "  tile.host_copy infeed %v0 : !tile.buffer<100xf32>\n";
  for (int k = 1; k < kBuffers; ++k) {
    var(k, k + 1 == kBuffers ? "output" : "temporary");
    text += "  tile.compute_set \"s" + std::to_string(k) +
            "\" kind \"elementwise.negate\" tiles [0, 1] ins(%v" +
            std::to_string(k - 1) + " : !tile.buffer<100xf32>) outs(%v" +
            std::to_string(k) + " : !tile.buffer<100xf32>)\n";
  }
  text += "  tile.host_copy outfeed %v" + std::to_string(kBuffers - 1) +
          " : !tile.buffer<100xf32>\n}\n";
  std::unique_ptr<Analysed> analysed = analyse(text);
  ASSERT_TRUE(analysed);
  const MemoryAnalysis *analysis = &*analysed->analysis;
  const ProgramLiveness &live = analysis->liveness;
  ASSERT_EQ(live.listFirstTile.size(), 3u); // tiles 0, 1 and the empty 2
  for (int64_t t : {0, 1}) {
    ASSERT_EQ(live.buffersOnTile[t].size(), static_cast<size_t>(kBuffers));
    expectAllocatedAsAlone(*analysis, t);
    // A chain: two buffers live at a step, the parameter always.
    const TileOffsets &got = analysis->tiles[t].allocation;
    EXPECT_EQ(got.peak, got.lowerBound) << "tile " << t;
  }
  EXPECT_FALSE(analysis->cost.steps.empty());
}

TEST(MemoryLiveness, RunsAreFoundByTile) {
  // Tiles 2-4 alike, 5 different, a gap, then 9-10: three runs.
  TileShares shares;
  shares.append({2, 4, 16, 16, 0, 3}, 3);
  shares.push_back({5, 8, 32, 32, 0, 3});
  shares.append({9, 4, 16, 16, 1, 2}, 2);
  ASSERT_EQ(shares.runs().size(), 3u);
  // The first run reaching a tile, whether it holds the tile or not.
  EXPECT_EQ(shares.firstRunReaching(0), 0u);
  EXPECT_EQ(shares.firstRunReaching(4), 0u);
  EXPECT_EQ(shares.firstRunReaching(5), 1u);
  EXPECT_EQ(shares.firstRunReaching(6), 2u); // in the gap
  EXPECT_EQ(shares.firstRunReaching(10), 2u);
  EXPECT_EQ(shares.firstRunReaching(11), 3u); // past the last
  // The run holding a tile, or -1 off the runs.
  EXPECT_EQ(shares.runOf(1), -1);
  EXPECT_EQ(shares.runOf(3), 0);
  EXPECT_EQ(shares.runOf(5), 1);
  EXPECT_EQ(shares.runOf(7), -1);
  EXPECT_EQ(shares.runOf(10), 2);
  EXPECT_EQ(shares.runOf(11), -1);
}

// Runs that share tiles, listed out of tile order, take the shares' general
// path (a sweep over the tiles): each tile's share counts every run's
// interval on it, is padded as those intervals together are, and the
// shares come in tile order. Expected values are taken from the mapping's
// own interval list, tile by tile.
TEST(MemoryLiveness, SharesCountEveryRunOnATile) {
  // Run 0 on tiles 2-5, run 1 on 0-3, run 2 on 4 and 7 (past a gap on 6).
  constexpr const char *text = R"mlir(
tile.program @p target "tile-1472" tiles 1472 {
  %a = tile.var "a" parameter mapping<[2, 5] x 3 from 12, [0, 3] x 3 from 0, [4, 4] x 6 from 24, [7, 7] x 2 from 30> : !tile.buffer<4x8xf32>
  tile.host_copy infeed %a : !tile.buffer<4x8xf32>
  tile.sync
  tile.host_copy outfeed %a : !tile.buffer<4x8xf32>
}
)mlir";
  std::unique_ptr<Analysed> analysed = analyse(text);
  ASSERT_TRUE(analysed);
  const MemoryAnalysis *analysis = &*analysed->analysis;
  const BufferLiveness &a = analysis->liveness.buffers.front();
  // Each tile's intervals as the mapping lists them, run by run.
  std::map<int64_t, llvm::SmallVector<std::pair<int64_t, int64_t>>> byTile;
  a.var.getMapping().forEachInterval([&](int64_t t, int64_t b, int64_t e) {
    byTile[t].push_back({b, e});
  });
  ASSERT_EQ(byTile.size(), 7u);
  const std::map<int64_t, int64_t> elements = {{0, 3}, {1, 3}, {2, 6}, {3, 6},
                                               {4, 9}, {5, 3}, {7, 2}};
  const TargetDescription &target = analysis->target;
  std::vector<int64_t> tiles;
  for (TileBytes share : a.tiles) {
    tiles.push_back(share.tile);
    ASSERT_TRUE(byTile.count(share.tile)) << "tile " << share.tile;
    EXPECT_EQ(share.elements, elements.at(share.tile)) << "tile " << share.tile;
    EXPECT_EQ(share.bytes, 4 * share.elements) << "tile " << share.tile;
    int64_t slots = paddedElementsOnTile(a.var.getType().getShape(),
                                         target.layoutTile, byTile[share.tile]);
    EXPECT_EQ(share.paddedBytes, alignTo(4 * slots, target.alignmentBytes))
        << "tile " << share.tile;
  }
  EXPECT_EQ(tiles, (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 7}));
  EXPECT_EQ(a.bytes, 4 * 32);
}

// Shares worked out ahead (as the lowering makes each buffer) are the ones
// the liveness computes itself, and the liveness takes them: the helper
// thread reads the attributes alone, so nothing of the program differs.
TEST(MemoryLiveness, SharesWorkedOutAheadAreTheSame) {
  std::unique_ptr<Analysed> analysed = analyseProgram();
  ASSERT_TRUE(analysed);
  tile::ProgramOp program =
      *analysed->module->getOps<tile::ProgramOp>().begin();
  llvm::Expected<TargetDescription> target = resolveTarget("tile-1472");
  ASSERT_TRUE(static_cast<bool>(target)) << llvm::toString(target.takeError());
  ShareCache shares(*target);
  int64_t vars = 0;
  program.walk([&](tile::VarOp var) {
    ++vars;
    shares.prefetch(var.getType(), var.getMapping(), program.getTiles());
  });
  // `b` and `y` share a type and a mapping: one entry.
  EXPECT_EQ(shares.computed(), vars - 1);
  EXPECT_EQ(shares.waiting(), static_cast<size_t>(vars - 1));
  ProgramLiveness ahead = computeLiveness(program, *target, &shares);
  EXPECT_EQ(shares.waiting(), 0u);
  const ProgramLiveness &own = analysed->analysis->liveness;
  ASSERT_EQ(ahead.buffers.size(), own.buffers.size());
  for (size_t b = 0; b < own.buffers.size(); ++b) {
    const BufferLiveness &x = ahead.buffers[b], &y = own.buffers[b];
    EXPECT_EQ(x.bytes, y.bytes) << "buffer " << b;
    EXPECT_EQ(x.paddedBytes, y.paddedBytes) << "buffer " << b;
    ASSERT_EQ(x.tiles.size(), y.tiles.size()) << "buffer " << b;
    for (auto [p, q] : llvm::zip_equal(x.tiles, y.tiles)) {
      EXPECT_EQ(p.tile, q.tile) << "buffer " << b;
      EXPECT_TRUE(sameShare(p, q)) << "buffer " << b << ", tile " << p.tile;
    }
  }
  // Taken: a second analysis computes them itself.
  BufferLiveness none;
  tile::VarOp first = *program.getOps<tile::VarOp>().begin();
  EXPECT_FALSE(shares.take(first.getType(), first.getMapping(),
                           program.getTiles(), none));
  // Asked for on other tiles, they are worked out again.
  shares.prefetch(first.getType(), first.getMapping(), 100);
  EXPECT_TRUE(shares.take(first.getType(), first.getMapping(), 100, none));
  EXPECT_EQ(none.tiles.size(), 100u);
}
