//===- ProfHtml.cpp - tessera-prof html: one self-contained report page ---===//
//
// Gathers one module's views (the overview and op profile of RunSummary,
// the memory report's heap, tiles and histogram, the compatibility report,
// the last compile's pass timeline, the last profiled run's steps) into one
// JSON object and writes it into the page of html/report.html, which draws
// everything in the browser as SVG: no network, no server, one file.
//
//===----------------------------------------------------------------------===//

#include "ProfCommands.h"
#include "RunSummary.h"

#include "tessera/Analysis/PrecisionLine.h"

#include "tessera/Memory/MemorySummary.h"
#include "tessera/Support/JsonFields.h"
#include "tessera/Trace/AtomicFile.h"
#include "tessera/Trace/EventFile.h"
#include "tessera/Trace/EventQuery.h"

#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

using namespace llvm;
using json = nlohmann::ordered_json;
using namespace tessera::json_fields;

namespace tessera::prof {

namespace {

/// The page, embedded at build time (CMakeLists.txt, EmbedText.cmake).
constexpr const char kPage[] =
#include "ReportHtml.inc"
    ;
constexpr const char kDataMarker[] = "/*TESSERA_DATA*/";

/// A report of `kind` of the compile, decoded; nullopt when it has none or
/// it cannot be read (the page says so).
std::optional<json> decodeOptional(const TraceEvent &e, ExtractKind kind,
                                   StringRef baseDir) {
  if (!findReport(e, kind))
    return std::nullopt;
  Expected<json> j = decodeReport<json>(e, kind, baseDir);
  if (!j) {
    consumeError(j.takeError());
    return std::nullopt;
  }
  return std::move(*j);
}

std::string shapeOf(const json &buffer) {
  std::string s = stringAt(buffer, "dtype") + "[";
  bool first = true;
  for (const json &d : field(buffer, "shape")) {
    s += (first ? "" : ",") + std::to_string(asInt(d));
    first = false;
  }
  return s + "]";
}

/// The memory section: the chip heap per point as [padded, unpadded, kind,
/// step], the always-live band, each tile's bytes, the histogram and the
/// largest buffers at the peak.
json memorySection(const json &report) {
  const json &viewer = field(report, "memory_viewer");
  const json &summary = field(report, "summary");
  json out{{"peak_point", intAt(viewer, "peak_point")},
           {"peak_bytes", intAt(viewer, "peak_bytes")},
           {"peak_step", stringAt(viewer, "peak_step")},
           {"bytes_per_tile", intAt(field(report, "target"), "bytes_per_tile")},
           {"tiles_out_of_memory", intAt(summary, "tiles_out_of_memory")}};
  json heap = json::array();
  for (const json &p : field(viewer, "heap"))
    heap.push_back(json::array({intAt(p, "padded"), intAt(p, "unpadded"),
                                stringAt(p, "kind"), stringAt(p, "step")}));
  if (heap.empty())
    heap.push_back(json::array({0, 0, "", ""}));
  out["heap"] = std::move(heap);
  // Always-live buffers are live at every point: the band under the curve.
  int64_t alwaysLive = 0;
  for (const json &b : field(report, "buffers"))
    if (field(b, "always_live").is_boolean() &&
        field(b, "always_live").get<bool>() && field(b, "alias_of").is_null())
      alwaysLive += intAt(b, "size");
  out["always_live"] = alwaysLive;
  json tiles = json::array();
  for (const json &t : memory::expandTileRuns(field(report, "tiles")))
    tiles.push_back(intAt(t, "including_gaps"));
  out["tiles"] = std::move(tiles);
  json hist = field(field(summary, "histogram"), "buckets");
  out["histogram"] = hist.is_array() ? hist : json::array();
  json buffers = json::array();
  for (const json &b : field(viewer, "buffers_at_peak_by_size")) {
    if (buffers.size() == 15)
      break;
    buffers.push_back(
        {{"name", stringAt(b, "name")},
         {"shape", shapeOf(b)},
         {"category", stringAt(b, "category")},
         {"size", intAt(b, "size")},
         {"unpadded_size", intAt(b, "unpadded_size")},
         {"expansion", realAt(b, "expansion", 1.0)},
         {"op_name", stringAt(b, "op_name")}});
  }
  out["peak_buffers"] = std::move(buffers);
  return out;
}

json compatSection(const json &report) {
  json scopes = json::array();
  for (const json &s : field(report, "scopes"))
    scopes.push_back({{"name", stringAt(s, "name")},
                      {"depth", intAt(s, "depth")},
                      {"ops", intAt(s, "ops")},
                      {"compatible", intAt(s, "compatible")},
                      {"incompatible", intAt(s, "incompatible")},
                      {"not_assessed", intAt(s, "not_assessed")}});
  // What the compiler rewrote to fit the target, and the precision it
  // computes in: the page says so beside the verdicts.
  json rewritten = json::array();
  for (const json &op : listAt(report, "rewritten_ops"))
    rewritten.push_back({{"instruction", stringAt(op, "instruction")},
                         {"detail", stringAt(op, "detail")}});
  std::string precision = precisionLine(report);
  const json &reasons = field(report, "by_reason");
  return json{{"target", stringAt(report, "target")},
              {"totals", field(report, "totals")},
              {"by_reason", reasons.is_object() ? reasons : json::object()},
              {"rewritten", std::move(rewritten)},
              {"precision",
               precision.empty() ? json(nullptr) : json(std::move(precision))},
              {"scopes", std::move(scopes)}};
}

json opsOf(const runtime::ExecutionReport &r) {
  json ops = json::array();
  for (const runtime::ExecutionReport::Op &op : r.ops)
    ops.push_back({{"hlo", op.hlo},
                   {"op_name", op.opName},
                   {"category", op.category},
                   {"unit", op.unit},
                   {"cycles", op.cycles},
                   {"share", r.cycles > 0 ? double(op.cycles) / r.cycles : 0},
                   {"flops_per_second", op.flopsPerSecond},
                   {"utilization", op.utilization},
                   {"predicted_cycles", op.predictedCycles},
                   {"error", op.error},
                   {"why", op.why},
                   {"fit", op.fit}});
  return ops;
}

json runOf(const runtime::ExecutionReport &r) {
  json steps = json::array();
  for (const runtime::ExecutionReport::Step &s : r.steps)
    steps.push_back({{"name", s.name},
                     {"kind", s.kind},
                     {"op", s.op},
                     {"cycles", s.cycles},
                     {"executions", s.executions},
                     {"active_tiles", s.activeTiles}});
  return json{{"run", r.run + 1},
              {"cycles", r.cycles},
              {"clock_hz", r.clockHz},
              {"steps", std::move(steps)}};
}

/// JSON inside <script>: no "</script>" or "<!--" may appear, so every '<'
/// (only ever inside strings) becomes \u003c.
std::string scriptSafe(const std::string &text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '<')
      out += "\\u003c";
    else
      out += c;
  }
  return out;
}

} // namespace

