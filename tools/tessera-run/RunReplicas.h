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
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TOOLS_TESSERA_RUN_RUNREPLICAS_H
#define TESSERA_TOOLS_TESSERA_RUN_RUNREPLICAS_H

#include "tessera/Runner/Runner.h"

#include <string>

namespace tessera::run {

struct ReplicaRunArgs {
  int64_t runs = 1;
  uint64_t seed = 0;
  bool check = false;
  unsigned threads = 0;
  std::string inputsDir, saveInputsDir, outputsDir;
};

/// Runs and checks; returns the process's exit code.
int runReplicas(const ReplicaRunArgs &args, const runtime::Program &program,
                runner::GraphModule &graph);

} // namespace tessera::run

#endif // TESSERA_TOOLS_TESSERA_RUN_RUNREPLICAS_H
