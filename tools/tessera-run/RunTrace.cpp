//===- RunTrace.cpp - tessera-run's --trace_json timeline -----------------===//

#include "RunTrace.h"

#include "tessera/Runtime/ExecutionReport.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <map>

using namespace llvm;

namespace tessera::run {

namespace {
constexpr int kHostPid = 1;
enum HostThread {
  kCompile = 1,
  kRuntime = 2,
  kTransfers = 3,
  kHostOps = 4,
  kCompileAlongside = 5 ///< compile phases on a thread of their own
};
/// The device's threads: the one running the steps, then the pool's.
constexpr int kFirstDeviceThread = 10;
enum ChipThread { kRuns = 1, kSteps = 2, kGraphOps = 3, kFirstTileGroup = 4 };
/// The tracks of replica d > 0 on the host process: its own block.
constexpr int kReplicaTidStride = 1000;
} // namespace

Expected<std::optional<CompileSpan>> findCompile(StringRef eventsPath,
                                                 StringRef module) {
  // The last COMPILE_END of the module, paired with the COMPILE_BEGIN of
  // the same module id before it. Streamed: a week of runs appended to the
  // file costs one read window.
  std::optional<CompileSpan> span;
  std::map<int64_t, std::pair<int64_t, std::string>> begins; // id -> start
  Expected<EventFileScan> scan =
      scanEventFile(eventsPath, [&](TraceEvent &e, uint64_t) {
        if (e.module_name() != module)
          return Error::success();
        if (e.type() == TraceEvent::COMPILE_BEGIN) {
          begins[e.compile_begin().module_id()] = {e.timestamp_ns(),
                                                   e.compile_begin().target()};
        } else if (e.type() == TraceEvent::COMPILE_END) {
          auto begin = begins.find(e.compile_end().module_id());
          span.reset();
          if (begin == begins.end())
            return Error::success();
          span.emplace();
          span->moduleName = module.str();
          span->target = begin->second.second;
          span->moduleId = e.compile_end().module_id();
          span->startNs = begin->second.first;
          span->durationNs = e.compile_end().duration_ns();
          span->cached = e.compile_end().cached();
          span->passes = passTimeline(e.compile_end());
        }
        return Error::success();
      });
  if (!scan)
    return scan.takeError();
  return span;
}

Expected<std::unique_ptr<RunTrace>>
RunTrace::open(StringRef path, const runtime::Program &program,
               int64_t originNs, const std::optional<CompileSpan> &compile,
               int64_t replicas) {
  AtomicWriteOptions options;
  options.createParentDirs = true;
  Expected<std::unique_ptr<AtomicFileStream>> file =
      AtomicFileStream::open(path, options);
  if (!file)
    return file.takeError();
  std::unique_ptr<RunTrace> trace(new RunTrace(
      program, originNs, std::move(*file), std::max<int64_t>(1, replicas)));
  trace->writeMetadata(compile.has_value(),
                       compile && hasAlongsidePhases(*compile));
  if (compile)
    writeCompileSlices(*trace->writer, *compile, kHostPid, kCompile,
                       -originNs, kCompileAlongside);
  return std::move(trace);
}

RunTrace::RunTrace(const runtime::Program &program, int64_t originNs,
                   std::unique_ptr<AtomicFileStream> file, int64_t replicas)
    : program(program), origin(originNs), file(std::move(file)),
      replicas(replicas) {
  writer = std::make_unique<TraceEventWriter>(this->file->os(), originNs);
  const TargetDescription &t = program.target();
  tilesPerChip = t.tilesPerChip > 0 ? t.tilesPerChip : program.numTiles();
  chips = std::max<int64_t>(
      1, (program.numTiles() + tilesPerChip - 1) / tilesPerChip);
  groupsPerChip = std::min(kTileGroupsPerChip, tilesPerChip);
  groupSize = (tilesPerChip + groupsPerChip - 1) / groupsPerChip;
  groupsPerChip = (tilesPerChip + groupSize - 1) / groupSize;
  for (int64_t d = 0; d < replicas; ++d)
    lanes.push_back(std::unique_ptr<Lane>(new Lane(*this, d)));
}

RunTrace::Lane::Lane(RunTrace &trace, int64_t replica)
    : t(trace), replica(replica), writer(*trace.writer) {
  stepChips.assign(t.chips, 0);
  current.chips.assign(t.chips, 0);
  groups.assign(t.chips * t.groupsPerChip, {0, 0});
}

int RunTrace::Lane::pid(int64_t chip) const {
  return 2 + static_cast<int>(replica * t.chips + chip);
}

int RunTrace::Lane::hostTid(int tid) const {
  return static_cast<int>(replica) * kReplicaTidStride + tid;
}

std::string RunTrace::Lane::hostTrackName(StringRef name) const {
  if (t.replicas == 1)
    return name.str();
  return "replica " + std::to_string(replica) + ": " + name.str();
}

void RunTrace::writeMetadata(bool withCompile, bool withAlongside) {
  writer->processName(kHostPid, "tessera-run host", 0);
  if (withCompile)
    writer->threadName(kHostPid, kCompile, "compile", 0);
  if (withAlongside)
    writer->threadName(kHostPid, kCompileAlongside, "compile (alongside)", 3);
  writer->threadName(kHostPid, kRuntime, "runtime", 1);
  for (const std::unique_ptr<Lane> &lane : lanes)
    for (int64_t c = 0; c < chips; ++c) {
      int pid = lane->pid(c);
      std::string name = "chip " + std::to_string(c);
      if (replicas > 1)
        name = "replica " + std::to_string(lane->replica) + " " + name;
      writer->processName(pid, name, pid - 1);
      // Runs apart from their steps: speedscope mis-nests a last step that
      // ends with its run.
      writer->threadName(pid, kRuns, "Runs", 0);
      writer->threadName(pid, kSteps, "Steps", 1);
      writer->threadName(pid, kGraphOps, "Graph ops", 2);
      for (int64_t g = 0; g < groupsPerChip; ++g) {
        int64_t first = c * tilesPerChip + g * groupSize;
        int64_t last = std::min(first + groupSize, (c + 1) * tilesPerChip) - 1;
        std::string tiles = std::to_string(first);
        if (last > first)
          tiles += "-" + std::to_string(last);
        writer->threadName(pid, kFirstTileGroup + g, "Tile ops " + tiles,
                           3 + g);
      }
    }
}

int64_t RunTrace::Lane::deviceNs(int64_t cycle) const {
  // round(cycle * 1e9 / hz) without overflowing: whole seconds, then the
  // rest.
  int64_t hz = std::max<int64_t>(1, t.program.target().clockHz);
  int64_t seconds = cycle / hz, rest = cycle % hz;
  return anchor + seconds * 1000000000 +
         static_cast<int64_t>(
             (static_cast<__int128>(rest) * 1000000000 + hz / 2) / hz);
}

void RunTrace::loaded(int64_t startNs, int64_t endNs) {
  writer->slice(kHostPid, kRuntime, "load", "load", startNs - origin,
                std::max(startNs, endNs) - origin,
                {{"executable", program.executable().module_name()},
                 {"tiles", program.numTiles()},
                 {"steps", program.executable().steps_size()}});
}

void RunTrace::beginRun(int64_t r, int64_t hostStartNs) {
  run = r;
  hostStart = hostStartNs - origin;
  // The replicas start together, after every one's previous run.
  int64_t anchor = hostStart;
  for (const std::unique_ptr<Lane> &lane : lanes)
    anchor = std::max(anchor, lane->deviceEnd);
  for (const std::unique_ptr<Lane> &lane : lanes)
    lane->anchor = anchor;
}

void RunTrace::endRun(int64_t hostEndNs, ArrayRef<int64_t> deviceCycles) {
  for (const std::unique_ptr<Lane> &lane : lanes)
    lane->closeGraphOp();
  std::string name = "run " + std::to_string(run + 1);
  int64_t slowest = 0;
  for (int64_t c : deviceCycles)
    slowest = std::max(slowest, c);
  writer->slice(kHostPid, kRuntime, name, "run", hostStart,
                std::max(hostStart, hostEndNs - origin),
                {{"run", run + 1}, {"device_cycles", slowest}});
  for (auto [lane, cycles] : llvm::zip(lanes, deviceCycles))
    lane->endRun(cycles);
}

void RunTrace::Lane::endRun(int64_t deviceCycles) {
  std::string name = "run " + std::to_string(t.run + 1);
  int64_t end = deviceNs(deviceCycles);
  TraceArg args[] = {{"run", t.run + 1}, {"cycles", deviceCycles}};
  for (int64_t c = 0; c < t.chips; ++c) {
    if (end > anchor)
      writer.slice(pid(c), kRuns, name, "run", anchor, end, args);
    else
      writer.instant(pid(c), kRuns, name, "run", anchor, args);
  }
  deviceEnd = end;
}
void RunTrace::Lane::markChips(const runtime::StepInterval &iv) {
  const exe::Step &step = *iv.step;
  bool all = t.chips == 1 || (!step.has_compute_set() && !step.has_exchange());
  std::fill(stepChips.begin(), stepChips.end(), all);
  if (all)
    return;
  if (step.has_compute_set()) {
    for (int64_t c = 0; c < t.chips; ++c) {
      int64_t begin = std::max<int64_t>(c * t.tilesPerChip - iv.firstTile, 0);
      int64_t end = std::min<int64_t>((c + 1) * t.tilesPerChip - iv.firstTile,
                                      iv.work.size());
      for (int64_t i = begin; i < end && !stepChips[c]; ++i)
        stepChips[c] = iv.work[i].cycles > 0;
    }
  } else {
    for (auto [tile, cycles] : iv.exchangeTiles)
      stepChips[chipOf(tile)] = 1;
  }
  // A step no tile worked in (an empty exchange) still shows, as an
  // instant, on the chip of its first tile.
  if (llvm::find(stepChips, 1) == stepChips.end())
    stepChips[std::min(chipOf(iv.firstTile), t.chips - 1)] = 1;
}

void RunTrace::Lane::tileGroups(const runtime::StepInterval &iv,
                                int64_t startNs, StringRef name) {
  StringRef category;
  if (iv.step->has_compute_set()) {
    // Group by group over the compute set's tiles: no division per tile.
    category = "compute";
    int64_t first = iv.firstTile, last = first + iv.work.size();
    for (int64_t tile = first; tile < last;) {
      int64_t c = chipOf(tile), local = tile - c * t.tilesPerChip;
      int64_t g = c * t.groupsPerChip + local / t.groupSize;
      int64_t groupEnd =
          std::min(last, c * t.tilesPerChip +
                             std::min(t.tilesPerChip,
                                      (local / t.groupSize + 1) * t.groupSize));
      auto &[busiest, tiles] = groups[g];
      for (; tile < groupEnd; ++tile) {
        int64_t cycles = iv.work[tile - first].cycles;
        busiest = std::max(busiest, cycles);
        tiles += cycles > 0;
      }
      if (tiles)
        touchedGroups.push_back(g);
    }
  } else {
    category = "exchange";
    for (auto [tile, cycles] : iv.exchangeTiles) {
      if (cycles <= 0)
        continue;
      int64_t g = chipOf(tile) * t.groupsPerChip +
                  (tile % t.tilesPerChip) / t.groupSize;
      auto &[busiest, tiles] = groups[g];
      if (tiles == 0)
        touchedGroups.push_back(g);
      busiest = std::max(busiest, cycles);
      ++tiles;
    }
    // Exchange tiles come sorted: groups are already in order.
  }
  for (int64_t g : touchedGroups) {
    auto &[busiest, tiles] = groups[g];
    int64_t end = deviceNs(iv.start + busiest);
    if (end > startNs)
      writer.slice(pid(g / t.groupsPerChip),
                   kFirstTileGroup + g % t.groupsPerChip, name, category,
                   startNs, end,
                   {{"step", iv.step->name()},
                    {"tiles", tiles},
                    {"busiest_tile_cycles", busiest}});
    groups[g] = {0, 0};
  }
  touchedGroups.clear();
}

void RunTrace::Lane::closeGraphOp() {
  if (current.op < 0)
    return;
  const exe::GraphOp &op = t.program.executable().ops(current.op);
  TraceArg args[] = {{"hlo", op.hlo()},
                     {"op_name", op.op_name()},
                     {"op_type", op.op_type()},
                     {"category", op.category()},
                     {"source", op.source()},
                     {"cycles", current.cycles},
                     {"predicted_cycles", current.predicted},
                     {"flops", current.flops},
                     {"bytes", current.bytes},
                     {"steps", current.steps}};
  for (int64_t c = 0; c < t.chips; ++c) {
    if (!current.chips[c])
      continue;
    if (current.endNs > current.startNs)
      writer.slice(pid(c), kGraphOps, op.hlo(), op.category(), current.startNs,
                   current.endNs, args);
    else
      writer.instant(pid(c), kGraphOps, op.hlo(), op.category(),
                     current.startNs, args);
  }
  current.op = -1;
}

void RunTrace::Lane::chunkRan(unsigned thread, int64_t startUnixNs,
                              int64_t endUnixNs) {
  std::lock_guard<std::mutex> lock(chunkMutex);
  chunks.emplace_back(thread, startUnixNs, endUnixNs);
}

void RunTrace::Lane::writeChunks(StringRef name, StringRef kind) {
  {
    std::lock_guard<std::mutex> lock(chunkMutex);
    chunksToWrite.swap(chunks);
  }
  for (auto [thread, startNs, endNs] : chunksToWrite) {
    size_t index = thread == kCallingThread ? 0 : size_t(thread) + 1;
    int tid = hostTid(kFirstDeviceThread + static_cast<int>(index));
    if (index >= poolThreadNamed.size())
      poolThreadNamed.resize(index + 1, 0);
    // Named when first used: how many of the pool's threads take work
    // depends on the steps' sizes.
    if (!poolThreadNamed[index]) {
      poolThreadNamed[index] = 1;
      writer.threadName(kHostPid, tid,
                        hostTrackName(index == 0
                                          ? "device: calling thread"
                                          : "device: pool thread " +
                                                std::to_string(index - 1)),
                        tid);
    }
    int64_t start = startNs - t.origin;
    int64_t end = std::max(startNs, endNs) - t.origin;
    TraceArg args[] = {{"step", name}, {"kind", kind}};
    if (end > start)
      writer.slice(kHostPid, tid, name, "host_thread", start, end, args);
    else
      writer.instant(kHostPid, tid, name, "host_thread", start, args);
  }
  chunksToWrite.clear();
}

void RunTrace::Lane::stepRan(const runtime::StepInterval &iv) {
  // One step's events at a time: other lanes write from their threads.
  std::lock_guard<std::mutex> lock(t.writeMutex);
  const exe::Step &step = *iv.step;
  // The host's threads computed the step before the clock reported it.
  writeChunks(step.name(), runtime::stepKindName(step));
  const exe::Executable &e = t.program.executable();
  int32_t op = runtime::graphOpOf(e, step);
  int64_t start = deviceNs(iv.start), end = deviceNs(iv.start + iv.cycles);
  StringRef kind = runtime::stepKindName(step);
  // The op the step was scheduled for (a transfer's parameter or result),
  // which names it even when its time is not the op's.
  int32_t scheduled = step.op_plus_one() - 1;
  StringRef opName = scheduled >= 0 && scheduled < e.ops_size()
                         ? StringRef(e.ops(scheduled).hlo())
                         : StringRef();
  StringRef name = step.name();
  TraceArg args[] = {{"step", name},
                     {"kind", kind},
                     {"hlo", opName},
                     {"start_cycle", iv.start},
                     {"cycles", iv.cycles},
                     {"predicted_cycles", step.estimate().cycles()},
                     {"flops", iv.flops},
                     {"bytes", iv.bytes},
                     {"tiles_computing", iv.computing},
                     {"tiles_exchanging", iv.exchanging},
                     {"tiles_syncing", iv.syncing}};
  markChips(iv);
  for (int64_t c = 0; c < t.chips; ++c) {
    if (!stepChips[c])
      continue;
    if (end > start)
      writer.slice(pid(c), kSteps, name, kind, start, end, args);
    else
      writer.instant(pid(c), kSteps, name, kind, start, args);
  }
  // The host's side of host copies and host ops, at the device's time.
  if (step.has_host_copy() || step.has_host_compute()) {
    int track = step.has_host_copy() ? kTransfers : kHostOps;
    int tid = hostTid(track);
    // Named when first used: a program with no host op has no such track.
    if (!hostThreadNamed[track]) {
      hostThreadNamed[track] = true;
      writer.threadName(
          kHostPid, tid,
          hostTrackName(track == kTransfers ? "transfers" : "host ops"), tid);
    }
    if (end > start)
      writer.slice(kHostPid, tid, name, kind, start, end, args);
    else
      writer.instant(kHostPid, tid, name, kind, start, args);
  }
  if (step.has_compute_set() || step.has_exchange())
    tileGroups(iv, start, opName.empty() ? name : opName);

  // Steps of no op (syncs, transfers) do not end the op around them; the
  // next op's first step does.
  if (op < 0)
    return;
  if (op != current.op) {
    closeGraphOp();
    current.op = op;
    current.startNs = start;
    current.cycles = current.predicted = current.flops = current.bytes =
        current.steps = 0;
    std::fill(current.chips.begin(), current.chips.end(), 0);
  }
  current.endNs = end;
  current.cycles += iv.cycles;
  current.predicted += step.estimate().cycles();
  current.flops += iv.flops;
  current.bytes += iv.bytes;
  ++current.steps;
  for (int64_t c = 0; c < t.chips; ++c)
    current.chips[c] |= stepChips[c];
}

Error RunTrace::commit() {
  writer->finish();
  return file->commit();
}

} // namespace tessera::run
