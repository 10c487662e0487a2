//===- TargetTest.cpp - target descriptions: model, JSON, presets ---------===//

#include "tessera/Target/Target.h"
#include "tessera/Dialect/TGraph/IR/TGraph.h"
#include "tessera/Target/Presets.h"
#include "tessera/Target/TargetJson.h"
#include "tessera/Target/TargetSchema.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>

using namespace tessera;
using Json = nlohmann::ordered_json;

namespace {

/// A small valid target with two linked chips and an example of every kind
/// of constraint, so each malformed-field case below edits one value of an
/// otherwise good file.
const char *kBaseTarget = R"json({
  "name": "unit-2x4",
  "description": "two chips of four tiles",
  "chips": 2,
  "chip_links": [
    {"between": [0, 1], "bandwidth_bytes_per_s": 1000000, "latency_cycles": 100}
  ],
  "tiles_per_chip": 4,
  "sram_bytes_per_tile": 65536,
  "reserved_bytes_per_tile": {"code": 4096, "stack": 1024},
  "clock_hz": 1000000000,
  "vector_width": {"f32": 4, "f16": 8},
  "matrix_unit": {"shape": [16, 8, 8], "dtypes": ["f16", "f32"]},
  "layout_tile": [8, 128],
  "exchange": {"bandwidth_bytes_per_cycle": 8, "latency_cycles": 20},
  "sync_cycles": 100,
  "host_link": {"bandwidth_bytes_per_s": 1000000000, "latency_cycles": 10},
  "overheads": {"vertex_code_bytes": 100, "vertex_state_bytes": 10,
                "exchange_code_bytes": 20, "exchange_state_bytes": 2},
  "dtypes": ["pred", "s32", "f16", "f32"],
  "ops": {
    "add": {},
    "dot_general": {"dtypes": ["f16", "f32"], "max_batch_dims": 1},
    "convolution": {"max_window": 7, "allow_rhs_dilation": false,
                    "note": "small windows only"},
    "sort": {"max_operands": 2},
    "custom_call": {"targets": ["Sharding"]}
  },
  "runtime_ops": ["binary", "matmul", "conv", "sort"]
})json";

Json baseJson() { return Json::parse(kBaseTarget, nullptr, false); }

/// Parses `doc` and returns the error text ("" when it parsed).
std::string errorOf(const Json &doc) {
  llvm::Expected<TargetDescription> target = parseTarget(doc.dump(), "t.json");
  if (target)
    return "";
  return llvm::toString(target.takeError());
}

TEST(TargetJson, BaseTargetIsValid) {
  llvm::Expected<TargetDescription> target = parseTarget(kBaseTarget, "t.json");
  ASSERT_TRUE(static_cast<bool>(target)) << llvm::toString(target.takeError());
  EXPECT_EQ(target->name, "unit-2x4");
  EXPECT_EQ(target->totalTiles(), 8);
  EXPECT_EQ(target->usableBytesPerTile(), 65536 - 4096 - 1024);
  ASSERT_EQ(target->chipLinks.size(), 1u);
  EXPECT_EQ(target->chipLinks[0].latencyCycles, 100);
  EXPECT_EQ(target->matrixUnit.macsPerCycle(), 16 * 8 * 8);
  EXPECT_EQ(target->vectorWidthFor("f16"), 8);
  EXPECT_EQ(target->vectorWidthFor("s32"), 0);
  EXPECT_TRUE(target->supportsDtype("f16"));
  EXPECT_FALSE(target->supportsDtype("bf16"));
  EXPECT_TRUE(target->runtimeImplements("sort"));
  EXPECT_FALSE(target->runtimeImplements("gather"));

  const OpConstraint *conv = target->opConstraint("convolution");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->limit("max_window"), std::optional<int64_t>(7));
  EXPECT_EQ(conv->limit("max_spatial_dims"), std::nullopt);
  EXPECT_FALSE(conv->allows("allow_rhs_dilation"));
  EXPECT_TRUE(conv->allows("allow_lhs_dilation")); // absent → allowed
  EXPECT_TRUE(conv->allowsDtype("s32"));           // no op dtypes → any
  EXPECT_EQ(conv->note, "small windows only");
  const OpConstraint *dot = target->opConstraint("dot_general");
  ASSERT_NE(dot, nullptr);
  EXPECT_FALSE(dot->allowsDtype("s32"));
  const OpConstraint *call = target->opConstraint("custom_call");
  ASSERT_NE(call, nullptr);
  EXPECT_TRUE(call->allowsName("targets", "Sharding"));
  EXPECT_FALSE(call->allowsName("targets", "LstmLayer"));
  EXPECT_EQ(target->opConstraint("multiply"), nullptr);
}

