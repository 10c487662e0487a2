//===- ProfRows.cpp - Event files as rows of documented tables ------------===//

#include "ProfRows.h"
#include "RunSummary.h"

#include "tessera/Trace/EventFile.h"
#include "tessera/Trace/EventQuery.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"

#include <nlohmann/json.hpp>

using namespace llvm;

namespace tessera::prof {

RowSink::~RowSink() = default;

namespace {
constexpr ColumnType I = ColumnType::Integer, R = ColumnType::Real,
                     T = ColumnType::Text;

const Column kSources[] = {{"source_id", I}, {"path", T}};
const Column kModules[] = {
    {"module_id", I}, {"source_id", I}, {"name", T}, {"target", T}};
const Column kCompiles[] = {{"compile_id", I},   {"module_id", I},
                            {"timestamp_ns", I}, {"duration_ns", I},
                            {"passes", I},       {"cached", I}};
const Column kPasses[] = {{"compile_id", I},  {"seq", I},
                          {"name", T},        {"start_ns", I},
                          {"duration_ns", I}, {"depth", I},
                          {"ops_before", I},  {"ops_after", I},
                          {"lane", I}};
const Column kBuffers[] = {{"compile_id", I},    {"name", T},
                           {"hlo", T},           {"op_name", T},
                           {"category", T},      {"dtype", T},
                           {"shape", T},         {"size", I},
                           {"unpadded_size", I}, {"tiles", I},
                           {"always_live", I},   {"alias_of", T},
                           {"live_first", I},    {"live_last", I}};
const Column kLoads[] = {{"module_id", I},
                         {"timestamp_ns", I},
                         {"duration_ns", I},
                         {"program_bytes", I}};
const Column kTransfers[] = {{"module_id", I}, {"timestamp_ns", I},
                             {"direction", T}, {"tensors", I},
                             {"bytes", I}};
const Column kRuns[] = {{"run_id", I},  {"module_id", I},    {"run_index", I},
                        {"ordinal", I}, {"timestamp_ns", I}, {"host_ns", I},
                        {"profile", T}, {"cycles", I},       {"seconds", R},
                        {"flops", I},   {"host_cycles", I},  {"clock_hz", I}};
const Column kOps[] = {{"run_id", I},           {"hlo", T},
                       {"op_name", T},          {"op_type", T},
                       {"kind", T},             {"category", T},
                       {"source", T},           {"unit", T},
                       {"steps", I},            {"cycles", I},
                       {"cycles_fraction", R},  {"flops", I},
                       {"bytes", I},            {"flops_per_second", R},
                       {"utilization", R},      {"padding_fit", T},
                       {"predicted_cycles", I}, {"prediction_error", R}};
const Column kSteps[] = {{"run_id", I},     {"seq", I},
                         {"name", T},       {"kind", T},
                         {"op", T},         {"location", T},
                         {"executions", I}, {"cycles", I},
                         {"active_tiles", I}, {"predicted_cycles", I}};
const Column kTiles[] = {{"run_id", I},   {"tile", I}, {"compute", I},
                         {"exchange", I}, {"sync", I}, {"idle", I}};
const Column kEvents[] = {{"event_id", I},     {"source_id", I},
                          {"seq", I},          {"type", T},
                          {"module", T},       {"timestamp_ns", I},
                          {"bytes", I}};

const char *const kModuleIdx[] = {"module_id"};
const char *const kCompileIdx[] = {"compile_id"};
const char *const kRunIdx[] = {"run_id"};
const char *const kOpIdx[] = {"run_id", "hlo", "category"};
const char *const kEventIdx[] = {"type", "module"};

enum TableId {
  Sources,
  Modules,
  Compiles,
  Passes,
  Buffers,
  Loads,
  Transfers,
  Runs,
  Ops,
  Steps,
  Tiles,
  Events
};

const Table kTables[] = {
    {"sources", kSources, {}},
    {"modules", kModules, {}},
    {"compiles", kCompiles, kModuleIdx},
    {"passes", kPasses, kCompileIdx},
    {"buffers", kBuffers, kCompileIdx},
    {"loads", kLoads, kModuleIdx},
    {"transfers", kTransfers, kModuleIdx},
    {"runs", kRuns, kModuleIdx},
    {"ops", kOps, kOpIdx},
    {"steps", kSteps, kRunIdx},
    {"tiles", kTiles, kRunIdx},
    {"events", kEvents, kEventIdx},
};

/// Emits one file's rows, numbering ids on from the previous files'.
class Emitter {
public:
  Emitter(RowSink &sink, std::vector<std::string> &warnings)
      : sink(sink), warnings(warnings) {}

