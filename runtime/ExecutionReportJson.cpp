//===- ExecutionReportJson.cpp - The execution report as JSON and back ----===//
//
// toJson writes the report into the EXECUTE event (docs/execution.md);
// fromJson reads it back for tessera-prof, trusting nothing: every field's
// type is checked and an error names its JSON path.
//
//===----------------------------------------------------------------------===//

#include "tessera/Runtime/ExecutionReport.h"

#include "llvm/ADT/Twine.h"

using namespace llvm;
using json = nlohmann::ordered_json;

namespace tessera::runtime {

std::optional<ProfileLevel> parseProfileLevel(StringRef name) {
  if (name == "device")
    return ProfileLevel::Device;
  if (name == "chip")
    return ProfileLevel::Chip;
  if (name == "tile")
    return ProfileLevel::Tile;
  return std::nullopt;
}

static json breakdownJson(const ExecutionReport::Breakdown &b) {
  return json{{"compute", b.compute},
              {"exchange", b.exchange},
              {"sync", b.sync},
              {"idle", b.idle}};
}

json toJson(const ExecutionReport &r) {
  json out;
  out["module"] = r.module;
  out["level"] = profileLevelName(r.level).str();
  out["target"] = json{{"name", r.target},
                       {"chips", r.chips},
                       {"tiles_per_chip", r.tilesPerChip},
                       {"tiles", r.tiles},
                       {"clock_hz", r.clockHz},
                       {"peak_flops_per_cycle",
                        json{{"vector", r.vectorPeak},
                             {"matrix", r.matrixPeak}}}};
  out["run"] = r.run;
  if (r.replicas > 1) {
    out["replica"] = r.replica;
    out["replicas"] = r.replicas;
  }
  out["total"] = json{{"cycles", r.cycles},
                      {"seconds", r.seconds},
                      {"flops", r.flops},
                      {"host_cycles", r.hostCycles}};
  json runs = json::array();
  for (const RunTime &rt : r.runs)
    runs.push_back(json{
        {"run", rt.run},
        {"cycles", rt.cycles},
        {"seconds", static_cast<double>(rt.cycles) /
                        std::max<int64_t>(1, r.clockHz)},
        {"host_ns", rt.hostNs}});
  out["runs"] = std::move(runs);
  json ops = json::array();
  for (const ExecutionReport::Op &op : r.ops) {
    json o{{"hlo", op.hlo},
           {"op_name", op.opName},
           {"op_type", op.opType},
           {"kind", op.kind},
           {"category", op.category},
           {"source", op.source},
           {"unit", op.unit},
           {"steps", op.steps},
           {"cycles", op.cycles},
           {"cycles_fraction",
            r.cycles > 0 ? static_cast<double>(op.cycles) / r.cycles : 0.0},
           {"flops", op.flops},
           {"flops_per_second", op.flopsPerSecond},
           {"utilization", op.utilization},
           {"bytes", op.bytes},
           {"padding_fit", op.fit},
           {"predicted_cycles", op.predictedCycles},
           {"prediction_error", op.error}};
    if (!op.why.empty())
      o["prediction_note"] = op.why;
    ops.push_back(std::move(o));
  }
  out["ops"] = std::move(ops);
  if (r.level != ProfileLevel::Device) {
    json steps = json::array();
    for (const ExecutionReport::Step &s : r.steps)
      steps.push_back(json{{"name", s.name},
                           {"kind", s.kind},
                           {"op", s.op},
                           {"location", s.location},
                           {"executions", s.executions},
                           {"cycles", s.cycles},
                           {"active_tiles", s.activeTiles},
                           {"predicted_cycles", s.predictedCycles}});
    out["steps"] = std::move(steps);
    json chips = json::array();
    for (const ExecutionReport::Breakdown &b : r.chipCycles)
      chips.push_back(breakdownJson(b));
    out["chips"] = std::move(chips);
  }
  if (r.level == ProfileLevel::Tile) {
    json tiles = json::array();
    for (const ExecutionReport::Breakdown &b : r.tileCycles)
      tiles.push_back(breakdownJson(b));
    out["tiles"] = std::move(tiles);
  }
  return out;
}

namespace {

/// Reads fields of one JSON object; the first error sticks, with its path.
class Fields {
public:
  Fields(const nlohmann::json &value, std::string path, std::string &error)
      : value(value), path(std::move(path)), error(error) {
    if (error.empty() && !value.is_object())
      error = this->path + ": expected an object";
  }

