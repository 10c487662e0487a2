//===- Progress.cpp - Pass names on a terminal while compiling ------------===//

#include "tessera/Compile/Progress.h"

#include "mlir/Pass/Pass.h"
#include "llvm/Support/Format.h"

using namespace mlir;

namespace tessera {

ProgressInstrumentation::ProgressInstrumentation(
    llvm::raw_ostream &os, size_t total, std::chrono::milliseconds delay)
    : os(os), total(total) {
  if (delay.count() <= 0) {
    showing = true;
    return;
  }
  watcher = std::thread([this, delay] {
    std::unique_lock<std::mutex> lock(mutex);
    if (changed.wait_for(lock, delay, [&] { return finished; }))
      return;
    showing = true;
    this->os << held;
    this->os.flush();
    held.clear();
  });
}

ProgressInstrumentation::~ProgressInstrumentation() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    finished = true;
  }
  changed.notify_all();
  if (watcher.joinable())
    watcher.join();
}

void ProgressInstrumentation::emit(const std::string &line) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!showing) {
    held += line;
    return;
  }
  os << line;
  os.flush();
}

void ProgressInstrumentation::runBeforePass(Pass *pass, Operation *) {
  if (depth++ != 0)
    return;
  beginStep(pass->getArgument().empty() ? pass->getName()
                                        : pass->getArgument());
}

void ProgressInstrumentation::beginStep(StringRef name) {
  ++index;
  emit(
      ("[" + llvm::Twine(index) + "/" + llvm::Twine(total) + "] " + name + "\n")
          .str());
  start = std::chrono::steady_clock::now();
}

void ProgressInstrumentation::runAfterPass(Pass *, Operation *) {
  if (--depth == 0)
    endStep();
}

void ProgressInstrumentation::endStep() {
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count();
  std::string line;
  llvm::raw_string_ostream(line)
      << "      done in " << llvm::format("%.2f", ms) << " ms\n";
  emit(line);
}

void ProgressInstrumentation::runAfterPassFailed(Pass *, Operation *) {
  --depth;
}

} // namespace tessera
