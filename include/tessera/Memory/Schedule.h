//===- Schedule.h - program points of a tile program -------------*- C++
//-*-===//
//
// The order in which a tile program's steps run, numbered: every analysis
// of the memory library (liveness, allocation, cost) speaks in these program
// points. The order is the program order of the steps (deterministic; the
// lowering already places each step after what it depends on). A
// `tile.repeat` or `tile.if` takes one point and its body steps the points
// right after it, so a loop body is the sub-range [point + 1, endPoint].
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_MEMORY_SCHEDULE_H
#define TESSERA_MEMORY_SCHEDULE_H

#include "tessera/Dialect/Tile/IR/Tile.h"

#include <string>
#include <vector>

namespace tessera::memory {

enum class StepKind {
  ComputeSet,
  Exchange,
  Sync,
  HostCopy,
  HostCompute,
  Collective,
  Repeat,
  If
};

/// One step at one program point.
struct Step {
  mlir::Operation *op = nullptr;
  StepKind kind = StepKind::Sync;
  int64_t point = 0;    ///< its program point (== its index in the schedule)
  int64_t endPoint = 0; ///< last point of its nested body (== point if none)
  int32_t depth = 0;    ///< enclosing repeat/if steps
  int32_t parent = -1;  ///< point of the enclosing repeat/if, or -1
};

struct Schedule {
  std::vector<Step> steps; ///< in program order; steps[p].point == p

  int64_t numPoints() const { return steps.size(); }
};

/// Numbers the steps of `program` in program order (pre-order for nested
/// bodies; a tile.if's then body comes before its else body).
Schedule buildSchedule(tile::ProgramOp program);

/// "compute_set", "exchange", "sync", "host_copy", "host_compute",
/// "repeat", "if".
llvm::StringRef stepKindName(StepKind kind);

/// The step's `name` (its HLO instruction), or "sync" for a sync, or
/// "infeed X" / "outfeed X" for a host copy of buffer X.
std::string stepName(const Step &step);

/// stepName() of a step that is not a host copy, without a copy: its op's
/// `name` attribute (text the MLIRContext holds), else "sync".
llvm::StringRef namedStepName(const Step &step);

} // namespace tessera::memory

#endif // TESSERA_MEMORY_SCHEDULE_H
