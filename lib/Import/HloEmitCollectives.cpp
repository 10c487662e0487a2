//===- HloEmitCollectives.cpp - HLO cross-replica ops ---------------------===//
//
// all-reduce, all-gather, reduce-scatter, all-to-all, collective-permute and
// the replica and partition ids. Their variadic and in-place forms are not
// modelled and stay tgraph.unknown.
//
//===----------------------------------------------------------------------===//

#include "HloEmitOps.h"

using namespace mlir;

namespace tessera::hlo::detail {
namespace {

/// The attributes every collective over replica groups may carry.
struct ReplicaAttrs {
  ArrayAttr groups;
  IntegerAttr channelId;
  bool useGlobalDeviceIds = false;
};

bool readReplicaAttrs(InstrEmit &e, ReplicaAttrs &out) {
  if (const Attr *a = e.attrs.take("replica_groups")) {
    std::vector<llvm::SmallVector<int64_t, 8>> groups;
    if (!parseReplicaGroups(*a, e.diags(), groups))
      return false;
    llvm::SmallVector<Attribute> list;
    for (auto &group : groups)
      list.push_back(e.builder().getDenseI64ArrayAttr(group));
    out.groups = e.builder().getArrayAttr(list);
  }
  return optionalI64(e, "channel_id", out.channelId) &&
         flag(e, "use_global_device_ids", out.useGlobalDeviceIds);
}

Emitted allReduce(InstrEmit &e) {
  if (e.operands.empty())
    return badArity(e, 1);
  ReplicaAttrs r;
  if (!readReplicaAttrs(e, r))
    return failure();
  auto op = e.create<tg::AllReduceOp>(e.operands, r.groups, r.channelId,
                                      r.useGlobalDeviceIds);
  return withRegion(e, op, op.getComputation(), "to_apply");
}

/// all-gather and reduce-scatter: one operand, one dimension.
Emitted gatherOrScatter(Op kind, InstrEmit &e) {
  if (e.operands.size() != 1)
    return keepAsUnknown(); // the variadic forms are not modelled
  int64_t dim;
  ReplicaAttrs r;
  if (!singleDim(e, "dimensions", dim) || !readReplicaAttrs(e, r))
    return failure();
  if (kind == Op::AllGather)
    return e.emit<tg::AllGatherOp>(e.operands[0], static_cast<uint64_t>(dim),
                                   r.groups, r.channelId, r.useGlobalDeviceIds);
  auto op = e.create<tg::ReduceScatterOp>(e.operands[0],
                                          static_cast<uint64_t>(dim), r.groups,
                                          r.channelId, r.useGlobalDeviceIds);
  return withRegion(e, op, op.getComputation(), "to_apply");
}

Emitted collectivePermute(InstrEmit &e) {
  if (e.operands.size() != 1)
    return keepAsUnknown(); // the in-place (4-operand) form is not modelled
  const Attr *a = required(e, "source_target_pairs");
  llvm::SmallVector<int64_t, 8> pairs;
  IntegerAttr channelId;
  if (!a || !parsePairs(*a, e.diags(), pairs) ||
      !optionalI64(e, "channel_id", channelId))
    return failure();
  return e.emit<tg::CollectivePermuteOp>(e.operands[0], pairs, channelId);
}

template <typename OpTy> Emitted nullaryOp(InstrEmit &e) {
  if (!arity(e, 0))
    return failure();
  return e.emit<OpTy>();
}

} // namespace

/// all-to-all's array form: one operand, split and concatenated along one
/// dimension. The tuple form (several operands) stays unknown.
Emitted allToAll(InstrEmit &e) {
  if (e.operands.size() != 1)
    return keepAsUnknown();
  int64_t dim;
  ReplicaAttrs r;
  if (!singleDim(e, "dimensions", dim) || !readReplicaAttrs(e, r))
    return failure();
  if (r.useGlobalDeviceIds)
    return keepAsUnknown();
  return e.emit<tg::AllToAllOp>(e.operands[0], static_cast<uint64_t>(dim),
                                r.groups, r.channelId);
}

Emitted emitCollective(Op kind, InstrEmit &e) {
  switch (kind) {
  case Op::AllReduce:
    return allReduce(e);
  case Op::AllGather:
  case Op::ReduceScatter:
    return gatherOrScatter(kind, e);
  case Op::CollectivePermute:
    return collectivePermute(e);
  case Op::AllToAll:
    return allToAll(e);
  case Op::ReplicaId:
    return nullaryOp<tg::ReplicaIdOp>(e);
  case Op::PartitionId:
    return nullaryOp<tg::PartitionIdOp>(e);
  default:
    llvm_unreachable("not a collective opcode");
  }
}

} // namespace tessera::hlo::detail
