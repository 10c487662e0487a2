//===- TGraphDialectTest.cpp - tgraph dialect and cost units --------------===//

#include "tessera/Analysis/OpCost.h"
#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace tessera;

namespace {

class TGraphTest : public ::testing::Test {
protected:
  TGraphTest() {
    context.loadDialect<tgraph::TGraphDialect, func::FuncDialect>();
    context.printOpOnDiagnostic(false);
  }
  OwningOpRef<ModuleOp> parse(llvm::StringRef text) {
    return parseSourceString<ModuleOp>(text, &context);
  }
  MLIRContext context;
};

TEST_F(TGraphTest, ConvDimLabelsLocateEveryDimension) {
  std::string error;
  auto dims = tgraph::parseConvDimLabels("b01f_01io->b01f", error);
  ASSERT_TRUE(succeeded(dims)) << error;
  EXPECT_EQ(dims->input.batchOrInput, 0);
  EXPECT_EQ(dims->input.featureOrOutput, 3);
  EXPECT_EQ(dims->input.spatial, (llvm::SmallVector<int64_t>{1, 2}));
  EXPECT_EQ(dims->kernel.batchOrInput, 2);
  EXPECT_EQ(dims->kernel.featureOrOutput, 3);
  EXPECT_EQ(dims->kernel.spatial, (llvm::SmallVector<int64_t>{0, 1}));

  auto nchw = tgraph::parseConvDimLabels("bf01_oi01->bf01", error);
  ASSERT_TRUE(succeeded(nchw)) << error;
  EXPECT_EQ(nchw->kernel.featureOrOutput, 0);
  EXPECT_EQ(nchw->output.spatial, (llvm::SmallVector<int64_t>{2, 3}));
}

TEST_F(TGraphTest, ConvDimLabelsRejectMalformed) {
  std::string error;
  EXPECT_TRUE(failed(tgraph::parseConvDimLabels("b01f_01io", error)));
  EXPECT_NE(error.find("must look like"), std::string::npos);
  EXPECT_TRUE(failed(tgraph::parseConvDimLabels("bb1f_01io->b01f", error)));
  EXPECT_TRUE(failed(tgraph::parseConvDimLabels("b01f_0io->b01f", error)));
  EXPECT_NE(error.find("different spatial ranks"), std::string::npos);
}

TEST_F(TGraphTest, CostOfDotAndConvFollowsXlaCounting) {
  auto module = parse(R"mlir(
    func.func @main(%a: tensor<16x64xf32>, %b: tensor<64x32xf32>,
                    %x: tensor<1x8x8x4xf32>, %w: tensor<3x3x2x8xf32>) {
      %d = tgraph.dot_general %a, %b, batching_dims = [] x [],
           contracting_dims = [1] x [0]
           : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
      %c = tgraph.convolution %x, %w, dim_labels = "b01f_01io->b01f"
           {padding = array<i64: 1, 1, 1, 1>, feature_group_count = 2 : i64}
           : (tensor<1x8x8x4xf32>, tensor<3x3x2x8xf32>) -> tensor<1x8x8x8xf32>
      %e = tgraph.add %d, %d : tensor<16x32xf32>
      return
    })mlir");
  ASSERT_TRUE(module);
  auto fn = cast<func::FuncOp>(module->getBody()->front());
  auto it = fn.getBody().front().begin();
  Operation *dot = &*it++, *conv = &*it++, *add = &*it++;
  EXPECT_EQ(opFlops(dot), 2 * 16 * 32 * 64);
  EXPECT_EQ(opBytes(dot), (16 * 64 + 64 * 32 + 16 * 32) * 4);
  // 2 * output elements * window (3x3) * Cin/groups (2).
  EXPECT_EQ(opFlops(conv), 2 * (8 * 8 * 8) * 9 * 2);
  EXPECT_EQ(opFlops(add), 16 * 32);
}

TEST_F(TGraphTest, VerifierRejectsWrongDotShape) {
  auto module = parse(R"mlir(
    func.func @main(%a: tensor<16x64xf32>, %b: tensor<32x32xf32>) {
      %d = tgraph.dot_general %a, %b, batching_dims = [] x [],
           contracting_dims = [1] x [0]
           : (tensor<16x64xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>
      return
    })mlir");
  EXPECT_FALSE(module);
}

TEST_F(TGraphTest, ElementBytesRoundSubByteTypesUp) {
  Builder b(&context);
  EXPECT_EQ(elementBytes(b.getI1Type()), 1);
  EXPECT_EQ(elementBytes(b.getBF16Type()), 2);
  EXPECT_EQ(elementBytes(b.getF64Type()), 8);
  EXPECT_EQ(valueBytes(RankedTensorType::get({3, 5}, b.getF32Type())), 60);
}

} // namespace
