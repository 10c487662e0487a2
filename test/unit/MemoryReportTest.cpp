//===- MemoryReportTest.cpp - the memory report objects -------------------===//
//
// The report's figures agree with each other (per-tile totals add up to the
// summary, categories to the totals, the heap curve to the buffers), and
// its CBOR form decodes to the same object.
//
//===----------------------------------------------------------------------===//

#include "tessera/Memory/MemoryReport.h"
#include "tessera/Memory/PaddingReport.h"

#include "tessera/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <optional>

using namespace mlir;
using namespace tessera;
using namespace tessera::memory;
using json = nlohmann::ordered_json;

namespace {

constexpr const char *kProgram = R"mlir(
tile.program @p target "tile-1472" tiles 1472 {
  %x = tile.var "x" parameter mapping<[0, 99] x 10 from 0> : !tile.buffer<10x100xf32>
  %c = tile.var "c" constant mapping<[0, 0] x 3 from 0> : !tile.buffer<3xf32>
  %t = tile.var "t" temporary mapping<[0, 99] x 10 from 0> : !tile.buffer<10x100xf32>
  %p = tile.var "p" partials mapping<[0, 3] x 7 from 0> : !tile.buffer<28xf32>
  %y = tile.var "y" output mapping<[0, 99] x 10 from 0> : !tile.buffer<10x100xf32>
  tile.host_copy infeed %x : !tile.buffer<10x100xf32>
  tile.sync
  tile.exchange "gather" %x -> %t copies [0, 0, 100, 10, 0, 10, 0, 10]
      : !tile.buffer<10x100xf32>, !tile.buffer<10x100xf32>
  tile.sync
  tile.compute_set "part" kind "reduce-partial.add" tiles [0, 3]
      ins(%t : !tile.buffer<10x100xf32>) outs(%p : !tile.buffer<28xf32>)
  tile.compute_set "neg" kind "elementwise.negate" tiles [0, 99]
      ins(%t : !tile.buffer<10x100xf32>) outs(%y : !tile.buffer<10x100xf32>)
  tile.sync
  tile.host_copy outfeed %y : !tile.buffer<10x100xf32>
}
)mlir";

class MemoryReportTest : public ::testing::Test {
protected:
  MemoryReportTest() {
    context.loadDialect<tile::TileDialect, func::FuncDialect>();
    module = parseSourceString<ModuleOp>(kProgram, &context);
  }

  /// The program's memory analysis, on the target it names.
  std::optional<MemoryAnalysis> analyze() {
    if (!module)
      return std::nullopt;
    tile::ProgramOp program = *module->getOps<tile::ProgramOp>().begin();
    llvm::Expected<MemoryAnalysis> analysis = analyzeMemory(program);
    EXPECT_TRUE(static_cast<bool>(analysis));
    if (!analysis) {
      llvm::consumeError(analysis.takeError());
      return std::nullopt;
    }
    return std::move(*analysis);
  }

