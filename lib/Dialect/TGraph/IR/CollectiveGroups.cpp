//===- CollectiveGroups.cpp - who takes part in a collective --------------===//

#include "tessera/Dialect/TGraph/IR/CollectiveGroups.h"

#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace tessera::tgraph;

DeviceCounts tessera::tgraph::deviceCounts(Operation *op) {
  DeviceCounts counts;
  auto module =
      isa<ModuleOp>(op) ? cast<ModuleOp>(op) : op->getParentOfType<ModuleOp>();
  if (!module)
    return counts;
  if (auto n = module->getAttrOfType<IntegerAttr>("tgraph.replica_count"))
    counts.replicas = std::max<int64_t>(n.getInt(), 1);
  if (auto n = module->getAttrOfType<IntegerAttr>("tgraph.num_partitions"))
    counts.partitions = std::max<int64_t>(n.getInt(), 1);
  return counts;
}

std::vector<std::vector<int64_t>>
tessera::tgraph::collectiveGroups(Operation *op, DeviceCounts counts) {
  int64_t R = counts.replicas, P = counts.partitions;
  bool global = op->hasAttr("use_global_device_ids");
  bool channel = op->hasAttr("channel_id");
  std::vector<std::vector<int64_t>> listed;
  if (auto groups = op->getAttrOfType<ArrayAttr>("replica_groups"))
    for (Attribute g : groups)
      if (auto ids = dyn_cast<DenseI64ArrayAttr>(g))
        if (!ids.empty())
          listed.emplace_back(ids.asArrayRef().begin(), ids.asArrayRef().end());
  if (listed.empty()) {
    std::vector<int64_t> all;
    for (int64_t i = 0, n = global ? R * P : R; i < n; ++i)
      all.push_back(i);
    listed.push_back(std::move(all));
  }
  std::vector<std::vector<int64_t>> groups;
  if (global)
    return listed;
  if (channel) {
    // Replica groups, each member taking every partition along.
    for (const std::vector<int64_t> &g : listed) {
      std::vector<int64_t> devices;
      for (int64_t r : g)
        for (int64_t p = 0; p < P; ++p)
          devices.push_back(r * P + p);
      groups.push_back(std::move(devices));
    }
    return groups;
  }
  for (int64_t p = 0; p < P; ++p)
    for (const std::vector<int64_t> &g : listed) {
      std::vector<int64_t> devices;
      for (int64_t r : g)
        devices.push_back(r * P + p);
      groups.push_back(std::move(devices));
    }
  return groups;
}

std::vector<std::pair<int64_t, int64_t>>
tessera::tgraph::permutePairs(Operation *op, DeviceCounts counts) {
  std::vector<std::pair<int64_t, int64_t>> pairs;
  auto cp = dyn_cast<CollectivePermuteOp>(op);
  if (!cp)
    return pairs;
  ArrayRef<int64_t> flat = cp.getSourceTargetPairs();
  int64_t R = counts.replicas, P = counts.partitions;
  bool acrossPartitions = op->hasAttr("channel_id");
  for (size_t k = 0; k + 1 < flat.size(); k += 2) {
    if (acrossPartitions)
      for (int64_t r = 0; r < R; ++r)
        pairs.push_back({r * P + flat[k], r * P + flat[k + 1]});
    else
      for (int64_t p = 0; p < P; ++p)
        pairs.push_back({flat[k] * P + p, flat[k + 1] * P + p});
  }
  return pairs;
}
