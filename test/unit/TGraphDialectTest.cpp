//===- TGraphDialectTest.cpp - tgraph dialect and cost units --------------===//

#include "tessera/Analysis/OpCost.h"
#include "tessera/Analysis/OpIdentity.h"
#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
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
  /// The ops of the first function in `module`, in order.
  static llvm::SmallVector<Operation *> opsOf(ModuleOp module) {
    llvm::SmallVector<Operation *> ops;
    auto fn = cast<func::FuncOp>(module.getBody()->front());
    for (Operation &op : fn.getBody().front().without_terminator())
      ops.push_back(&op);
    return ops;
  }
  /// Verifies `op` and returns the first error message ("" on success).
  std::string verifyMessage(Operation *op) {
    std::string message;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      if (message.empty())
        message = diag.str();
      return success();
    });
    if (succeeded(verify(op)))
      return "";
    return message.empty() ? "<failed without a message>" : message;
  }
  RankedTensorType f32(llvm::ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, Float32Type::get(&context));
  }
  MLIRContext context;
};

/// Builds ops programmatically inside one function, as the importer does.
class TGraphBuilderTest : public TGraphTest {
protected:
  TGraphBuilderTest() : builder(&context), loc(builder.getUnknownLoc()) {
    module = ModuleOp::create(loc);
    builder.setInsertionPointToEnd(module->getBody());
  }
  /// A function taking `args`; the builder is left inside its body.
  llvm::SmallVector<Value> function(llvm::ArrayRef<Type> args) {
    auto fn = builder.create<func::FuncOp>(loc, "main",
                                           builder.getFunctionType(args, {}));
    Block *entry = fn.addEntryBlock();
    builder.setInsertionPointToEnd(entry);
    builder.create<func::ReturnOp>(loc);
    builder.setInsertionPointToStart(entry);
    return llvm::SmallVector<Value>(entry->getArguments());
  }
  OpBuilder builder;
  Location loc;
  OwningOpRef<ModuleOp> module;
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

TEST_F(TGraphBuilderTest, BuiltDotVerifiesAndCounts) {
  auto args = function({f32({8, 16, 64}), f32({8, 64, 32})});
  auto dot = builder.create<tgraph::DotGeneralOp>(
      loc, f32({8, 16, 32}), args[0], args[1],
      builder.getDenseI64ArrayAttr({0}), builder.getDenseI64ArrayAttr({0}),
      builder.getDenseI64ArrayAttr({2}), builder.getDenseI64ArrayAttr({1}));
  EXPECT_EQ(verifyMessage(*module), "");
  EXPECT_EQ(opFlops(dot), 2 * (8 * 16 * 32) * 64);
}

TEST_F(TGraphBuilderTest, BuiltTransposeWithWrongShapeIsRejected) {
  auto args = function({f32({4, 8})});
  builder.create<tgraph::TransposeOp>(loc, f32({4, 8}), args[0],
                                      builder.getDenseI64ArrayAttr({1, 0}));
  EXPECT_EQ(verifyMessage(*module),
            "'tgraph.transpose' op result shape 'tensor<4x8xf32>' does not "
            "match the expected [8, 4]");
}

TEST_F(TGraphBuilderTest, BuiltReduceWithRegionVerifies) {
  auto args = function({f32({4, 8}), f32({})});
  auto reduce = builder.create<tgraph::ReduceOp>(
      loc, f32({4}), ValueRange{args[0]}, ValueRange{args[1]},
      builder.getDenseI64ArrayAttr({1}));
  Block *body = builder.createBlock(&reduce.getBody());
  Value a = body->addArgument(f32({}), loc),
        b = body->addArgument(f32({}), loc);
  Value sum = builder.create<tgraph::AddOp>(loc, a, b);
  builder.create<tgraph::ReturnOp>(loc, sum);
  EXPECT_EQ(verifyMessage(*module), "");
  // One FLOP per input element; the region's add is part of the reduce.
  EXPECT_EQ(opFlops(reduce), 32);
  EXPECT_EQ(opBytes(reduce), (32 + 1 + 4) * 4);

  // A reducer returning the wrong type is caught by the new return check.
  Operation *ret = body->getTerminator();
  builder.setInsertionPoint(ret);
  Value pred = builder.create<tgraph::CompareOp>(
      loc, RankedTensorType::get({}, builder.getI1Type()),
      tgraph::ComparisonDirectionAttr::get(&context,
                                           tgraph::ComparisonDirection::LT),
      a, b, StringAttr());
  ret->setOperands(pred);
  EXPECT_EQ(verifyMessage(*module),
            "'tgraph.reduce' op reducer region must return ('tensor<f32>')");
}

TEST_F(TGraphBuilderTest, InstructionNameComesFromNameLoc) {
  auto args = function({f32({4})});
  Location named = NameLoc::get(builder.getStringAttr("add.7"));
  auto add = builder.create<tgraph::AddOp>(named, args[0], args[0]);
  EXPECT_EQ(tgraph::getInstructionName(add), "add.7");
  Location fused =
      FusedLoc::get(&context, {FileLineColLoc::get(&context, "m.py", 3, 1),
                               NameLoc::get(builder.getStringAttr("mul.8"))});
  auto mul = builder.create<tgraph::MulOp>(fused, args[0], args[0]);
  EXPECT_EQ(tgraph::getInstructionName(mul), "mul.8");
  auto neg = builder.create<tgraph::NegOp>(loc, args[0]);
  EXPECT_EQ(tgraph::getInstructionName(neg), "");
  // The first non-empty name in order: a call site's callee inside a
  // fused location (before a later name), a call site's callee, an empty
  // name's child. (FusedLoc::get flattens a fused part that is fused.)
  Location file = FileLineColLoc::get(&context, "m.hlo", 9, 2);
  Location nested = FusedLoc::get(
      &context,
      {file,
       CallSiteLoc::get(NameLoc::get(builder.getStringAttr("sub.9")), file),
       NameLoc::get(builder.getStringAttr("later.10"))});
  Location callee =
      CallSiteLoc::get(NameLoc::get(builder.getStringAttr("div.11"), file),
                       NameLoc::get(builder.getStringAttr("caller.12")));
  Location unnamed =
      NameLoc::get(builder.getStringAttr(""),
                   NameLoc::get(builder.getStringAttr("exp.13"), file));
  for (auto [at, expected] :
       {std::make_pair(nested, "sub.9"), std::make_pair(callee, "div.11"),
        std::make_pair(unnamed, "exp.13")}) {
    auto op = builder.create<tgraph::NegOp>(at, args[0]);
    EXPECT_EQ(tgraph::getInstructionName(op), expected);
    // The reports' identity names it alike.
    EXPECT_EQ(identifyOp(op).instruction, expected);
  }
}

TEST_F(TGraphTest, CostOfTuplesTokensAndComplex) {
  Builder b(&context);
  auto c64 = ComplexType::get(b.getF32Type());
  EXPECT_EQ(elementBytes(c64), 8);
  EXPECT_EQ(elementBytes(ComplexType::get(b.getF64Type())), 16);
  EXPECT_EQ(valueBytes(RankedTensorType::get({3}, c64)), 24);
  Type token = tgraph::TokenType::get(&context);
  EXPECT_EQ(valueBytes(token), 0);
  // Nested tuples add up; tokens inside them weigh nothing.
  auto inner = TupleType::get(&context, {f32({2}), token});
  auto outer =
      TupleType::get(&context, {inner, f32({4}), TupleType::get(&context)});
  EXPECT_EQ(valueBytes(outer), (2 + 4) * 4);
}

TEST_F(TGraphTest, CostOfDynamicDimsCountsThemAsOne) {
  // A dynamic dimension is unknown at compile time; the estimate uses its
  // lower bound of 1 rather than 0 or a sentinel.
  EXPECT_EQ(valueBytes(f32({ShapedType::kDynamic, 8})), 8 * 4);
  auto module = parse(R"mlir(
    func.func @main(%a: tensor<?x64xf32>, %b: tensor<64x?xf32>,
                    %c: tensor<16x?xf32>, %d: tensor<?x32xf32>) {
      %d1 = tgraph.dot_general %a, %b, batching_dims = [] x [],
            contracting_dims = [1] x [0]
            : (tensor<?x64xf32>, tensor<64x?xf32>) -> tensor<?x?xf32>
      %d2 = tgraph.dot_general %c, %d, batching_dims = [] x [],
            contracting_dims = [1] x [0]
            : (tensor<16x?xf32>, tensor<?x32xf32>) -> tensor<16x32xf32>
      %d3 = tgraph.dot_general %c, %b, batching_dims = [] x [],
            contracting_dims = [1] x [0]
            : (tensor<16x?xf32>, tensor<64x?xf32>) -> tensor<16x?xf32>
      return
    }
    func.func @conv(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x?x8xf32>) {
      %c = tgraph.convolution %x, %w, dim_labels = "b01f_01io->b01f"
           : (tensor<1x8x8x4xf32>, tensor<3x3x?x8xf32>) -> tensor<1x6x6x8xf32>
      return
    })mlir");
  ASSERT_TRUE(module);
  auto ops = opsOf(*module);
  EXPECT_EQ(opFlops(ops[0]), 2 * 1 * 64);
  EXPECT_EQ(opFlops(ops[1]), 2 * 16 * 32 * 1);
  // K is dynamic on the lhs but 64 on the rhs.
  EXPECT_EQ(opFlops(ops[2]), 2 * 16 * 64);
  // A dynamic kernel input-feature size counts as 1, not as kDynamic.
  auto conv = cast<func::FuncOp>(*std::next(module->getBody()->begin()));
  Operation *convOp = &conv.getBody().front().front();
  EXPECT_EQ(opFlops(convOp), 2 * (6 * 6 * 8) * 9 * 1);
}

TEST_F(TGraphTest, CostOfTupleResults) {
  auto module = parse(R"mlir(
    func.func @main(%x: tensor<4x8xf32>, %y: tensor<4x8xi32>,
                    %z: tensor<f32>, %zi: tensor<i32>) {
      %r = tgraph.reduce_window(%x, %y) init(%z, %zi) {
      ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
        tgraph.return %a, %ai : tensor<f32>, tensor<i32>
      } {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}
        : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>)
          -> tuple<tensor<2x4xf32>, tensor<2x4xi32>>
      %t = tgraph.tuple %x, %z : (tensor<4x8xf32>, tensor<f32>)
           -> tuple<tensor<4x8xf32>, tensor<f32>>
      return
    })mlir");
  ASSERT_TRUE(module);
  auto ops = opsOf(*module);
  // Both results of the variadic reduce_window: 2 x 8 outputs x window 4.
  EXPECT_EQ(opFlops(ops[0]), 2 * 8 * 4);
  EXPECT_EQ(opBytes(ops[0]), (32 + 32 + 1 + 1 + 8 + 8) * 4);
  // Building a tuple moves no data through an ALU.
  EXPECT_EQ(opFlops(ops[1]), 0);
  EXPECT_EQ(opBytes(ops[1]), 2 * (32 + 1) * 4);
}

} // namespace
