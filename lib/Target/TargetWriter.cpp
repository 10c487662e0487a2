//===- TargetWriter.cpp - TargetDescription to canonical JSON -------------===//
//
// Writes every field, defaults included, in the order docs/targets.md
// documents them: the output of --print-target is meant to be copied and
// edited into a new target, so nothing should be implicit.
//
//===----------------------------------------------------------------------===//

#include "JsonSyntax.h"

#include "tessera/Target/TargetJson.h"
#include "tessera/Target/TargetSchema.h"

#include <mutex>
#include <utility>
#include <vector>

using namespace tessera;
using namespace tessera::target_detail;

static Json opToJson(const OpConstraint &op) {
  Json result = Json::object();
  if (!op.dtypes.empty())
    result["dtypes"] = op.dtypes;
  // Vocabulary order, not map order, so related keys stay together.
  for (const ConstraintKey &key : constraintKeys()) {
    std::string name = key.name.str();
    if (auto it = op.limits.find(name); it != op.limits.end())
      result[name] = it->second;
    if (auto it = op.flags.find(name); it != op.flags.end())
      result[name] = it->second;
    if (auto it = op.nameLists.find(name); it != op.nameLists.end())
      result[name] = it->second;
  }
  if (!op.note.empty())
    result["note"] = op.note;
  return result;
}

static std::string toJsonText(const TargetDescription &t);

std::string tessera::toJson(const TargetDescription &t) {
  // A compile writes its target twice (the executable cache's key and the
  // executable's header), at 0.83 M instructions each, a twentieth of a
  // small model's compile; the text of the last few descriptions is kept
  // and found by equality, which costs a small part of writing it.
  constexpr size_t kKept = 4;
  static std::mutex mutex;
  static auto *kept =
      new std::vector<std::pair<TargetDescription, std::string>>();
  {
    std::lock_guard<std::mutex> lock(mutex);
    for (const auto &[description, text] : *kept)
      if (description == t)
        return text;
  }
  std::string text = toJsonText(t);
  std::lock_guard<std::mutex> lock(mutex);
  if (kept->size() == kKept)
    kept->erase(kept->begin());
  kept->emplace_back(t, text);
  return text;
}

static std::string toJsonText(const TargetDescription &t) {
  Json j = Json::object();
  j["name"] = t.name;
  j["description"] = t.description;
  j["chips"] = t.chips;
  j["chip_links"] = Json::array();
  for (const ChipLink &link : t.chipLinks)
    j["chip_links"].push_back(
        Json{{"between", {link.chipA, link.chipB}},
             {"bandwidth_bytes_per_s", link.bandwidthBytesPerSecond},
             {"latency_cycles", link.latencyCycles}});
  j["tiles_per_chip"] = t.tilesPerChip;
  j["sram_bytes_per_tile"] = t.sramBytesPerTile;
  j["reserved_bytes_per_tile"] = Json{{"code", t.reservedBytesPerTile.code},
                                      {"stack", t.reservedBytesPerTile.stack}};
  j["clock_hz"] = t.clockHz;
  j["vector_width"] = Json::object();
  // In the order of `dtypes`, which is the order the author chose.
  for (const std::string &dtype : t.dtypes)
    if (auto it = t.vectorWidth.find(dtype); it != t.vectorWidth.end())
      j["vector_width"][dtype] = it->second;
  j["matrix_unit"] =
      Json{{"shape", {t.matrixUnit.m, t.matrixUnit.n, t.matrixUnit.k}},
           {"dtypes", t.matrixUnit.dtypes}};
  j["layout_tile"] = {t.layoutTile.rows, t.layoutTile.cols};
  j["alignment_bytes"] = t.alignmentBytes;
  j["exchange"] =
      Json{{"bandwidth_bytes_per_cycle", t.exchange.bandwidthBytesPerCycle},
           {"latency_cycles", t.exchange.latencyCycles}};
  j["sync_cycles"] = t.syncCycles;
  j["host_link"] =
      Json{{"bandwidth_bytes_per_s", t.hostLink.bandwidthBytesPerSecond},
           {"latency_cycles", t.hostLink.latencyCycles}};
  j["overheads"] =
      Json{{"vertex_code_bytes", t.overheads.vertexCodeBytes},
           {"vertex_state_bytes", t.overheads.vertexStateBytes},
           {"exchange_code_bytes", t.overheads.exchangeCodeBytes},
           {"exchange_state_bytes", t.overheads.exchangeStateBytes}};
  j["dtypes"] = t.dtypes;
  j["ops"] = Json::object();
  for (const OpConstraint &op : t.ops)
    j["ops"][op.op] = opToJson(op);
  j["runtime_ops"] = t.runtimeOps;
  return j.dump(2) + "\n";
}
