//===- RunReplicas.h - tessera-run on a program of several replicas -*- C++
//-*-===//
//
// An executable whose program runs on several devices at once (its
// `replicas`: data parallelism, docs/multichip.md) runs one model device
// per replica, each on its own thread, meeting at every collective step;
// the reference interpreter checks it the same way, one evaluation per
// replica. Replica d's inputs and infeeds are the seeded data of seed + d
// (the batch each replica trains on differs), or DIR/replicaD/arg*.npy;
// elided constants (the weights) and rng use the run's seed on all.
// Profiling, events and the trace cover every replica: each device has its
// own cycle clock and execution reports, its events carry its replica as
// the device ordinal, and the trace gives it processes of its own.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TOOLS_TESSERA_RUN_RUNREPLICAS_H
#define TESSERA_TOOLS_TESSERA_RUN_RUNREPLICAS_H

#include "RunEvents.h"
#include "RunTrace.h"

#include "tessera/Runner/Runner.h"
#include "tessera/Trace/Flags.h"

#include <string>

namespace tessera::run {

struct ReplicaRunArgs {
  int64_t runs = 1;
  uint64_t seed = 0;
  bool check = false;
  unsigned threads = 0;
  std::string inputsDir, saveInputsDir, outputsDir;
  /// Where execution reports written beside the events go.
  std::string eventFolder = ".";
  bool progress = false;
};

/// Runs and checks; returns the process's exit code. `events` takes each
/// replica's transfers and EXECUTE; `trace` (or null) the lanes' steps.
int runReplicas(const ReplicaRunArgs &args, const TesseraFlags &flags,
                const runtime::Program &program, runner::GraphModule &graph,
                EventLog &events, RunTrace *trace);

} // namespace tessera::run

#endif // TESSERA_TOOLS_TESSERA_RUN_RUNREPLICAS_H