/// One malformed input: edits applied to the base document (a null value
/// with `remove` erases the key) and the path-naming message expected.
struct BadField {
  const char *pointer;
  const char *valueJson; // nullptr: remove the key
  const char *expected;
  const char *pointer2 = nullptr;
  const char *value2Json = nullptr;
};

const BadField kBadFields[] = {
    {"/name", R"("")", "name: expected letters, digits"},
    {"/name", R"("a b")", "name: expected letters, digits"},
    {"/name", "7", "name: expected a string, got 7"},
    {"/description", "3", "description: expected a string, got 3"},
    {"/chips", "0", "chips: expected a positive integer, got 0"},
    {"/chip_links", "{}", "chip_links: expected an array of links"},
    {"/chip_links/0/between/1", "2",
     "chip_links[0].between[1]: chip 2 does not exist (chips is 2)"},
    {"/chip_links/0/between", "[1, 1]",
     "chip_links[0].between: a link must join two different chips"},
    {"/chip_links/0/between", "[0]",
     "chip_links[0].between: expected [chip, chip]"},
    {"/chip_links/0/latency_cycles", "-1",
     "chip_links[0].latency_cycles: expected a non-negative integer, got -1"},
    {"/chip_links/0/bandwidth_bytes_per_s", nullptr,
     "chip_links[0].bandwidth_bytes_per_s: required field is missing"},
    {"/chip_links/0/bandwith_bytes_per_s", "1",
     "chip_links[0].bandwith_bytes_per_s: unknown field; did you mean "
     "'bandwidth_bytes_per_s'?"},
    {"/chips", "3", "chip_links: chip 2 is not connected to chip 0"},
    {"/chips", "4", "chip_links: chips 2, 3 are not connected to chip 0"},
    {"/chip_links/1", R"({"between": [1, 0], "bandwidth_bytes_per_s": 5,
                         "latency_cycles": 1})",
     "chip_links[1].between: duplicate link between chips 0 and 1"},
    {"/tiles_per_chip", "-3",
     "tiles_per_chip: expected a positive integer, got -3"},
    {"/tiles_per_chip", R"("many")",
     "tiles_per_chip: expected a positive integer, got \"many\""},
    {"/tiles_per_chip", "2.5",
     "tiles_per_chip: expected a positive integer, got 2.5"},
    {"/tiles_per_chip", nullptr, "tiles_per_chip: required field is missing"},
    {"/sram_bytes_per_tile", "4e18",
     "sram_bytes_per_tile: chips × tiles_per_chip × sram_bytes_per_tile does "
     "not fit"},
    {"/tiles_per_chip", "1e30",
     "tiles_per_chip: expected a positive integer, got 1e+30"},
    {"/sram_bytes_per_tile", "0",
     "sram_bytes_per_tile: expected a positive integer, got 0"},
    {"/reserved_bytes_per_tile/code", "-1",
     "reserved_bytes_per_tile.code: expected a non-negative integer, got -1"},
    {"/reserved_bytes_per_tile/stack", "[]",
     "reserved_bytes_per_tile.stack: expected a non-negative integer"},
    {"/reserved_bytes_per_tile/code", "65000",
     "reserved_bytes_per_tile: code + stack = 66024 bytes leaves no memory"},
    {"/reserved_bytes_per_tile/heap", "1",
     "reserved_bytes_per_tile.heap: unknown field"},
    {"/clock_hz", "0", "clock_hz: expected a positive integer, got 0"},
    {"/clock_hz", nullptr, "clock_hz: required field is missing"},
    {"/vector_width/f32", "0",
     "vector_width.f32: expected a positive integer, got 0"},
    {"/vector_width/bf16", "8",
     "vector_width.bf16: dtype 'bf16' is not in the target's dtypes"},
    {"/vector_width/float32", "8",
     "vector_width.float32: unknown dtype 'float32'"},
    {"/matrix_unit", "[16, 8, 8]", "matrix_unit: expected an object"},
    {"/matrix_unit/shape/2", "0",
     "matrix_unit.shape[2]: expected a positive integer, got 0"},
    {"/matrix_unit/shape", "[16, 8]", "matrix_unit.shape: expected [M, N, K]"},
    {"/matrix_unit/shape", nullptr,
     "matrix_unit.shape: required field is missing"},
    {"/matrix_unit/dtypes/0", R"("bf16")",
     "matrix_unit.dtypes[0]: dtype 'bf16' is not in the target's dtypes"},
    {"/matrix_unit/dtypes", "[]",
     "matrix_unit.dtypes: expected a non-empty array of strings"},
    {"/matrix_unit/dtype", "[]",
     "matrix_unit.dtype: unknown field; did you mean 'dtypes'?"},
    {"/layout_tile", "[8]", "layout_tile: expected [rows, cols]"},
    {"/layout_tile/1", "-128",
     "layout_tile[1]: expected a positive integer, got -128"},
    {"/layout_tile", nullptr, "layout_tile: required field is missing"},
    {"/alignment_bytes", "48",
     "alignment_bytes: expected a power of two, got 48"},
    {"/alignment_bytes", "0",
     "alignment_bytes: expected a positive integer, got 0"},
    {"/exchange/bandwidth_bytes_per_cycle", "0",
     "exchange.bandwidth_bytes_per_cycle: expected a positive integer, got 0"},
    {"/exchange/latency_cycles", R"("fast")",
     "exchange.latency_cycles: expected a non-negative integer, got \"fast\""},
    {"/exchange", nullptr, "exchange: required field is missing"},
    {"/sync_cycles", "-1",
     "sync_cycles: expected a non-negative integer, got -1"},
    {"/sync_cycles", nullptr, "sync_cycles: required field is missing"},
    {"/host_link/bandwidth_bytes_per_s", "0",
     "host_link.bandwidth_bytes_per_s: expected a positive integer, got 0"},
    {"/host_link/latency_cycles", "true",
     "host_link.latency_cycles: expected a non-negative integer, got true"},
    {"/host_link", nullptr, "host_link: required field is missing"},
    {"/overheads/vertex_state_bytes", "-4",
     "overheads.vertex_state_bytes: expected a non-negative integer, got -4"},
    {"/overheads/vertex_code", "1",
     "overheads.vertex_code: unknown field; did you mean "
     "'vertex_code_bytes'?"},
    {"/dtypes/1", R"("s33")", "dtypes[1]: unknown dtype 's33'; did you mean"},
    {"/dtypes/2", R"("pred")", "dtypes[2]: 'pred' is listed twice"},
    {"/dtypes", "[]", "dtypes: expected a non-empty array of strings"},
    {"/dtypes", R"("f32")", "dtypes: expected an array of strings"},
    {"/ops/convolution/max_window", "-1",
     "ops.convolution.max_window: expected a non-negative integer, got -1"},
    {"/ops/convolution/allow_rhs_dilation", R"("no")",
     "ops.convolution.allow_rhs_dilation: expected true or false"},
    {"/ops/convolution/max_windw", "3",
     "ops.convolution.max_windw: unknown constraint; did you mean "
     "'max_window'?"},
    {"/ops/add/max_window", "3",
     "ops.add.max_window: is not a constraint of add"},
    {"/ops/convolutoin", "{}",
     "ops.convolutoin: unknown op 'convolutoin'; did you mean "
     "'convolution'?"},
    {"/ops/dot_general", "3",
     "ops.dot_general: expected an object of constraints"},
    {"/ops/dot_general/dtypes/0", R"("f64")",
     "ops.dot_general.dtypes[0]: dtype 'f64' is not in the target's dtypes"},
    {"/ops/dot_general/max_batch_dims", "1.5",
     "ops.dot_general.max_batch_dims: expected a non-negative integer, got "
     "1.5"},
    {"/ops/custom_call/targets/0", "1",
     "ops.custom_call.targets[0]: expected a non-empty string, got 1"},
    {"/ops/sort/note", "5", "ops.sort.note: expected a string, got 5"},
    {"/ops", "[]", "ops: expected an object"},
    {"/runtime_ops/1", R"("matmull")",
     "runtime_ops[1]: unknown vertex kind 'matmull'; did you mean "
     "'matmul'?"},
    {"/runtime_ops", nullptr, "runtime_ops: required field is missing"},
    {"/tile_per_chip", "3",
     "tile_per_chip: unknown field; did you mean 'tiles_per_chip'?"},
    {"/name", nullptr, "name: required field is missing"},
};

