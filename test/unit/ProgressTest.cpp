//===- ProgressTest.cpp - compile progress lines, held back or shown ------===//

#include "tessera/Compile/Progress.h"
#include "tessera/Passes.h"

#include <gtest/gtest.h>

#include <thread>

using namespace tessera;

namespace {

/// Runs two "passes" through `progress`, `pause` apart.
void runTwoPasses(ProgressInstrumentation &progress,
                  std::chrono::milliseconds pause) {
  std::unique_ptr<mlir::Pass> pass = createTGraphOpStats();
  progress.runBeforePass(pass.get(), nullptr);
  progress.runAfterPass(pass.get(), nullptr);
  std::this_thread::sleep_for(pause);
  progress.runBeforePass(pass.get(), nullptr);
  progress.runAfterPass(pass.get(), nullptr);
}

TEST(Progress, AskedForItShowsEveryPassAtOnce) {
  std::string out;
  llvm::raw_string_ostream os(out);
  {
    ProgressInstrumentation progress(os, 2);
    runTwoPasses(progress, std::chrono::milliseconds(0));
  }
  EXPECT_NE(out.find("[1/2] tgraph-op-stats\n"), std::string::npos) << out;
  EXPECT_NE(out.find("[2/2] tgraph-op-stats\n"), std::string::npos) << out;
}

TEST(Progress, AShortCompileOnATerminalPrintsNothing) {
  std::string out;
  llvm::raw_string_ostream os(out);
  {
    ProgressInstrumentation progress(os, 2, std::chrono::seconds(60));
    runTwoPasses(progress, std::chrono::milliseconds(0));
  }
  EXPECT_EQ(out, "");
}

TEST(Progress, ALongCompileShowsWhatItHeldOnceTheDelayPasses) {
  std::string out;
  llvm::raw_string_ostream os(out);
  {
    ProgressInstrumentation progress(os, 2, std::chrono::milliseconds(1));
    // The watcher shows the first pass's lines during the pause; the
    // second pass prints as it runs.
    runTwoPasses(progress, std::chrono::milliseconds(200));
  }
  size_t first = out.find("[1/2] tgraph-op-stats\n");
  size_t second = out.find("[2/2] tgraph-op-stats\n");
  ASSERT_NE(first, std::string::npos) << out;
  ASSERT_NE(second, std::string::npos) << out;
  EXPECT_LT(first, second);
}

} // namespace
