//===- RunReplicas.cpp - tessera-run on a program of several replicas -----===//

#include "RunReplicas.h"

#include "RunChecks.h"
#include "RunProfile.h"

#include "tessera/Support/Npy.h"
#include "tessera/Trace/ReportSink.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <thread>

using namespace llvm;
using namespace tessera;
using namespace tessera::run;

/// Runs fn(d) for every replica on its own thread and returns the first
/// error; a replica that fails aborts the rendezvous, so the others stop
/// waiting for it.
static Error forEachReplica(int64_t replicas, Rendezvous &rendezvous,
                            function_ref<Error(int64_t)> fn) {
  std::vector<std::string> errors(replicas);
  std::vector<std::thread> threads;
  for (int64_t d = 0; d < replicas; ++d)
    threads.emplace_back([&, d] {
      if (Error e = fn(d)) {
        errors[d] = toString(std::move(e));
        rendezvous.abort("replica " + std::to_string(d) + " failed");
      }
    });
  for (std::thread &t : threads)
    t.join();
  // The first replica that failed for a reason of its own, not because
  // another's failure ended its wait.
  for (int64_t d = 0; d < replicas; ++d)
    if (!errors[d].empty() && errors[d].find("failed") == std::string::npos)
      return createStringError("replica " + Twine(d) + ": " + errors[d]);
  for (int64_t d = 0; d < replicas; ++d)
    if (!errors[d].empty())
      return createStringError("replica " + Twine(d) + ": " + errors[d]);
  return Error::success();
}

