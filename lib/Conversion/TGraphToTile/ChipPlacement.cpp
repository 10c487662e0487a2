//===- ChipPlacement.cpp - which chip each op of the entry runs on --------===//
//
// See ChipPlacement.h. The stage cut is a prefix split: op i goes to the
// stage whose share of the total bytes its running sum falls in, so every
// stage is a contiguous range of the entry in program order (a pipeline)
// and the chips hold about the same bytes.
//
//===----------------------------------------------------------------------===//

#include "tessera/Conversion/TGraphToTile/ChipPlacement.h"

#include "tessera/Analysis/OpCost.h"
#include "tessera/Analysis/OpIdentity.h"
#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tessera;
namespace tg = tessera::tgraph;

std::optional<int64_t> tessera::maximalDevice(Operation *op) {
  auto sharding = op->getAttrOfType<StringAttr>("tgraph.sharding");
  if (!sharding)
    return std::nullopt;
  // HLO writes `{maximal device=N}`; a tuple sharding lists one per leaf,
  // and an op as a whole goes where its first maximal leaf does.
  StringRef text = sharding.getValue();
  size_t at = text.find("maximal device=");
  if (at == StringRef::npos)
    return std::nullopt;
  StringRef digits =
      text.drop_front(at + strlen("maximal device=")).take_while([](char c) {
        return isdigit(c);
      });
  int64_t device = 0;
  if (digits.empty() || digits.getAsInteger(10, device) || device >= (1 << 12))
    return std::nullopt;
  return device;
}

int64_t tessera::annotatedChips(func::FuncOp entry) {
  int64_t chips = 0;
  for (Operation &op : entry.getBody().front().without_terminator())
    if (std::optional<int64_t> d = maximalDevice(&op))
      chips = std::max(chips, *d + 1);
  return chips;
}

/// Ops that only rename buffers: they go where their operand is.
static bool followsOperand(Operation *op) {
  return isa<tg::TupleOp, tg::GetTupleElementOp, tg::ReshapeOp, tg::BitcastOp,
             tg::AfterAllOp>(op);
}

static std::string nameOf(Operation *op) {
  std::string name = identifyOp(op).instruction;
  return name.empty() ? op->getName().getStringRef().str() : name;
}

int64_t tessera::largestOpBytes(func::FuncOp entry) {
  int64_t largest = 0;
  for (Operation &op : entry.getBody().front().without_terminator()) {
    if (followsOperand(&op))
      continue;
    int64_t bytes = 0;
    for (Value v : op.getOperands())
      bytes += valueBytes(v.getType());
    for (Value v : op.getResults())
      bytes += valueBytes(v.getType());
    largest = std::max(largest, bytes);
  }
  return largest;
}

