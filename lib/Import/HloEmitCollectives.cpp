//===- HloEmitCollectives.cpp - HLO cross-replica ops ---------------------===//
//
// all-reduce, all-gather, reduce-scatter, all-to-all, collective-permute and
// the replica and partition ids. all-to-all's tuple form becomes its array
// form between a concatenate and slices; the other variadic and in-place
// forms are not modelled and stay tgraph.unknown.
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

/// all-to-all's tuple form: device k sends operand j to the j-th member of
/// its group and gets, as result j, the j-th member's operand k. With
/// every operand of one shape that is the array form over a new leading
/// dimension: stack the operands (reshape to [1, ...], concatenate), swap
/// rows across the group, and slice the rows back out. Operands of
/// different shapes stay unknown.
static Emitted allToAllTuple(InstrEmit &e, const ReplicaAttrs &r) {
  auto tuple = dyn_cast<TupleType>(e.resultType);
  auto first = dyn_cast<RankedTensorType>(e.operands[0].getType());
  if (!tuple || !first || !first.hasStaticShape() ||
      tuple.size() != e.operands.size())
    return keepAsUnknown();
  for (Value v : e.operands)
    if (v.getType() != first)
      return keepAsUnknown();
  for (Type t : tuple.getTypes())
    if (t != first)
      return keepAsUnknown();
  int64_t n = static_cast<int64_t>(e.operands.size());
  SmallVector<int64_t> rowShape{1}, stackedShape{n};
  for (int64_t d : first.getShape()) {
    rowShape.push_back(d);
    stackedShape.push_back(d);
  }
  Type elt = first.getElementType();
  auto rowType = RankedTensorType::get(rowShape, elt);
  auto stackedType = RankedTensorType::get(stackedShape, elt);
  OpBuilder &b = e.builder();
  SmallVector<Value> rows;
  for (Value v : e.operands) {
    auto row = b.create<tg::ReshapeOp>(e.helperLoc("row"), rowType, v);
    e.helpers.push_back(row);
    rows.push_back(row);
  }
  auto stacked =
      b.create<tg::ConcatenateOp>(e.helperLoc("stack"), stackedType, rows, 0);
  auto swapped =
      b.create<tg::AllToAllOp>(e.helperLoc("swap"), stackedType, stacked,
                               uint64_t(0), r.groups, r.channelId);
  e.helpers.push_back(stacked);
  e.helpers.push_back(swapped);
  SmallVector<Value> results;
  SmallVector<int64_t> ones(stackedShape.size(), 1);
  for (int64_t j = 0; j < n; ++j) {
    SmallVector<int64_t> start(stackedShape.size(), 0), limit(stackedShape);
    start[0] = j;
    limit[0] = j + 1;
    auto slice = b.create<tg::SliceOp>(e.helperLoc("received"), rowType,
                                       swapped, start, limit, ones);
    auto result =
        b.create<tg::ReshapeOp>(e.helperLoc("received"), first, slice);
    e.helpers.push_back(slice);
    e.helpers.push_back(result);
    results.push_back(result);
  }
  return e.emit<tg::TupleOp>(results);
}

/// all-to-all's array form: one operand, split and concatenated along one
/// dimension; the tuple form above.
Emitted allToAll(InstrEmit &e) {
  if (e.operands.empty())
    return badArity(e, 1);
  ReplicaAttrs r;
  if (e.operands.size() > 1) {
    if (!readReplicaAttrs(e, r))
      return failure();
    if (r.useGlobalDeviceIds)
      return keepAsUnknown();
    return allToAllTuple(e, r);
  }
  int64_t dim;
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