int tessera::run::runReplicas(const ReplicaRunArgs &args,
                              const TesseraFlags &flags,
                              const runtime::Program &program,
                              runner::GraphModule &graph, EventLog &events,
                              RunTrace *trace) {
  const exe::Executable &exe = program.executable();
  int64_t replicas = program.replicas();
  std::string replicaDir = "replica";

  // Inputs per replica: seed + d, or DIR/replicaD/arg*.npy.
  std::vector<std::vector<HostTensor>> inputs(replicas);
  for (int64_t d = 0; d < replicas; ++d) {
    for (const auto &[i, p] : llvm::enumerate(exe.parameters())) {
      std::optional<DType> dtype = parseDType(p.dtype());
      if (!dtype)
        fail("parameter '" + p.name() + "' has element type '" + p.dtype() +
             "'");
      std::vector<int64_t> shape(p.shape().begin(), p.shape().end());
      if (args.inputsDir.empty()) {
        inputs[d].push_back(runner::seededTensor(*dtype, shape, args.seed + d,
                                                 runner::inputStream(i)));
        continue;
      }
      std::string dir = args.inputsDir + "/" + replicaDir + std::to_string(d);
      Expected<HostTensor> t = readNpyAs(npyPath(dir, "arg", i), *dtype, shape,
                                         "parameter '" + p.name() + "'");
      if (!t)
        fail(toString(t.takeError()));
      inputs[d].push_back(std::move(*t));
    }
    if (!args.saveInputsDir.empty())
      writeAll(args.saveInputsDir + "/" + replicaDir + std::to_string(d), "arg",
               inputs[d]);
  }

  // One device per replica, sharing the loaded program; the pool's threads
  // are split between them.
  unsigned cores = args.threads
                       ? args.threads
                       : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::unique_ptr<runner::InfeedSource>> infeeds;
  std::vector<std::unique_ptr<runner::InterpreterHostOps>> hostOps;
  std::vector<std::unique_ptr<runtime::Device>> devices;
  std::vector<std::unique_ptr<RunProfile>> profiles;
  for (int64_t d = 0; d < replicas; ++d) {
    profiles.push_back(RunProfile::create(flags, program, args.eventFolder, d));
    infeeds.push_back(std::make_unique<runner::InfeedSource>(args.seed + d));
    // Elided constants and rng draw from the run's seed on every replica
    // (the weights are the same); inputs and infeeds differ per replica.
    hostOps.push_back(std::make_unique<runner::InterpreterHostOps>(
        graph, args.seed, *infeeds.back()));
    hostOps.back()->setDevice(d);
    runtime::DeviceOptions options;
    options.threads = std::max<unsigned>(1, cores / replicas);
    options.hostOps = hostOps.back().get();
    options.device = d;
    if (profiles.back())
      options.clock = profiles.back()->clock();
    runner::InfeedSource *infeed = infeeds.back().get();
    options.infeed = [infeed](const runtime::BufferLayout &b) {
      return Expected<HostTensor>(infeed->next(b.dtype, b.shape));
    };
    devices.push_back(std::make_unique<runtime::Device>(program, options));
    runner::fillElidedConstants(program, *devices.back(), args.seed);
    if (trace) {
      profiles.back()->setTrace(&trace->lane(d));
      devices.back()->setHostThreadListener(&trace->lane(d));
    }
  }
  if (args.inputsDir.empty())
    outs() << "  replica d's inputs are seeded with " << args.seed << " + d\n";
  else
    outs() << "  replica d's inputs from " << args.inputsDir
           << "/replicaD/arg*.npy\n";

  std::vector<std::vector<HostTensor>> outputs(replicas);
  std::vector<runtime::RunRecord> records(replicas);
  std::vector<int64_t> replicaNs(replicas);
  std::vector<double> times;
  for (int64_t run = 0; run < args.runs; ++run) {
    if (args.progress)
      errs() << "\rtessera-run: run " << run + 1 << "/" << args.runs << "   ";
    for (const std::unique_ptr<RunProfile> &profile : profiles)
      if (profile)
        if (Error err = profile->beginRun(run))
          fail(toString(std::move(err)));
    Rendezvous rendezvous(replicas);
    int64_t start = unixTimeNs();
    if (trace)
      trace->beginRun(run, start);
    Error err = forEachReplica(replicas, rendezvous, [&](int64_t d) -> Error {
      // Each device meets the others at this run's rendezvous.
      infeeds[d]->reset();
      records[d] = runtime::RunRecord();
      devices[d]->setRendezvous(&rendezvous);
      int64_t replicaStart = unixTimeNs();
      Expected<std::vector<HostTensor>> out =
          devices[d]->run(inputs[d], records[d]);
      replicaNs[d] = unixTimeNs() - replicaStart;
      if (!out)
        return out.takeError();
      outputs[d] = std::move(*out);
      return Error::success();
    });
    if (err) {
      if (args.progress)
        errs() << "\n";
      fail(toString(std::move(err)));
    }
    int64_t end = unixTimeNs();
    times.push_back((end - start) / 1e6);
    std::vector<int64_t> cycles(replicas, 0);
    for (int64_t d = 0; d < replicas; ++d) {
      Execute execute;
      execute.set_run_index(run);
      execute.set_duration_ns(replicaNs[d]);
      if (profiles[d]) {
        if (Error err = profiles[d]->endRun(run, replicaNs[d], execute))
          fail(toString(std::move(err)));
        cycles[d] = profiles[d]->clock()->cycles();
      }
      events.run(start, replicaNs[d], records[d], std::move(execute),
                 static_cast<int32_t>(d));
    }
    if (trace)
      trace->endRun(end, cycles);
  }
  if (args.progress)
    errs() << "\r" << std::string(36, ' ') << "\r";
  auto [mean, lo, hi] = summarizeTimes(times);
  outs() << "ran " << args.runs << (args.runs == 1 ? " time" : " times")
         << " on " << replicas << " replicas: mean " << formatMs(mean)
         << ", min " << formatMs(lo) << ", max " << formatMs(hi)
         << format(" (%.1f chip-runs/s simulated)\n",
                   1000.0 * replicas * program.chips() / mean);
  if (profiles[0]) {
    // Replicas run the same steps; only data-dependent control flow or
    // host work can make one slower, and the collectives wait for it.
    int64_t fastest = INT64_MAX, slowest = 0;
    for (const std::unique_ptr<RunProfile> &profile : profiles) {
      fastest = std::min(fastest, profile->clock()->cycles());
      slowest = std::max(slowest, profile->clock()->cycles());
    }
    outs() << "replica 0's ";
    profiles[0]->printSummary(outs(), 5);
    if (fastest != slowest)
      outs() << "  the replicas' step times range from " << fastest << " to "
             << slowest << " cycles\n";
    else
      outs() << "  every replica took " << slowest << " cycles\n";
  }
  if (!args.outputsDir.empty())
    for (int64_t d = 0; d < replicas; ++d)
      writeAll(args.outputsDir + "/" + replicaDir + std::to_string(d), "out",
               outputs[d]);
  if (!args.check)
    return 0;

  // The reference: one interpreter evaluation per replica, meeting at the
  // collectives as the devices did.
  std::vector<std::vector<HostTensor>> reference(replicas);
  Rendezvous rendezvous(replicas);
  int64_t start = unixTimeNs();
  Error err = forEachReplica(replicas, rendezvous, [&](int64_t d) -> Error {
    runner::InfeedSource infeed(args.seed + d);
    interp::Options options =
        runner::referenceOptions(graph, args.seed, true, infeed);
    options.device = d;
    options.rendezvous = &rendezvous;
    Expected<std::vector<HostTensor>> ref =
        interp::interpretFunction(graph.entry(), inputs[d], options);
    if (!ref)
      return ref.takeError();
    reference[d] = std::move(*ref);
    return Error::success();
  });
  if (err)
    fail("the reference interpreter: " + toString(std::move(err)));
  outs() << "check against the reference interpreter (f64, " << replicas
         << " replicas, " << formatMs((unixTimeNs() - start) / 1e6) << "):\n  "
         << left_justify("output", 16) << " " << left_justify("type", 20)
         << "  max abs err  max rel err     norm err  tolerance  result\n";
  std::vector<double> tolerances = runner::outputTolerances(graph.entry());
  bool pass = true;
  for (int64_t d = 0; d < replicas; ++d) {
    if (reference[d].size() != outputs[d].size())
      fail("the reference gives " + Twine(reference[d].size()) +
           " outputs, the device " + Twine(outputs[d].size()));
    for (size_t k = 0; k < outputs[d].size(); ++k) {
      std::optional<double> tol;
      if (tolerances.size() == outputs[d].size())
        tol = tolerances[k];
      std::string name =
          "r" + std::to_string(d) + "/" +
          (k < size_t(exe.outputs_size()) ? exe.outputs(k).name()
                                          : "output_" + std::to_string(k));
      runner::OutputCheck c =
          runner::checkOutput(name, outputs[d][k], reference[d][k], tol);
      pass &= c.pass;
      outs() << format("  %-16s %-20s %12.3g %12.3g %12.3g %10.3g  %s\n",
                       c.name.c_str(), c.type.c_str(), c.maxAbsErr, c.maxRelErr,
                       c.normErr, c.tolerance,
                       c.pass ? static_cast<const char *>("PASS") : "FAIL");
    }
  }
  outs() << "check: " << (pass ? "PASS" : "FAIL") << "\n";
  return pass ? 0 : 1;
}
