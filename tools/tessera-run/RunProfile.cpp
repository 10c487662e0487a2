//===- RunProfile.cpp - tessera-run's execution profiling -----------------===//

#include "RunProfile.h"

#include "tessera/Trace/DumpNames.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace tessera::run {

bool RunProfile::wanted(const TesseraFlags &flags) {
  return runtime::parseProfileLevel(flags.profileExecution) ||
         !flags.saveIntervalReport.empty() || flags.logCycleCount >= 0 ||
         !flags.traceJson.empty();
}

std::unique_ptr<RunProfile> RunProfile::create(const TesseraFlags &flags,
                                               const runtime::Program &program,
                                               std::string eventFolder,
                                               int64_t replica) {
  if (!wanted(flags))
    return nullptr;
  std::optional<runtime::ProfileLevel> level =
      runtime::parseProfileLevel(flags.profileExecution);
  // The other outputs need only the clock: count at the cheapest level
  // that still has per-tile counts when a tile's log asks for them.
  if (!level)
    level = flags.logCycleCount >= 0 ? runtime::ProfileLevel::Tile
                                     : runtime::ProfileLevel::Device;
  return std::unique_ptr<RunProfile>(
      new RunProfile(flags, program, *level, std::move(eventFolder), replica));
}

RunProfile::RunProfile(const TesseraFlags &flags,
                       const runtime::Program &program,
                       runtime::ProfileLevel level, std::string eventFolder,
                       int64_t replica)
    : program(program), replica(replica), cycleClock(program, level),
      sink(ReportSinkOptions::fromFlags(flags), nullptr, std::move(eventFolder),
           "tessera-run", errs()),
      reports(flags.profiling && flags.profileExecution != "none"),
      everyNth(flags.reportEveryNthExecution),
      intervalDir(flags.saveIntervalReport), logTile(flags.logCycleCount) {
  cycleClock.setListener(this);
}

std::string RunProfile::replicaSuffix() const {
  return program.replicas() > 1 ? ".replica" + std::to_string(replica) : "";
}

bool RunProfile::reported(int64_t run) const {
  if (!reports)
    return false;
  return everyNth == 0 ? run == 0 : run % everyNth == 0;
}

Error RunProfile::beginRun(int64_t run) {
  intervalIndex = 0;
  if (intervalDir.empty())
    return Error::success();
  SmallString<256> path(intervalDir);
  sys::path::append(
      path, sanitizeFileComponent(program.executable().module_name()) +
                replicaSuffix() + ".run" + std::to_string(run + 1) + ".csv");
  AtomicWriteOptions options;
  options.createParentDirs = true;
  options.dashIsStdout = false;
  Expected<std::unique_ptr<AtomicFileStream>> file =
      AtomicFileStream::open(path, options);
  if (!file)
    return file.takeError();
  intervals = std::move(*file);
  intervals->os() << "interval,start_cycle,cycles,step,kind,op,computing,"
                     "exchanging,syncing,idle\n";
  return Error::success();
}

/// A CSV field: quoted when it holds a comma, quote or newline.
static void csvField(raw_ostream &os, StringRef s) {
  if (s.find_first_of(",\"\n\r") == StringRef::npos) {
    os << s;
    return;
  }
  os << '"';
  for (char c : s)
    os << (c == '"' ? "\"\"" : StringRef(&c, 1));
  os << '"';
}

void RunProfile::stepRan(const runtime::StepInterval &iv) {
  if (trace)
    trace->stepRan(iv);
  if (!intervals)
    return;
  const exe::Executable &e = program.executable();
  int32_t op = iv.step->op_plus_one() - 1;
  raw_ostream &os = intervals->os();
  os << intervalIndex++ << ',' << iv.start << ',' << iv.cycles << ',';
  csvField(os, iv.step->name());
  os << ',' << runtime::stepKindName(*iv.step) << ',';
  csvField(os, op >= 0 && op < e.ops_size() ? StringRef(e.ops(op).hlo())
                                             : StringRef());
  int64_t idle =
      program.numTiles() - iv.computing - iv.exchanging - iv.syncing;
  os << ',' << iv.computing << ',' << iv.exchanging << ',' << iv.syncing
     << ',' << idle << '\n';
}

Error RunProfile::endRun(int64_t run, int64_t hostNs, Execute &execute) {
  if (intervals) {
    Error err = intervals->commit();
    intervals.reset();
    if (err)
      return err;
  }
  runs.push_back({run, cycleClock.cycles(), hostNs});
  last = runtime::buildExecutionReport(program, cycleClock, runs);
  last->replica = replica;
  last->replicas = program.replicas();
  if (logTile >= 0) {
    std::vector<runtime::TileTotals> tiles = cycleClock.tiles();
    if (logTile >= static_cast<int64_t>(tiles.size()))
      return createStringError("--log_cycle_count=" + Twine(logTile) +
                               ": the program has " + Twine(tiles.size()) +
                               " tiles");
    const runtime::TileTotals &t = tiles[logTile];
    std::string who = "run " + std::to_string(run + 1);
    if (program.replicas() > 1)
      who = "replica " + std::to_string(replica) + ", " + who;
    outs() << formatv("  {0}: tile {1}: {2} cycles (compute {3}, "
                      "exchange {4}, sync {5}, idle {6})\n",
                      who, logTile, cycleClock.cycles(), t.compute, t.exchange,
                      t.sync,
                      cycleClock.cycles() - t.compute - t.exchange - t.sync);
  }
  if (!reported(run))
    return Error::success();
  NamedReport report{ReportKind::Execution, runtime::toJson(*last),
                     [this](const nlohmann::ordered_json &,
                            raw_ostream &os) { renderText(*last, os); }};
  CompileBeginInfo info;
  info.moduleName = program.executable().module_name();
  std::string file =
      reportFileName(ReportKind::Execution, sink.options().format);
  // execution.json -> execution.3.json: one file per reported run (and
  // execution.replica1.3.json per replica).
  StringRef stem = sys::path::stem(file), ext = sys::path::extension(file);
  return sink.fillReport(
      info, report, *execute.mutable_execution_report(),
      (stem + replicaSuffix() + "." + Twine(run + 1) + ext).str());
}

void RunProfile::printSummary(raw_ostream &os, size_t topOps) const {
  if (!last)
    return;
  const runtime::ExecutionReport &r = *last;
  double clock = static_cast<double>(std::max<int64_t>(1, r.clockHz));
  os << formatv("step time on the model device: {0} cycles = {1:f3} ms at "
                "{2:f2} GHz ({3:f1}% waiting on the host)\n",
                r.cycles, 1e3 * r.cycles / clock, r.clockHz / 1e9,
                r.cycles ? 100.0 * r.hostCycles / r.cycles : 0.0);
  if (r.ops.empty())
    return;
  os << formatv("  {0,-32} {1,-16} {2,8} {3,11}\n", "top ops", "category",
                "cycles", "FLOPS util");
  for (size_t i = 0; i < r.ops.size() && i < topOps; ++i) {
    const runtime::ExecutionReport::Op &op = r.ops[i];
    os << formatv("  {0,-32} {1,-16} {2,7:f1}% {3,10:f1}%\n", op.hlo,
                  op.category,
                  r.cycles ? 100.0 * op.cycles / r.cycles : 0.0,
                  100 * op.utilization);
  }
}

} // namespace tessera::run
