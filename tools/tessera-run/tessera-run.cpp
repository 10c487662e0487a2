//===- tessera-run.cpp - Load an executable and run it on the model device -===//
//
// Loads a `.tessera` executable (docs/executable.md) without the compiler,
// runs it N times on the model device (docs/runtime.md) with inputs from
// seeded data (or, with --synthetic_data, whatever is on the device), and
// with --check compares the outputs with the reference interpreter run on
// the same inputs. With --profiling or --enable_events it appends
// LOAD_ENGINE, transfer and EXECUTE events to the event file the compile
// wrote (docs/events.md), so one file holds the model's compile and runs.
//
//===----------------------------------------------------------------------===//

#include "RunChecks.h"
#include "RunEvents.h"
#include "RunProfile.h"
#include "RunReplicas.h"
#include "RunTrace.h"
#include "ToolFlags.h"

#include "tessera/Runner/Runner.h"
#include "tessera/Runtime/ExecutableFile.h"
#include "tessera/Support/Npy.h"
#include "tessera/Trace/EventFile.h"
#include "tessera/Trace/Flags.h"
#include "tessera/Trace/ReportSink.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

using namespace llvm;
using namespace tessera;
using namespace tessera::run;

static constexpr StringLiteral kTool = "tessera-run";

namespace {

struct RunArgs {
  std::string executable;
  int64_t runs = 1;
  uint64_t seed = 0;
  bool synthetic = false;
  bool check = false;
  bool checkOps = false;
  bool checkStorage = false;
  bool loadOnly = false;
  std::string inputsDir, saveInputsDir, outputsDir, expectedDir;
  unsigned threads = 0;
  std::string events;
  std::vector<std::string> flagArgs;
};


void printUsage(raw_ostream &os) {
  os << "usage: tessera-run EXECUTABLE [--runs=N] [--seed=S] "
        "[--synthetic_data] [--check] [--check_ops]\n"
        "                   [--check_storage] [--load_only]\n"
        "                   [--inputs=DIR] [--save_inputs=DIR] "
        "[--outputs=DIR] [--expected=DIR]\n"
        "                   [--threads=N] [--events=FILE] [--FLAG=VALUE ...]\n"
        "\n"
        "  EXECUTABLE        a .tessera file written by tessera-compile\n"
        "  --runs=N          run N times (default 1)\n"
        "  --seed=S          seed of the generated inputs and of constants "
        "the\n"
        "                    source elided (default 0)\n"
        "  --synthetic_data  no host transfers: run on what is on the device\n"
        "  --check           compare the outputs with the reference "
        "interpreter\n"
        "                    (f64); exit 1 when an output is out of tolerance\n"
        "  --check_ops       check each op alone: the reference applied to "
        "the\n"
        "                    device's own values of its operands (every "
        "buffer\n"
        "                    gets private storage); exit 1 when one fails\n"
        "  --check_storage   run again with every buffer in storage of its "
        "own\n"
        "                    (with --check_ops: in the allocator's); exit 1 "
        "when\n"
        "                    an output's bits differ\n"
        "  --load_only       load (validate, lay out, write constants) and "
        "stop\n"
        "  --threads=N       threads running tiles (default: one per core)\n"
        "  --events=FILE     event file to append to (with --profiling or\n"
        "                    --enable_events; default: EXECUTABLE.events)\n"
        "  --FLAG=VALUE      any TESSERA_FLAGS flag (--help-flags lists "
        "them),\n"
        "                    e.g. --trace_json=FILE: a Chrome trace of the\n"
        "                    compile and the runs; --profiling\n"
        "                    --profile_execution=tile: execution reports\n";
}

int64_t parseCount(StringRef name, StringRef value, int64_t min) {
  int64_t n;
  if (value.getAsInteger(10, n) || n < min)
    fail("--" + name + " needs an integer >= " + Twine(min) + ", got '" +
         value + "'");
  return n;
}

RunArgs parseArgs(ArrayRef<std::string> args) {
  RunArgs out;
  for (size_t i = 0; i < args.size(); ++i) {
    StringRef arg = args[i];
    auto value = [&](StringRef name) -> std::optional<StringRef> {
      StringRef rest = arg;
      if (!rest.consume_front("--" + name.str()))
        return std::nullopt;
      if (rest.consume_front("="))
        return rest;
      if (!rest.empty())
        return std::nullopt;
      if (i + 1 >= args.size())
        fail("--" + name + " needs a value");
      return StringRef(args[++i]);
    };
    if (arg == "--help" || arg == "-h") {
      printUsage(outs());
      std::exit(0);
    } else if (arg == "--help-flags") {
      printFlagHelp(outs());
      std::exit(0);
    } else if (auto v = value("runs")) {
      out.runs = parseCount("runs", *v, 1);
    } else if (auto v = value("seed")) {
      out.seed = uint64_t(parseCount("seed", *v, 0));
    } else if (auto v = value("threads")) {
      out.threads = unsigned(parseCount("threads", *v, 0));
    } else if (auto v = value("events")) {
      out.events = v->str();
    } else if (auto v = value("inputs")) {
      out.inputsDir = v->str();
    } else if (auto v = value("save_inputs")) {
      out.saveInputsDir = v->str();
    } else if (auto v = value("outputs")) {
      out.outputsDir = v->str();
    } else if (auto v = value("expected")) {
      out.expectedDir = v->str();
    } else if (arg == "--synthetic_data") {
      out.synthetic = true;
    } else if (arg == "--check") {
      out.check = true;
    } else if (arg == "--check_ops") {
      out.checkOps = true;
    } else if (arg == "--check_storage") {
      out.checkStorage = true;
    } else if (arg == "--load_only") {
      out.loadOnly = true;
    } else if (arg.starts_with("-")) {
      out.flagArgs.push_back(arg.str());
    } else if (out.executable.empty()) {
      out.executable = arg.str();
    } else {
      fail("one EXECUTABLE only; also got '" + arg + "'");
    }
  }
  return out;
}

int64_t nowNs() { return unixTimeNs(); }

/// --trace_json: the trace, starting with the compile of the module found
/// in the event file (when there is one) and the load.
std::unique_ptr<RunTrace> openTrace(StringRef path,
                                    const runtime::Program &program,
                                    StringRef eventsPath, int64_t loadStart,
                                    int64_t loadEnd, std::string &from,
                                    int64_t replicas) {
  std::optional<CompileSpan> compile;
  from = "no compile in " + eventsPath.str();
  if (sys::fs::exists(eventsPath)) {
    Expected<std::optional<CompileSpan>> found =
        findCompile(eventsPath, program.executable().module_name());
    if (!found)
      errs() << kTool << ": warning: --trace_json: the compile is left out: "
             << toString(found.takeError()) << "\n";
    else if ((compile = std::move(*found)))
      from = "compile from " + eventsPath.str();
  }
  int64_t origin = compile ? std::min(compile->startNs, loadStart) : loadStart;
  Expected<std::unique_ptr<RunTrace>> trace =
      RunTrace::open(path, program, origin, compile, replicas);
  if (!trace)
    fail("--trace_json: " + toString(trace.takeError()));
  (*trace)->loaded(loadStart, loadEnd);
  return std::move(*trace);
}

} // namespace

