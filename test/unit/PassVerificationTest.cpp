//===- PassVerificationTest.cpp - passes that change nothing say so -------===//
//
// The pass manager verifies the whole module after every pass unless the
// pass marks every analysis preserved. On a 100k-op graph that verification
// was nine tenths of the graph passes that found nothing to do (an HLO
// import has no TOSA to convert, no bf16 to normalize, no dot to fold), so
// those passes say when they changed nothing. These tests hold them to it
// both ways: on a module made invalid behind the verifier's back, a pass
// that changed nothing leaves it unverified, and one that changed anything
// has it verified. The compiler verifies after its passes only when
// --verify_each asks (docs/compile.md, "The pipeline").
//
//===----------------------------------------------------------------------===//

#include "tessera/Compile/Compiler.h"
#include "tessera/Compile/Dumper.h"
#include "tessera/InitAll.h"
#include "tessera/Target/Presets.h"
#include "tessera/Trace/Flags.h"
#include "tessera/Trace/ReportSink.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

class PassVerificationTest : public ::testing::Test {
protected:
  PassVerificationTest() {
    tessera::registerAllPasses();
    DialectRegistry registry;
    tessera::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    context.printOpOnDiagnostic(false);
  }

  /// `text` parsed (and verified), then made invalid without the verifier
  /// seeing it: @main's result type no longer matches what it returns.
  OwningOpRef<ModuleOp> invalidModule(llvm::StringRef text) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
    EXPECT_TRUE(module);
    auto main = cast<func::FuncOp>(module->lookupSymbol("main"));
    Type wrong = RankedTensorType::get({3}, Float32Type::get(&context));
    main.setType(FunctionType::get(&context, main.getArgumentTypes(), wrong));
    return module;
  }

  /// Runs `pipeline` (passes on the module, as "a,b{opt=v}") with the pass
  /// manager's default verification; the diagnostics it reported, joined
  /// ("" when it succeeded).
  std::string run(ModuleOp module, llvm::StringRef pipeline) {
    PassManager pm(&context, ModuleOp::getOperationName());
    EXPECT_TRUE(succeeded(parsePassPipeline(pipeline, pm)));
    std::string messages;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
      messages += d.str() + "\n";
      return success();
    });
    if (failed(pm.run(module)) && messages.empty())
      messages = "failed without a diagnostic";
    return messages;
  }

  MLIRContext context;
};

/// A tgraph module as an HLO import leaves it: nothing for the three passes
/// to do.
constexpr llvm::StringLiteral kNothingToDo = R"mlir(
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
)mlir";

TEST_F(PassVerificationTest, PassesThatChangeNothingSkipTheVerifier) {
  OwningOpRef<ModuleOp> module = invalidModule(kNothingToDo);
  EXPECT_EQ(run(*module, "convert-tosa-to-tgraph,"
                         "tgraph-normalize-precision{target=tile-1472},"
                         "tgraph-legalize-for-target{target=tile-1472}"),
            "");
}

TEST_F(PassVerificationTest, APassThatChangesTheModuleIsVerified) {
  // tgraph-check-compat sets a verdict on every op it assesses.
  OwningOpRef<ModuleOp> module = invalidModule(kNothingToDo);
  std::string messages = run(*module, "convert-tosa-to-tgraph,"
                                      "tgraph-check-compat{target=tile-1472}");
  EXPECT_NE(messages.find("doesn't match function result type"),
            std::string::npos)
      << messages;

  // convert-tosa-to-tgraph erases a dead scalar op: a change, so verified.
  OwningOpRef<ModuleOp> withDeadScalar = invalidModule(R"mlir(
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %unused = arith.constant 1.0 : f32
  return %a : tensor<2xf32>
}
)mlir");
  messages = run(*withDeadScalar, "convert-tosa-to-tgraph");
  EXPECT_NE(messages.find("doesn't match function result type"),
            std::string::npos)
      << messages;
}

TEST_F(PassVerificationTest, TheCompilerVerifiesItsPassesWhenAsked) {
  llvm::Expected<tessera::TargetDescription> target =
      tessera::loadPreset("tile-1472");
  ASSERT_TRUE(bool(target)) << llvm::toString(target.takeError());
  tessera::TesseraFlags flags;
  flags.verifyEach = true;
  tessera::ReportSink sink(tessera::ReportSinkOptions::fromFlags(flags),
                           nullptr, ".", "test", llvm::nulls());
  tessera::Dumper dumper(flags, "test", llvm::nulls());
  tessera::Compiler compiler(flags, tessera::CompileOptions(), *target, sink,
                             dumper, llvm::nulls());
  // tgraph-check-compat changes the module, so it is verified after it.
  OwningOpRef<ModuleOp> module = invalidModule(kNothingToDo);
  std::string messages;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    messages += d.str() + "\n";
    return success();
  });
  EXPECT_TRUE(failed(compiler.compile(*module, "model")));
  EXPECT_NE(messages.find("doesn't match function result type"),
            std::string::npos)
      << messages;
}

} // namespace
