//===- LowerCollectives.cpp - collectives over replicas -------------------===//
//
// A tile program is one replica's (one device's, CollectiveGroups.h). A
// collective whose every group holds one participant is the identity:
// all_reduce, all_gather and reduce_scatter of one operand return it, a
// collective_permute that sends every replica to itself too. The result is
// an alias of the operand's buffer (same mapping, `aliases`), no step.
//
// A collective over several devices becomes a `tile.collective` step per
// operand leaf, when the target has a chip group for every device
// (`replicas` times the program's chips); the program then runs once per
// device (the model device runs them in lockstep). On a target with too
// few chips it stays on the host with reason "multi-replica" and the
// counts in `detail`, rather than being lowered as if it were the
// identity.
//
//===----------------------------------------------------------------------===//

#include "Lowerer.h"

#include "tessera/Dialect/TGraph/IR/CollectiveGroups.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::lowering;
namespace tg = tessera::tgraph;

/// How many devices take part in each group of a collective (the largest).
static int64_t participants(Operation *op, tg::DeviceCounts counts) {
  size_t size = 0;
  for (const std::vector<int64_t> &g : tg::collectiveGroups(op, counts))
    size = std::max(size, g.size());
  return static_cast<int64_t>(size);
}

bool Lowerer::lowerCollectiveSteps(Operation *op, StringRef name,
                                   std::string &detail) {
  tg::DeviceCounts counts = tg::deviceCounts(module);
  std::vector<int64_t> flat;
  int64_t size = 0;
  SmallVector<int64_t> pairs;
  if (isa<tg::CollectivePermuteOp>(op)) {
    for (int64_t d = 0; d < counts.devices(); ++d)
      flat.push_back(d);
    size = counts.devices();
    for (auto [from, to] : tg::permutePairs(op, counts)) {
      if (from < 0 || to < 0 || from >= size || to >= size) {
        detail = "a source-target pair names a device the module lacks";
        return false;
      }
      pairs.append({from, to});
    }
  } else {
    for (const std::vector<int64_t> &g : tg::collectiveGroups(op, counts)) {
      if (size != 0 && int64_t(g.size()) != size) {
        detail = "replica groups of different sizes";
        return false;
      }
      size = g.size();
      flat.insert(flat.end(), g.begin(), g.end());
    }
    llvm::SmallDenseSet<int64_t> seen(flat.begin(), flat.end());
    if (int64_t(seen.size()) != counts.devices() ||
        int64_t(flat.size()) != counts.devices() ||
        llvm::any_of(
            flat, [&](int64_t d) { return d < 0 || d >= counts.devices(); })) {
      detail = "replica groups do not cover each device once";
      return false;
    }
  }
  tile::CollectiveKind kind =
      isa<tg::AllReduceOp>(op)       ? tile::CollectiveKind::AllReduce
      : isa<tg::AllGatherOp>(op)     ? tile::CollectiveKind::AllGather
      : isa<tg::ReduceScatterOp>(op) ? tile::CollectiveKind::ReduceScatter
      : isa<tg::AllToAllOp>(op)      ? tile::CollectiveKind::AllToAll
                                     : tile::CollectiveKind::Permute;
  std::string reducer;
  int64_t dimension = 0;
  if (op->getNumRegions() == 1) {
    reducer = reducerKind(op->getRegion(0));
    if (reducer.empty()) {
      detail = "the reducer is not one binary op of its arguments";
      return false;
    }
  }
  if (auto g = dyn_cast<tg::AllGatherOp>(op))
    dimension = g.getAllGatherDim();
  if (auto rs = dyn_cast<tg::ReduceScatterOp>(op))
    dimension = rs.getScatterDimension();
  if (auto a2a = dyn_cast<tg::AllToAllOp>(op)) {
    dimension = a2a.getDimension();
    auto t = cast<RankedTensorType>(a2a.getType());
    if (t.getRank() == 0 || t.getDimSize(dimension) % size != 0) {
      detail = "dimension " + std::to_string(dimension) +
               " does not split into " + std::to_string(size) + " blocks";
      return false;
    }
  }
  SmallVector<Value> in;
  for (Value v : op->getOperands()) {
    auto it = buffers.find(v);
    if (it == buffers.end() ||
        llvm::any_of(it->second, [](Value b) { return !b; })) {
      detail = "an operand has no buffer";
      return false;
    }
    in.append(it->second);
  }
  SmallVector<Type> leaves;
  flattenLeaves(op->getResult(0).getType(), leaves);
  if (leaves.size() != in.size() ||
      llvm::any_of(leaves, [](Type t) { return !bufferableTensor(t); })) {
    detail = "results do not match the operands";
    return false;
  }
  // An all-reduce or permute keeps its operand's layout (each tile combines
  // its own elements); a gather or scatter changes the size, so its result
  // is laid out afresh.
  SmallVector<Value> out;
  for (auto [i, b] : llvm::enumerate(in)) {
    RankedTensorType t = bufferableTensor(leaves[i]);
    std::string leafName =
        in.size() == 1 ? name.str() : (name + "." + Twine(i)).str();
    Value dest;
    if (kind == tile::CollectiveKind::AllReduce ||
        kind == tile::CollectiveKind::Permute ||
        kind == tile::CollectiveKind::AllToAll) {
      auto var = b.getDefiningOp<tile::VarOp>();
      dest = makeVar(op->getLoc(), leafName, resultCategory(op->getResult(0)),
                     planSameAs(runsOf(b), "'" + var.getName().str() +
                                               "' (combined across replicas)"),
                     t.getShape(), t.getElementType(), name);
    } else {
      dest = makeLinearVar(op->getLoc(), leafName,
                           resultCategory(op->getResult(0)), t, name);
    }
    SmallVector<Value> reads{b};
    if (computeDirty.contains(dest))
      reads.push_back(dest);
    syncBeforeReading(reads);
    builder.create<tile::CollectiveOp>(
        op->getLoc(), builder.getStringAttr(leafName),
        tile::CollectiveKindAttr::get(builder.getContext(), kind), b, dest,
        builder.getDenseI64ArrayAttr(flat), builder.getI64IntegerAttr(size),
        reducer.empty() ? StringAttr() : builder.getStringAttr(reducer),
        builder.getI64IntegerAttr(dimension),
        pairs.empty() && kind != tile::CollectiveKind::Permute
            ? DenseI64ArrayAttr()
            : builder.getDenseI64ArrayAttr(pairs),
        builder.getStringAttr("ring"));
    ++stats->exchanges;
    dirty.insert(dest);
    out.push_back(dest);
  }
  buffers[op->getResult(0)] = out;
  return true;
}