  json report(bool tileRuns = false) {
    std::optional<MemoryAnalysis> analysis = analyze();
    return analysis ? buildMemoryReport(*analysis, tileRuns) : json();
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(MemoryReportTest, FiguresAddUp) {
  ASSERT_TRUE(module);
  json r = report();
  const json &s = r["summary"];
  int64_t including = 0, excluding = 0, alwaysLive = 0, notAlwaysLive = 0;
  for (const json &t : r["tiles"]) {
    including += t["including_gaps"].get<int64_t>();
    excluding += t["excluding_gaps"].get<int64_t>();
    alwaysLive += t["always_live"].get<int64_t>();
    notAlwaysLive += t["not_always_live"].get<int64_t>();
    int64_t categories = 0;
    for (auto &[key, value] : t["by_category"].items())
      categories += value.get<int64_t>();
    // The categories at a tile's peak are its total without gaps, and
    // always-live plus not-always-live is the same total.
    EXPECT_EQ(categories, t["excluding_gaps"].get<int64_t>()) << t.dump();
    EXPECT_EQ(t["always_live"].get<int64_t>() +
                  t["not_always_live"].get<int64_t>(),
              t["excluding_gaps"].get<int64_t>());
    EXPECT_GE(t["allocated_peak"].get<int64_t>(),
              t["lower_bound"].get<int64_t>());
  }
  EXPECT_EQ(s["total_including_gaps"].get<int64_t>(), including);
  EXPECT_EQ(s["total_excluding_gaps"].get<int64_t>(), excluding);
  EXPECT_EQ(s["always_live"].get<int64_t>(), alwaysLive);
  EXPECT_EQ(s["not_always_live"].get<int64_t>(), notAlwaysLive);
  EXPECT_EQ(s["liveness_check"]["mismatches"].get<int64_t>(), 0);

  // The chip heap at each point is the sum of the buffers live there.
  for (const json &h : r["memory_viewer"]["heap"]) {
    int64_t point = h["point"], padded = 0, unpadded = 0;
    for (const json &b : r["buffers"]) {
      if (b["live_range"].is_null() || !b["alias_of"].is_null())
        continue;
      if (b["live_range"][0] <= point && point <= b["live_range"][1]) {
        padded += b["size"].get<int64_t>();
        unpadded += b["unpadded_size"].get<int64_t>();
      }
    }
    EXPECT_EQ(h["padded"].get<int64_t>(), padded) << "point " << point;
    EXPECT_EQ(h["unpadded"].get<int64_t>(), unpadded) << "point " << point;
  }
  // The histogram counts every tile once.
  int64_t counted = 0;
  for (const json &b : s["histogram"]["buckets"])
    counted += b["tiles"].get<int64_t>();
  EXPECT_EQ(counted, 1472);
}

TEST_F(MemoryReportTest, TileRunsListTheSameTiles) {
  // The default of tessera-compile: tiles 4..99 hold the same buffers with
  // the same figures and are one entry; expanded, the runs are the
  // per-tile list, and the rest of the report is unchanged.
  ASSERT_TRUE(module);
  json full = report(), runs = report(/*tileRuns=*/true);
  EXPECT_EQ(full["tile_format"], "tiles");
  EXPECT_EQ(runs["tile_format"], "runs");
  ASSERT_EQ(full["tiles"].size(), 1472u);
  EXPECT_LT(runs["tiles"].size(), 10u);
  EXPECT_EQ(expandTileRuns(runs["tiles"]), full["tiles"]);
  EXPECT_EQ(expandTileRuns(runs["out_of_memory"]), full["out_of_memory"]);
  EXPECT_EQ(compactTileRuns(full["tiles"]), runs["tiles"]);
  // A list already per tile is kept as it is.
  EXPECT_EQ(expandTileRuns(full["tiles"]), full["tiles"]);
  for (const char *key : {"tiles", "out_of_memory", "tile_format"})
    full.erase(key), runs.erase(key);
  EXPECT_EQ(full, runs);
  // The text summary reads either form the same.
  std::string fromFull, fromRuns;
  llvm::raw_string_ostream a(fromFull), b(fromRuns);
  writeMemorySummary(report(), a);
  writeMemorySummary(report(true), b);
  EXPECT_EQ(fromFull, fromRuns);
}

TEST_F(MemoryReportTest, CborHoldsTheSameObject) {
  ASSERT_TRUE(module);
  json r = report();
  std::vector<uint8_t> cbor = toCbor(r);
  json back =
      json::from_cbor(cbor, /*strict=*/true, /*allow_exceptions=*/false);
  EXPECT_FALSE(back.is_discarded());
  EXPECT_EQ(back, r);
  EXPECT_EQ(back.dump(), r.dump()); // same keys in the same order
}

TEST_F(MemoryReportTest, SummaryTextShowsTheReport) {
  ASSERT_TRUE(module);
  json r = report();
  std::string text;
  llvm::raw_string_ostream os(text);
  writeMemorySummary(r, os);
  EXPECT_NE(text.find("Number of tiles:                1,472"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("0 tile(s) out of memory"), std::string::npos);
  EXPECT_NE(text.find("Tile memory histogram"), std::string::npos);
}

// The allocation figures are computed once (summarizeAllocation) and both
// reports print them: the memory report's summary agrees with a direct
// count over the tiles.
TEST_F(MemoryReportTest, AllocationSummaryIsTheReportsNumbers) {
  std::optional<MemoryAnalysis> analysis = analyze();
  ASSERT_TRUE(analysis);
  AllocationSummary a = summarizeAllocation(*analysis);
  int64_t used = 0, peak = 0, bound = 0, incl = 0;
  for (int64_t t = 0; t < analysis->liveness.numTiles; ++t) {
    incl += analysis->tiles[t].includingGaps();
    if (analysis->liveness.buffersOnTile[t].empty())
      continue;
    ++used;
    peak += analysis->tiles[t].allocation.peak;
    bound += analysis->tiles[t].allocation.lowerBound;
  }
  EXPECT_EQ(a.usedTiles, used);
  EXPECT_EQ(a.totalPeak, peak);
  EXPECT_EQ(a.totalLowerBound, bound);
  EXPECT_EQ(a.totalIncludingGaps, incl);
  EXPECT_GE(a.worstRatio, 1.0);
  json s = buildMemoryReport(*analysis)["summary"];
  EXPECT_EQ(s["tiles_used"].get<int64_t>(), a.usedTiles);
  EXPECT_EQ(s["total_including_gaps"].get<int64_t>(), a.totalIncludingGaps);
  EXPECT_EQ(s["max_tile_including_gaps"]["bytes"].get<int64_t>(),
            a.maxTileBytes);
  EXPECT_EQ(s["mean_used_tile_bytes"].get<int64_t>(), a.meanUsedTileBytes());
}

// Padding and cost are computed once (PaddingReport.h): the totals are a
// direct sum over the buffers that own storage, and tile-padding's report
// and the memory report show the same figures.
TEST_F(MemoryReportTest, PaddingAndCostAreOneModel) {
  std::optional<MemoryAnalysis> analysis = analyze();
  ASSERT_TRUE(analysis);
  PaddingReport padding = computePaddingReport(*analysis);
  CostReport cost = computeCostReport(*analysis);
  int64_t unpadded = 0, padded = 0, owners = 0;
  for (const BufferLiveness &b : analysis->liveness.buffers) {
    if (b.aliasOf >= 0)
      continue;
    ++owners;
    unpadded += b.bytes;
    padded += b.paddedBytes;
  }
  EXPECT_EQ(static_cast<int64_t>(padding.buffers.size()), owners);
  EXPECT_EQ(padding.total.unpaddedBytes, unpadded);
  EXPECT_EQ(padding.total.paddedBytes, padded);
  // "c" (3 elements in a [1, 4] layout tile on tile-1472) is padded.
  EXPECT_GT(padded, unpadded);
  int64_t steps = 0;
  for (const OpCostTotals &op : cost.ops)
    steps += op.steps;
  EXPECT_EQ(steps, 5); // 2 host copies, 1 exchange, 2 compute sets
  EXPECT_EQ(cost.totalCycles, analysis->cost.totalCycles);

  json memory = buildMemoryReport(*analysis);
  json pass = paddingReportJson(*analysis);
  EXPECT_EQ(pass["total"], memory["summary"]["padding"]);
  EXPECT_EQ(pass["ops"], memory["cost"]["ops"]);
  EXPECT_EQ(pass["matmuls"], memory["padding"]["matmuls"]);
  EXPECT_EQ(pass["buffers"].size(), padding.buffers.size());
}

constexpr const char *kRunsProgram = R"mlir(
tile.program @q target "tile-1472" tiles 1472 {
  %big = tile.var "big" temporary mapping<[0, 99] x 200000 from 0> : !tile.buffer<20000000xf32>
  %x = tile.var "x" parameter mapping<[0, 99] x 10 from 0> : !tile.buffer<1000xf32>
  %y = tile.var "y" output mapping<[0, 99] x 10 from 0> : !tile.buffer<1000xf32>
  tile.host_copy infeed %x : !tile.buffer<1000xf32>
  tile.sync
  tile.compute_set "fill" kind "elementwise.negate" tiles [0, 99]
      ins(%x : !tile.buffer<1000xf32>) outs(%big : !tile.buffer<20000000xf32>)
  tile.sync
  tile.compute_set "neg" kind "elementwise.negate" tiles [0, 99]
      ins(%big : !tile.buffer<20000000xf32>) outs(%y : !tile.buffer<1000xf32>)
  tile.sync
  tile.compute_set "half" kind "elementwise.exponential" tiles [0, 49]
      ins(%x : !tile.buffer<1000xf32>) outs(%y : !tile.buffer<1000xf32>)
  tile.sync
  tile.host_copy outfeed %y : !tile.buffer<1000xf32>
}
)mlir";

// The report walks a run of tiles with the same buffers and shares once,
// at its first tile (ReportBuilder::build); every tile's entry must still
// be what walking that tile alone gives (buildTileDetail). Here tiles 0-99
// hold the same buffers with the same live ranges, all over capacity,
// while tiles 0-49 run one vertex kind more: their overheads differ
// within the run.
TEST(MemoryReportRunsTest, EveryTileIsItsOwnWalk) {
  MLIRContext context;
  context.loadDialect<tile::TileDialect, func::FuncDialect>();
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kRunsProgram, &context);
  ASSERT_TRUE(module);
  llvm::Expected<MemoryAnalysis> analysis =
      analyzeMemory(*module->getOps<tile::ProgramOp>().begin());
  ASSERT_TRUE(static_cast<bool>(analysis));
  EXPECT_TRUE(analysis->liveness.sameSharesAsPrevious(50));
  json r = buildMemoryReport(*analysis);
  ASSERT_EQ(r["tiles"].size(), 1472u);
  ASSERT_EQ(r["out_of_memory"].size(), 100u);
  EXPECT_NE(r["tiles"][49]["always_live"], r["tiles"][50]["always_live"]);
  for (int64_t t = 0; t < 1472; ++t) {
    json detail = buildTileDetail(*analysis, t);
    for (auto &[key, value] : r["tiles"][t].items())
      EXPECT_EQ(value, detail[key]) << "tile " << t << " " << key;
  }
  for (const json &entry : r["out_of_memory"]) {
    int64_t t = entry["tile"];
    json detail = buildTileDetail(*analysis, t);
    for (const char *key : {"including_gaps", "capacity", "peak_step",
                            "live_buffers", "live_bytes"})
      EXPECT_EQ(entry[key], detail[key]) << "tile " << t << " " << key;
    ASSERT_EQ(entry["live_at_peak"].size(), detail["live_at_peak"].size());
    for (size_t i = 0; i < entry["live_at_peak"].size(); ++i)
      EXPECT_EQ(entry["live_at_peak"][i]["offset"],
                detail["live_at_peak"][i]["offset"]);
  }
}

// tessera-prof renders reports read back from event files, possibly of
// another version: missing sections and mistyped fields read as empty,
// never as a crash (nlohmann's const operator[] on a missing key is
// undefined, and with exceptions off a type error aborts).
TEST(MemorySummaryTest, MissingAndMistypedFieldsReadAsEmpty) {
  for (const char *text :
       {"{}", R"({"summary": 5, "tiles": {"a": 1}, "target": []})",
        R"({"summary": {"histogram": {"buckets": "x"}, "by_category": 3},
            "out_of_memory": [1, "t"], "tiles": [1, {"by_category": []}],
            "target": {"tiles": "many", "bytes_per_tile": 1.5e3}})"}) {
    SCOPED_TRACE(text);
    json r = json::parse(text);
    std::string out;
    llvm::raw_string_ostream os(out);
    writeMemorySummary(r, os);
    writeTileHeatmapSvg(r, os);
    writeTileDetail(r, os);
    EXPECT_NE(out.find("Target:"), std::string::npos);
  }
}

} // namespace
