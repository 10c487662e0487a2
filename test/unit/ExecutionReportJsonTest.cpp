//===- ExecutionReportJsonTest.cpp - The execution report's JSON round trip ===//

#include "tessera/Runtime/ExecutionReport.h"

#include <gtest/gtest.h>

using namespace tessera::runtime;
using json = nlohmann::json;

namespace {

ExecutionReport sample() {
  ExecutionReport r;
  r.module = "m";
  r.target = "clock-4";
  r.level = ProfileLevel::Tile;
  r.chips = 1;
  r.tilesPerChip = 4;
  r.tiles = 4;
  r.clockHz = 1000000000;
  r.vectorPeak = 16;
  r.matrixPeak = 1048576;
  r.run = 2;
  r.cycles = 1086;
  r.seconds = 1.086e-6;
  r.flops = 64;
  r.hostCycles = 1068;
  r.runs = {{0, 1086, 700}, {1, 1086, 80}, {2, 1086, 90}};
  r.steps.push_back({"sum", "compute_set", "sum", "f.mlir:2", 1, 4, 4, 4});
  ExecutionReport::Op op;
  op.hlo = "sum";
  op.category = "elementwise";
  op.unit = "vector";
  op.steps = 1;
  op.cycles = 4;
  op.flops = 64;
  op.flopsPerSecond = 1.6e10;
  op.utilization = 1;
  op.predictedCycles = 2;
  op.error = 1;
  op.why = "vertex work";
  r.ops.push_back(op);
  r.chipCycles.push_back({16, 0, 28, 4300});
  r.tileCycles.assign(4, {4, 0, 7, 1075});
  return r;
}

TEST(ExecutionReportJson, RoundTrips) {
  ExecutionReport r = sample();
  json j = json::parse(toJson(r).dump());
  llvm::Expected<ExecutionReport> back = fromJson(j);
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  // Written again, it is the same document: every field came back.
  EXPECT_EQ(toJson(*back).dump(), toJson(r).dump());
  EXPECT_EQ(back->ops[0].why, "vertex work");
  EXPECT_EQ(back->tileCycles.size(), 4u);
  EXPECT_EQ(back->runs[1].hostNs, 80);
}

TEST(ExecutionReportJson, ErrorsNameThePath) {
  json j = json::parse(toJson(sample()).dump());
  j["total"].erase("cycles");
  llvm::Expected<ExecutionReport> r = fromJson(j);
  ASSERT_FALSE(bool(r));
  EXPECT_EQ(llvm::toString(r.takeError()),
            "execution report.total.cycles: missing");

  j = json::parse(toJson(sample()).dump());
  j["ops"][0]["cycles"] = "many";
  r = fromJson(j);
  ASSERT_FALSE(bool(r));
  EXPECT_EQ(llvm::toString(r.takeError()),
            "execution report.ops[0].cycles: expected an integer");

  j["level"] = "pod";
  r = fromJson(j);
  ASSERT_FALSE(bool(r));
  EXPECT_EQ(llvm::toString(r.takeError()),
            "execution report.level: 'pod' is not device, chip or tile");

  r = fromJson(json::array());
  ASSERT_FALSE(bool(r));
  EXPECT_EQ(llvm::toString(r.takeError()),
            "execution report: expected an object");
}

TEST(ExecutionReportJson, DeviceLevelNeedsNoStepsOrTiles) {
  ExecutionReport r = sample();
  r.level = ProfileLevel::Device;
  r.steps.clear();
  r.chipCycles.clear();
  r.tileCycles.clear();
  llvm::Expected<ExecutionReport> back =
      fromJson(json::parse(toJson(r).dump()));
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_TRUE(back->steps.empty());
}

TEST(ExecutionReportJson, AReplicaSaysWhichItIs) {
  ExecutionReport r = sample();
  // One replica's program: no replica fields, read back as replica 0 of 1.
  json single = toJson(r);
  EXPECT_FALSE(single.contains("replica"));
  r.replica = 2;
  r.replicas = 4;
  json j = json::parse(toJson(r).dump());
  EXPECT_EQ(j["replica"], 2);
  llvm::Expected<ExecutionReport> back = fromJson(j);
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(back->replica, 2);
  EXPECT_EQ(back->replicas, 4);

  j["replica"] = 4;
  back = fromJson(j);
  ASSERT_FALSE(bool(back));
  EXPECT_EQ(llvm::toString(back.takeError()),
            "execution report.replica: 4 is not one of 4 replicas");
}

} // namespace
