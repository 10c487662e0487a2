//===- CompilerTargetTest.cpp - the Compiler's two views of its target ----===//
//
// The Compiler is given a target description, and its passes resolve the
// target again from CompileOptions::target (they also run alone, by name).
// When the two disagreed, the program was lowered for one target and
// allocated for the other, and the memory analysis crashed. The compile
// now refuses, saying which two targets it was given.
//
//===----------------------------------------------------------------------===//

#include "tessera/Compile/Compiler.h"
#include "tessera/Compile/Dumper.h"
#include "tessera/InitAll.h"
#include "tessera/Target/Presets.h"
#include "tessera/Trace/Flags.h"
#include "tessera/Trace/ReportSink.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kModel = R"mlir(
func.func @main(%a: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<64xf32> {
  %c = tgraph.add %a, %b : tensor<64xf32>
  return %c : tensor<64xf32>
}
)mlir";

class CompilerTargetTest : public ::testing::Test {
protected:
  CompilerTargetTest() {
    DialectRegistry registry;
    tessera::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    context.printOpOnDiagnostic(false);
  }

  /// Compiles kModel for `description` with CompileOptions::target set to
  /// `optionsTarget`; whether it succeeded, and the diagnostics.
  std::pair<bool, std::string> compile(llvm::StringRef description,
                                       llvm::StringRef optionsTarget) {
    llvm::Expected<tessera::TargetDescription> target =
        tessera::loadPreset(description);
    EXPECT_TRUE(bool(target)) << llvm::toString(target.takeError());
    tessera::TesseraFlags flags;
    tessera::ReportSink sink(tessera::ReportSinkOptions::fromFlags(flags),
                             nullptr, ".", "test", llvm::nulls());
    tessera::Dumper dumper(flags, "test", llvm::nulls());
    tessera::CompileOptions options;
    options.target = optionsTarget.str();
    tessera::Compiler compiler(flags, options, *target, sink, dumper,
                               llvm::nulls());
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(kModel, &context);
    EXPECT_TRUE(module);
    std::string messages;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
      messages += d.str() + "\n";
      return success();
    });
    bool ok = succeeded(compiler.compile(*module, "model"));
    return {ok, messages};
  }

  MLIRContext context;
};

TEST_F(CompilerTargetTest, AgreeingTargetsCompile) {
  auto [ok, messages] = compile("core-8", "core-8");
  EXPECT_TRUE(ok) << messages;
  // An empty name means the default preset, to the passes as to the API.
  std::tie(ok, messages) = compile(tessera::defaultTargetName(), "");
  EXPECT_TRUE(ok) << messages;
}

TEST_F(CompilerTargetTest, ADescriptionThePassesWouldNotUseIsRefused) {
  auto [ok, messages] = compile("core-8", "");
  EXPECT_FALSE(ok);
  EXPECT_NE(messages.find("the compile options name target 'tile-1472' "
                          "(1472 tiles) but the compiler was given 'core-8' "
                          "(8 tiles)"),
            std::string::npos)
      << messages;
  std::tie(ok, messages) = compile("tile-1472", "core-8");
  EXPECT_FALSE(ok);
  EXPECT_NE(messages.find("name target 'core-8'"), std::string::npos)
      << messages;
}

TEST_F(CompilerTargetTest, AnUnknownOptionsTargetIsRefused) {
  auto [ok, messages] = compile("core-8", "no-such-chip");
  EXPECT_FALSE(ok);
  EXPECT_NE(messages.find("the compile options' target: "), std::string::npos)
      << messages;
  EXPECT_NE(messages.find("no-such-chip"), std::string::npos) << messages;
}

} // namespace
