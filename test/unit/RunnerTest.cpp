//===- RunnerTest.cpp - tessera-run's pieces --------------------------------===//
//
// The output check's tolerance rule, seeded data, and a program with an
// elided constant and an op placed on the host run end to end: the device
// (its host op evaluated by the interpreter, its elided constant filled
// with seeded data) agrees with the reference interpreter given the same
// data.
//
//===----------------------------------------------------------------------===//

#include "tessera/Compile/ExecutableWriter.h"
#include "tessera/InitAll.h"
#include "tessera/Passes.h"
#include "tessera/Runner/Runner.h"
#include "tessera/Runtime/ExecutableFile.h"
#include "tessera/Target/Presets.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tessera;
using namespace tessera::runner;

namespace {

HostTensor f32(std::vector<double> v) {
  HostTensor t(DType::F32, {int64_t(v.size())});
  for (size_t i = 0; i < v.size(); ++i)
    t.setDouble(i, v[i]);
  return t;
}

TEST(RunnerCheck, FloatsAreJudgedAgainstTheLargestReferenceValue) {
  HostTensor ref = f32({100, 1e-3, -50});
  HostTensor got = f32({100.0005, 1.9e-3, -50});
  OutputCheck c = checkOutput("y", got, ref);
  // 0.9e-3 off a value of 1e-3 is a 90% relative error, but 1e-5 of the
  // output's scale (100): within tolerance (1e-4 for f32).
  EXPECT_TRUE(c.pass);
  EXPECT_NEAR(c.maxRelErr, 0.9, 1e-4);
  EXPECT_NEAR(c.normErr, 9e-6, 1e-7);
  HostTensor bad = f32({100, 1e-3, -50.02});
  OutputCheck d = checkOutput("y", bad, ref);
  EXPECT_FALSE(d.pass);
  EXPECT_EQ(d.mismatches, 1);
  EXPECT_EQ(d.firstMismatch, 2);
}

TEST(RunnerCheck, NaNAndInfinityMustMatchAndIntegersAreExact) {
  HostTensor ref = f32({NAN, INFINITY, 1});
  EXPECT_TRUE(checkOutput("y", f32({NAN, INFINITY, 1}), ref).pass);
  EXPECT_FALSE(checkOutput("y", f32({0, INFINITY, 1}), ref).pass);
  EXPECT_FALSE(checkOutput("y", f32({NAN, -INFINITY, 1}), ref).pass);
  EXPECT_FALSE(checkOutput("y", f32({NAN, INFINITY, NAN}), ref).pass);
  HostTensor a(DType::S32, {3}), b(DType::S32, {3});
  a.setInt(1, 5);
  b.setInt(1, 5);
  EXPECT_TRUE(checkOutput("i", a, b).pass);
  b.setInt(2, 1);
  OutputCheck c = checkOutput("i", a, b);
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(c.tolerance, 0);
}

TEST(RunnerCheck, AnOutputIsJudgedByTheLeastPreciseTypeItFlowsThrough) {
  mlir::MLIRContext context;
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
  // `a` goes through a bf16 product before becoming f32; `b` is f32 only.
  const char *source = R"mlir(
    func.func @main(%x: tensor<4xbf16>, %y: tensor<4xf32>)
        -> (tensor<4xf32>, tuple<tensor<4xf32>, tensor<4xi32>>) {
      %p = tgraph.multiply %x, %x : tensor<4xbf16>
      %a = tgraph.convert %p : tensor<4xbf16> -> tensor<4xf32>
      %b = tgraph.add %y, %y : tensor<4xf32>
      %i = tgraph.convert %y : tensor<4xf32> -> tensor<4xi32>
      %t = tgraph.tuple %b, %i : (tensor<4xf32>, tensor<4xi32>) -> tuple<tensor<4xf32>, tensor<4xi32>>
      return %a, %t : tensor<4xf32>, tuple<tensor<4xf32>, tensor<4xi32>>
    }
  )mlir";
  auto module = mlir::parseSourceString<mlir::ModuleOp>(source, &context);
  ASSERT_TRUE(module);
  auto entry = module->lookupSymbol<mlir::func::FuncOp>("main");
  std::vector<double> tol = outputTolerances(entry);
  ASSERT_EQ(tol.size(), 3u);
  EXPECT_EQ(tol[0], toleranceOf(DType::BF16));
  // A tuple's leaves share its cone: the i32 leaf's exactness is the
  // check's own rule for integers.
  EXPECT_EQ(tol[1], toleranceOf(DType::F32));
  EXPECT_EQ(tol[2], toleranceOf(DType::F32));
  HostTensor i(DType::S32, {1}), j(DType::S32, {1});
  j.setInt(0, 1);
  EXPECT_FALSE(checkOutput("i", i, j, tol[2]).pass);
}

