//===- ProfMonitor.cpp - tessera-prof monitor: follow a running job -------===//
//
// Prints one line per run as a running tessera-run appends its EXECUTE
// events: wall time, and from the execution report (every run, or every
// report_every_nth_execution-th) the device time, FLOPS utilization, tile
// idle share and input-bound share. Reads the event file with
// EventFileTail, so memory stays one window whatever the job's length, and
// a record still being written waits for the next poll.
//
//===----------------------------------------------------------------------===//

#include "ProfCommands.h"
#include "RunSummary.h"

#include "tessera/Support/TextReport.h"
#include "tessera/Trace/EventFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <ctime>
#include <set>
#include <thread>

using namespace llvm;
using json = nlohmann::ordered_json;

namespace tessera::prof {

namespace {

struct Options {
  std::string module;
  bool follow = false, json = false;
  std::optional<int64_t> count;
  std::optional<double> idleExit;
};

std::optional<Options> parseOptions(ArrayRef<std::string> args) {
  Options o;
  for (StringRef a : args) {
    if (a == "--follow" || a == "-f") {
      o.follow = true;
    } else if (a == "--json") {
      o.json = true;
    } else if (a.consume_front("--module=")) {
      o.module = a.str();
    } else if (a.consume_front("--count=")) {
      int64_t n;
      if (a.getAsInteger(10, n) || n < 1) {
        fail("--count needs an integer >= 1, got '" + a + "'");
        return std::nullopt;
      }
      o.count = n;
    } else if (a.consume_front("--idle-exit=")) {
      double s;
      if (a.getAsDouble(s) || !(s > 0) || s > 1e6) {
        fail("--idle-exit needs seconds > 0, got '" + a + "'");
        return std::nullopt;
      }
      o.idleExit = s;
    } else {
      fail("monitor: unknown option '" + a + "'");
      return std::nullopt;
    }
  }
  if ((o.count || o.idleExit) && !o.follow) {
    fail("monitor: --count and --idle-exit end --follow; without it the "
         "command stops at the end of the file");
    return std::nullopt;
  }
  return o;
}

std::string clockTime(int64_t unixNs) {
  std::time_t secs = static_cast<std::time_t>(unixNs / 1000000000);
  std::tm tm{};
  localtime_r(&secs, &tm);
  char buf[16];
  std::strftime(buf, sizeof(buf), "%H:%M:%S", &tm);
  return formatv("{0}.{1:d3}", buf, (unixNs / 1000000) % 1000).str();
}

/// "1.70 us", "18.99 ms", "2.31 s": a run's times span nanoseconds to
/// seconds.
std::string duration(double seconds) {
  if (seconds >= 1)
    return formatv("{0:f2} s", seconds).str();
  if (seconds >= 1e-3)
    return formatv("{0:f2} ms", seconds * 1e3).str();
  return formatv("{0:f2} us", seconds * 1e6).str();
}

/// Module names are long (XLA's "pmap_spmd_update__3.268"): the column
/// keeps their end, where they differ.
std::string moduleColumn(StringRef name) {
  constexpr size_t kWidth = 24;
  if (name.size() <= kWidth)
    return name.str();
  return "..." + name.take_back(kWidth - 3).str();
}

std::string percent(double share) {
  return formatv("{0:f1}%", 100.0 * share).str();
}

class Monitor {
public:
  Monitor(const Options &o, StringRef path) : o(o), path(path.str()) {
    baseDir = sys::path::parent_path(path).str();
  }

  /// Handles one event; false once --count runs were printed.
  bool handle(const TraceEvent &e) {
    if (!o.module.empty() && e.module_name() != o.module)
      return true;
    if (e.type() == TraceEvent::COMPILE_END && !o.json) {
      note(e, "compiled in " + duration(e.compile_end().duration_ns() / 1e9));
    } else if (e.type() == TraceEvent::LOAD_ENGINE && !o.json) {
      note(e, "loaded");
    } else if (e.type() == TraceEvent::EXECUTE) {
      printRun(e);
      ++runs;
    }
    return !o.count || runs < *o.count;
  }

  int64_t runsPrinted() const { return runs; }

private:
  void header() {
    if (headerDone || o.json)
      return;
    headerDone = true;
    outs() << formatv("{0,-12} {1,-24} {2,5} {3,10} {4,10} {5,14} {6,6} "
                      "{7,6} {8,6}\n",
                      "time", "module", "run", "wall", "device", "cycles",
                      "util", "idle", "input");
  }

  void note(const TraceEvent &e, StringRef what) {
    header();
    outs() << formatv("{0,-12} {1,-24} {2}\n", clockTime(e.timestamp_ns()),
                      moduleColumn(e.module_name()), what);
    outs().flush();
  }