int runHtmlCommand(StringRef eventsPath, ArrayRef<std::string> args) {
  std::string module, output;
  for (size_t i = 0; i < args.size(); ++i) {
    StringRef a = args[i];
    if (a == "-o" && i + 1 < args.size())
      output = args[++i];
    else if (a.consume_front("-o="))
      output = a.str();
    else if (a.consume_front("--module="))
      module = a.str();
    else
      return fail("html: unknown option '" + a + "'");
  }
  if (output.empty())
    return fail("html needs an output file: -o report.html");

  std::string baseDir = sys::path::parent_path(eventsPath).str();
  // The last compile of the module (its reports and pass timeline).
  std::optional<TraceEvent> compile;
  Expected<EventFileScan> scan =
      scanEventFile(eventsPath, [&](TraceEvent &e, uint64_t) -> Error {
        if (!module.empty() && e.module_name() != module)
          return Error::success();
        if (e.type() == TraceEvent::COMPILE_END && !e.compile_end().cached()) {
          if (module.empty())
            module = e.module_name();
          if (e.module_name() == module)
            compile = std::move(e);
        }
        return Error::success();
      });
  if (!scan)
    return fail(toString(scan.takeError()));
  Expected<std::vector<ModuleRuns>> runs = readModuleRuns(eventsPath, module);
  if (!runs)
    return fail(toString(runs.takeError()));
  if (module.empty() && !runs->empty())
    module = runs->front().module;
  const ModuleRuns *m = nullptr;
  for (const ModuleRuns &r : *runs)
    if (r.module == module)
      m = &r;
  if (!compile && !m)
    return fail("nothing to show in " + eventsPath +
                (module.empty() ? "" : " for module '" + module + "'") +
                ": no compile and no run");

  json data{{"module", module}, {"source", sys::path::filename(eventsPath)}};
  std::optional<json> memory, compat;
  if (compile) {
    memory = decodeOptional(*compile, ExtractKind::MemoryReport, baseDir);
    compat = decodeOptional(*compile, ExtractKind::CompatReport, baseDir);
    json passes = json::array();
    for (const PassRecord &p : compile->compile_end().pass_timeline())
      passes.push_back({{"name", p.name()},
                        {"start_ns", p.start_ns()},
                        {"duration_ns", p.duration_ns()},
                        {"depth", p.depth()},
                        {"ops_before", p.ops_before()},
                        {"ops_after", p.ops_after()},
                        {"lane", p.lane()}});
    data["passes"] = std::move(passes);
  }
  json target = json::object();
  if (memory)
    target = field(*memory, "target");
  else if (m && m->report)
    target = {{"name", m->report->target},
              {"chips", m->report->chips},
              {"tiles", m->report->tiles}};
  data["target"] = target;
  data["overview"] = m ? overviewJson(*m, 10) : json(nullptr);
  data["op_profile"] = m ? opProfileJson(*m, 10) : json(nullptr);
  data["ops"] = m && m->report ? opsOf(*m->report) : json::array();
  data["run"] = m && m->report ? runOf(*m->report) : json(nullptr);
  data["memory"] = memory ? memorySection(*memory) : json(nullptr);
  data["compat"] = compat ? compatSection(*compat) : json(nullptr);

  StringRef page(kPage);
  size_t at = page.find(kDataMarker);
  if (at == StringRef::npos)
    return fail("html: the embedded page has no data marker (a build "
                "problem)");
  std::string payload =
      scriptSafe(data.dump(-1, ' ', false, json::error_handler_t::replace));
  Error written = writeFileAtomically(output, [&](raw_ostream &os) {
    os << page.substr(0, at) << payload
       << page.substr(at + StringRef(kDataMarker).size());
    return Error::success();
  });
  if (written)
    return fail(toString(std::move(written)));
  errs() << "tessera-prof: wrote " << output << " (" << module << ")\n";
  return 0;
}

} // namespace tessera::prof
