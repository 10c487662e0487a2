//===- ProfTrace.cpp - tessera-prof trace and merge -------------------------===//
//
// `trace`: an event file's job (compiles with their passes, loads, runs,
// transfers) as Chrome Trace Event JSON, a process per module.
// `merge`: several Chrome traces into one, a process per source process,
// names prefixed by their file, time bases aligned on the wall clock when
// the traces say where their ts 0 is (otherData.origin_unix_ns, written by
// every Tessera trace). Merge streams: each event is parsed (nlohmann's
// SAX interface), renumbered and written on, so memory holds one event.
//
//===----------------------------------------------------------------------===//

#include "ProfCommands.h"

#include "tessera/Trace/AtomicFile.h"
#include "tessera/Trace/ChromeTrace.h"
#include "tessera/Trace/EventFile.h"
#include "tessera/Trace/EventQuery.h"
#include "tessera/Trace/TraceEventWriter.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <set>

using namespace llvm;
using json = nlohmann::json;

namespace tessera::prof {

namespace {

/// "-o FILE" / "-o=FILE" / "--output=FILE"; the rest are left in `rest`.
std::optional<std::string> outputOf(ArrayRef<std::string> args,
                                    std::vector<std::string> &rest) {
  std::optional<std::string> out;
  for (size_t i = 0; i < args.size(); ++i) {
    StringRef a = args[i];
    if (a == "-o" && i + 1 < args.size())
      out = args[++i];
    else if (a.consume_front("-o=") || a.consume_front("--output="))
      out = a.str();
    else
      rest.push_back(a.str());
  }
  return out;
}

enum EventThread {
  kCompile = 1,
  kRuntime = 2,
  kTransfers = 3,
  kCompileAlongside = 4 ///< compile phases on a thread of their own
};
/// The runtime and transfers tracks of device d > 0 (a replica's, whose
/// runs overlap device 0's): kDeviceTracks + 2d and + 2d + 1.
constexpr int kDeviceTracks = 100;

/// Writes the trace of `path` as it reads it: memory holds one record, plus
/// one pending COMPILE_BEGIN per module. ts 0 is the first record's time
/// (the earliest, as tools append events in time order; an earlier one
/// would get a negative ts).
Error writeEventTrace(StringRef path, raw_ostream &os,
                      std::optional<EventFileDamage> &damage) {
  std::unique_ptr<TraceEventWriter> writer;
  int64_t origin = 0;
  StringMap<int> pids;
  std::set<int> alongsideNamed; ///< pids whose alongside track has its name
  std::string lastModule;
  int pid = 0;
  bool first = true;
  // The COMPILE_BEGIN of each module, waiting for its COMPILE_END.
  StringMap<TraceEvent> begins;
  // (pid, device) pairs whose tracks are named.
  std::set<std::pair<int, int64_t>> devicesNamed;
  Expected<EventFileScan> scan = scanEventFile(path, [&](TraceEvent &e,
                                                         uint64_t) {
    if (first) {
      // An empty module name is a name too: force the first lookup.
      first = false;
      lastModule = e.module_name() + "-";
    }
    if (!writer) {
      origin = e.timestamp_ns();
      writer = std::make_unique<TraceEventWriter>(os, origin);
    }
    TraceEventWriter &w = *writer;
    // Logs are long runs of one module: look its pid up only on a change.
    bool added = false;
    if (e.module_name() != lastModule) {
      auto [it, inserted] =
          pids.try_emplace(e.module_name(), pids.size() + 1);
      added = inserted;
      lastModule = e.module_name();
      pid = it->second;
    }
    if (added) {
      w.processName(pid, e.module_name(), pid);
      w.threadName(pid, kCompile, "compile", 0);
      w.threadName(pid, kRuntime, "runtime", 1);
      w.threadName(pid, kTransfers, "transfers", 2);
    }
    int64_t at = e.timestamp_ns() - origin;
    // A run's events on its device's tracks: device 0's are the module's.
    int64_t device = std::clamp<int64_t>(e.ordinal(), 0, 1 << 16);
    int runtimeTid = kRuntime, transfersTid = kTransfers;
    if (device > 0) {
      runtimeTid = kDeviceTracks + 2 * static_cast<int>(device);
      transfersTid = runtimeTid + 1;
      if (devicesNamed.insert({pid, device}).second) {
        std::string d = "device " + std::to_string(device) + ": ";
        w.threadName(pid, runtimeTid, d + "runtime", runtimeTid);
        w.threadName(pid, transfersTid, d + "transfers", transfersTid);
      }
    }
    switch (e.type()) {
    case TraceEvent::COMPILE_BEGIN:
      begins[e.module_name()] = e;
      break;
    case TraceEvent::COMPILE_END: {
      auto begin = begins.find(e.module_name());
      const CompileEnd &end = e.compile_end();
      CompileSpan span;
      span.moduleName = e.module_name();
      span.moduleId = end.module_id();
      span.durationNs = end.duration_ns();
      span.cached = end.cached();
      // Without its begin, the compile ended at the event's time.
      bool hasBegin = begin != begins.end();
      span.startNs = hasBegin ? begin->second.timestamp_ns() - origin
                              : std::max<int64_t>(0, at - span.durationNs);
      if (hasBegin)
        span.target = begin->second.compile_begin().target();
      span.passes = passTimeline(end);
      if (hasAlongsidePhases(span) && alongsideNamed.insert(pid).second)
        w.threadName(pid, kCompileAlongside, "compile (alongside)", 3);
      writeCompileSlices(w, span, pid, kCompile, 0, kCompileAlongside);
      if (hasBegin)
        begins.erase(begin);
      break;
    }
    case TraceEvent::LOAD_ENGINE:
      w.slice(pid, kRuntime, "load", "load", at,
              at + e.load_engine().duration_ns(),
              {{"program_bytes", e.load_engine().program_size()}});
      break;
    case TraceEvent::EXECUTE: {
      const Execute &x = e.execute();
      char nameBuf[32];
      StringRef name(nameBuf,
                     std::snprintf(nameBuf, sizeof(nameBuf), "run %lld",
                                   static_cast<long long>(x.run_index() + 1)));
      TraceArg args[] = {{"run", x.run_index() + 1},
                         {"report_bytes", x.execution_report().size()}};
      if (x.duration_ns() > 0)
        w.slice(pid, runtimeTid, name, "run", at, at + x.duration_ns(), args);
      else
        w.instant(pid, runtimeTid, name, "run", at, args);
      break;
    }
    case TraceEvent::HOST_TO_DEVICE_TRANSFER:
    case TraceEvent::DEVICE_TO_HOST_TRANSFER:
      w.instant(pid, transfersTid,
                e.type() == TraceEvent::HOST_TO_DEVICE_TRANSFER ? "to device"
                                                                : "to host",
                "transfer", at,
                {{"bytes", e.transfer().total_size()},
                 {"tensors", e.transfer().tensors_size()}});
      break;
    default:
      break;
    }
    return Error::success();
  });
  if (!scan)
    return scan.takeError();
  damage = scan->damage;
  if (!writer)
    writer = std::make_unique<TraceEventWriter>(os, 0);
  writer->finish();
  return Error::success();
}

/// Builds each trace event as a json value and hands it on, keeping the
/// top-level otherData. Events are the elements of the top-level
/// "traceEvents" array, or of a top-level array (JSON Array Format); only
/// the event being read is in memory.
class EventSax {
public:
  using Callback = std::function<bool(json &)>;
  /// `stopAtEvents`: stop when the events start (to read otherData only).
  EventSax(Callback onEvent, bool stopAtEvents)
      : onEvent(onEvent), stopAtEvents(stopAtEvents) {}