  void printRun(const TraceEvent &e) {
    std::optional<runtime::ExecutionReport> report;
    std::string why;
    if (e.execute().has_execution_report()) {
      Expected<runtime::ExecutionReport> r = readExecutionReport(e, baseDir);
      if (r)
        report = std::move(*r);
      else
        why = toString(r.takeError());
    }
    std::optional<RunFigures> f;
    if (report)
      f = runFigures(*report);
    int64_t run = e.execute().run_index() + 1;
    double wallMs = e.execute().duration_ns() / 1e6;
    // A replica's run says which device ran it: "3@1" is run 3 on device 1.
    if (e.ordinal() != 0 || (report && report->replicas > 1))
      replicated.insert(e.module_name());
    bool replicated = this->replicated.count(e.module_name());
    std::string runText = std::to_string(run);
    if (replicated)
      runText += "@" + std::to_string(e.ordinal());
    if (o.json) {
      json line{{"time_unix_ns", e.timestamp_ns()},
                {"module", e.module_name()},
                {"run", run},
                {"wall_ms", wallMs}};
      if (replicated)
        line["device"] = e.ordinal();
      if (f) {
        line["device_ms"] = f->stepSeconds * 1e3;
        line["cycles"] = report->cycles;
        line["flops_utilization"] = f->utilization;
        line["device_idle"] = f->idle ? json(*f->idle) : json(nullptr);
        line["input_bound"] = f->inputBound;
      } else if (!why.empty()) {
        line["note"] = why;
      }
      outs() << line.dump() << "\n";
      outs().flush();
      return;
    }
    header();
    std::string dash = "-";
    outs() << formatv(
        "{0,-12} {1,-24} {2,5} {3,10} {4,10} {5,14} {6,6} "
        "{7,6} {8,6}",
        clockTime(e.timestamp_ns()), moduleColumn(e.module_name()), runText,
        duration(wallMs / 1e3), f ? duration(f->stepSeconds) : dash,
        f ? groupDigits(report->cycles) : dash,
        f ? percent(f->utilization) : dash,
        f && f->idle ? percent(*f->idle) : dash,
        f ? percent(f->inputBound) : dash);
    if (!why.empty())
      outs() << "  (" << why << ")";
    outs() << "\n";
    outs().flush();
  }

  const Options &o;
  std::string path, baseDir;
  int64_t runs = 0;
  /// Modules seen running on several replicas: their runs name the device
  /// even when their report does not say (an unreported run).
  std::set<std::string> replicated;
  bool headerDone = false;
};

} // namespace

int runMonitorCommand(StringRef eventsPath, ArrayRef<std::string> args) {
  std::optional<Options> o = parseOptions(args);
  if (!o)
    return 1;
  using Clock = std::chrono::steady_clock;
  constexpr auto kPoll = std::chrono::milliseconds(100);
  Clock::time_point lastNews = Clock::now();
  auto idleTooLong = [&] {
    return o->idleExit &&
           std::chrono::duration<double>(Clock::now() - lastNews).count() >=
               *o->idleExit;
  };

  // Following a job that has not started yet: wait for its file.
  if (o->follow && !sys::fs::exists(eventsPath)) {
    errs() << "tessera-prof: waiting for " << eventsPath << "\n";
    while (!sys::fs::exists(eventsPath)) {
      if (idleTooLong())
        return fail("monitor: " + eventsPath + " did not appear within " +
                    formatv("{0}", *o->idleExit).str() + " s");
      std::this_thread::sleep_for(kPoll);
    }
  }

  Monitor monitor(*o, eventsPath);
  Expected<std::unique_ptr<EventFileTail>> tail =
      EventFileTail::open(eventsPath);
  if (!tail)
    return fail(toString(tail.takeError()));
  sys::fs::UniqueID id;
  if (std::error_code ec = sys::fs::getUniqueID(eventsPath, id))
    return fail("cannot read '" + eventsPath + "': " + ec.message());
  bool more = true;
  auto onEvent = [&](TraceEvent &e, uint64_t) {
    more = more && monitor.handle(e);
    return Error::success();
  };
  while (true) {
    Expected<size_t> read = (*tail)->read(onEvent, /*final=*/!o->follow);
    if (!read)
      return fail(toString(read.takeError()));
    if (!more)
      return 0;
    if (const std::optional<EventFileDamage> &d = (*tail)->damage())
      return fail(eventsPath + ": " + d->describe());
    if (!o->follow)
      return 0;
    if (*read > 0)
      lastNews = Clock::now();
    else if (idleTooLong())
      return 0;
    // A new job writing the file afresh (a new file, or this one cut
    // short): start again from its beginning.
    sys::fs::file_status status;
    sys::fs::UniqueID now;
    if (!sys::fs::getUniqueID(eventsPath, now) &&
        !sys::fs::status(eventsPath, status) &&
        (now != id || status.getSize() < (*tail)->bytesRead())) {
      Expected<std::unique_ptr<EventFileTail>> fresh =
          EventFileTail::open(eventsPath);
      if (!fresh)
        return fail(toString(fresh.takeError()));
      tail = std::move(fresh);
      id = now;
      errs() << "tessera-prof: " << eventsPath
             << " was started again; reading it from the beginning\n";
      continue;
    }
    std::this_thread::sleep_for(kPoll);
  }
}

} // namespace tessera::prof
