//===- ProfMemory.cpp - tessera-prof memory, tiles and compat -------------===//
//
// Views of the last compile's reports (the memory report of docs/memory.md,
// the compatibility report of docs/compat.md) and, for `tiles`, of the
// last tile-level execution report: as tables, or the report's own JSON
// sections with --json.
//
//===----------------------------------------------------------------------===//

#include "ProfCommands.h"

#include "RunSummary.h"
#include "tessera/Analysis/PrecisionLine.h"

#include "tessera/Memory/MemorySummary.h"
#include "tessera/Support/JsonFields.h"
#include "tessera/Support/TextReport.h"
#include "tessera/Trace/EventFile.h"
#include "tessera/Trace/EventQuery.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

using namespace llvm;
using json = nlohmann::json;
using namespace tessera::json_fields;

namespace tessera::prof {

namespace {

struct Options {
  std::string module;
  bool json = false;
  int64_t top = 10;
  std::optional<int64_t> tile;
};

std::optional<Options> parseOptions(ArrayRef<std::string> args,
                                    StringRef command, bool tileOption) {
  Options o;
  for (StringRef a : args) {
    int64_t n;
    if (a == "--json")
      o.json = true;
    else if (a.consume_front("--module="))
      o.module = a.str();
    else if (a.consume_front("--top=")) {
      if (a.getAsInteger(10, o.top) || o.top < 1) {
        fail("--top needs an integer >= 1, got '" + a + "'");
        return std::nullopt;
      }
    } else if (tileOption && a.consume_front("--tile=")) {
      if (a.getAsInteger(10, n) || n < 0) {
        fail("--tile needs a tile number, got '" + a + "'");
        return std::nullopt;
      }
      o.tile = n;
    } else {
      fail(command + ": unknown option '" + a + "'");
      return std::nullopt;
    }
  }
  return o;
}

/// The last COMPILE_END report of `kind` (of `module`, when given),
/// decoded. The file streams: only the matching event is kept.
template <typename Json>
Expected<Json> lastCompileReport(StringRef eventsPath, StringRef module,
                                 ExtractKind kind, std::string &moduleName) {
  std::optional<TraceEvent> found;
  Expected<EventFileScan> scan =
      scanEventFile(eventsPath, [&](TraceEvent &e, uint64_t) {
        if (hasExtractable(e, kind) &&
            (module.empty() || e.module_name() == module))
          found = std::move(e);
        return Error::success();
      });
  if (!scan)
    return scan.takeError();
  if (!found)
    return createStringError(
        "no compile in " + eventsPath + " carries a " + extractKindName(kind) +
        (module.empty() ? "" : " of module '" + module + "'") +
        " (compile with --profiling)");
  moduleName = found->module_name();
  return decodeReport<Json>(*found, kind, sys::path::parent_path(eventsPath));
}

/// Values as a line of block characters, `width` wide (each column the
/// maximum of the values it covers), scaled to the largest value.
std::string sparkline(ArrayRef<int64_t> values, size_t width) {
  static const char *const blocks[] = {"▁", "▂", "▃", "▄",
                                       "▅", "▆", "▇", "█"};
  if (values.empty())
    return "";
  width = std::min(width, values.size());
  std::vector<int64_t> columns(width, 0);
  for (size_t i = 0; i < values.size(); ++i) {
    size_t c = i * width / values.size();
    columns[c] = std::max(columns[c], values[i]);
  }
  int64_t top = *std::max_element(columns.begin(), columns.end());
  std::string out;
  for (int64_t v : columns)
    out += blocks[top > 0 ? std::min<int64_t>(7, v * 8 / (top + 1)) : 0];
  return out;
}

std::string shapeOf(const json &buffer) {
  std::vector<std::string> dims;
  if (auto it = buffer.find("shape"); it != buffer.end() && it->is_array())
    for (const json &d : *it)
      dims.push_back(d.is_number() ? std::to_string(d.get<int64_t>()) : "?");
  return stringAt(buffer, "dtype") + "[" + join(dims, ",") + "]";
}

/// The first line of an op_name (framework op names carry newlines).
std::string firstLine(std::string s) {
  size_t nl = s.find('\n');
  if (nl != std::string::npos)
    s = s.substr(0, nl) + " ...";
  return s;
}

void printBuffers(const json &list, int64_t top, raw_ostream &os) {
  os << formatv("    {0,-28} {1,-22} {2,-12} {3,12} {4,12} {5,12} {6,6}  "
                "{7}\n",
                "buffer", "shape", "category", "size", "unpadded", "extra",
                "x", "op name");
  int64_t n = 0;
  for (const json &b : list) {
    if (n++ == top)
      break;
    double expansion = realAt(b, "expansion", 1.0);
    int64_t size = intAt(b, "size"), unpadded = intAt(b, "unpadded_size");
    os << StringRef(formatv("    {0,-28} {1,-22} {2,-12} {3,12} {4,12} "
                            "{5,12} {6,6:f2}  {7}",
                            stringAt(b, "name"), shapeOf(b), stringAt(b, "category"),
                            groupDigits(size), groupDigits(unpadded),
                            groupDigits(size - unpadded), expansion,
                            firstLine(stringAt(b, "op_name")))
                        .str())
              .rtrim()
       << "\n";
  }
  if (static_cast<int64_t>(list.size()) > top)
    os << "    ... " << list.size() - top << " more (--top=N)\n";
}

} // namespace

Expected<json> lastMemoryReport(StringRef eventsPath, StringRef module,
                                std::string &moduleName) {
  return lastCompileReport<json>(eventsPath, module, ExtractKind::MemoryReport,
                                 moduleName);
}

int runMemoryCommand(StringRef eventsPath, ArrayRef<std::string> args) {
  std::optional<Options> o = parseOptions(args, "memory", true);
  if (!o)
    return 1;
  std::string module;
  Expected<json> report = lastCompileReport<json>(
      eventsPath, o->module, ExtractKind::MemoryReport, module);
  if (!report)
    return fail(toString(report.takeError()));
  const json &viewer = (*report)["memory_viewer"];
  const json tiles = memory::expandTileRuns((*report)["tiles"]);
  if (!viewer.is_object() || !(*report)["tiles"].is_array())
    return fail("the memory report of '" + module +
                "' has no memory_viewer or tiles section");
  if (o->tile) {
    const json *tile = nullptr;
    for (const json &t : tiles)
      if (intAt(t, "tile") == *o->tile)
        tile = &t;
    if (!tile)
      return fail("--tile=" + Twine(*o->tile) + ": the program has " +
                  Twine(tiles.size()) + " tiles");
    const json *heap = nullptr;
    if (auto it = viewer.find("tile_heaps"); it != viewer.end())
      for (const json &h : *it)
        if (intAt(h, "tile") == *o->tile)
          heap = &h;
    if (o->json) {
      json out = *tile;
      if (heap)
        out["heap"] = *heap;
      outs() << out.dump(2) << "\n";
      return 0;
    }
    outs() << "== " << module << ": tile " << *o->tile << "\n";
    reportLine(outs(), 2, "Total (incl. gaps)",
               groupDigits(intAt(*tile, "including_gaps")) + " B");
    reportLine(outs(), 2, "Peak of variables",
               groupDigits(intAt(*tile, "allocated_peak")) + " B at point " +
                   std::to_string(intAt(*tile, "peak_point")) +
                   " (lower bound " +
                   groupDigits(intAt(*tile, "lower_bound")) + ")");
    reportLine(outs(), 2, "Always live",
               groupDigits(intAt(*tile, "always_live")) + " B");
    reportLine(outs(), 2, "Buffers", std::to_string(intAt(*tile, "buffers")));
    if (tile->value("out_of_memory", false))
      reportLine(outs(), 2, "OUT OF MEMORY",
                 "by " + groupDigits(intAt(*tile, "over_by")) + " B");
    if (auto it = tile->find("by_category"); it != tile->end())
      for (auto &[category, bytes] : it->items())
        reportLine(outs(), 4, category,
                   groupDigits(bytes.is_number() ? bytes.get<int64_t>() : 0));
    if (heap && heap->contains("padded")) {
      std::vector<int64_t> values = (*heap)["padded"].get<std::vector<int64_t>>();
      outs() << "  Heap over program points: " << sparkline(values, 60)
             << "\n";
    } else {
      outs() << "  (the report keeps the heap of the most loaded tiles "
                "only; this one is not among them)\n";
    }
    return 0;
  }
  if (o->json) {
    outs() << viewer.dump(2) << "\n";
    return 0;
  }
  outs() << "== " << module << ": memory at the peak\n";
  reportLine(outs(), 2, "Peak",
             formatv("{0} B ({1} B unpadded) at program point {2}, step {3}",
                     groupDigits(intAt(viewer, "peak_bytes")),
                     groupDigits(intAt(viewer, "peak_unpadded_bytes")),
                     intAt(viewer, "peak_point"), stringAt(viewer, "peak_step"))
                 .str());
  std::vector<int64_t> heap;
  if (auto it = viewer.find("heap"); it != viewer.end())
    for (const json &p : *it)
      heap.push_back(intAt(p, "padded"));
  outs() << "  Heap over program points: " << sparkline(heap, 60) << "\n";
  outs() << "  Buffers live at the peak, by size:\n";
  printBuffers(viewer["buffers_at_peak_by_size"], o->top, outs());
  outs() << "  ... and by program order:\n";
  printBuffers(viewer["buffers_at_peak_by_program_order"], o->top, outs());
  return 0;
}

int runTilesCommand(StringRef eventsPath, ArrayRef<std::string> args) {
  std::optional<Options> o = parseOptions(args, "tiles", false);
  if (!o)
    return 1;
  std::string module;
  Expected<json> report = lastCompileReport<json>(
      eventsPath, o->module, ExtractKind::MemoryReport, module);
  if (!report)
    return fail(toString(report.takeError()));
  const json &summary = (*report)["summary"];
  const json tiles = memory::expandTileRuns((*report)["tiles"]);
  if (!summary.is_object() || !(*report)["tiles"].is_array())
    return fail("the memory report of '" + module +
                "' has no summary or tiles section");
  // The time per tile, when a run was profiled at tile level (the memory
  // report is read already).
  Expected<std::vector<ModuleRuns>> runs =
      readModuleRuns(eventsPath, module, /*withMemory=*/false);
  if (!runs)
    return fail(toString(runs.takeError()));
  const runtime::ExecutionReport *exec =
      !runs->empty() && runs->front().report &&
              !runs->front().report->tileCycles.empty()
          ? &*runs->front().report
          : nullptr;
  std::vector<const json *> order;
  for (const json &t : tiles)
    order.push_back(&t);
  llvm::stable_sort(order, [](const json *a, const json *b) {
    return intAt(*a, "including_gaps") > intAt(*b, "including_gaps");
  });
  if (o->json) {
    json out{{"module", module},
             {"histogram", summary["histogram"]},
             {"tiles_used", summary["tiles_used"]},
             {"mean_used_tile_bytes", summary["mean_used_tile_bytes"]}};
    json most = json::array();
    for (size_t i = 0; i < order.size() && i < size_t(o->top); ++i) {
      json t = *order[i];
      int64_t id = intAt(t, "tile");
      if (exec && id < static_cast<int64_t>(exec->tileCycles.size())) {
        const auto &b = exec->tileCycles[id];
        t["cycles"] = {{"compute", b.compute},
                       {"exchange", b.exchange},
                       {"sync", b.sync},
                       {"idle", b.idle}};
      }
      most.push_back(std::move(t));
    }
    out["most_loaded"] = std::move(most);
    outs() << out.dump(2) << "\n";
    return 0;
  }
  outs() << "== " << module << ": " << tiles.size() << " tiles, "
         << intAt(summary, "tiles_used") << " used, mean "
         << groupDigits(intAt(summary, "mean_used_tile_bytes"))
         << " B a used tile\n";
  const json &hist = summary["histogram"];
  if (hist.is_object() && hist["buckets"].is_array()) {
    int64_t most = 1;
    for (const json &b : hist["buckets"])
      most = std::max(most, intAt(b, "tiles"));
    outs() << "  Tiles by memory (including gaps):\n";
    for (const json &b : hist["buckets"]) {
      int64_t n = intAt(b, "tiles");
      outs() << formatv("    {0,5} - {1,5} KB {2,6}", intAt(b, "from_kb"),
                        intAt(b, "to_kb"), n);
      if (n)
        outs() << "  " << std::string(std::max<int64_t>(1, n * 40 / most), '#');
      outs() << "\n";
    }
  }
  outs() << "  Most loaded tiles:\n";
  outs() << formatv("    {0,6} {1,12} {2,12} {3,12}", "tile", "bytes",
                    "peak vars", "always live");
  if (exec)
    outs() << formatv(" {0,9} {1,9} {2,9} {3,9}", "compute", "exchange",
                      "sync", "idle");
  outs() << "\n";
  for (size_t i = 0; i < order.size() && i < size_t(o->top); ++i) {
    const json &t = *order[i];
    int64_t id = intAt(t, "tile");
    outs() << formatv("    {0,6} {1,12} {2,12} {3,12}", id,
                      groupDigits(intAt(t, "including_gaps")),
                      groupDigits(intAt(t, "allocated_peak")),
                      groupDigits(intAt(t, "always_live")));
    if (exec && id < static_cast<int64_t>(exec->tileCycles.size())) {
      const auto &b = exec->tileCycles[id];
      int64_t all = std::max<int64_t>(1, b.compute + b.exchange + b.sync +
                                             b.idle);
      auto pct = [&](int64_t v) {
        return formatv("{0:f1}%", 100.0 * v / all).str();
      };
      outs() << formatv(" {0,9} {1,9} {2,9} {3,9}", pct(b.compute),
                        pct(b.exchange), pct(b.sync), pct(b.idle));
    }
    outs() << "\n";
  }
  if (!exec)
    outs() << "  (time per tile: profile a run with "
              "--profile_execution=tile)\n";
  return 0;
}

int runSummaryCommand(StringRef eventsPath, ArrayRef<std::string> args) {
  std::optional<Options> o = parseOptions(args, "summary", false);
  if (!o)
    return 1;
  std::string module;
  // Ordered, so the text is the compiler's own, field for field.
  Expected<nlohmann::ordered_json> report =
      lastCompileReport<nlohmann::ordered_json>(
          eventsPath, o->module, ExtractKind::MemoryReport, module);
  if (!report)
    return fail(toString(report.takeError()));
  for (const char *section : {"target", "graph", "summary"})
    if (!report->contains(section) || !(*report)[section].is_object())
      return fail("the memory report of '" + module + "' has no " + section +
                  " section");
  if (o->json) {
    nlohmann::ordered_json out{{"module", module},
                               {"program", report->value("program", "")},
                               {"target", (*report)["target"]},
                               {"graph", (*report)["graph"]},
                               {"summary", (*report)["summary"]}};
    outs() << out.dump(2) << "\n";
    return 0;
  }
  memory::writeMemorySummary(*report, outs());
  return 0;
}

int runCompatCommand(StringRef eventsPath, ArrayRef<std::string> args) {
  std::optional<Options> o = parseOptions(args, "compat", false);
  if (!o)
    return 1;
  std::string module;
  Expected<json> report = lastCompileReport<json>(
      eventsPath, o->module, ExtractKind::CompatReport, module);
  if (!report)
    return fail(toString(report.takeError()));
  if (o->json) {
    outs() << report->dump(2) << "\n";
    return 0;
  }
  const json &totals = (*report)["totals"];
  outs() << "== " << module << " on " << stringAt(*report, "target") << ": "
         << intAt(totals, "compatible") << " of " << intAt(totals, "ops")
         << " ops compatible ("
         << formatv("{0:f1}%", totals.value("compatible_percent", 0.0))
         << "), " << intAt(totals, "incompatible") << " incompatible, "
         << intAt(totals, "not_assessed") << " not assessed\n";
  if (std::string line = precisionLine(*report); !line.empty())
    outs() << "  " << line << "\n";
  if (const json &rewritten = listAt(*report, "rewritten_ops");
      !rewritten.empty()) {
    outs() << "  Compatible after an exact rewrite the compiler makes:\n";
    int64_t n = 0;
    for (const json &op : rewritten) {
      if (n++ == o->top)
        break;
      outs() << "    " << stringAt(op, "instruction") << ": "
             << stringAt(op, "detail") << "\n";
    }
  }
  if (auto it = report->find("by_reason");
      it != report->end() && it->is_object() && !it->empty()) {
    outs() << "  By reason:\n";
    for (auto &[reason, n] : it->items())
      outs() << formatv("    {0,6}  {1}\n", n.dump(), reason);
  }
  outs() << formatv("  {0,-48} {1,6} {2,11} {3,13} {4,13}\n", "name scope",
                    "ops", "compatible", "incompatible", "not assessed");
  int64_t shown = 0;
  if (auto it = report->find("scopes"); it != report->end() && it->is_array())
    for (const json &s : *it) {
      if (shown++ == o->top * 5)
        break;
      std::string name(2 * std::max<int64_t>(0, intAt(s, "depth") - 1), ' ');
      name += stringAt(s, "name");
      outs() << formatv("  {0,-48} {1,6} {2,11} {3,13} {4,13}\n",
                        firstLine(name), intAt(s, "ops"),
                        intAt(s, "compatible"), intAt(s, "incompatible"),
                        intAt(s, "not_assessed"));
    }
  if (auto it = report->find("incompatible_ops");
      it != report->end() && it->is_array() && !it->empty()) {
    outs() << "  Incompatible ops:\n";
    int64_t n = 0;
    for (const json &op : *it) {
      if (n++ == o->top)
        break;
      outs() << "    " << op.dump() << "\n";
    }
  }
  return 0;
}

} // namespace tessera::prof
