//===- RunProfile.h - tessera-run's execution profiling -------------*- C++
//-*-===//
//
// What the profiling flags ask of a run (docs/execution.md): the cycle
// clock on the model device, an execution report in the EXECUTE event of
// the reported runs (profile_execution, report_every_nth_execution,
// report_format, max_report_size, report_directory), a per-run interval
// CSV (save_interval_report), one tile's cycles logged after each run
// (log_cycle_count), and a summary on stdout. A program of several
// replicas has one profile per replica's device: its reports and interval
// files carry the replica's number.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TOOLS_RUNPROFILE_H
#define TESSERA_TOOLS_RUNPROFILE_H

#include "tessera/Runtime/ExecutionReport.h"
#include "tessera/Trace/AtomicFile.h"
#include "tessera/Trace/ReportSink.h"

#include <memory>
#include <optional>

namespace tessera::run {

class RunProfile : public runtime::StepListener {
public:
  /// Null when the flags ask for no profile. `replica` is which of the
  /// program's replicas the profiled device runs.
  static std::unique_ptr<RunProfile> create(const TesseraFlags &flags,
                                            const runtime::Program &program,
                                            std::string eventFolder,
                                            int64_t replica = 0);
  /// Whether the flags ask for a profile.
  static bool wanted(const TesseraFlags &flags);

  runtime::CycleClock *clock() { return &cycleClock; }
  /// Extra listener for every step (the trace writer), or null.
  void setTrace(runtime::StepListener *l) { trace = l; }

  /// Before run `run` (0-based).
  llvm::Error beginRun(int64_t run);
  /// After it: the report into `execute` when this run is reported.
  llvm::Error endRun(int64_t run, int64_t hostNs, Execute &execute);
  /// The last run's step time and top ops.
  void printSummary(llvm::raw_ostream &os, size_t topOps) const;

  void stepRan(const runtime::StepInterval &interval) override;

private:
  RunProfile(const TesseraFlags &flags, const runtime::Program &program,
             runtime::ProfileLevel level, std::string eventFolder,
             int64_t replica);
  bool reported(int64_t run) const;
  /// "" or ".replicaD": what a replica adds to its files' names.
  std::string replicaSuffix() const;

  const runtime::Program &program;
  int64_t replica;
  runtime::CycleClock cycleClock;
  ReportSink sink;
  bool reports;
  int64_t everyNth;
  std::string intervalDir;
  int64_t logTile;
  runtime::StepListener *trace = nullptr;
  std::unique_ptr<AtomicFileStream> intervals;
  int64_t intervalIndex = 0;
  std::vector<runtime::RunTime> runs;
  std::optional<runtime::ExecutionReport> last;
};

} // namespace tessera::run

#endif // TESSERA_TOOLS_RUNPROFILE_H