// Names the case in gtest's output by the edited JSON pointer.
void PrintTo(const BadField &bad, std::ostream *os) {
  *os << bad.pointer << " = " << (bad.valueJson ? bad.valueJson : "(removed)");
}

class BadFieldTest : public ::testing::TestWithParam<BadField> {};

TEST_P(BadFieldTest, MessageNamesTheField) {
  const BadField &bad = GetParam();
  Json doc = baseJson();
  ASSERT_FALSE(doc.is_discarded());
  auto apply = [&](const char *pointer, const char *valueJson) {
    Json::json_pointer ptr(pointer);
    if (!valueJson) {
      doc[ptr.parent_pointer()].erase(ptr.back());
      return;
    }
    Json value = Json::parse(valueJson, nullptr, false);
    ASSERT_FALSE(value.is_discarded()) << valueJson;
    doc[ptr] = value;
  };
  apply(bad.pointer, bad.valueJson);
  if (bad.pointer2)
    apply(bad.pointer2, bad.value2Json);

  std::string error = errorOf(doc);
  EXPECT_NE(error.find(std::string("t.json: ") + bad.expected),
            std::string::npos)
      << "edit " << bad.pointer << "\n got: " << error;
  // One bad value gives one message: validation must not cascade.
  EXPECT_EQ(std::count(error.begin(), error.end(), '\n'), 0) << error;
}

