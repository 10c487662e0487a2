//===- CompatTest.cpp - compatibility checker helpers ---------------------===//

#include "tessera/Analysis/Compat.h"
#include "tessera/Analysis/CompatReport.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace tessera;

namespace {

TEST(CompatNameScopes, OpBelongsToEveryEnclosingScope) {
  EXPECT_EQ(nameScopes("root_mean_squared_error/AssignAdd_1"),
            (llvm::SmallVector<std::string>{"root_mean_squared_error"}));
  EXPECT_EQ(nameScopes("a/b/MatMul"),
            (llvm::SmallVector<std::string>{"a", "a/b"}));
  // A top-level op is its own node; a missing name has a node of its own.
  EXPECT_EQ(nameScopes("MatMul"), (llvm::SmallVector<std::string>{"MatMul"}));
  EXPECT_EQ(nameScopes(""), (llvm::SmallVector<std::string>{"(no op_name)"}));
  // Empty components (a leading or doubled '/') are ignored.
  EXPECT_EQ(nameScopes("/a//b/op"),
            (llvm::SmallVector<std::string>{"a", "a/b"}));
}

TEST(CompatDtypeNames, FollowHlo) {
  mlir::MLIRContext context;
  mlir::Builder b(&context);
  EXPECT_EQ(hloDtypeName(b.getI1Type()), "pred");
  EXPECT_EQ(hloDtypeName(b.getI32Type()), "s32");
  EXPECT_EQ(hloDtypeName(b.getIntegerType(8, /*isSigned=*/false)), "u8");
  EXPECT_EQ(hloDtypeName(b.getBF16Type()), "bf16");
  EXPECT_EQ(hloDtypeName(b.getF16Type()), "f16");
  EXPECT_EQ(hloDtypeName(b.getF64Type()), "f64");
  EXPECT_EQ(hloDtypeName(mlir::ComplexType::get(b.getF32Type())), "c64");
  EXPECT_EQ(hloDtypeName(mlir::ComplexType::get(b.getF64Type())), "c128");
  EXPECT_EQ(hloDtypeName(b.getFloat8E4M3FNType()), "f8e4m3fn");
  // The common widths are literals, the others built: both spelled alike.
  EXPECT_EQ(hloDtypeName(b.getF32Type()), "f32");
  EXPECT_EQ(hloDtypeName(b.getF80Type()), "f80");
  EXPECT_EQ(hloDtypeName(b.getIntegerType(64)), "s64");
  EXPECT_EQ(hloDtypeName(b.getIntegerType(16, /*isSigned=*/false)), "u16");
  EXPECT_EQ(hloDtypeName(b.getIntegerType(4)), "s4");
  EXPECT_EQ(hloDtypeName(b.getIntegerType(4, /*isSigned=*/false)), "u4");
}

} // namespace
