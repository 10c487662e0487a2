//===- RunTrace.h - tessera-run's --trace_json timeline -------------*- C++
//-*-===//
//
// One Chrome trace of a model's life, compile to run (docs/execution.md,
// "Timeline"), streamed to disk as the steps run:
//
//   pid 1 "tessera-run host"   compile   COMPILE <module> with its passes,
//                                        from the event file's COMPILE_*
//                              runtime   load, run N (wall time)
//                              transfers infeed/outfeed host copies
//                              host ops  ops the host computes
//   pid 2+c "chip c"           Runs      run N
//                              Steps     every step the chip took part in
//                              Graph ops the graph op (HLO) a run of steps
//                                        implements
//                              Tile ops A-B  per group of tiles: when the
//                                        group's busiest tile computed or
//                                        exchanged
//
// A program of several replicas (docs/multichip.md) runs one model device
// per replica at once; each is a Lane of the trace, with a process per
// chip of its own ("replica d chip c", pid 2 + d * chips + c) and its own
// transfers, host ops and pool threads on the host process.
//
// Device slices are on the model device's cycle clock at the target's
// clock rate, anchored at each run's host start (and never before the
// previous run's device end, so runs do not overlap): one time base, in
// nanoseconds from the trace's origin, for compile, load and run.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TOOLS_RUNTRACE_H
#define TESSERA_TOOLS_RUNTRACE_H

#include "tessera/Runtime/CycleClock.h"
#include "tessera/Runtime/Device.h"
#include "tessera/Trace/AtomicFile.h"
#include "tessera/Trace/ChromeTrace.h"
#include "tessera/Trace/EventFile.h"
#include "tessera/Trace/TraceEventWriter.h"

#include <memory>
#include <mutex>
#include <optional>
#include <tuple>

namespace tessera::run {

/// The last compile of `module` in the event file at `eventsPath`, with its
/// start as a unix time in CompileSpan::startNs; none when the file holds
/// no complete one. Fails when the file cannot be read.
llvm::Expected<std::optional<CompileSpan>>
findCompile(llvm::StringRef eventsPath, llvm::StringRef module);

class RunTrace {
public:
  /// Tile ops tracks per chip (fewer when a chip has fewer tiles).
  static constexpr int64_t kTileGroupsPerChip = 16;

  /// One replica's device: the listener its clock and pool report to. The
  /// lanes of a run write at once, from their devices' threads.
  class Lane : public runtime::StepListener,
               public runtime::HostThreadListener {
  public:
    void stepRan(const runtime::StepInterval &interval) override;
    /// From the device's pool threads: buffered, and written as the
    /// step's slices on the host's thread tracks when stepRan() reports
    /// the step.
    void chunkRan(unsigned thread, int64_t startUnixNs,
                  int64_t endUnixNs) override;

  private:
    friend class RunTrace;
    Lane(RunTrace &trace, int64_t replica);
    int pid(int64_t chip) const;
    /// A track of the host process: the lane's own when there are several.
    int hostTid(int tid) const;
    std::string hostTrackName(llvm::StringRef name) const;
    int64_t deviceNs(int64_t cycle) const;
    int64_t chipOf(int64_t tile) const { return tile / t.tilesPerChip; }
    /// Marks the chips a step ran on in `stepChips`.
    void markChips(const runtime::StepInterval &iv);
    void tileGroups(const runtime::StepInterval &iv, int64_t startNs,
                    llvm::StringRef name);
    void closeGraphOp();
    /// Writes the chunks buffered since the last step as `name`'s slices.
    void writeChunks(llvm::StringRef name, llvm::StringRef kind);
    void endRun(int64_t deviceCycles);

    RunTrace &t;
    int64_t replica;
    TraceEventWriter &writer;
    int64_t anchor = 0;    ///< device cycle 0 of this run, ns
    int64_t deviceEnd = 0; ///< where the last run ended on the device, ns
    std::vector<char> stepChips;
    bool hostThreadNamed[5] = {};
    /// The pool's chunks of the step running: (thread, start, end), unix
    /// ns.
    std::mutex chunkMutex;
    std::vector<std::tuple<unsigned, int64_t, int64_t>> chunks;
    std::vector<std::tuple<unsigned, int64_t, int64_t>> chunksToWrite;
    /// The pool threads with a track so far (index + 1; 0 = calling
    /// thread).
    std::vector<char> poolThreadNamed;
    /// Per tile group: the busiest tile's cycles and the tiles working.
    std::vector<std::pair<int64_t, int64_t>> groups;
    std::vector<int64_t> touchedGroups;

    /// The graph op whose steps are running: a Graph ops slice is the
    /// span from its first step's start to its last step's end.
    struct OpSpan {
      int32_t op = -1;
      int64_t startNs = 0, endNs = 0;
      int64_t cycles = 0, predicted = 0, flops = 0, bytes = 0, steps = 0;
      std::vector<char> chips;
    } current;
  };

  /// Opens `path` (a temporary, renamed by commit()) for a program run on
  /// `replicas` devices at once; `originNs` (unix) is the trace's time
  /// zero, no later than anything it will hold.
  static llvm::Expected<std::unique_ptr<RunTrace>>
  open(llvm::StringRef path, const runtime::Program &program, int64_t originNs,
       const std::optional<CompileSpan> &compile, int64_t replicas = 1);

  Lane &lane(int64_t replica) { return *lanes[replica]; }

  /// Unix times of the host's work.
  void loaded(int64_t startNs, int64_t endNs);
  /// Before the lanes run: every lane's device time starts here.
  void beginRun(int64_t run, int64_t hostStartNs);
  /// After every lane has run: lane d's device took deviceCycles[d].
  void endRun(int64_t hostEndNs, llvm::ArrayRef<int64_t> deviceCycles);

  /// Closes the document and renames it into place.
  llvm::Error commit();
  int64_t events() const { return writer->events(); }

private:
  RunTrace(const runtime::Program &program, int64_t originNs,
           std::unique_ptr<AtomicFileStream> file, int64_t replicas);
  void writeMetadata(bool withCompile, bool withAlongside);

  const runtime::Program &program;
  int64_t origin;
  std::unique_ptr<AtomicFileStream> file;
  /// Every write holds `writeMutex`: the lanes write from their threads.
  std::unique_ptr<TraceEventWriter> writer;
  std::mutex writeMutex;
  int64_t chips, tilesPerChip, groupSize, groupsPerChip, replicas;
  std::vector<std::unique_ptr<Lane>> lanes;

  // The run in progress.
  int64_t run = 0;
  int64_t hostStart = 0;
};

} // namespace tessera::run

#endif // TESSERA_TOOLS_RUNTRACE_H