  Error file(StringRef path) {
    int64_t source = ++sourceId;
    if (Error err = emit(Sources, {source, path}))
      return err;
    modules.clear();
    std::string baseDir = sys::path::parent_path(path).str();
    size_t seq = 0;
    // Streamed: rows go out as records are read.
    Expected<EventFileScan> scan =
        scanEventFile(path, [&](TraceEvent &e, uint64_t) {
          return event(source, seq++, e, baseDir);
        });
    if (!scan)
      return scan.takeError();
    if (scan->damage)
      warnings.push_back(path.str() + ": " + scan->damage->describe() +
                         "; the records before it are exported");
    return Error::success();
  }

private:
  Error emit(TableId id, ArrayRef<Value> values) {
    assert(values.size() == kTables[id].columns.size() &&
           "a row does not match its table");
    return sink.row(kTables[id], values);
  }

  Expected<int64_t> module(int64_t source, const TraceEvent &e,
                           StringRef target) {
    auto [it, added] = modules.try_emplace(e.module_name(), moduleId + 1);
    if (added) {
      ++moduleId;
      if (Error err = emit(Modules, {moduleId, source,
                                     StringRef(e.module_name()), target}))
        return std::move(err);
    }
    return it->second;
  }

  Error event(int64_t source, size_t seq, const TraceEvent &e,
              StringRef baseDir) {
    std::string type = eventTypeName(e);
    if (Error err = emit(Events, {++eventId, source, int64_t(seq),
                                  StringRef(type), StringRef(e.module_name()),
                                  e.timestamp_ns(), int64_t(e.ByteSizeLong())}))
      return err;
    Expected<int64_t> m = module(
        source, e,
        e.type() == TraceEvent::COMPILE_BEGIN ? e.compile_begin().target()
                                              : "");
    if (!m)
      return m.takeError();
    switch (e.type()) {
    case TraceEvent::COMPILE_END: {
      const CompileEnd &c = e.compile_end();
      int64_t id = ++compileId;
      if (Error err = emit(Compiles, {id, *m, e.timestamp_ns(),
                                      c.duration_ns(),
                                      int64_t(c.pass_timeline_size()),
                                      int64_t(c.cached())}))
        return err;
      for (auto [i, p] : llvm::enumerate(c.pass_timeline()))
        if (Error err = emit(Passes, {id, int64_t(i), StringRef(p.name()),
                                      p.start_ns(), p.duration_ns(),
                                      int64_t(p.depth()), p.ops_before(),
                                      p.ops_after(), int64_t(p.lane())}))
          return err;
      return buffers(id, e, baseDir);
    }
    case TraceEvent::LOAD_ENGINE:
      return emit(Loads, {*m, e.timestamp_ns(), e.load_engine().duration_ns(),
                          e.load_engine().program_size()});
    case TraceEvent::HOST_TO_DEVICE_TRANSFER:
    case TraceEvent::DEVICE_TO_HOST_TRANSFER:
      return emit(Transfers,
                  {*m, e.timestamp_ns(),
                   StringRef(e.type() == TraceEvent::HOST_TO_DEVICE_TRANSFER
                                 ? "to_device"
                                 : "to_host"),
                   int64_t(e.transfer().tensors_size()),
                   e.transfer().total_size()});
    case TraceEvent::EXECUTE:
      return execute(*m, e, baseDir);
    default:
      return Error::success();
    }
  }