INSTANTIATE_TEST_SUITE_P(EveryField, BadFieldTest,
                         ::testing::ValuesIn(kBadFields));

TEST(TargetJson, ReportsEveryProblemAtOnce) {
  Json doc = baseJson();
  doc["tiles_per_chip"] = -3;
  doc["matrix_unit"]["shape"][2] = 0;
  doc["ops"]["convolution"]["max_window"] = "big";
  std::string error = errorOf(doc);
  EXPECT_NE(error.find("t.json: tiles_per_chip: "), std::string::npos);
  EXPECT_NE(error.find("t.json: matrix_unit.shape[2]: "), std::string::npos);
  EXPECT_NE(error.find("t.json: ops.convolution.max_window: "),
            std::string::npos);
  EXPECT_EQ(std::count(error.begin(), error.end(), '\n'), 2) << error;
}

TEST(TargetJson, SyntaxErrorHasLineAndColumn) {
  llvm::Expected<TargetDescription> target =
      parseTarget("{\n  \"name\": \"x\",\n  \"chips\": ,\n}", "bad.json");
  ASSERT_FALSE(static_cast<bool>(target));
  std::string error = llvm::toString(target.takeError());
  EXPECT_EQ(error.rfind("bad.json:3:", 0), 0u) << error;
  EXPECT_NE(error.find("syntax error"), std::string::npos) << error;
}

TEST(TargetJson, TruncatedAndEmptyInputsAreErrors) {
  for (const char *text : {"", "{", "{\"name\": ", "[1, 2", "nul"}) {
    llvm::Expected<TargetDescription> target = parseTarget(text, "x.json");
    ASSERT_FALSE(static_cast<bool>(target)) << text;
    EXPECT_EQ(llvm::toString(target.takeError()).rfind("x.json:1:", 0), 0u)
        << text;
  }
}

TEST(TargetJson, DuplicateKeyNamesItsPath) {
  llvm::Expected<TargetDescription> target =
      parseTarget(R"({"ops": {"add": {}, "add": {"max_rank": 2}}})", "d.json");
  ASSERT_FALSE(static_cast<bool>(target));
  EXPECT_EQ(llvm::toString(target.takeError()),
            "d.json: ops: duplicate key 'add'");
}

TEST(TargetJson, RootMustBeAnObject) {
  llvm::Expected<TargetDescription> target = parseTarget("[1, 2]", "r.json");
  ASSERT_FALSE(static_cast<bool>(target));
  EXPECT_EQ(llvm::toString(target.takeError()),
            "r.json: target: expected an object, got an array [1,2]");
}

TEST(TargetJson, IntegralFloatsAreAccepted) {
  Json doc = baseJson();
  doc["clock_hz"] = 1.33e9;
  llvm::Expected<TargetDescription> target = parseTarget(doc.dump(), "t");
  ASSERT_TRUE(static_cast<bool>(target)) << llvm::toString(target.takeError());
  EXPECT_EQ(target->clockHz, 1330000000);
}

TEST(TargetJson, DefaultsOfOptionalFields) {
  Json doc = baseJson();
  for (const char *key :
       {"description", "chips", "chip_links", "reserved_bytes_per_tile",
        "vector_width", "overheads"})
    doc.erase(key);
  doc["host_link"].erase("latency_cycles");
  llvm::Expected<TargetDescription> target = parseTarget(doc.dump(), "t");
  ASSERT_TRUE(static_cast<bool>(target)) << llvm::toString(target.takeError());
  EXPECT_EQ(target->description, "");
  EXPECT_EQ(target->chips, 1);
  EXPECT_TRUE(target->chipLinks.empty());
  EXPECT_EQ(target->usableBytesPerTile(), 65536);
  EXPECT_TRUE(target->vectorWidth.empty());
  EXPECT_EQ(target->hostLink.latencyCycles, 0);
  EXPECT_EQ(target->overheads, ProgramOverheads());
  EXPECT_EQ(target->alignmentBytes, 1);
}

