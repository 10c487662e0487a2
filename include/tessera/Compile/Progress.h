//===- Progress.h - Pass names on a terminal while compiling ----*- C++ -*-===//
//
// "[1/3] tgraph-check-compat ... done in 1.2 ms" lines on stderr, so a long
// compile shows where it is. tessera-compile installs it when stderr is a
// terminal (then only for compiles that take over 2 s: a short compile
// prints nothing) or --show_progress_bar is given (every compile, at once);
// never in pipes (tests, logs) unless asked.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_COMPILE_PROGRESS_H
#define TESSERA_COMPILE_PROGRESS_H

#include "mlir/Pass/PassInstrumentation.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace tessera {

class ProgressInstrumentation : public mlir::PassInstrumentation {
public:
  /// Lines are held back until `delay` has passed since construction (the
  /// compile's start), then the held ones and every later one are printed
  /// as they come; a compile that ends sooner prints nothing.
  ProgressInstrumentation(
      llvm::raw_ostream &os, size_t total,
      std::chrono::milliseconds delay = std::chrono::milliseconds(0));
  ~ProgressInstrumentation() override;
  void runBeforePass(mlir::Pass *pass, mlir::Operation *op) override;
  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override;
  void runAfterPassFailed(mlir::Pass *pass, mlir::Operation *op) override;

  /// A step that is not a pass (the compile's memory analysis, reports and
  /// executable after the passes), numbered after them: `total` counts
  /// them. skipStep() counts one that did not run.
  void beginStep(llvm::StringRef name);
  void endStep();
  void skipStep() { ++index; }

private:
  void emit(const std::string &line);

  llvm::raw_ostream &os;
  size_t total;
  size_t index = 0;
  unsigned depth = 0;
  std::chrono::steady_clock::time_point start;

  // A watcher thread shows the held lines once the delay has passed, even
  // while one long pass is still running.
  std::mutex mutex;
  std::condition_variable changed;
  bool showing = false, finished = false;
  std::string held;
  std::thread watcher;
};

} // namespace tessera

#endif // TESSERA_COMPILE_PROGRESS_H
