//===- LowerCollectives.cpp - collectives on one chip ---------------------===//
//
// A tile program is one replica on one chip. A collective whose every group
// holds one participant (this replica) is the identity: all_reduce,
// all_gather and reduce_scatter of one operand return it, a
// collective_permute that sends every replica to itself too. The result is
// an alias of the operand's buffer (same mapping, `aliases`), no step.
//
// A collective over several participants needs the other replicas' data,
// which this chip does not have: it stays on the host with reason
// "multi-replica" and the group size in `detail`, rather than being
// lowered as if it were the identity.
//
// Participants (XLA's group modes): the largest replica group, where an
// empty list means all `tgraph.replica_count` replicas (the HLO module
// header; 1 when absent); with a `channel_id` and without
// `use_global_device_ids` each replica's group also spans all
// `tgraph.num_partitions` partitions; with `use_global_device_ids` the ids
// are global devices and an empty list means replicas x partitions.
//
//===----------------------------------------------------------------------===//

#include "Lowerer.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::lowering;
namespace tg = tessera::tgraph;

/// A module header count (`tgraph.replica_count`, ...), 1 when absent.
static int64_t moduleCount(ModuleOp module, StringRef attr) {
  if (auto n = module->getAttrOfType<IntegerAttr>(attr))
    return std::max<int64_t>(n.getInt(), 1);
  return 1;
}

/// How many replicas (or devices) take part in each group of a collective.
static int64_t participants(ModuleOp module, Operation *op) {
  int64_t replicas = moduleCount(module, "tgraph.replica_count");
  int64_t partitions = moduleCount(module, "tgraph.num_partitions");
  bool global = op->hasAttr("use_global_device_ids");
  int64_t size = 0;
  if (auto groups = op->getAttrOfType<ArrayAttr>("replica_groups"))
    for (Attribute g : groups)
      if (auto ids = dyn_cast<DenseI64ArrayAttr>(g))
        size = std::max<int64_t>(size, ids.size());
  if (size == 0)
    size = global ? replicas * partitions : replicas;
  if (op->hasAttr("channel_id") && !global)
    size *= partitions;
  return size;
}

bool Lowerer::lowerCollective(Operation *op, StringRef name,
                              std::string &detail) {
  if (!isa<tg::AllReduceOp, tg::AllGatherOp, tg::ReduceScatterOp,
           tg::CollectivePermuteOp>(op))
    return false;
  if (auto permute = dyn_cast<tg::CollectivePermuteOp>(op)) {
    ArrayRef<int64_t> pairs = permute.getSourceTargetPairs();
    if (pairs.empty()) {
      // No replica receives anything: the result is zeros.
      detail = "no source-target pairs";
      return false;
    }
    int64_t moving = 0;
    for (size_t i = 0; i + 1 < pairs.size(); i += 2)
      moving += pairs[i] != pairs[i + 1];
    if (moving > 0) {
      lowerOnHost(op, name, "multi-replica",
                  std::to_string(moving) +
                      " source-target pairs move data between replicas");
      return true;
    }
  } else if (int64_t n = participants(module, op); n > 1) {
    lowerOnHost(op, name, "multi-replica",
                "groups of " + std::to_string(n) +
                    " replicas; one chip holds one");
    return true;
  }
  // The identity: every result leaf is its operand leaf under the result's
  // shape (all_gather / reduce_scatter over one replica keep the shape).
  SmallVector<Value> in;
  for (Value v : op->getOperands()) {
    auto it = buffers.find(v);
    if (it == buffers.end())
      return false;
    in.append(it->second);
  }
  SmallVector<Type> leaves;
  flattenLeaves(op->getResult(0).getType(), leaves);
  if (leaves.size() != in.size()) {
    detail = "results do not match the operands";
    return false;
  }
  for (auto [b, leaf] : llvm::zip(in, leaves)) {
    RankedTensorType t = bufferableTensor(leaf);
    if (!b || !t || elementsOf(b) != t.getNumElements()) {
      detail = "a result does not have its operand's size";
      return false;
    }
  }
  SmallVector<Value> out;
  for (auto [b, leaf] : llvm::zip(in, leaves)) {
    auto t = bufferableTensor(leaf);
    auto var = b.getDefiningOp<tile::VarOp>();
    Value alias =
        makeVar(op->getLoc(), name, tile::Category::Temporary,
                planSameAs(runsOf(b), "'" + var.getName().str() +
                                          "' (a collective over one replica)"),
                t.getShape(), t.getElementType(), name);
    alias.getDefiningOp<tile::VarOp>().getAliasMutable().assign(
        var.getResult());
    aliasStorage[alias] = storageOf(b);
    out.push_back(alias);
  }
  buffers[op->getResult(0)] = out;
  return true;
}