  bool null() { return value(nullptr); }
  bool boolean(bool v) { return value(v); }
  bool number_integer(json::number_integer_t v) { return value(v); }
  bool number_unsigned(json::number_unsigned_t v) { return value(v); }
  bool number_float(json::number_float_t v, const std::string &) {
    return value(v);
  }
  bool string(std::string &v) { return value(std::move(v)); }
  bool binary(json::binary_t &) { return value(nullptr); }
  bool start_object(std::size_t) {
    if (state == Doc) {
      state = TopObject;
      return true;
    }
    stack.push_back({json::object(), ""});
    return true;
  }
  bool start_array(std::size_t) {
    if (state == Doc || (state == TopObject && stack.empty() &&
                         topKey == "traceEvents")) {
      bareArray = state == Doc;
      state = Events;
      sawEvents = true;
      return !stopAtEvents;
    }
    stack.push_back({json::array(), ""});
    return true;
  }
  bool key(std::string &k) {
    (stack.empty() ? topKey : stack.back().key) = k;
    return true;
  }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool parse_error(std::size_t position, const std::string &,
                   const nlohmann::detail::exception &ex) {
    error = "at byte " + std::to_string(position) + ": " + ex.what();
    return false;
  }

  json otherData;
  std::string error;
  bool sawEvents = false;

private:
  enum State { Doc, TopObject, Events };
  struct Frame {
    json value;
    std::string key; ///< of the member being read, in an object
  };

  void attach(json v) {
    Frame &f = stack.back();
    if (f.value.is_object())
      f.value[f.key] = std::move(v);
    else
      f.value.push_back(std::move(v));
  }
  bool value(json v) {
    if (!stack.empty())
      attach(std::move(v));
    return true; // else a top-level scalar member or a scalar event
  }
  bool close() {
    if (stack.empty()) { // the events array or the document ends
      state = state == Events && !bareArray ? TopObject : Doc;
      return true;
    }
    json done = std::move(stack.back().value);
    stack.pop_back();
    if (!stack.empty()) {
      attach(std::move(done));
      return true;
    }
    if (state == Events)
      return onEvent(done);
    if (topKey == "otherData")
      otherData = std::move(done);
    return true;
  }