ChipPlacement tessera::placeOnChips(func::FuncOp entry, int64_t chips,
                                    bool spread) {
  ChipPlacement placement;
  placement.chips = std::max<int64_t>(chips, 1);
  placement.argChip.assign(entry.getNumArguments(), 0);
  if (spread && placement.chips > 1 && annotatedChips(entry) == 0) {
    placement.mode = "spread";
    return placement;
  }
  Block &block = entry.getBody().front();
  SmallVector<Operation *> ops;
  for (Operation &op : block.without_terminator())
    ops.push_back(&op);
  placement.argChip.assign(entry.getNumArguments(), 0);

  // The first user (an index into ops) of each constant and argument.
  llvm::DenseMap<Operation *, int64_t> index;
  for (auto [i, op] : llvm::enumerate(ops))
    index[op] = i;
  auto firstUser = [&](Value v) -> int64_t {
    int64_t first = -1;
    for (Operation *user : v.getUsers()) {
      // Users inside a nested region count as their top-level ancestor.
      Operation *top = block.findAncestorOpInBlock(*user);
      auto it = top ? index.find(top) : index.end();
      if (it != index.end() && (first < 0 || it->second < first))
        first = it->second;
    }
    return first;
  };

  bool annotated = annotatedChips(entry) > 0;
  for (Operation *op : ops)
    if (auto sharding = op->getAttrOfType<StringAttr>("tgraph.sharding"))
      if (!maximalDevice(op) &&
          sharding.getValue().find("replicated") == StringRef::npos &&
          placement.notes.size() < 8)
        placement.notes.push_back(
            "'" + nameOf(op) + "' has sharding " + sharding.getValue().str() +
            ": only maximal shardings place ops (tiled ones need SPMD "
            "partitioning, which Tessera does not do)");

  // Bytes each op brings: its results, plus the constants and arguments it
  // is the first user of (they are placed with it).
  SmallVector<int64_t> weight(ops.size(), 0);
  for (auto [i, op] : llvm::enumerate(ops)) {
    if (isa<tg::ConstantOp>(op) || followsOperand(op))
      continue;
    for (Value r : op->getResults())
      weight[i] += valueBytes(r.getType());
  }
  for (auto [i, op] : llvm::enumerate(ops))
    if (isa<tg::ConstantOp>(op))
      if (int64_t u = firstUser(op->getResult(0)); u >= 0)
        weight[u] += valueBytes(op->getResult(0).getType());
  for (BlockArgument arg : entry.getArguments())
    if (int64_t u = firstUser(arg); u >= 0)
      weight[u] += valueBytes(arg.getType());

  SmallVector<int64_t> chipOf(ops.size(), 0);
  if (annotated) {
    placement.mode = "annotations";
    // Unannotated ops follow their first operand made by a placed op, else
    // stay with the op before them.
    llvm::DenseMap<Value, int64_t> valueChip;
    int64_t previous = 0;
    for (auto [i, op] : llvm::enumerate(ops)) {
      int64_t chip = previous;
      if (std::optional<int64_t> d = maximalDevice(op)) {
        chip = std::min(*d, placement.chips - 1);
      } else {
        for (Value v : op->getOperands())
          if (auto it = valueChip.find(v); it != valueChip.end()) {
            chip = it->second;
            break;
          }
      }
      chipOf[i] = chip;
      previous = chip;
      for (Value r : op->getResults())
        valueChip[r] = chip;
    }
  } else if (placement.chips > 1) {
    placement.mode = "stages";
    int64_t total = 0;
    for (int64_t w : weight)
      total += w;
    int64_t running = 0;
    for (auto [i, op] : llvm::enumerate(ops)) {
      // The op's midpoint decides its stage, so a large op sits where most
      // of it falls rather than always starting a new stage.
      int64_t mid = running + (weight[i] - 1) / 2;
      running += weight[i];
      chipOf[i] = total > 0 ? std::min<int64_t>(placement.chips - 1,
                                                static_cast<int64_t>(
                                                    static_cast<__int128>(mid) *
                                                    placement.chips / total))
                            : 0;
    }
  }
  // Constants go with their first user, then renaming ops follow their
  // operand (in order, so a chain of them follows its head).
  for (auto [i, op] : llvm::enumerate(ops))
    if (isa<tg::ConstantOp>(op) && !maximalDevice(op))
      if (int64_t u = firstUser(op->getResult(0)); u >= 0)
        chipOf[i] = chipOf[u];
  for (auto [i, op] : llvm::enumerate(ops)) {
    if (followsOperand(op) && op->getNumOperands() > 0 && !maximalDevice(op))
      if (Operation *def = op->getOperand(0).getDefiningOp())
        if (auto it = index.find(def); it != index.end())
          chipOf[i] = chipOf[it->second];
  }
  for (BlockArgument arg : entry.getArguments())
    if (int64_t u = firstUser(arg); u >= 0)
      placement.argChip[arg.getArgNumber()] = chipOf[u];

  placement.stages.resize(placement.chips);
  for (auto [c, stage] : llvm::enumerate(placement.stages))
    stage.chip = c;
  for (auto [i, op] : llvm::enumerate(ops)) {
    placement.opChip[op] = chipOf[i];
    ChipStage &stage = placement.stages[chipOf[i]];
    ++stage.ops;
    stage.bytes += weight[i];
    if (stage.firstOp.empty())
      stage.firstOp = nameOf(op);
    stage.lastOp = nameOf(op);
  }
  return placement;
}