namespace tessera::run {
[[noreturn]] void fail(const llvm::Twine &message) {
  errs() << kTool << ": error: " << message << "\n";
  errs().flush();
  std::exit(1);
}
} // namespace tessera::run

int main(int argc, char **argv) {
  InitLLVM initLLVM(argc, argv);
  RunArgs args = parseArgs(std::vector<std::string>(argv + 1, argv + argc));
  TesseraFlags flags = resolveFlagsOrExit(kTool, args.flagArgs);
  if (args.executable.empty()) {
    printUsage(errs());
    fail("no EXECUTABLE given");
  }
  if ((args.check || args.checkOps || args.checkStorage) && args.synthetic)
    fail("--check compares outputs computed from known inputs; "
         "--synthetic_data runs on whatever is on the device");
  if (args.synthetic && (!args.inputsDir.empty() || !args.expectedDir.empty() ||
                         !args.outputsDir.empty() ||
                         !args.saveInputsDir.empty()))
    fail("--synthetic_data transfers no inputs or outputs; --inputs, "
         "--save_inputs, --outputs and --expected need them");
  ReportSinkOptions sinkOptions = ReportSinkOptions::fromFlags(flags);
  if (!args.events.empty() && !sinkOptions.writesEvents())
    fail("--events needs --profiling or --enable_events (nothing would be "
         "written to '" + args.events + "')");
  bool progress = flags.showProgressBar || sys::Process::StandardErrIsDisplayed();

  // Load: read and validate the file, lay out the tiles, write constants.
  int64_t loadStart = nowNs();
  Expected<exe::Executable> executable = runtime::readExecutableFile(args.executable);
  if (!executable)
    fail(toString(executable.takeError()));
  int64_t programSize = int64_t(executable->ByteSizeLong());
  runtime::LoadOptions loadOptions;
  loadOptions.allowOutOfMemory = flags.allowOutOfMemory;
  loadOptions.privateStorage = args.checkOps;
  Expected<std::unique_ptr<runtime::Program>> program =
      runtime::Program::load(std::move(*executable), args.executable,
                             loadOptions);
  if (!program)
    fail(toString(program.takeError()));
  const exe::Executable &exe = (*program)->executable();
  Expected<std::unique_ptr<runner::GraphModule>> graph =
      runner::GraphModule::parse(exe, args.executable);
  if (!graph)
    fail(toString(graph.takeError()));
  runner::InfeedSource infeed(args.seed);
  runner::InterpreterHostOps hostOps(**graph, args.seed, infeed);
  runtime::DeviceOptions deviceOptions;
  deviceOptions.threads = args.threads;
  deviceOptions.hostOps = &hostOps;
  deviceOptions.infeed = [&infeed](const runtime::BufferLayout &b) {
    return Expected<HostTensor>(infeed.next(b.dtype, b.shape));
  };
  std::string eventsPath =
      args.events.empty() ? args.executable + ".events" : args.events;
  std::string eventFolder = sys::path::parent_path(eventsPath).str();
  std::unique_ptr<RunProfile> profile =
      RunProfile::create(flags, **program, eventFolder.empty() ? "." : eventFolder);
  if (profile)
    deviceOptions.clock = profile->clock();
  runtime::Device device(**program, deviceOptions);
  int64_t elided = runner::fillElidedConstants(**program, device, args.seed);
  int64_t loadNs = nowNs() - loadStart;

  std::unique_ptr<EventWriter> writer;
  if (sinkOptions.writesEvents()) {
    Expected<std::unique_ptr<EventWriter>> opened =
        EventWriter::open(eventsPath, EventWriter::Mode::Append);
    if (!opened)
      fail(toString(opened.takeError()));
    writer = std::move(*opened);
  }
  EventLog events(std::move(writer), exe.module_name());
  events.write(TraceEvent::LOAD_ENGINE, loadStart, [&](TraceEvent &e) {
    e.mutable_load_engine()->set_duration_ns(loadNs);
    e.mutable_load_engine()->set_program_size(programSize);
  });

  outs() << "loaded " << args.executable << ": " << exe.module_name() << ", "
         << (*program)->numTiles() << " tiles, " << exe.buffers_size()
         << " buffers, " << exe.steps_size() << " steps ("
         << formatMs(loadNs / 1e6) << ")\n";
  // On a multi-chip target the sentence says why, one chip included
  // (e.g. "no count up to the 16 chips holds it").
  if (!exe.placement().empty())
    outs() << "  placed on " << exe.placement() << "\n";
  if ((*program)->replicas() > 1)
    outs() << "  " << (*program)->replicas() << " replicas, each on "
           << (*program)->chips()
           << ((*program)->chips() == 1 ? " chip\n" : " chips\n");
  if (elided)
    outs() << "  " << elided << " constants elided in the source hold seeded "
           << "data (seed " << args.seed << ")\n";
  for (const std::string &line : (*program)->outOfMemory())
    outs() << "  out of memory, running with the overflow on the host: "
           << line << "\n";

  if (args.loadOnly)
    return 0;

  std::unique_ptr<RunTrace> trace;
  std::string traceCompile;
  if (!flags.traceJson.empty())
    trace = openTrace(flags.traceJson, **program, eventsPath, loadStart,
                      loadStart + loadNs, traceCompile, (*program)->replicas());

  if ((*program)->replicas() > 1) {
    // A data-parallel program: one device per replica (RunReplicas.h).
    if (args.checkOps || args.checkStorage || !args.expectedDir.empty() ||
        args.synthetic)
      fail("a program of " + Twine((*program)->replicas()) +
           " replicas runs without --check_ops, --check_storage, --expected "
           "and --synthetic_data: they are for one replica");
    ReplicaRunArgs replicaArgs;
    replicaArgs.runs = args.runs;
    replicaArgs.seed = args.seed;
    replicaArgs.check = args.check;
    replicaArgs.threads = args.threads;
    replicaArgs.inputsDir = args.inputsDir;
    replicaArgs.saveInputsDir = args.saveInputsDir;
    replicaArgs.outputsDir = args.outputsDir;
    replicaArgs.eventFolder = eventFolder.empty() ? "." : eventFolder;
    replicaArgs.progress = progress;
    int code = runReplicas(replicaArgs, flags, **program, **graph, events,
                           trace.get());
    if (trace) {
      if (Error err = trace->commit())
        fail(toString(std::move(err)));
      outs() << "trace: " << flags.traceJson << ", " << trace->events()
             << " events (" << traceCompile << ")\n";
    }
    return code;
  }

  if (trace) {
    profile->setTrace(&trace->lane(0));
    device.setHostThreadListener(&trace->lane(0));
  }

  // Inputs: from .npy files, or seeded data per parameter; the same every
  // run.
  std::vector<HostTensor> inputs;
  for (const auto &[i, p] : llvm::enumerate(exe.parameters())) {
    std::optional<DType> d = parseDType(p.dtype());
    if (!d)
      fail(args.executable + ": parameter '" + p.name() + "' has element type '" +
           p.dtype() + "'");
    std::vector<int64_t> shape(p.shape().begin(), p.shape().end());
    if (args.inputsDir.empty()) {
      inputs.push_back(runner::seededTensor(*d, shape, args.seed,
                                            runner::inputStream(i)));
      continue;
    }
    Expected<HostTensor> t = readNpyAs(npyPath(args.inputsDir, "arg", i), *d,
                                       shape, "parameter '" + p.name() + "'");
    if (!t)
      fail(toString(t.takeError()));
    inputs.push_back(std::move(*t));
  }
  if (!args.inputsDir.empty())
    outs() << "  inputs from " << args.inputsDir << "/arg*.npy\n";
  if (!args.saveInputsDir.empty())
    writeAll(args.saveInputsDir, "arg", inputs);

  std::vector<HostTensor> outputs;
  std::vector<double> times;
  runtime::RunRecord lastRecord;
  for (int64_t run = 0; run < args.runs; ++run) {
    if (progress)
      errs() << "\r" << kTool << ": run " << run + 1 << "/" << args.runs
             << "   ";
    runtime::RunRecord record;
    infeed.reset();
    if (profile)
      if (Error err = profile->beginRun(run))
        fail(toString(std::move(err)));
    int64_t start = nowNs();
    if (trace)
      trace->beginRun(run, start);
    auto t0 = std::chrono::steady_clock::now();
    Expected<std::vector<HostTensor>> out =
        device.run(inputs, record, args.synthetic);
    auto t1 = std::chrono::steady_clock::now();
    if (!out) {
      if (progress)
        errs() << "\n";
      fail(toString(out.takeError()));
    }
    int64_t ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count();
    times.push_back(ns / 1e6);
    Execute execute;
    execute.set_run_index(run);
    execute.set_duration_ns(ns);
    if (profile)
      if (Error err = profile->endRun(run, ns, execute))
        fail(toString(std::move(err)));
    if (trace)
      trace->endRun(start + ns, {profile->clock()->cycles()});
    events.run(start, ns, record, std::move(execute));
    outputs = std::move(*out);
    lastRecord = std::move(record);
  }
  if (progress)
    errs() << "\r" << std::string(kTool.size() + 24, ' ') << "\r";
  auto [mean, lo, hi] = summarizeTimes(times);
  outs() << "ran " << args.runs << (args.runs == 1 ? " time" : " times")
         << (args.synthetic ? " on synthetic data" : "") << ": mean "
         << formatMs(mean) << ", min " << formatMs(lo) << ", max "
         << formatMs(hi) << format(" (%.1f runs/s)\n", 1000.0 / mean);

  if (profile)
    profile->printSummary(outs(), 5);
  if (trace) {
    if (Error err = trace->commit())
      fail(toString(std::move(err)));
    outs() << "trace: " << flags.traceJson << ", " << trace->events()
           << " events (" << traceCompile << ")\n";
  }

  if (!args.outputsDir.empty())
    writeAll(args.outputsDir, "out", outputs);
  std::optional<bool> opsPass;
  bool expectedPass = true;
  if (!args.expectedDir.empty())
    expectedPass = compareWithFiles(exe, outputs, args.expectedDir,
                                    runner::outputTolerances((*graph)->entry()));
  if (args.checkOps)
    opsPass = printOpChecks(
        runner::checkOps(**graph, **program, device, lastRecord, inputs,
                         args.seed));
  bool storagePass = true;
  if (args.checkStorage)
    storagePass =
        checkStorage(**program, /*mainIsPrivate=*/args.checkOps, **graph,
                     inputs, outputs, args.seed, args.threads);
  bool pass = expectedPass && opsPass.value_or(true) && storagePass;
  if (args.check) {
    // A normalized model is checked against the reference on the model as
    // written, so the check covers the normalization too.
    std::unique_ptr<runner::GraphModule> source;
    if (!exe.source_module().empty()) {
      Expected<std::unique_ptr<runner::GraphModule>> parsed =
          runner::GraphModule::parse(exe, args.executable, graph->get());
      if (!parsed)
        fail(toString(parsed.takeError()));
      source = std::move(*parsed);
    }
    pass &= checkOutputs(source ? *source : **graph, exe, inputs, outputs,
                         args.seed, opsPass, /*asWritten=*/source != nullptr);
  }
  return pass ? 0 : 1;
}
