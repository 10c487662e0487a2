//===- ProfDiff.cpp - tessera-prof diff: what did my change do? -----------===//
//
// Two event files (two compiles and runs of a model), side by side: memory
// per category and the most loaded tile from their last memory reports,
// cycles per op from their last execution reports, and the buffers whose
// size or tile spread changed. A table of the differences, or --json.
//
//===----------------------------------------------------------------------===//

#include "ProfCommands.h"
#include "RunSummary.h"

#include "tessera/Support/JsonFields.h"
#include "tessera/Support/TextReport.h"
#include "tessera/Trace/EventFile.h"
#include "tessera/Trace/EventQuery.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

using namespace llvm;
using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;
using namespace tessera::json_fields;

namespace tessera::prof {

namespace {

/// One side: the last memory report and the last execution report.
struct Side {
  std::string path, module;
  std::optional<json> memory;
  std::optional<runtime::ExecutionReport> execution;
};

Expected<Side> readSide(StringRef path, StringRef module) {
  Side side;
  side.path = path.str();
  std::string baseDir = sys::path::parent_path(path).str();
  Expected<EventFileScan> scan =
      scanEventFile(path, [&](TraceEvent &e, uint64_t) -> Error {
        if (!module.empty() && e.module_name() != module)
          return Error::success();
        if (hasExtractable(e, ExtractKind::MemoryReport)) {
          const Report *r = findReport(e, ExtractKind::MemoryReport);
          Expected<std::string> bytes =
              extractBytes(e, ExtractKind::MemoryReport, baseDir);
          if (!bytes)
            return bytes.takeError();
          if (r->format() != REPORT_FORMAT_TEXT) {
            json j = memory::expandMemoryReport(
                parseReportBytes<json>(*bytes, r->format()));
            if (j.is_object()) {
              side.memory = std::move(j);
              side.module = e.module_name();
            }
          }
        }
        // Device 0 speaks for a run of several replicas (RunSummary.h).
        if (e.type() == TraceEvent::EXECUTE && e.ordinal() == 0 &&
            e.execute().has_execution_report()) {
          Expected<runtime::ExecutionReport> r =
              readExecutionReport(e, baseDir);
          if (r) {
            side.execution = std::move(*r);
            side.module = e.module_name();
          } else {
            consumeError(r.takeError());
          }
        }
        return Error::success();
      });
  if (!scan)
    return scan.takeError();
  if (!side.memory && !side.execution)
    return createStringError("nothing to compare in " + path +
                             ": no memory or execution report" +
                             (module.empty() ? "" : " of '" + module + "'") +
                             " (compile and run with --profiling)");
  return side;
}

/// The integer at a path of keys; 0 when a step is missing or mistyped
/// (a report written by another version).
int64_t at(const json &j, std::initializer_list<const char *> path) {
  const json *v = &j;
  for (const char *key : path)
    v = &field(*v, key);
  return asInt(*v);
}

std::string delta(int64_t a, int64_t b) {
  int64_t d = b - a;
  std::string s = (d > 0 ? "+" : "") + groupDigits(d);
  if (a != 0 && d != 0)
    s += (d > 0 ? " (+" : " (") + formatv("{0:f1}", 100.0 * d / a).str() + "%)";
  return s;
}

struct Row {
  std::string what;
  int64_t a = 0, b = 0;
};

} // namespace

int runDiffCommand(ArrayRef<std::string> files, ArrayRef<std::string> args) {
  std::string module;
  bool asJson = false, all = false;
  // Rows per table on a terminal; the largest changes come first.
  int64_t top = 20;
  for (StringRef a : args) {
    if (a == "--json")
      asJson = true;
    else if (a == "--all")
      all = true;
    else if (a.consume_front("--top=")) {
      if (a.getAsInteger(10, top) || top < 1)
        return fail("--top needs an integer >= 1, got '" + a + "'");
    } else if (a.consume_front("--module="))
      module = a.str();
    else
      return fail("diff: unknown option '" + a + "'");
  }
  if (files.size() != 2)
    return fail("diff compares two event files (tessera-prof A.events "
                "B.events diff); got " +
                Twine(files.size()));
  Expected<Side> a = readSide(files[0], module);
  if (!a)
    return fail(toString(a.takeError()));
  Expected<Side> b = readSide(files[1], module);
  if (!b)
    return fail(toString(b.takeError()));

  std::vector<Row> memory, ops, buffers, mapping;
  if (a->memory && b->memory) {
    const json &sa = field(*a->memory, "summary"),
               &sb = field(*b->memory, "summary");
    memory.push_back({"total (incl. gaps)", at(sa, {"total_including_gaps"}),
                      at(sb, {"total_including_gaps"})});
    memory.push_back(
        {"always live", at(sa, {"always_live"}), at(sb, {"always_live"})});
    std::vector<std::string> categories;
    for (const json *s : {&sa, &sb})
      if (const json &byCategory = field(*s, "by_category");
          byCategory.is_object())
        for (auto &[k, v] : byCategory.items())
          if (llvm::find(categories, k) == categories.end())
            categories.push_back(k);
    for (const std::string &c : categories)
      memory.push_back({"  " + c, at(sa, {"by_category", c.c_str()}),
                        at(sb, {"by_category", c.c_str()})});
    memory.push_back({"peak of live buffers",
                      at(*a->memory, {"memory_viewer", "peak_bytes"}),
                      at(*b->memory, {"memory_viewer", "peak_bytes"})});
    memory.push_back({"most loaded tile (bytes)",
                      at(sa, {"max_tile_including_gaps", "bytes"}),
                      at(sb, {"max_tile_including_gaps", "bytes"})});
    memory.push_back({"tiles out of memory", at(sa, {"tiles_out_of_memory"}),
                      at(sb, {"tiles_out_of_memory"})});
    // Buffers by name: size and the number of tiles holding them.
    StringMap<std::pair<int64_t, int64_t>> before;
    for (const json &buf : listAt(*a->memory, "buffers"))
      if (buf.is_object())
        before[stringAt(buf, "name")] = {at(buf, {"size"}), at(buf, {"tiles"})};
    for (const json &buf : listAt(*b->memory, "buffers")) {
      if (!buf.is_object())
        continue;
      std::string name = stringAt(buf, "name");
      auto it = before.find(name);
      int64_t size = at(buf, {"size"});
      int64_t tiles = at(buf, {"tiles"});
      if (it == before.end()) {
        buffers.push_back({name + ": bytes (new)", 0, size});
        continue;
      }
      if (it->second.second != tiles)
        buffers.push_back({name + ": tiles", it->second.second, tiles});
      if (it->second.first != size)
        buffers.push_back({name + ": bytes", it->second.first, size});
      before.erase(it);
    }
    for (auto &[name, old] : before)
      buffers.push_back({name.str() + ": bytes (gone)", old.first, 0});
  }
  if (a->execution && b->execution) {
    ops.push_back({"(the run)", a->execution->cycles, b->execution->cycles});
    StringMap<int64_t> before;
    for (const auto &op : a->execution->ops)
      before[op.hlo] = op.cycles;
    for (const auto &op : b->execution->ops) {
      auto it = before.find(op.hlo);
      int64_t old = it == before.end() ? 0 : it->second;
      if (it != before.end())
        before.erase(it);
      ops.push_back({op.hlo, old, op.cycles});
    }
    for (auto &[hlo, cycles] : before)
      ops.push_back({hlo.str(), cycles, 0});
    // Largest changes first, after the run's total.
    std::stable_sort(ops.begin() + 1, ops.end(),
                     [](const Row &x, const Row &y) {
                       return std::abs(x.b - x.a) > std::abs(y.b - y.a);
                     });
  }
  // An op's mapping: the most tiles any of its steps ran on (chip and tile
  // profile levels list steps).
  if (a->execution && b->execution && !a->execution->steps.empty() &&
      !b->execution->steps.empty()) {
    auto tilesPerOp = [](const runtime::ExecutionReport &r) {
      std::vector<std::pair<std::string, int64_t>> order;
      StringMap<size_t> index;
      for (const auto &step : r.steps) {
        // Syncs span the chip and host copies no tiles: neither is a
        // mapping choice.
        if (step.op.empty() || step.kind == "sync" || step.kind == "host_copy")
          continue;
        auto [it, added] = index.try_emplace(step.op, order.size());
        if (added)
          order.push_back({step.op, 0});
        order[it->second].second =
            std::max(order[it->second].second, step.activeTiles);
      }
      return order;
    };
    StringMap<int64_t> before;
    for (auto &[op, tiles] : tilesPerOp(*a->execution))
      before[op] = tiles;
    for (auto &[op, tiles] : tilesPerOp(*b->execution)) {
      auto it = before.find(op);
      mapping.push_back({op, it == before.end() ? 0 : it->second, tiles});
    }
  }
  auto changed = [&](const Row &r) { return all || r.a != r.b; };

  if (asJson) {
    auto rows = [&](const std::vector<Row> &list) {
      ordered_json out = ordered_json::array();
      for (const Row &r : list)
        if (changed(r))
          out.push_back({{"what", r.what}, {"a", r.a}, {"b", r.b}});
      return out;
    };
    ordered_json out{{"a", a->path},
                     {"b", b->path},
                     {"module", b->module},
                     {"memory", rows(memory)},
                     {"ops", rows(ops)},
                     {"buffers", rows(buffers)},
                     {"op_tiles", rows(mapping)}};
    outs() << out.dump(2) << "\n";
    return 0;
  }
  outs() << "== " << b->module << ": A = " << a->path << ", B = " << b->path
         << "\n";
  bool bothMemory = a->memory && b->memory;
  bool bothRuns = a->execution && b->execution;
  bool bothSteps =
      bothRuns && !a->execution->steps.empty() && !b->execution->steps.empty();
  auto table = [&](StringRef title, const std::vector<Row> &list,
                   bool available, StringRef missing) {
    outs() << "  " << title << ":\n";
    if (!available) {
      outs() << "    (" << missing << ")\n";
      return;
    }
    int64_t shown = 0, more = 0;
    for (const Row &r : list) {
      if (!changed(r))
        continue;
      if (!all && shown == top) {
        ++more;
        continue;
      }
      outs() << formatv("    {0,-36} {1,14} {2,14}  {3}\n", r.what,
                        groupDigits(r.a), groupDigits(r.b), delta(r.a, r.b));
      ++shown;
    }
    if (more)
      outs() << "    ... " << more << " more (--top=N, --all)\n";
    if (!shown)
      outs() << "    (no change)\n";
  };
  table("Memory (bytes)", memory, bothMemory,
        "a memory report on both sides is needed");
  table("Cycles (the run, then its ops)", ops, bothRuns,
        "an execution report on both sides is needed");
  table("Buffers whose size or mapping (tiles holding them) changed", buffers,
        bothMemory, "a memory report on both sides is needed");
  table("Ops whose mapping (most tiles a step of theirs ran on) changed",
        mapping, bothSteps,
        "an execution report at chip or tile level on both sides is needed");
  return 0;
}

} // namespace tessera::prof
