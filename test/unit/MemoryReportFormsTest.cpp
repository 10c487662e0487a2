//===- MemoryReportFormsTest.cpp - compact and complete memory reports ----===//
//
// The compact memory report (ReportForms.h, tessera-compile's default)
// describes the same data as the complete one: expanded, it is the
// complete report but for what compact documents it leaves out (the
// per-step costs, whose sum per op is `cost.ops`), and the text summary
// reads the same from both.
//
//===----------------------------------------------------------------------===//

#include "tessera/Memory/MemoryReport.h"
#include "tessera/Memory/ReportForms.h"

#include "tessera/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>

using namespace mlir;
using namespace tessera;
using namespace tessera::memory;
using json = nlohmann::ordered_json;

namespace {

// Tiles 0..3 hold "big" (800,000 bytes each, over tile-1472's 638,976):
// four tiles out of memory, whose live buffers compact lists by index.
constexpr const char *kProgram = R"mlir(
tile.program @p target "tile-1472" tiles 1472 {
  %x = tile.var "x" parameter mapping<[0, 99] x 10 from 0> : !tile.buffer<10x100xf32>
  %big = tile.var "big" temporary mapping<[0, 3] x 200000 from 0> : !tile.buffer<800000xf32>
  %t = tile.var "t" temporary mapping<[0, 99] x 10 from 0> : !tile.buffer<10x100xf32>
  %y = tile.var "y" output mapping<[0, 99] x 10 from 0> : !tile.buffer<10x100xf32>
  tile.host_copy infeed %x : !tile.buffer<10x100xf32>
  tile.sync
  tile.exchange "gather" %x -> %t copies [0, 0, 100, 10, 0, 10, 0, 10]
      : !tile.buffer<10x100xf32>, !tile.buffer<10x100xf32>
  tile.sync
  tile.compute_set "fill" kind "elementwise.negate" tiles [0, 3]
      ins(%t : !tile.buffer<10x100xf32>) outs(%big : !tile.buffer<800000xf32>)
  tile.compute_set "neg" kind "elementwise.negate" tiles [0, 99]
      ins(%t : !tile.buffer<10x100xf32>) outs(%y : !tile.buffer<10x100xf32>)
  tile.compute_set "neg2" kind "elementwise.negate" tiles [0, 3]
      ins(%big : !tile.buffer<800000xf32>) outs(%y : !tile.buffer<10x100xf32>)
  tile.sync
  tile.host_copy outfeed %y : !tile.buffer<10x100xf32>
}
)mlir";

class MemoryReportFormsTest : public ::testing::TestWithParam<bool> {
protected:
  MemoryReportFormsTest() {
    context.loadDialect<tile::TileDialect, func::FuncDialect>();
    module = parseSourceString<ModuleOp>(kProgram, &context);
  }

