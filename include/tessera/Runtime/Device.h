//===- Device.h - The model device -------------------------------*- C++ -*-===//
//
// Runs a loaded Program on the host, tile by tile: one memory arena per tile
// (each tile's buffers at the offsets the compiler's allocator chose), the
// steps in order (compute sets tile-parallel on a thread pool, exchanges as
// copies between arenas, syncs as the barriers between them), host copies
// through a host-side staging area, and ops left on the host through a
// HostOpEvaluator (the reference interpreter, in tessera-run). Like
// Graphcore's IPU Model it is functionally the chip, not a cycle-accurate
// one; with allowOutOfMemory a tile's arena grows past its memory so the run
// completes and the report can say which tiles overflowed.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_RUNTIME_DEVICE_H
#define TESSERA_RUNTIME_DEVICE_H

#include "tessera/Runtime/CycleClock.h"
#include "tessera/Runtime/Program.h"
#include "tessera/Support/Rendezvous.h"

#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <vector>

namespace tessera::runtime {

/// Evaluates `tile.host_compute` ops on the host.
class HostOpEvaluator {
public:
  virtual ~HostOpEvaluator();
  /// The results of `op` (leaves, in order) on `ins` (leaves, in order).
  virtual llvm::Expected<std::vector<HostTensor>>
  evaluate(const exe::HostCompute &op, llvm::ArrayRef<HostTensor> ins) = 0;
};

/// Told of every chunk of work a thread of the device's pool ran (a run of
/// tiles of a compute set, of copies of an exchange), with its wall time:
/// the host's side of a run, for --trace_json. Called from the pool's
/// threads, concurrently; `thread` is the pool's index of the thread, or
/// kCallingThread for the thread that runs the steps.
class HostThreadListener {
public:
  static constexpr unsigned kCallingThread = ~0u;
  virtual ~HostThreadListener();
  virtual void chunkRan(unsigned thread, int64_t startUnixNs,
                        int64_t endUnixNs) = 0;
};

struct DeviceOptions {
  /// Threads running tiles in parallel; 0 = one per core.
  unsigned threads = 0;
  /// For host_compute steps; a program with some fails to run without it.
  HostOpEvaluator *hostOps = nullptr;
  /// The data of an HLO infeed (a host copy to a buffer that is neither a
  /// parameter nor a host op's result), asked for each time one runs.
  std::function<llvm::Expected<HostTensor>(const BufferLayout &buffer)>
      infeed;
  /// Counts the run's cycles when set (profiled runs).
  CycleClock *clock = nullptr;
  /// Told of the pool's work when set (traced runs).
  HostThreadListener *hostThreads = nullptr;
  /// In a run of several replicas (the executable's `replicas`), the device
  /// this one is and where its collectives meet the others'.
  int64_t device = 0;
  Rendezvous *rendezvous = nullptr;
};

/// One tensor moved between host and device.
struct TransferRecord {
  std::string name;
  int64_t parameterIndex = -1; ///< entry argument leaf, or -1
  int64_t bytes = 0;
};

/// What one run did besides computing.
struct RunRecord {
  std::vector<TransferRecord> toDevice, toHost;
  int64_t hostOps = 0;
  int64_t steps = 0; ///< steps executed, loop iterations unrolled
  /// Per repeat step: the iterations of its last execution.
  llvm::DenseMap<const exe::Repeat *, int64_t> lastIterations;
  /// Per buffer storage (a buffer index): the last step that wrote it.
  llvm::DenseMap<int32_t, const exe::Step *> lastWriter;
};

class Device {
public:
  Device(const Program &program, DeviceOptions options);
  ~Device();

  /// Runs the program once on `inputs` (one per parameter binding, with its
  /// element type and shape) and returns one tensor per output binding.
  /// With `synthetic`, parameters are not transferred: the values already on
  /// the device (the previous run's, or zeros) are used, to time the device
  /// alone.
  llvm::Expected<std::vector<HostTensor>>
  run(llvm::ArrayRef<HostTensor> inputs, RunRecord &record,
      bool synthetic = false);

  /// The bytes of `buffer` gathered from the tiles (for tests and debugging).
  HostTensor read(int32_t buffer) const;
  /// Scatters `value` (the buffer's element type and size) onto the tiles.
  void write(int32_t buffer, const HostTensor &value);

  /// DeviceOptions::hostThreads, for a listener made after the device
  /// (a trace that starts with the load).
  void setHostThreadListener(HostThreadListener *l) { options.hostThreads = l; }
  /// DeviceOptions::rendezvous, for a run of several replicas (each run
  /// meets at a fresh one).
  void setRendezvous(Rendezvous *r) { options.rendezvous = r; }

private:
  llvm::Error runSteps(
      const google::protobuf::RepeatedPtrField<exe::Step> &steps,
      RunRecord &record);
  llvm::Error runStep(const exe::Step &step, RunRecord &record);
  llvm::Error runComputeSet(const exe::Step &step);
  void parallelChunks(int64_t n, llvm::function_ref<void(int64_t)> fn);
  /// parallelChunks, keeping the first error.
  llvm::Error parallelTry(int64_t n,
                          llvm::function_ref<llvm::Error(int64_t)> fn);
  void runExchange(const exe::Exchange &exchange);
  llvm::Error runHostCompute(const exe::Step &step, RunRecord &record);
  llvm::Error runCollective(const exe::Step &step);
  llvm::Expected<bool> readPredicate(int32_t buffer);
  uint8_t *dataOf(int32_t buffer, const TileShare &share) const;

  const Program &program;
  DeviceOptions options;
  struct FreeArena {
    void operator()(uint8_t *p) const { std::free(p); }
  };
  mutable std::vector<std::unique_ptr<uint8_t[], FreeArena>> arenas;
  /// Host-side copies of buffers: what outfeeds sent and infeeds will send.
  std::vector<std::optional<HostTensor>> staging;
  bool synthetic = false;
  /// Collectives met in this run (the Rendezvous's sequence).
  int64_t collectivesMet = 0;
};

} // namespace tessera::runtime

#endif // TESSERA_RUNTIME_DEVICE_H