/// Why the module's devices do not each get chips of their own.
std::string Lowerer::tooFewChips() const {
  int64_t devices = tg::deviceCounts(module).devices();
  return std::to_string(devices) + " devices of " +
         std::to_string(placement.chips) +
         (placement.chips == 1 ? " chip" : " chips") + " need " +
         std::to_string(devices * placement.chips) + ", target '" +
         target.name + "' has " + std::to_string(target.chips);
}

bool Lowerer::lowerCollective(Operation *op, StringRef name,
                              std::string &detail) {
  if (!isa<tg::AllReduceOp, tg::AllGatherOp, tg::ReduceScatterOp,
           tg::AllToAllOp, tg::CollectivePermuteOp>(op))
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
    if (moving > 0 && replicas > 1)
      return lowerCollectiveSteps(op, name, detail);
    if (moving > 0) {
      lowerOnHost(op, name, "multi-replica",
                  std::to_string(moving) +
                      " source-target pairs move data between devices; " +
                      tooFewChips());
      return true;
    }
  } else if (int64_t n = participants(op, tg::deviceCounts(module)); n > 1) {
    if (replicas > 1)
      return lowerCollectiveSteps(op, name, detail);
    lowerOnHost(op, name, "multi-replica",
                "groups of " + std::to_string(n) + " devices; " +
                    tooFewChips());
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
