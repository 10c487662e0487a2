//===- CompileReport.cpp - The compilation report -------------------------===//

#include "tessera/Compile/CompileReport.h"

#include "tessera/Analysis/OpCost.h"
#include "tessera/Dialect/TGraph/IR/TGraph.h"
#include "tessera/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/Format.h"

#include <map>

using namespace mlir;
using json = nlohmann::ordered_json;

namespace tessera {

namespace {
struct Totals {
  int64_t count = 0, flops = 0, bytes = 0;
};

/// Reads an integer field without ever throwing (exceptions are off, and a
/// report may come from an older producer).
int64_t intField(const json &object, const char *key) {
  auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<int64_t>() : 0;
}

std::string stringField(const json &object, const char *key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

const json &objectField(const json &object, const char *key) {
  static const json empty = json::object();
  auto it = object.find(key);
  return it != object.end() && it->is_object() ? *it : empty;
}

/// 638976 → "624 KiB": the units datasheets use.
std::string humanBytes(int64_t bytes) {
  if (bytes >= (1 << 20) && bytes % (1 << 20) == 0)
    return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= (1 << 10) && bytes % (1 << 10) == 0)
    return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " B";
}
} // namespace

json buildCompilationReport(ModuleOp module, llvm::StringRef moduleName,
                            int64_t moduleId, const TargetDescription &target,
                            const CompatReport &compat) {
  // Same op set as tgraph-op-stats: tgraph ops directly in function bodies;
  // reducer and comparator bodies are part of their op's cost.
  Totals total;
  std::map<std::string, Totals> byOpcode;
  int64_t functions = 0;
  module.walk([&](Operation *op) {
    if (isa<func::FuncOp>(op)) {
      ++functions;
      return;
    }
    if (!isa<tgraph::TGraphDialect>(op->getDialect()) ||
        !isa_and_nonnull<func::FuncOp>(op->getParentOp()))
      return;
    int64_t flops = opFlops(op), bytes = opBytes(op);
    Totals &t = byOpcode[op->getName().stripDialect().str()];
    for (Totals *acc : {&t, &total}) {
      ++acc->count;
      acc->flops += flops;
      acc->bytes += bytes;
    }
  });

  json report;
  report["version"] = kCompilationReportVersion;
  report["module"] = moduleName.str();
  report["module_id"] = moduleId;
  report["target"] = {{"name", target.name},
                      {"chips", target.chips},
                      {"tiles_per_chip", target.tilesPerChip},
                      {"tiles", target.totalTiles()},
                      {"bytes_per_tile", target.sramBytesPerTile},
                      {"usable_bytes_per_tile", target.usableBytesPerTile()},
                      {"clock_hz", target.clockHz}};
  json opcodes = json::object();
  for (auto &[name, t] : byOpcode)
    opcodes[name] = {
        {"count", t.count}, {"flops", t.flops}, {"bytes", t.bytes}};
  report["graph"] = {{"functions", functions},
                     {"ops", total.count},
                     {"flops", total.flops},
                     {"bytes", total.bytes},
                     {"opcodes", std::move(opcodes)}};
  report["compat"] = compatTotalsJson(compat);
  // On a system of chips: how the program was spread over them, and why
  // (docs/multichip.md).
  for (auto program : module.getOps<tile::ProgramOp>())
    if (target.chips > 1)
      report["placement"] = {{"chips_per_replica", program.getChips()},
                             {"replicas", program.getReplicas()},
                             {"why", program.getPlacement()
                                         ? program.getPlacement()->str()
                                         : std::string()}};
  return report;
}

void writeCompilationReportText(const json &report, llvm::raw_ostream &os) {
  const json &target = objectField(report, "target");
  const json &graph = objectField(report, "graph");
  const json &compat = objectField(report, "compat");
  os << "Compilation report: module '" << stringField(report, "module")
     << "'\n\n";
  os << "Target:\n"
     << "  Name:                " << stringField(target, "name") << "\n"
     << "  Chips:               " << intField(target, "chips") << "\n"
     << "  Tiles:               " << intField(target, "tiles") << " ("
     << intField(target, "tiles_per_chip") << " per chip)\n"
     << "  Memory per tile:     "
     << humanBytes(intField(target, "bytes_per_tile")) << " ("
     << humanBytes(intField(target, "usable_bytes_per_tile")) << " usable)\n"
     << "  Clock:               "
     << llvm::format("%.2f GHz", intField(target, "clock_hz") / 1e9) << "\n";
  if (auto p = report.find("placement"); p != report.end() && p->is_object())
    os << "  Chips per replica:   " << intField(*p, "chips_per_replica") << "\n"
       << "  Replicas:            " << intField(*p, "replicas") << "\n"
       << "  Placement:           " << stringField(*p, "why") << "\n";
  os << "\n";
  os << "Graph:\n"
     << "  Functions:           " << intField(graph, "functions") << "\n"
     << "  Ops:                 " << intField(graph, "ops") << "\n"
     << "  FLOPs:               " << intField(graph, "flops") << "\n"
     << "  Bytes accessed:      " << intField(graph, "bytes") << "\n";
  const json &opcodes = objectField(graph, "opcodes");
  if (!opcodes.empty()) {
    os << "  By opcode:           " << llvm::left_justify("opcode", 20)
       << llvm::right_justify("count", 8) << llvm::right_justify("FLOPs", 16)
       << llvm::right_justify("bytes", 16) << "\n";
    for (auto &[name, t] : opcodes.items()) {
      if (!t.is_object())
        continue;
      os << "                       " << llvm::left_justify(name, 20)
         << llvm::right_justify(std::to_string(intField(t, "count")), 8)
         << llvm::right_justify(std::to_string(intField(t, "flops")), 16)
         << llvm::right_justify(std::to_string(intField(t, "bytes")), 16)
         << "\n";
    }
  }
  os << "\nCompatibility:\n"
     << "  Ops checked:         " << intField(compat, "ops") << "\n"
     << "  Compatible:          " << intField(compat, "compatible") << "\n"
     << "  Incompatible:        " << intField(compat, "incompatible") << "\n"
     << "  Placed on host:      " << intField(compat, "not_assessed") << "\n";
}

} // namespace tessera