TEST(TargetJson, RoundTripsThroughToJson) {
  llvm::Expected<TargetDescription> first = parseTarget(kBaseTarget, "t");
  ASSERT_TRUE(static_cast<bool>(first)) << llvm::toString(first.takeError());
  std::string text = toJson(*first);
  llvm::Expected<TargetDescription> second = parseTarget(text, "printed");
  ASSERT_TRUE(static_cast<bool>(second))
      << llvm::toString(second.takeError()) << "\n"
      << text;
  EXPECT_EQ(*first, *second);
  EXPECT_EQ(toJson(*second), text);
  // Ops keep the author's order.
  ASSERT_EQ(second->ops.size(), 5u);
  EXPECT_EQ(second->ops[1].op, "dot_general");
}

TEST(TargetPresets, EveryPresetParsesAndRoundTrips) {
  std::vector<llvm::StringRef> names = presetNames();
  ASSERT_GE(names.size(), 2u);
  EXPECT_TRUE(llvm::is_contained(names, defaultTargetName()));
  for (llvm::StringRef nameRef : names) {
    std::string name = nameRef.str();
    llvm::Expected<TargetDescription> target = loadPreset(name);
    ASSERT_TRUE(static_cast<bool>(target))
        << llvm::toString(target.takeError());
    EXPECT_EQ(target->name, name) << "preset file name and \"name\" differ";
    EXPECT_FALSE(target->description.empty());
    std::string text = toJson(*target);
    llvm::Expected<TargetDescription> again = parseTarget(text, name);
    ASSERT_TRUE(static_cast<bool>(again)) << llvm::toString(again.takeError());
    EXPECT_EQ(*target, *again) << name;
    EXPECT_EQ(toJson(*again), text) << name;
  }
}

TEST(TargetPresets, Tile1472Numbers) {
  llvm::Expected<TargetDescription> t = loadPreset("tile-1472");
  ASSERT_TRUE(static_cast<bool>(t)) << llvm::toString(t.takeError());
  EXPECT_EQ(t->totalTiles(), 1472);
  EXPECT_EQ(t->sramBytesPerTile, 624 * 1024);
  EXPECT_EQ(t->usableBytesPerTile(), 624 * 1024 - 49152 - 8192);
  EXPECT_EQ(t->usableBytesTotal(), 1472LL * (624 * 1024 - 49152 - 8192));
}

TEST(TargetPresets, Core8Numbers) {
  llvm::Expected<TargetDescription> t = loadPreset("core-8");
  ASSERT_TRUE(static_cast<bool>(t)) << llvm::toString(t.takeError());
  EXPECT_EQ(t->totalTiles(), 8);
  EXPECT_EQ(t->sramBytesPerTile, 16 * 1024 * 1024);
  EXPECT_EQ(t->matrixUnit.n, 128);
  EXPECT_EQ(t->matrixUnit.k, 128);
  EXPECT_EQ(t->layoutTile, (LayoutTile{8, 128}));
}

// The presets must disagree in ways the compatibility checker can show: the
// same model compatible on one and not on the other.
TEST(TargetPresets, PresetsDifferInDtypesAndOps) {
  llvm::Expected<TargetDescription> tile = loadPreset("tile-1472");
  llvm::Expected<TargetDescription> core = loadPreset("core-8");
  ASSERT_TRUE(static_cast<bool>(tile) && static_cast<bool>(core));
  EXPECT_TRUE(tile->supportsDtype("f16"));
  EXPECT_FALSE(core->supportsDtype("f16"));
  EXPECT_TRUE(core->supportsDtype("bf16"));
  EXPECT_FALSE(tile->supportsDtype("bf16"));
  EXPECT_TRUE(core->supportsDtype("s64"));
  EXPECT_FALSE(tile->supportsDtype("s64"));
  for (const TargetDescription *t : {&*tile, &*core}) {
    EXPECT_FALSE(t->supportsDtype("f64")) << t->name;
    EXPECT_FALSE(t->supportsDtype("c64")) << t->name;
    EXPECT_EQ(t->opConstraint("unknown"), nullptr) << t->name;
    EXPECT_NE(t->opConstraint("add"), nullptr) << t->name;
  }
  EXPECT_NE(tile->opConstraint("sort"), nullptr);
  EXPECT_EQ(core->opConstraint("sort"), nullptr);
  EXPECT_FALSE(core->runtimeImplements("sort"));
  EXPECT_EQ(tile->opConstraint("custom_call"), nullptr);
  ASSERT_NE(core->opConstraint("custom_call"), nullptr);
  EXPECT_TRUE(
      core->opConstraint("custom_call")->allowsName("targets", "Sharding"));
  const OpConstraint *tileConv = tile->opConstraint("convolution");
  const OpConstraint *coreConv = core->opConstraint("convolution");
  ASSERT_TRUE(tileConv && coreConv);
  EXPECT_TRUE(tileConv->allows("allow_rhs_dilation"));
  EXPECT_FALSE(coreConv->allows("allow_rhs_dilation"));
  EXPECT_FALSE(tileConv->allows("allow_batch_groups"));
  EXPECT_TRUE(coreConv->allows("allow_batch_groups"));
  EXPECT_LT(*tileConv->limit("max_window"), *coreConv->limit("max_window"));
  EXPECT_EQ(tile->opConstraint("dot_general")->limit("max_batch_dims"),
            std::optional<int64_t>(1));
}