  const nlohmann::json *field(const char *key, bool required = true) {
    if (!error.empty() || !value.is_object())
      return nullptr;
    auto it = value.find(key);
    if (it == value.end()) {
      if (required)
        error = path + "." + key + ": missing";
      return nullptr;
    }
    return &*it;
  }
  void get(const char *key, int64_t &out, bool required = true) {
    if (const nlohmann::json *v = field(key, required)) {
      if (v->is_number_integer())
        out = v->get<int64_t>();
      else
        error = path + "." + key + ": expected an integer";
    }
  }
  void get(const char *key, double &out, bool required = true) {
    if (const nlohmann::json *v = field(key, required)) {
      if (v->is_number())
        out = v->get<double>();
      else
        error = path + "." + key + ": expected a number";
    }
  }
  void get(const char *key, std::string &out, bool required = true) {
    if (const nlohmann::json *v = field(key, required)) {
      if (v->is_string())
        out = v->get<std::string>();
      else
        error = path + "." + key + ": expected a string";
    }
  }
  /// Each element of the array `key` (absent: none unless required).
  template <typename Fn>
  void each(const char *key, bool required, Fn &&fn) {
    const nlohmann::json *v = field(key, required);
    if (!v)
      return;
    if (!v->is_array()) {
      error = path + "." + key + ": expected an array";
      return;
    }
    for (size_t i = 0; i < v->size() && error.empty(); ++i)
      fn(Fields((*v)[i], path + "." + key + "[" + std::to_string(i) + "]",
                error));
  }
  Fields object(const char *key) {
    static const nlohmann::json none;
    const nlohmann::json *v = field(key);
    return Fields(v ? *v : none, path + "." + key, error);
  }

private:
  const nlohmann::json &value;
  std::string path;
  std::string &error;
};

ExecutionReport::Breakdown readBreakdown(Fields f) {
  ExecutionReport::Breakdown b;
  f.get("compute", b.compute);
  f.get("exchange", b.exchange);
  f.get("sync", b.sync);
  f.get("idle", b.idle);
  return b;
}

} // namespace

Expected<ExecutionReport> fromJson(const nlohmann::json &j) {
  std::string error;
  ExecutionReport r;
  Fields top(j, "execution report", error);
  top.get("module", r.module);
  std::string level;
  top.get("level", level);
  if (error.empty()) {
    std::optional<ProfileLevel> l = parseProfileLevel(level);
    if (!l)
      error = "execution report.level: '" + level +
              "' is not device, chip or tile";
    else
      r.level = *l;
  }
  Fields target = top.object("target");
  target.get("name", r.target);
  target.get("chips", r.chips);
  target.get("tiles_per_chip", r.tilesPerChip);
  target.get("tiles", r.tiles);
  target.get("clock_hz", r.clockHz);
  // Reports written before the peaks were recorded have none.
  if (target.field("peak_flops_per_cycle", false)) {
    Fields peak = target.object("peak_flops_per_cycle");
    peak.get("vector", r.vectorPeak);
    peak.get("matrix", r.matrixPeak);
  }
  top.get("run", r.run);
  // Only a run of several replicas says which one it was.
  if (top.field("replicas", false)) {
    top.get("replica", r.replica);
    top.get("replicas", r.replicas);
    if (error.empty() &&
        (r.replicas < 1 || r.replica < 0 || r.replica >= r.replicas))
      error = "execution report.replica: " + std::to_string(r.replica) +
              " is not one of " + std::to_string(r.replicas) + " replicas";
  }
  Fields total = top.object("total");
  total.get("cycles", r.cycles);
  total.get("seconds", r.seconds);
  total.get("flops", r.flops);
  total.get("host_cycles", r.hostCycles);
  top.each("runs", true, [&](Fields f) {
    RunTime rt;
    f.get("run", rt.run);
    f.get("cycles", rt.cycles);
    f.get("host_ns", rt.hostNs);
    r.runs.push_back(rt);
  });
  top.each("ops", true, [&](Fields f) {
    ExecutionReport::Op op;
    f.get("hlo", op.hlo);
    f.get("op_name", op.opName);
    f.get("op_type", op.opType);
    f.get("kind", op.kind);
    f.get("category", op.category);
    f.get("source", op.source);
    f.get("unit", op.unit);
    f.get("steps", op.steps);
    f.get("cycles", op.cycles);
    f.get("flops", op.flops);
    f.get("flops_per_second", op.flopsPerSecond);
    f.get("utilization", op.utilization);
    f.get("bytes", op.bytes);
    f.get("padding_fit", op.fit);
    f.get("predicted_cycles", op.predictedCycles);
    f.get("prediction_error", op.error);
    f.get("prediction_note", op.why, /*required=*/false);
    r.ops.push_back(std::move(op));
  });
  bool chipLevel = r.level != ProfileLevel::Device;
  top.each("steps", chipLevel, [&](Fields f) {
    ExecutionReport::Step s;
    f.get("name", s.name);
    f.get("kind", s.kind);
    f.get("op", s.op);
    f.get("location", s.location);
    f.get("executions", s.executions);
    f.get("cycles", s.cycles);
    f.get("active_tiles", s.activeTiles);
    f.get("predicted_cycles", s.predictedCycles);
    r.steps.push_back(std::move(s));
  });
  top.each("chips", chipLevel, [&](Fields f) {
    r.chipCycles.push_back(readBreakdown(f));
  });
  top.each("tiles", r.level == ProfileLevel::Tile, [&](Fields f) {
    r.tileCycles.push_back(readBreakdown(f));
  });
  if (!error.empty())
    return createStringError(inconvertibleErrorCode(), error);
  return r;
}

} // namespace tessera::runtime
