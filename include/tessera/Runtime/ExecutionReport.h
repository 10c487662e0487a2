//===- ExecutionReport.h - What a profiled run cost ----------------*- C++ -*-===//
//
// The execution report of one run, computed once from the cycle clock and
// the executable, then formatted as JSON (CBOR is the same object) or as
// Poplar-style text. docs/execution.md documents every field.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_RUNTIME_EXECUTIONREPORT_H
#define TESSERA_RUNTIME_EXECUTIONREPORT_H

#include "tessera/Runtime/CycleClock.h"

#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace tessera::runtime {

/// A previous or the current run of the module in this process.
struct RunTime {
  int64_t run = 0;
  int64_t cycles = 0;
  int64_t hostNs = 0; ///< the model device's own wall time
};

struct ExecutionReport {
  std::string module, target;
  ProfileLevel level = ProfileLevel::Device;
  int64_t chips = 1, tilesPerChip = 0, tiles = 0, clockHz = 0;
  /// The program's tiles' peak FLOPs per cycle on each unit.
  double vectorPeak = 0, matrixPeak = 0;
  int64_t run = 0;
  /// Which of the program's replicas ran (docs/multichip.md): each
  /// replica's device reports apart. Written only when replicas > 1.
  int64_t replica = 0, replicas = 1;
  int64_t cycles = 0;
  double seconds = 0;
  int64_t flops = 0;
  /// Cycles the chip waits on the host (host copies and host ops).
  int64_t hostCycles = 0;
  std::vector<RunTime> runs;

  struct Step {
    std::string name, kind, op, location;
    int64_t executions = 0, cycles = 0, activeTiles = 0;
    int64_t predictedCycles = 0; ///< the estimate per execution
  };
  std::vector<Step> steps; ///< chip and tile levels, program order

  struct Op {
    std::string hlo, opName, opType, kind, category, source;
    int64_t steps = 0;      ///< step executions
    int64_t cycles = 0;
    int64_t flops = 0;
    int64_t bytes = 0;
    double flopsPerSecond = 0;
    double utilization = 0; ///< of the target's peak for its unit
    std::string unit;       ///< matrix, vector, exchange, host, ...
    std::string fit;        ///< matmul padding fit, or ""
    /// The compiler's static estimate for the whole program run once:
    /// trip counts it knows, one trip where it does not.
    int64_t predictedCycles = 0;
    double error = 0; ///< (measured - predicted) / predicted
    std::string why;  ///< when |error| > 10%
  };
  std::vector<Op> ops; ///< by cycles, most first

  struct Breakdown {
    int64_t compute = 0, exchange = 0, sync = 0, idle = 0;
  };
  std::vector<Breakdown> chipCycles; ///< summed over each chip's tiles
  std::vector<Breakdown> tileCycles; ///< tile level
};

/// The report of the run the clock just counted. `runs` ends with it.
ExecutionReport buildExecutionReport(const Program &program,
                                     const CycleClock &clock,
                                     std::vector<RunTime> runs);

nlohmann::ordered_json toJson(const ExecutionReport &report);
/// The report toJson wrote (as tessera-prof reads it back from events),
/// every field checked: an error names the JSON path that is wrong.
llvm::Expected<ExecutionReport> fromJson(const nlohmann::json &report);
/// "device", "chip", "tile".
std::optional<ProfileLevel> parseProfileLevel(llvm::StringRef name);
/// The "Execution" section, in the compile report's text style.
void renderText(const ExecutionReport &report, llvm::raw_ostream &os);

llvm::StringRef profileLevelName(ProfileLevel level);
/// "compute_set", "exchange", "sync", "host_copy", "host_compute",
/// "repeat" or "if": the kind reports and interval files name.
llvm::StringRef stepKindName(const exe::Step &step);
/// The index into Executable.ops of the graph op whose time `step` is, or
/// -1: transfers and syncs are the program's, not an op's, whatever op
/// they were scheduled for.
int32_t graphOpOf(const exe::Executable &e, const exe::Step &step);

} // namespace tessera::runtime

#endif // TESSERA_RUNTIME_EXECUTIONREPORT_H