  /// The complete report, with tile runs or an entry per tile.
  json complete() {
    if (!module)
      return json();
    tile::ProgramOp program = *module->getOps<tile::ProgramOp>().begin();
    llvm::Expected<MemoryAnalysis> analysis = analyzeMemory(program);
    if (!analysis) {
      ADD_FAILURE() << llvm::toString(analysis.takeError());
      return json();
    }
    return buildMemoryReport(*analysis, /*tileRuns=*/GetParam());
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

std::string summaryOf(const json &report) {
  std::string text;
  llvm::raw_string_ostream os(text);
  writeMemorySummary(report, os);
  return text;
}

TEST_P(MemoryReportFormsTest, CompactExpandsToTheComplete) {
  ASSERT_TRUE(module);
  json full = complete();
  ASSERT_EQ(full["format"], "complete");
  ASSERT_FALSE(full["out_of_memory"].empty());
  json compact = compactMemoryReport(full);
  EXPECT_EQ(compact["format"], "compact");
  EXPECT_LT(compact.dump().size(), full.dump().size());

  // Each list is in its compact shape (so the comparison below is not of
  // two copies of the same thing).
  EXPECT_TRUE(compact["tiles"].contains("columns"));
  EXPECT_TRUE(compact["buffers"].contains("columns"));
  EXPECT_TRUE(compact["cost"]["ops"].contains("columns"));
  EXPECT_FALSE(compact["cost"].contains("steps"));
  EXPECT_TRUE(compact["memory_viewer"]["heap"][0].is_array());
  EXPECT_TRUE(compact["memory_viewer"]["heap_steps"].contains("columns"));
  EXPECT_TRUE(compact["memory_viewer"]["tile_heaps"][0].contains("changes"));
  for (const json &b : compact["memory_viewer"]["buffers_at_peak_by_size"])
    EXPECT_TRUE(b.is_number_integer()) << b.dump();
  // Tiles out of memory are a table too; its live_at_peak column holds
  // each entry's buffers as [buffer, bytes_on_tile, first, last, offset].
  const json &oom = compact["out_of_memory"];
  ASSERT_TRUE(oom.contains("columns")) << oom.dump().substr(0, 200);
  auto column =
      std::find(oom["columns"].begin(), oom["columns"].end(), "live_at_peak");
  ASSERT_NE(column, oom["columns"].end());
  // A column of repeating values is {"runs": [[value, count], ...]}.
  json lists = oom["values"][column - oom["columns"].begin()];
  if (lists.is_object()) {
    json values = json::array();
    for (const json &run : lists["runs"])
      values.push_back(run[0]);
    lists = values;
  }
  ASSERT_TRUE(lists.is_array());
  for (const json &list : lists)
    for (const json &b : list)
      EXPECT_TRUE(b.is_array() && b.size() == 5) << b.dump();

  // Expanded: the complete report without what compact leaves out.
  json expected = full;
  expected["format"] = "compact";
  expected["cost"].erase("steps");
  EXPECT_EQ(expandMemoryReport(compact), expected);
  // Both forms read the same; a complete report is its own expansion, and
  // compacting twice changes nothing.
  EXPECT_EQ(summaryOf(compact), summaryOf(full));
  EXPECT_EQ(expandMemoryReport(full), full);
  EXPECT_EQ(compactMemoryReport(compact), compact);
}

/// The analysis of `module`'s program (nullopt, with a failure, if none).
std::optional<MemoryAnalysis> analyze(ModuleOp module) {
  tile::ProgramOp program = *module.getOps<tile::ProgramOp>().begin();
  llvm::Expected<MemoryAnalysis> analysis = analyzeMemory(program);
  if (!analysis) {
    ADD_FAILURE() << llvm::toString(analysis.takeError());
    return std::nullopt;
  }
  return std::move(*analysis);
}

TEST_P(MemoryReportFormsTest, BuiltCompactIsTheCompactOfTheComplete) {
  // tessera-compile builds the compact form directly; it must be, byte for
  // byte, what compacting the complete form gives.
  ASSERT_TRUE(module);
  std::optional<MemoryAnalysis> analysis = analyze(*module);
  ASSERT_TRUE(analysis);
  json direct = buildMemoryReport(*analysis, GetParam(), ReportForm::Compact);
  EXPECT_EQ(direct.dump(), compactMemoryReport(complete()).dump());
}

TEST(MemoryReportForms, BuffersSharingANameAreListedInFull) {
  // A buffer listed again by index needs its name to find it: buffers
  // that share a name are listed in full at the peak and on tiles out of
  // memory, in the built compact form as in the compacted one.
  MLIRContext context;
  context.loadDialect<tile::TileDialect, func::FuncDialect>();
  std::string text = kProgram;
  size_t at = text.find("tile.var \"t\"");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 12, "tile.var \"x\"");
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
  ASSERT_TRUE(module);
  std::optional<MemoryAnalysis> analysis = analyze(*module);
  ASSERT_TRUE(analysis);
  json complete = buildMemoryReport(*analysis, /*tileRuns=*/true);
  json direct =
      buildMemoryReport(*analysis, /*tileRuns=*/true, ReportForm::Compact);
  EXPECT_EQ(direct.dump(), compactMemoryReport(complete).dump());
  // "x" (the parameter and the temporary) stays an object where listed.
  bool fullEntry = false;
  for (const json &b : direct["memory_viewer"]["buffers_at_peak_by_size"])
    fullEntry |= b.is_object() && b["name"] == "x";
  EXPECT_TRUE(fullEntry) << direct["memory_viewer"].dump();
  EXPECT_EQ(expandMemoryReport(direct)["memory_viewer"],
            expandMemoryReport(compactMemoryReport(complete))["memory_viewer"]);
}

TEST_P(MemoryReportFormsTest, CostPerOpIsTheSumOfTheSteps) {
  // What compact keeps of `cost.steps`: each op's steps, summed (sync and
  // control steps are no op's), are its entry of `cost.ops`.
  ASSERT_TRUE(module);
  json full = complete();
  std::map<std::string, std::map<std::string, int64_t>> sums;
  for (const json &s : full["cost"]["steps"]) {
    std::string kind = s["kind"];
    if (kind == "sync" || kind == "repeat" || kind == "if")
      continue;
    auto &op = sums[s["op"].get<std::string>()];
    ++op["steps"];
    for (const char *key : {"cycles", "flops", "padded_flops", "bytes_moved"})
      op[key] += s[key].get<int64_t>();
  }
  json ops = expandMemoryReport(compactMemoryReport(full))["cost"]["ops"];
  ASSERT_EQ(ops.size(), sums.size());
  for (const json &o : ops) {
    auto &sum = sums[o["op"].get<std::string>()];
    for (const char *key :
         {"steps", "cycles", "flops", "padded_flops", "bytes_moved"})
      EXPECT_EQ(o[key].get<int64_t>(), sum[key]) << o.dump() << " " << key;
  }
}

TEST(MemoryReportForms, TablesAndCurvesRoundTrip) {
  // A column of repeated values is runs; nested objects are flattened one
  // level; a list the table cannot hold exactly stays a list.
  json list = json::parse(R"([
    {"tile": 0, "a": 5, "by": {"x": 1, "y": [1, 2]}, "s": null},
    {"tile": 1, "a": 5, "by": {"x": 1, "y": [1, 2]}, "s": null},
    {"tile": 2, "a": 5, "by": {"x": 2, "y": [3]}, "s": "z"},
    {"tile": 3, "a": 5, "by": {"x": 2, "y": [3]}, "s": "z"}])");
  forms::Budget budget;
  json table = forms::toTable(list);
  ASSERT_TRUE(table.contains("columns"));
  EXPECT_EQ(table["columns"],
            json::parse(R"(["tile", "a", "by.x", "by.y", "s"])"));
  EXPECT_EQ(table["values"][1], json::parse(R"({"runs": [[5, 4]]})"));
  EXPECT_EQ(forms::fromTable(table, budget), list);
  json ragged = json::parse(R"([{"a": 1}, {"b": 2}])");
  EXPECT_EQ(forms::toTable(ragged), ragged);