  /// The compile's buffers, from its memory report (JSON or CBOR; a text
  /// report or none leaves the table without them, with a warning for
  /// text).
  Error buffers(int64_t compile, const TraceEvent &e, StringRef baseDir) {
    const Report *report = findReport(e, ExtractKind::MemoryReport);
    if (!report || report->dropped())
      return Error::success();
    if (report->format() == REPORT_FORMAT_TEXT) {
      warnings.push_back(e.module_name() + ": the memory report is text; "
                                           "no buffers rows");
      return Error::success();
    }
    Expected<std::string> bytes =
        extractBytes(e, ExtractKind::MemoryReport, baseDir);
    if (!bytes) {
      warnings.push_back(toString(bytes.takeError()));
      return Error::success();
    }
    nlohmann::json j = memory::expandMemoryReport(
        parseReportBytes<nlohmann::json>(*bytes, report->format()));
    auto list = j.is_object() ? j.find("buffers") : j.end();
    if (!j.is_object() || list == j.end() || !list->is_array()) {
      warnings.push_back(e.module_name() +
                         ": the memory report has no buffers list");
      return Error::success();
    }
    auto text = [](const nlohmann::json &b, const char *key) {
      auto it = b.find(key);
      return it != b.end() && it->is_string() ? it->get<std::string>()
                                              : std::string();
    };
    auto integer = [](const nlohmann::json &v) -> Value {
      if (v.is_number_integer())
        return v.get<int64_t>();
      return std::monostate();
    };
    auto field = [&](const nlohmann::json &b, const char *key) -> Value {
      auto it = b.find(key);
      if (it == b.end())
        return std::monostate();
      if (it->is_boolean())
        return int64_t(it->get<bool>());
      return integer(*it);
    };
    for (const nlohmann::json &b : *list) {
      if (!b.is_object())
        continue;
      std::string name = text(b, "name"), hlo = text(b, "hlo"),
                  opName = text(b, "op_name"), category = text(b, "category"),
                  dtype = text(b, "dtype"), alias = text(b, "alias_of");
      std::string shape = "[";
      if (auto it = b.find("shape"); it != b.end() && it->is_array())
        for (const nlohmann::json &d : *it)
          shape += (shape.size() > 1 ? "," : "") +
                   (d.is_number_integer() ? std::to_string(d.get<int64_t>())
                                          : std::string("?"));
      shape += "]";
      Value first, last;
      if (auto it = b.find("live_range");
          it != b.end() && it->is_array() && it->size() == 2) {
        first = integer((*it)[0]);
        last = integer((*it)[1]);
      }
      Value aliasValue = alias.empty() ? Value() : Value(StringRef(alias));
      if (Error err = emit(Buffers,
                           {compile, StringRef(name), StringRef(hlo),
                            StringRef(opName), StringRef(category),
                            StringRef(dtype), StringRef(shape),
                            field(b, "size"), field(b, "unpadded_size"),
                            field(b, "tiles"), field(b, "always_live"),
                            aliasValue, first, last}))
        return err;
    }
    return Error::success();
  }

  Error execute(int64_t module, const TraceEvent &e, StringRef baseDir) {
    int64_t run = ++runId;
    std::optional<runtime::ExecutionReport> report;
    if (e.execute().has_execution_report()) {
      Expected<runtime::ExecutionReport> r = readExecutionReport(e, baseDir);
      if (r)
        report = std::move(*r);
      else
        warnings.push_back(e.module_name() + ": " + toString(r.takeError()));
    }
    auto orNull = [&](auto v) -> Value {
      if (!report)
        return std::monostate();
      return v;
    };
    static const runtime::ExecutionReport none;
    const runtime::ExecutionReport &r = report ? *report : none;
    if (Error err = emit(
            Runs, {run, module, e.execute().run_index(),
                   static_cast<int64_t>(e.ordinal()), e.timestamp_ns(),
                   e.execute().duration_ns(),
                   report ? Value(runtime::profileLevelName(r.level)) : Value(),
                   orNull(r.cycles), orNull(r.seconds), orNull(r.flops),
                   orNull(r.hostCycles), orNull(r.clockHz)}))
      return err;
    if (!report)
      return Error::success();
    for (const runtime::ExecutionReport::Op &op : r.ops)
      if (Error err = emit(
              Ops, {run, StringRef(op.hlo), StringRef(op.opName),
                    StringRef(op.opType), StringRef(op.kind),
                    StringRef(op.category), StringRef(op.source),
                    StringRef(op.unit), op.steps, op.cycles,
                    r.cycles > 0 ? double(op.cycles) / r.cycles : 0.0,
                    op.flops, op.bytes, op.flopsPerSecond, op.utilization,
                    StringRef(op.fit), op.predictedCycles, op.error}))
        return err;
    for (auto [i, s] : llvm::enumerate(r.steps))
      if (Error err = emit(Steps, {run, int64_t(i), StringRef(s.name),
                                   StringRef(s.kind), StringRef(s.op),
                                   StringRef(s.location), s.executions,
                                   s.cycles,
                                   s.activeTiles, s.predictedCycles}))
        return err;
    for (auto [i, t] : llvm::enumerate(r.tileCycles))
      if (Error err = emit(Tiles, {run, int64_t(i), t.compute, t.exchange,
                                   t.sync, t.idle}))
        return err;
    return Error::success();
  }

  RowSink &sink;
  std::vector<std::string> &warnings;
  int64_t sourceId = 0, moduleId = 0, compileId = 0, runId = 0, eventId = 0;
  StringMap<int64_t> modules; ///< of the current file
};
} // namespace

ArrayRef<Table> tables() { return kTables; }

Error emitRows(ArrayRef<std::string> eventFiles, RowSink &sink,
               std::vector<std::string> &warnings) {
  Emitter emitter(sink, warnings);
  for (const std::string &path : eventFiles)
    if (Error err = emitter.file(path))
      return err;
  return Error::success();
}

} // namespace tessera::prof