TEST(TargetPadding, WorkedExampleFromTheDesign) {
  // A [3,16] f32 buffer on an [8,128] layout tile is stored as [8,128]:
  // 1024 slots of which 48 are useful, about 4.7%.
  llvm::Expected<TargetDescription> core = loadPreset("core-8");
  ASSERT_TRUE(static_cast<bool>(core));
  PaddedSize size = core->paddedSize({3, 16}, /*dtypeBytes=*/4);
  EXPECT_EQ(size.paddedElements, 1024);
  EXPECT_EQ(size.usefulElements, 48);
  EXPECT_EQ(size.paddedBytes, 4096);
  EXPECT_EQ(size.usefulBytes, 192);
  EXPECT_NEAR(size.usefulFraction() * 100.0, 4.7, 0.05);
}

TEST(TargetPadding, TheLeastPaddedViewAndFoldedVectors) {
  TargetDescription t;
  t.layoutTile = {8, 128};
  // [2, 5, 9, 130]: stored as its own ten [9, 130] matrices it would take
  // 10 x [16, 256]; the least-padded view puts the 130 in the rows and
  // 2 x 5 x 9 = 90 in the columns: [136, 128].
  PaddedSize size = t.paddedSize({2, 5, 9, 130}, 2);
  EXPECT_EQ(size.usefulElements, 2 * 5 * 9 * 130);
  EXPECT_EQ(size.paddedElements, 136 * 128);
  EXPECT_EQ(size.paddedBytes, 136 * 128 * 2);
  // Rank 1 folds into whole layout tiles: [200] → one [8, 128].
  EXPECT_EQ(t.paddedSize({200}, 4).paddedElements, 8 * 128);
  // Rank 0 is a scalar in one full layout tile.
  EXPECT_EQ(t.paddedSize({}, 4).paddedElements, 8 * 128);
  EXPECT_EQ(t.paddedSize({}, 4).usefulElements, 1);
  // Exact multiples need no padding.
  EXPECT_EQ(t.paddedSize({16, 256}, 4).usefulFraction(), 1.0);
  // Empty and dynamic (negative) dims hold nothing.
  EXPECT_EQ(t.paddedSize({0, 16}, 4).paddedElements, 0);
  EXPECT_EQ(t.paddedSize({0, 16}, 4).usefulFraction(), 1.0);
  EXPECT_EQ(t.paddedSize({-1, 16}, 4).usefulElements, 0);
}

TEST(TargetPadding, SmallLayoutTileWastesLittle) {
  llvm::Expected<TargetDescription> tile = loadPreset("tile-1472");
  ASSERT_TRUE(static_cast<bool>(tile));
  EXPECT_EQ(tile->paddedSize({3, 16}, 4).paddedElements, 48);
  // One-row layout tiles: all dims in the columns, 51 → 52.
  EXPECT_EQ(tile->paddedSize({3, 17}, 4).paddedElements, 52);
}

TEST(ResolveTarget, PresetByName) {
  llvm::Expected<TargetDescription> t = resolveTarget("core-8");
  ASSERT_TRUE(static_cast<bool>(t)) << llvm::toString(t.takeError());
  EXPECT_EQ(t->name, "core-8");
}

TEST(ResolveTarget, UnknownNameListsPresetsAndSuggests) {
  llvm::Expected<TargetDescription> t = resolveTarget("core8");
  ASSERT_FALSE(static_cast<bool>(t));
  std::string error = llvm::toString(t.takeError());
  EXPECT_NE(error.find("unknown target 'core8'"), std::string::npos) << error;
  EXPECT_NE(error.find("did you mean 'core-8'?"), std::string::npos) << error;
  EXPECT_NE(error.find("tile-1472, core-8"), std::string::npos) << error;
}

