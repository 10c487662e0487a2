//===- Progress.cpp - Pass names on a terminal while compiling ------------===//

#include "tessera/Compile/Progress.h"

#include "mlir/Pass/Pass.h"
#include "llvm/Support/Format.h"

using namespace mlir;

namespace tessera {

void ProgressInstrumentation::runBeforePass(Pass *pass, Operation *) {
  if (depth++ != 0)
    return;
  ++index;
  StringRef name =
      pass->getArgument().empty() ? pass->getName() : pass->getArgument();
  os << "[" << index << "/" << total << "] " << name << "\n";
  start = std::chrono::steady_clock::now();
  os.flush();
}

void ProgressInstrumentation::runAfterPass(Pass *, Operation *) {
  if (--depth != 0)
    return;
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count();
  os << "      done in " << llvm::format("%.2f", ms) << " ms\n";
  os.flush();
}

void ProgressInstrumentation::runAfterPassFailed(Pass *, Operation *) {
  --depth;
}

} // namespace tessera
