//===- PassTimeline.h - Record every pass of a compile ----------*- C++ -*-===//
//
// A PassInstrumentation that records each pass execution (name, start and
// duration relative to the compile start, op count before/after, nesting
// depth) for the COMPILE_END pass timeline and the --compile_trace Chrome
// trace. Records are kept in begin order, so a parent precedes its nested
// passes: the order Chrome trace nesting needs. Requires a single-threaded
// pass manager (tessera-compile disables MLIR multithreading), which keeps
// begin/end strictly nested.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_COMPILE_PASSTIMELINE_H
#define TESSERA_COMPILE_PASSTIMELINE_H

#include "tessera/Trace/ReportSink.h"

#include "mlir/Pass/PassInstrumentation.h"

#include <chrono>
#include <vector>

namespace tessera {

/// Ops in `op`'s tree, `op` itself included.
int64_t countOps(mlir::Operation *op);

class PassTimelineInstrumentation : public mlir::PassInstrumentation {
public:
  using Clock = std::chrono::steady_clock;
  /// With `countingOps` false the records' op counts stay 0: counting walks
  /// the module before and after each pass (the 750k-op tile module of a
  /// 100k-op graph takes 30 ms), which a compile whose timeline nobody
  /// reads can skip.
  explicit PassTimelineInstrumentation(Clock::time_point origin,
                                       bool countingOps = true)
      : origin(origin), countingOps(countingOps) {}

  void runBeforePass(mlir::Pass *pass, mlir::Operation *op) override;
  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override;
  void runAfterPassFailed(mlir::Pass *pass, mlir::Operation *op) override;

  /// The records so far; shared with the caller, who outlives the pass
  /// manager that owns this instrumentation.
  std::vector<PassTiming> &records() { return *timeline; }
  std::shared_ptr<std::vector<PassTiming>> shared() { return timeline; }

private:
  void finish(mlir::Operation *op, bool failed);
  int64_t nowNs() const;

  Clock::time_point origin;
  bool countingOps;
  std::shared_ptr<std::vector<PassTiming>> timeline =
      std::make_shared<std::vector<PassTiming>>();
  /// Indices into the timeline of the passes still running.
  std::vector<size_t> open;
};

} // namespace tessera

#endif // TESSERA_COMPILE_PASSTIMELINE_H