TEST(ResolveTarget, UnrelatedNameHasNoSuggestion) {
  llvm::Expected<TargetDescription> t = resolveTarget("gpu");
  ASSERT_FALSE(static_cast<bool>(t));
  std::string error = llvm::toString(t.takeError());
  EXPECT_EQ(error.find("did you mean"), std::string::npos) << error;
  EXPECT_NE(error.find("Available presets: tile-1472, core-8"),
            std::string::npos)
      << error;
}

TEST(ResolveTarget, MissingFileIsAnError) {
  llvm::Expected<TargetDescription> t =
      resolveTarget("/nonexistent/dir/target.json");
  ASSERT_FALSE(static_cast<bool>(t));
  EXPECT_NE(llvm::toString(t.takeError()).find("cannot read the target file"),
            std::string::npos);
}

TEST(ResolveTarget, ReadsAFileAndNamesItInErrors) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(
      llvm::sys::fs::createTemporaryFile("tessera-target", "json", path));
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << kBaseTarget;
  }
  llvm::Expected<TargetDescription> good = resolveTarget(path);
  if (good) {
    EXPECT_EQ(good->name, "unit-2x4");
  } else {
    ADD_FAILURE() << llvm::toString(good.takeError());
  }
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    os << "{\"name\": 3}";
  }
  llvm::Expected<TargetDescription> bad = resolveTarget(path);
  ASSERT_FALSE(static_cast<bool>(bad));
  std::string error = llvm::toString(bad.takeError());
  EXPECT_NE(error.find((path + ": name: expected a string").str()),
            std::string::npos)
      << error;
  llvm::sys::fs::remove(path);
}

// parseTarget keeps what it parsed by the text: asking again gives an
// equal description, and an edited file is parsed afresh, not answered
// with what the old text gave.
TEST(ResolveTarget, AnEditedFileIsParsedAgain) {
  llvm::Expected<TargetDescription> first = parseTarget(kBaseTarget, "a");
  llvm::Expected<TargetDescription> again = parseTarget(kBaseTarget, "b");
  ASSERT_TRUE(first && again);
  EXPECT_EQ(*first, *again);

  llvm::SmallString<128> path;
  ASSERT_FALSE(
      llvm::sys::fs::createTemporaryFile("tessera-target", "json", path));
  auto write = [&](llvm::StringRef text) {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << text;
  };
  write(kBaseTarget);
  llvm::Expected<TargetDescription> before = resolveTarget(path);
  ASSERT_TRUE(static_cast<bool>(before)) << llvm::toString(before.takeError());
  EXPECT_EQ(before->name, "unit-2x4");
  std::string edited = kBaseTarget;
  size_t at = edited.find("\"unit-2x4\"");
  ASSERT_NE(at, std::string::npos);
  edited.replace(at, strlen("\"unit-2x4\""), "\"unit-edited\"");
  write(edited);
  llvm::Expected<TargetDescription> after = resolveTarget(path);
  ASSERT_TRUE(static_cast<bool>(after)) << llvm::toString(after.takeError());
  EXPECT_EQ(after->name, "unit-edited");
  llvm::sys::fs::remove(path);
}

// toJson keeps the text of recent descriptions, found by equality: a
// description changed in any field after its text was written must get a
// text of its own.
TEST(TargetJson, AChangedDescriptionGetsItsOwnText) {
  llvm::Expected<TargetDescription> t = parseTarget(kBaseTarget, "t");
  ASSERT_TRUE(static_cast<bool>(t)) << llvm::toString(t.takeError());
  std::string before = toJson(*t);
  EXPECT_EQ(toJson(*t), before);
  TargetDescription changed = *t;
  changed.ops.front().note = "edited after the text was written";
  std::string after = toJson(changed);
  EXPECT_NE(after, before);
  EXPECT_NE(after.find("edited after the text was written"), std::string::npos);
  EXPECT_EQ(toJson(*t), before);
}

TEST(TargetSchema, OpNamesMatchTheTGraphDialect) {
  mlir::MLIRContext context;
  context.loadDialect<tgraph::TGraphDialect>();
  std::set<std::string> dialectOps;
  for (mlir::RegisteredOperationName op : context.getRegisteredOperations())
    if (op.getDialectNamespace() == "tgraph")
      dialectOps.insert(op.getStringRef().drop_front(strlen("tgraph.")).str());
  std::set<std::string> targetOps;
  for (llvm::StringRef op : knownOpNames())
    targetOps.insert(op.str());
  EXPECT_EQ(dialectOps, targetOps)
      << "update kOpNames in lib/Target/TargetSchema.cpp";
}

