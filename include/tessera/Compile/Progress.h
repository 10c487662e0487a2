//===- Progress.h - Pass names on a terminal while compiling ----*- C++ -*-===//
//
// "[1/3] tgraph-check-compat ... done in 1.2 ms" lines on stderr, so a long
// compile shows where it is. tessera-compile installs it when stderr is a
// terminal or --show_progress_bar is given; never in pipes (tests, logs).
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_COMPILE_PROGRESS_H
#define TESSERA_COMPILE_PROGRESS_H

#include "mlir/Pass/PassInstrumentation.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

namespace tessera {

class ProgressInstrumentation : public mlir::PassInstrumentation {
public:
  ProgressInstrumentation(llvm::raw_ostream &os, size_t total)
      : os(os), total(total) {}
  void runBeforePass(mlir::Pass *pass, mlir::Operation *op) override;
  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override;
  void runAfterPassFailed(mlir::Pass *pass, mlir::Operation *op) override;

private:
  llvm::raw_ostream &os;
  size_t total;
  size_t index = 0;
  unsigned depth = 0;
  std::chrono::steady_clock::time_point start;
};

} // namespace tessera

#endif // TESSERA_COMPILE_PROGRESS_H