TEST(RunnerCheck, BitsDifferByTheElementsBytes) {
  HostTensor a = seededTensor(DType::F32, {4, 3}, 1, inputStream(0));
  HostTensor b = a;
  BitsDiff same = diffBits(a, b);
  EXPECT_EQ(same.differ, 0);
  EXPECT_EQ(same.first, -1);
  // Two elements changed: counted, the first named.
  b.setDouble(7, b.getDouble(7) + 1);
  b.setDouble(10, -b.getDouble(10));
  BitsDiff two = diffBits(a, b);
  EXPECT_EQ(two.differ, 2);
  EXPECT_EQ(two.first, 7);
  // Equal values of other bits differ (0.0 and -0.0); the same NaN does not.
  HostTensor z(DType::F32, {2});
  HostTensor negZ = z;
  negZ.setDouble(1, -0.0);
  EXPECT_EQ(diffBits(z, negZ).first, 1);
  HostTensor nan = z;
  nan.setDouble(0, std::nan(""));
  EXPECT_EQ(diffBits(nan, nan).differ, 0);
  // Another shape is every element.
  HostTensor longer(DType::F32, {3});
  EXPECT_EQ(diffBits(z, longer).differ, 3);
}

TEST(RunnerData, SeededTensorsAreReproducibleAndDistinct) {
  HostTensor a = seededTensor(DType::F32, {64}, 7, inputStream(0));
  HostTensor b = seededTensor(DType::F32, {64}, 7, inputStream(0));
  HostTensor c = seededTensor(DType::F32, {64}, 7, constantStream(0));
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_NE(a.bytes, c.bytes);
  for (int64_t i = 0; i < 64; ++i) {
    EXPECT_GE(a.getDouble(i), -1.0);
    EXPECT_LT(a.getDouble(i), 1.0);
  }
  HostTensor ints = seededTensor(DType::S32, {64}, 7, inputStream(1));
  for (int64_t i = 0; i < 64; ++i) {
    EXPECT_GE(ints.getInt(i), 0);
    EXPECT_LE(ints.getInt(i), 7);
  }
}

class RunnerEndToEnd : public ::testing::TestWithParam<const char *> {};

// `w` is elided in the source; `host` (a cosine) is placed on the host.
const char *kHostOpGraph = R"mlir(
  func.func @main(%x: tensor<16x8xf32> loc("x")) -> tensor<16x4xf32> {
    %w = tgraph.constant elided : tensor<8x4xf32> loc("w")
    %d = tgraph.dot_general %x, %w, batching_dims = [] x [], contracting_dims = [1] x [0]
           : (tensor<16x8xf32>, tensor<8x4xf32>) -> tensor<16x4xf32> loc("d")
    %c = tgraph.cosine %d : tensor<16x4xf32> loc("host")
    %y = tgraph.add %c, %d : tensor<16x4xf32> loc("y")
    return %y : tensor<16x4xf32>
  }
)mlir";

/// Lowers `source` for `preset` (ops named `host` on the host) and writes
/// its executable.
llvm::Expected<exe::Executable> compileForTest(llvm::StringRef source,
                                               const char *preset) {
  mlir::MLIRContext context;
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
  auto module = mlir::parseSourceString<mlir::ModuleOp>(source, &context);
  if (!module)
    return llvm::createStringError("cannot parse the test graph");
  mlir::PassManager pm(&context);
  TGraphCheckCompatOptions compat;
  compat.targetName = preset;
  compat.hostOps = "^host$";
  pm.addPass(createTGraphCheckCompat(compat));
  TGraphToTileOptions lower;
  lower.targetName = preset;
  pm.addPass(createTGraphToTile(lower));
  if (mlir::failed(pm.run(*module)))
    return llvm::createStringError("cannot lower the test graph");
  tile::ProgramOp program;
  module->walk([&](tile::ProgramOp p) { program = p; });
  if (!program)
    return llvm::createStringError("no tile program");
  llvm::Expected<TargetDescription> target = loadPreset(preset);
  if (!target)
    return target.takeError();
  memory::MemoryAnalysis analysis = memory::analyzeMemory(program, *target);
  return buildExecutable(*module, program, analysis, "test");
}