TEST(TargetSchema, ConstraintKeysNameRealOpsAndFollowTheNaming) {
  for (const ConstraintKey &key : constraintKeys()) {
    llvm::StringRef ops = key.ops;
    if (ops != "*") {
      llvm::SmallVector<llvm::StringRef> names;
      ops.split(names, ',');
      for (llvm::StringRef op : names)
        EXPECT_TRUE(isKnownOpName(op)) << key.name.str() << ": " << op.str();
    }
    // The prefix tells a reader the default: absent max_* is unbounded,
    // absent allow_* is allowed.
    if (key.kind == ConstraintKind::Limit) {
      EXPECT_TRUE(llvm::StringRef(key.name).starts_with("max_"));
    }
    if (key.kind == ConstraintKind::Flag) {
      EXPECT_TRUE(llvm::StringRef(key.name).starts_with("allow_"));
    }
  }
}

TEST(TargetSchema, ClosestMatchOnlySuggestsPlausibleTypos) {
  std::vector<llvm::StringRef> candidates = {"tiles_per_chip", "chips",
                                             "clock_hz"};
  EXPECT_EQ(closestMatch("tile_per_chip", candidates),
            std::optional<std::string>("tiles_per_chip"));
  EXPECT_EQ(closestMatch("chip", candidates),
            std::optional<std::string>("chips"));
  EXPECT_EQ(closestMatch("frequency", candidates), std::nullopt);
  // A truncated name is suggested when only one candidate extends it.
  EXPECT_EQ(closestMatch("vertex_code", {"vertex_code_bytes", "chips"}),
            std::optional<std::string>("vertex_code_bytes"));
  EXPECT_EQ(closestMatch("vertex", {"vertex_code_bytes", "vertex_state_bytes"}),
            std::nullopt);
  EXPECT_EQ(dtypeBytes("bf16"), std::optional<int64_t>(2));
  EXPECT_EQ(dtypeBytes("c128"), std::optional<int64_t>(16));
  EXPECT_EQ(dtypeBytes("float"), std::nullopt);
}

/// docs/targets.md, which these tests keep honest.
std::string readTargetsDoc() {
  auto buffer =
      llvm::MemoryBuffer::getFile(TESSERA_SOURCE_DIR "/docs/targets.md");
  if (!buffer)
    return "";
  return (*buffer)->getBuffer().str();
}

TEST(TargetDocs, FullExampleParses) {
  std::string doc = readTargetsDoc();
  ASSERT_FALSE(doc.empty());
  size_t begin = doc.find("```json\n");
  ASSERT_NE(begin, std::string::npos);
  begin += strlen("```json\n");
  size_t end = doc.find("```", begin);
  llvm::Expected<TargetDescription> target =
      parseTarget(doc.substr(begin, end - begin), "docs/targets.md example");
  ASSERT_TRUE(static_cast<bool>(target)) << llvm::toString(target.takeError());
  EXPECT_EQ(target->chips, 2);
}

TEST(TargetDocs, EveryFieldAndConstraintIsDocumented) {
  std::string doc = readTargetsDoc();
  ASSERT_FALSE(doc.empty());
  auto documented = [&](const std::string &name) {
    return doc.find("`" + name + "`") != std::string::npos;
  };
  // Every field the writer emits, as the fields table spells it.
  llvm::Expected<TargetDescription> preset = loadPreset("core-8");
  ASSERT_TRUE(static_cast<bool>(preset));
  Json printed = Json::parse(toJson(*preset), nullptr, false);
  ASSERT_TRUE(printed.is_object());
  for (auto it = printed.begin(); it != printed.end(); ++it) {
    const std::string &key = it.key();
    if (key == "ops" || key == "vector_width" || !it.value().is_object()) {
      EXPECT_TRUE(documented(key) || documented(key + ".<dtype>")) << key;
      continue;
    }
    for (auto sub = it.value().begin(); sub != it.value().end(); ++sub)
      EXPECT_TRUE(documented(key + "." + sub.key())) << key << "." << sub.key();
  }
  for (const char *linkField :
       {"chip_links[i].between", "chip_links[i].bandwidth_bytes_per_s",
        "chip_links[i].latency_cycles"})
    EXPECT_TRUE(documented(linkField)) << linkField;
  for (const ConstraintKey &key : constraintKeys())
    EXPECT_TRUE(documented(key.name.str())) << key.name.str();
  for (llvm::StringRef kind : vertexKinds())
    EXPECT_TRUE(documented(kind.str())) << kind.str();
  for (const DtypeInfo &dtype : knownDtypes())
    EXPECT_TRUE(documented(dtype.name.str())) << dtype.name.str();
}

} // namespace