  Callback onEvent;
  bool stopAtEvents;
  State state = Doc;
  bool bareArray = false;
  std::string topKey;
  std::vector<Frame> stack;
};

/// Streams `path` through `sax`; an error names the file.
Error parseTrace(StringRef path, EventSax &sax) {
  std::ifstream in(path.str(), std::ios::binary);
  if (!in)
    return createStringError(inconvertibleErrorCode(),
                             "cannot read '" + path + "'");
  bool ok = json::sax_parse(in, &sax, json::input_format_t::json, true);
  if (!ok && !sax.error.empty())
    return createStringError(inconvertibleErrorCode(),
                             path + ": not a Chrome trace: " + sax.error);
  return Error::success();
}

} // namespace

int runMergeCommand(ArrayRef<std::string> files, ArrayRef<std::string> args) {
  std::vector<std::string> rest;
  std::optional<std::string> out = outputOf(args, rest);
  if (!rest.empty())
    return fail("merge: unexpected argument '" + rest[0] + "'");
  if (!out)
    return fail("merge needs -o FILE");
  // Pass 1: where each trace's ts 0 is on the wall clock.
  std::vector<std::optional<int64_t>> origins;
  for (const std::string &path : files) {
    EventSax sax([](json &) { return true; }, /*stopAtEvents=*/true);
    if (Error err = parseTrace(path, sax))
      return fail(toString(std::move(err)));
    const json *origin = sax.otherData.is_object() &&
                                 sax.otherData.contains("origin_unix_ns")
                             ? &sax.otherData["origin_unix_ns"]
                             : nullptr;
    origins.push_back(origin && origin->is_number_integer()
                          ? std::optional<int64_t>(origin->get<int64_t>())
                          : std::nullopt);
    if (!origins.back())
      errs() << "tessera-prof: warning: " << path
             << " does not say when its ts 0 is (otherData.origin_unix_ns); "
                "its times are kept as written\n";
  }
  int64_t first = 0;
  for (const std::optional<int64_t> &o : origins)
    if (o && (!first || *o < first))
      first = *o;

  // Pass 2: every event, renumbered, named and shifted.
  int64_t events = 0;
  Error err = writeFileAtomically(*out, [&](raw_ostream &os) -> Error {
    TraceEventWriter w(os, first);
    std::map<std::pair<size_t, std::string>, int> pids;
    std::set<int> named;
    StringMap<int> labelUses;
    for (auto [k, path] : llvm::enumerate(files)) {
      std::string label = sys::path::stem(path).str();
      if (int uses = labelUses[label]++)
        label += "#" + std::to_string(uses + 1);
      // On the 1/1024 us grid, so grid-aligned times stay exact.
      double shift =
          origins[k] ? TraceEventWriter::gridOf(*origins[k] - first) / 1024.0
                     : 0.0;
      std::vector<int> mine;
      EventSax sax(
          [&](json &e) {
            if (!e.is_object())
              return true;
            std::string oldPid = e.contains("pid") ? e["pid"].dump() : "";
            auto [it, added] = pids.try_emplace(
                std::make_pair(size_t(k), oldPid), int(pids.size()) + 1);
            if (added)
              mine.push_back(it->second);
            e["pid"] = it->second;
            if (e.value("ph", "") == "M" &&
                e.value("name", "") == "process_name" &&
                e.contains("args") && e["args"].is_object()) {
              json &args = e["args"];
              args["name"] =
                  label + ": " +
                  (args.contains("name") && args["name"].is_string()
                       ? args["name"].get<std::string>()
                       : "pid " + oldPid);
              named.insert(it->second);
            }
            if (shift != 0 && e.contains("ts") && e["ts"].is_number())
              e["ts"] = e["ts"].get<double>() + shift;
            w.raw(e.dump(-1, ' ', false, json::error_handler_t::replace));
            ++events;
            return true;
          },
          /*stopAtEvents=*/false);
      if (Error err = parseTrace(path, sax))
        return err;
      for (int pid : mine)
        if (!named.count(pid)) {
          w.processName(pid, label + ": process", pid);
          named.insert(pid);
        }
    }
    w.finish();
    return Error::success();
  });
  if (err)
    return fail(toString(std::move(err)));
  outs() << "merged " << events << " events of " << files.size()
         << " traces into " << *out << "\n";
  return 0;
}

int runTraceCommand(StringRef eventsPath, ArrayRef<std::string> args) {
  std::vector<std::string> rest;
  std::optional<std::string> out = outputOf(args, rest);
  if (!rest.empty())
    return fail("trace: unexpected argument '" + rest[0] + "'");
  std::optional<EventFileDamage> damage;
  if (Error err = writeFileAtomically(out.value_or("-"), [&](raw_ostream &os) {
        return writeEventTrace(eventsPath, os, damage);
      }))
    return fail(toString(std::move(err)));
  if (damage)
    errs() << "tessera-prof: warning: " << eventsPath << ": "
           << damage->describe() << "; traced what came before\n";
  return 0;
}

} // namespace tessera::prof
