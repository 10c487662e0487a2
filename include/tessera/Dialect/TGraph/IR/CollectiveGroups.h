//===- CollectiveGroups.h - who takes part in a collective -------*- C++
//-*-===//
//
// A module with `tgraph.replica_count` R and `tgraph.num_partitions` P runs
// on R * P devices, device d being replica d / P, partition d % P (XLA's
// flattened id). A collective's `replica_groups`, `channel_id` and
// `use_global_device_ids` say which devices combine their values, in XLA's
// three group modes:
//
//  - no channel_id: groups of replica ids, within each partition;
//  - channel_id: groups of replica ids, each spanning every partition;
//  - use_global_device_ids: groups of flattened device ids.
//
// An empty list means one group of every replica (every device with
// use_global_device_ids). A collective_permute's pairs are replica ids
// without a channel_id and partition ids with one. The lowering, the
// reference interpreter and the cost model all ask here, so they agree.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_DIALECT_TGRAPH_IR_COLLECTIVEGROUPS_H
#define TESSERA_DIALECT_TGRAPH_IR_COLLECTIVEGROUPS_H

#include "mlir/IR/Operation.h"

#include <cstdint>
#include <vector>

namespace tessera::tgraph {

/// The module's replica and partition counts (1 when absent).
struct DeviceCounts {
  int64_t replicas = 1, partitions = 1;
  int64_t devices() const { return replicas * partitions; }
};
DeviceCounts deviceCounts(mlir::Operation *anyOpInModule);

/// The groups of devices of an all_reduce, all_gather or reduce_scatter:
/// every device in exactly one group, members in the order their values
/// combine (all_gather concatenates in it).
std::vector<std::vector<int64_t>> collectiveGroups(mlir::Operation *op,
                                                   DeviceCounts counts);

/// A collective_permute's (source device, target device) pairs.
std::vector<std::pair<int64_t, int64_t>> permutePairs(mlir::Operation *op,
                                                      DeviceCounts counts);

} // namespace tessera::tgraph

#endif // TESSERA_DIALECT_TGRAPH_IR_COLLECTIVEGROUPS_H
