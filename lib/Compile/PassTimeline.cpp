//===- PassTimeline.cpp - Record every pass of a compile ------------------===//

#include "tessera/Compile/PassTimeline.h"

#include "mlir/IR/Operation.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace tessera {

int64_t countOps(Operation *op) {
  int64_t count = 0;
  op->walk([&](Operation *) { ++count; });
  return count;
}

int64_t PassTimelineInstrumentation::nowNs() const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() -
                                                              origin)
      .count();
}

/// The pass's command-line name when it has one ("tgraph-check-compat"),
/// which is what users type in --dump_pass_re; the class name otherwise.
static std::string passName(Pass *pass) {
  StringRef argument = pass->getArgument();
  return (argument.empty() ? pass->getName() : argument).str();
}

void PassTimelineInstrumentation::runBeforePass(Pass *pass, Operation *op) {
  PassTiming record;
  record.name = passName(pass);
  record.depth = static_cast<unsigned>(open.size());
  // Counting walks the IR; it is measured outside the pass's own time.
  if (countingOps)
    record.opsBefore = countOps(op);
  record.startNs = nowNs();
  open.push_back(timeline->size());
  timeline->push_back(std::move(record));
}

void PassTimelineInstrumentation::finish(Operation *op, bool failed) {
  if (open.empty())
    return;
  PassTiming &record = (*timeline)[open.back()];
  open.pop_back();
  record.durationNs = nowNs() - record.startNs;
  record.failed = failed;
  if (countingOps)
    record.opsAfter = countOps(op);
}

void PassTimelineInstrumentation::runAfterPass(Pass *, Operation *op) {
  finish(op, /*failed=*/false);
}

void PassTimelineInstrumentation::runAfterPassFailed(Pass *, Operation *op) {
  finish(op, /*failed=*/true);
}

} // namespace tessera