TEST_P(RunnerEndToEnd, ElidedConstantsAndHostOpsAgreeWithTheReference) {
  llvm::Expected<exe::Executable> executable =
      compileForTest(kHostOpGraph, GetParam());
  ASSERT_TRUE(bool(executable)) << llvm::toString(executable.takeError());
  bool hasHostOp = false;
  for (const exe::Step &s : executable->steps())
    hasHostOp |= s.has_host_compute();
  EXPECT_TRUE(hasHostOp);
  llvm::Expected<std::unique_ptr<runtime::Program>> loaded =
      runtime::Program::load(*executable, "test");
  ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError());
  llvm::Expected<std::unique_ptr<GraphModule>> graph =
      GraphModule::parse(*executable, "test");
  ASSERT_TRUE(bool(graph)) << llvm::toString(graph.takeError());

  InfeedSource infeed(3);
  InterpreterHostOps hostOps(**graph, /*seed=*/3, infeed);
  runtime::DeviceOptions options;
  options.hostOps = &hostOps;
  runtime::Device device(**loaded, options);
  EXPECT_EQ(fillElidedConstants(**loaded, device, 3), 1);
  HostTensor x = seededTensor(DType::F32, {16, 8}, 3, inputStream(0));
  runtime::RunRecord record;
  llvm::Expected<std::vector<HostTensor>> out = device.run({x}, record);
  ASSERT_TRUE(bool(out)) << llvm::toString(out.takeError());
  EXPECT_EQ(record.hostOps, 1);
  llvm::Expected<std::vector<HostTensor>> ref = interp::interpretFunction(
      (*graph)->entry(), {x}, referenceOptions(**graph, 3, true, infeed));
  ASSERT_TRUE(bool(ref)) << llvm::toString(ref.takeError());
  ASSERT_EQ(out->size(), 1u);
  OutputCheck c = checkOutput("y", (*out)[0], (*ref)[0]);
  EXPECT_TRUE(c.pass) << "norm err " << c.normErr;
  // A different seed is different data: the check must notice.
  llvm::Expected<std::vector<HostTensor>> other = interp::interpretFunction(
      (*graph)->entry(), {x}, referenceOptions(**graph, 4, true, infeed));
  ASSERT_TRUE(bool(other));
  EXPECT_FALSE(checkOutput("y", (*out)[0], (*other)[0]).pass);
}

TEST_P(RunnerEndToEnd, ThePerOpCheckNamesTheOpWhoseResultIsWrong) {
  llvm::Expected<exe::Executable> executable =
      compileForTest(kHostOpGraph, GetParam());
  ASSERT_TRUE(bool(executable)) << llvm::toString(executable.takeError());
  runtime::LoadOptions load;
  load.privateStorage = true;
  llvm::Expected<std::unique_ptr<runtime::Program>> loaded =
      runtime::Program::load(*executable, "test", load);
  ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError());
  llvm::Expected<std::unique_ptr<GraphModule>> graph =
      GraphModule::parse(*executable, "test");
  ASSERT_TRUE(bool(graph)) << llvm::toString(graph.takeError());
  InfeedSource infeed(5);
  InterpreterHostOps hostOps(**graph, 5, infeed);
  runtime::DeviceOptions options;
  options.hostOps = &hostOps;
  runtime::Device device(**loaded, options);
  fillElidedConstants(**loaded, device, 5);
  HostTensor x = seededTensor(DType::F32, {16, 8}, 5, inputStream(0));
  runtime::RunRecord record;
  ASSERT_TRUE(bool(device.run({x}, record)));
  // (record.lastIterations is empty: the graph has no loop.)

  // The constant, the dot and the add are checked; the cosine is the
  // reference's own work on the host.
  OpCheckSummary ok = checkOps(**graph, **loaded, device, record, {x}, 5);
  EXPECT_EQ(ok.hostOps, 1);
  std::vector<std::string> names;
  for (const OpCheck &c : ok.checks) {
    EXPECT_TRUE(c.pass) << c.name << ": norm err " << c.worst.normErr
                        << c.error;
    names.push_back(c.name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"w", "d", "y"}));

  // One element of y's buffer off by 1%: y fails, alone.
  int32_t yBuffer = -1;
  for (const auto &[i, b] : llvm::enumerate((*loaded)->buffers()))
    if (b.resultOp >= 0 && b.hlo == "y")
      yBuffer = static_cast<int32_t>(i);
  ASSERT_GE(yBuffer, 0);
  HostTensor y = device.read(yBuffer);
  double scale = 0;
  for (int64_t i = 0; i < y.numElements(); ++i)
    scale = std::max(scale, std::fabs(y.getDouble(i)));
  y.setDouble(3, y.getDouble(3) + 0.01 * scale);
  device.write(yBuffer, y);
  OpCheckSummary bad = checkOps(**graph, **loaded, device, record, {x}, 5);
  ASSERT_EQ(bad.checks.size(), 3u);
  EXPECT_TRUE(bad.checks[0].pass);
  EXPECT_TRUE(bad.checks[1].pass);
  EXPECT_FALSE(bad.checks[2].pass);
  EXPECT_EQ(bad.checks[2].worst.firstMismatch, 3);
}

INSTANTIATE_TEST_SUITE_P(Presets, RunnerEndToEnd,
                         ::testing::Values("tile-1472", "core-8"));

} // namespace
