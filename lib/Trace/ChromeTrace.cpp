//===- ChromeTrace.cpp - Chrome Trace Event JSON of a compile -------------===//

#include "tessera/Trace/ChromeTrace.h"

#include <algorithm>

using json = nlohmann::ordered_json;

namespace tessera {

namespace {
constexpr int kPid = 1;
constexpr int kTid = 1;

/// Microseconds, fractional: Chrome JSON's ts/dur are always in us.
double micros(int64_t ns) { return static_cast<double>(ns) / 1000.0; }

json metadata(const char *name, json args, bool withThread) {
  json event = {{"ph", "M"}, {"pid", kPid}};
  if (withThread)
    event["tid"] = kTid;
  event["name"] = name;
  event["args"] = std::move(args);
  return event;
}

json slice(const std::string &name, const char *category, int64_t startNs,
           int64_t durationNs, json args) {
  return {{"ph", "X"},
          {"pid", kPid},
          {"tid", kTid},
          {"cat", category},
          {"name", name},
          {"ts", micros(startNs)},
          {"dur", micros(durationNs)},
          {"args", std::move(args)}};
}
} // namespace

json buildCompileChromeTrace(llvm::ArrayRef<CompileSpan> spans,
                             llvm::StringRef processName) {
  json events = json::array();
  events.push_back(
      metadata("process_name", {{"name", processName.str()}}, false));
  events.push_back(metadata("process_sort_index", {{"sort_index", 0}}, false));
  events.push_back(metadata("thread_name", {{"name", "compiler"}}, true));
  events.push_back(metadata("thread_sort_index", {{"sort_index", 0}}, true));
  for (const CompileSpan &span : spans) {
    int64_t spanEnd = span.startNs + span.durationNs;
    events.push_back(slice("COMPILE " + span.moduleName, "compile",
                           span.startNs, span.durationNs,
                           {{"module", span.moduleName},
                            {"module_id", span.moduleId},
                            {"target", span.target},
                            {"failed", span.failed}}));
    // Ends of the currently open ancestors, by depth: a child is clamped
    // into its parent so rounding can never make slices overlap.
    std::vector<int64_t> openEnds = {spanEnd};
    for (const PassTiming &pass : span.passes) {
      openEnds.resize(std::min<size_t>(openEnds.size(), pass.depth + 1));
      int64_t parentEnd = openEnds.back();
      int64_t start = std::min(span.startNs + pass.startNs, parentEnd);
      int64_t end = std::min(start + pass.durationNs, parentEnd);
      events.push_back(slice(pass.name, "pass", start, end - start,
                             {{"ops_before", pass.opsBefore},
                              {"ops_after", pass.opsAfter},
                              {"failed", pass.failed}}));
      openEnds.push_back(end);
    }
  }
  return {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ns"}};
}

} // namespace tessera