  json padded = json::parse("[1, 1, 4, 4, 4, 2]");
  json unpadded = json::parse("[0, 0, 3, 3, 3, 2]");
  json changes = forms::changePoints(padded, unpadded);
  EXPECT_EQ(changes, json::parse("[[0, 1, 0], [2, 4, 3], [5, 2, 2]]"));
  EXPECT_EQ(forms::curveAt(changes, 6, 1, budget), padded);
  EXPECT_EQ(forms::curveAt(changes, 6, 2, budget), unpadded);
}

TEST(MemoryReportForms, DamagedReportsNeitherCrashNorExplode) {
  // Reports come from event files. A run or a point count of a few bytes
  // that would stand for billions of values is left compact, a column that
  // clashes with an object's is dropped, a count of the wrong type is 0,
  // and an index out of range stays an index.
  json r = json::parse(R"({"format": "compact",
    "tiles": {"columns": ["tile"], "values": [{"runs": [[0, 4000000000000]]}]},
    "buffers": {"columns": ["a", "a.b"], "values": [[1], [2]]},
    "memory_viewer": {"points": 1000000000000, "heap": [[0, 1, 1]],
                      "tile_heaps": [{"tile": 0, "changes": [[0, 1, 1]]}],
                      "buffers_at_peak_by_size": [7, -1, "x"]},
    "out_of_memory": [{"tile": 0, "live_at_peak": [[9, 1, 0, 0, 0]]}]})");
  json e = expandMemoryReport(r);
  EXPECT_TRUE(e["tiles"].contains("columns"));
  EXPECT_EQ(e["buffers"], json::parse(R"([{"a": 1}])"));
  EXPECT_TRUE(e["memory_viewer"]["heap"].empty());
  EXPECT_EQ(e["memory_viewer"]["buffers_at_peak_by_size"],
            json::parse(R"([7, -1, "x"])"));
  EXPECT_EQ(e["out_of_memory"][0]["live_at_peak"][0],
            json::parse("[9, 1, 0, 0, 0]"));
  r["memory_viewer"]["points"] = "many";
  EXPECT_TRUE(expandMemoryReport(r)["memory_viewer"]["heap"].empty());
  // A long string repeated by a run counts its bytes.
  forms::Budget budget;
  json run = json::array({json(std::string(1 << 20, 'x')), 4096});
  json longRun = json::object();
  longRun["columns"] = json::array({"s"});
  longRun["values"] = json::array({json{{"runs", json::array({run})}}});
  EXPECT_EQ(forms::fromTable(longRun, budget), longRun);
}

INSTANTIATE_TEST_SUITE_P(TileForms, MemoryReportFormsTest, ::testing::Bool());

} // namespace
