//===- ChipPlacement.cpp - which chip each op of the entry runs on --------===//
//
// See ChipPlacement.h. The stage cut is a prefix split: op i goes to the
// stage whose share of the total bytes its running sum falls in, so every
// stage is a contiguous range of the entry in program order (a pipeline)
// and the chips hold about the same bytes. That cut ignores liveness and
// the copies a stage receives from other chips, so a chip can end up with
// more live than it holds while others have room (docs/multichip.md, the
// GNMT-size step); then the cut is made again by a live estimate
// (LiveEstimate below), as evenly as the stages allow. Neither helps when
// single ops fill most of a chip (that step's loss): a mixed placement
// takes those ops off the stages into a group of chips they are spread
// over (largeOpGroup, sized by groupLiveBytes), and cuts the rest.
//
//===----------------------------------------------------------------------===//

#include "tessera/Conversion/TGraphToTile/ChipPlacement.h"

#include "tessera/Analysis/OpCost.h"
#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <functional>
#include <queue>

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
  llvm::StringRef name = tgraph::getInstructionName(op);
  return (name.empty() ? op->getName().getStringRef() : name).str();
}

bool tessera::isPlacementMode(llvm::StringRef mode) {
  return mode == "auto" || mode == "stages" || mode == "spread" ||
         mode == "mixed";
}

int64_t tessera::largestOpBytes(func::FuncOp entry) {
  int64_t largest = 0;
  for (Operation &op : entry.getBody().front().without_terminator())
    if (!followsOperand(&op))
      largest = std::max(largest, opBytes(&op));
  return largest;
}

/// Whether a group op makes `v`, or `v` renames a value one makes.
static bool madeByGroup(Value v, const llvm::DenseSet<Operation *> &group) {
  Operation *def = v.getDefiningOp();
  while (def && followsOperand(def) && def->getNumOperands() > 0)
    def = def->getOperand(0).getDefiningOp();
  return def && group.contains(def);
}

/// The ops a mixed placement spreads over its group (ChipPlacement.h): the
/// large ones, each touching over a quarter of a chip's `chipBytes`; the
/// small ops between them (fed only by group ops and constants, directly
/// or through other such ops, and read by a group op, directly or through
/// them: a loss's reductions, their broadcasts and the scalars between its
/// large tensors); and broadcasts and iotas of constants or arguments
/// whose users are all in the group (made where they are read rather than
/// copied in). Empty when no op is that large.
static llvm::DenseSet<Operation *>
largeOpGroup(Block &block, ArrayRef<Operation *> ops, int64_t chipBytes) {
  llvm::DenseSet<Operation *> group;
  for (Operation *op : ops)
    if (!followsOperand(op) && !isa<tg::ConstantOp>(op) &&
        4 * opBytes(op) > chipBytes)
      group.insert(op);
  if (group.empty())
    return group;
  auto constant = [](Value v) {
    return isa_and_nonnull<tg::ConstantOp>(v.getDefiningOp());
  };
  // A constant or an argument of the entry, or a renaming of one.
  auto source = [&](Value v) {
    Operation *def = v.getDefiningOp();
    while (def && followsOperand(def) && def->getNumOperands() > 0) {
      v = def->getOperand(0);
      def = v.getDefiningOp();
    }
    return def ? isa<tg::ConstantOp>(def)
               : cast<BlockArgument>(v).getOwner() == &block;
  };
  // Small ops fed only by the group, in program order.
  llvm::DenseSet<Operation *> fed;
  auto fromGroup = [&](Value v) {
    return madeByGroup(v, group) || madeByGroup(v, fed);
  };
  for (Operation *op : ops)
    if (!group.contains(op) && !followsOperand(op) &&
        !isa<tg::ConstantOp>(op) &&
        llvm::any_of(op->getOperands(), fromGroup) &&
        llvm::all_of(op->getOperands(),
                     [&](Value v) { return fromGroup(v) || constant(v); }))
      fed.insert(op);
  // An op is read by the group when a group op (through renaming ops) uses
  // its result; users come first in reverse order, so a chain of fed ops
  // joins from its end.
  std::function<bool(Operation *)> readByGroup = [&](Operation *op) {
    return llvm::any_of(op->getUsers(), [&](Operation *user) {
      Operation *top = block.findAncestorOpInBlock(*user);
      if (!top)
        return false;
      if (followsOperand(top) && top == user)
        return readByGroup(top);
      return group.contains(top);
    });
  };
  for (Operation *op : llvm::reverse(ops)) {
    if (group.contains(op))
      continue;
    // Broadcasts and iotas of constants or arguments (a bias, the
    // labels): only when every user is the group's.
    bool fill = isa<tg::BroadcastInDimOp, tg::IotaOp>(op) &&
                llvm::all_of(op->getOperands(), source) && !op->use_empty() &&
                llvm::all_of(op->getUsers(), [&](Operation *user) {
                  Operation *top = block.findAncestorOpInBlock(*user);
                  return top && group.contains(top);
                });
    if (fill || (fed.contains(op) && readByGroup(op)))
      group.insert(op);
  }
  return group;
}

/// An estimate of the peak bytes the group's chips hold live: the group
/// ops' results from where they are made to their last use anywhere (a
/// renaming op's uses count as its operand's), and the other values the
/// group reads from their first use there to their last, before padding.
static int64_t groupLiveBytes(Block &block, ArrayRef<Operation *> ops,
                              const llvm::DenseSet<Operation *> &group) {
  int64_t n = ops.size();
  llvm::DenseMap<Operation *, int64_t> index;
  for (auto [i, op] : llvm::enumerate(ops))
    index[op] = i;
  auto at = [&](Operation *user) -> int64_t {
    Operation *top = block.findAncestorOpInBlock(*user);
    auto it = top ? index.find(top) : index.end();
    return it == index.end() ? n : it->second;
  };
  // Last uses, users before producers.
  llvm::DenseMap<Value, int64_t> lastUse;
  for (Operation *op : llvm::reverse(ops))
    for (Value r : op->getResults()) {
      int64_t last = -1;
      for (Operation *user : r.getUsers()) {
        last = std::max(last, at(user));
        if (followsOperand(user) && user->getBlock() == &block)
          for (Value u : user->getResults())
            last = std::max(last, lastUse.lookup(u));
      }
      lastUse[r] = last;
    }
  std::vector<int64_t> delta(n + 2, 0);
  auto live = [&](int64_t bytes, int64_t from, int64_t to) {
    if (from < 0 || to < from)
      return;
    delta[from] += bytes;
    delta[std::min(to, n) + 1] -= bytes;
  };
  llvm::DenseMap<Value, std::pair<int64_t, int64_t>> read;
  for (auto [i, op] : llvm::enumerate(ops)) {
    if (!group.contains(op))
      continue;
    for (Value r : op->getResults())
      live(valueBytes(r.getType()), i, lastUse.lookup(r));
    op->walk([&](Operation *inner) {
      for (Value v : inner->getOperands()) {
        Operation *def = v.getDefiningOp();
        if ((def && def->getBlock() != &block) || madeByGroup(v, group))
          continue;
        auto [it, fresh] = read.try_emplace(v, int64_t(i), int64_t(i));
        it->second.second = i;
      }
    });
  }
  for (auto &[v, range] : read)
    live(valueBytes(v.getType()), range.first, range.second);
  int64_t running = 0, peak = 0;
  for (int64_t d : delta)
    peak = std::max(peak, running += d);
  return peak;
}

namespace {
/// Estimates the bytes each stage's chip holds live, in program order, for
/// a cut given op by op. Every value (an op's result, a constant or a
/// parameter; renaming ops are views of their operands) is live on its
/// chip from where it is placed to its last use anywhere, as the chips
/// after it copy it at their first use; a stage that reads a value from an
/// earlier stage holds a copy from its first use there. Both end at the
/// value's last use in the program (a copy's later users may be on later
/// chips; the estimate errs high). Bytes are before padding.
class LiveEstimate {
public:
  LiveEstimate(Block &block, ArrayRef<Operation *> ops,
               llvm::function_ref<bool(Operation *)> placed,
               llvm::function_ref<int64_t(Value)> firstUser);

  /// Cuts the ops into stages: with `fixed`, where its stage changes;
  /// otherwise a new stage starts at a placed op whose addition would take
  /// the stage's live bytes over `budget`. Returns each op's stage and
  /// each stage's peak (in `peaks`).
  SmallVector<int64_t> cut(int64_t budget, ArrayRef<int64_t> fixed,
                           SmallVectorImpl<int64_t> &peaks) const;

private:
  struct Item {
    int64_t bytes = 0, def = 0, lastUse = 0;
  };
  std::vector<Item> items;
  /// Per op: the items it places, and the items it reads.
  std::vector<SmallVector<int64_t, 2>> defsAt, usesAt;
  std::vector<bool> isPlaced;
};
} // namespace

LiveEstimate::LiveEstimate(Block &block, ArrayRef<Operation *> ops,
                           llvm::function_ref<bool(Operation *)> placed,
                           llvm::function_ref<int64_t(Value)> firstUser) {
  int64_t n = ops.size();
  defsAt.resize(n);
  usesAt.resize(n);
  for (Operation *op : ops)
    isPlaced.push_back(placed(op));
  llvm::DenseMap<Operation *, int64_t> index;
  for (auto [i, op] : llvm::enumerate(ops))
    index[op] = i;
  // The items each value stands for: a renaming op's result is its
  // operands' items.
  llvm::DenseMap<Value, SmallVector<int64_t, 1>> roots;
  auto addItem = [&](Value v, int64_t def) {
    if (def < 0)
      return;
    roots[v].push_back(items.size());
    defsAt[def].push_back(items.size());
    items.push_back({valueBytes(v.getType()), def, def});
  };
  for (BlockArgument arg : block.getArguments())
    addItem(arg, firstUser(arg));
  for (auto [i, op] : llvm::enumerate(ops)) {
    if (isa<tg::ConstantOp>(op)) {
      addItem(op->getResult(0), firstUser(op->getResult(0)));
    } else if (!placed(op)) {
      SmallVector<int64_t, 1> r;
      for (Value v : op->getOperands())
        if (auto it = roots.find(v); it != roots.end())
          r.append(it->second.begin(), it->second.end());
      for (Value v : op->getResults())
        roots[v] = r;
    } else {
      for (Value r : op->getResults())
        addItem(r, i);
    }
  }
  // Uses, by top-level op; a renaming op's users use its operands' items,
  // and the terminator (the outputs) holds them to the end.
  for (Operation *op : llvm::make_pointer_range(block)) {
    Operation *top = op;
    int64_t at = n;
    if (!op->hasTrait<OpTrait::IsTerminator>()) {
      if (!placed(op))
        continue;
      at = index.lookup(op);
    }
    llvm::SmallDenseSet<int64_t, 8> seen;
    top->walk([&](Operation *inner) {
      for (Value v : inner->getOperands()) {
        auto it = roots.find(v);
        if (it == roots.end())
          continue;
        for (int64_t item : it->second)
          if (seen.insert(item).second) {
            items[item].lastUse = std::max(items[item].lastUse, at);
            if (at < n && items[item].def != at)
              usesAt[at].push_back(item);
          }
      }
    });
  }
}

SmallVector<int64_t> LiveEstimate::cut(int64_t budget, ArrayRef<int64_t> fixed,
                                       SmallVectorImpl<int64_t> &peaks) const {
  int64_t n = defsAt.size();
  SmallVector<int64_t> stageOf(n, 0);
  peaks.assign(1, 0);
  int64_t stage = 0, live = 0, opsInStage = 0;
  // The items live on the stage's chip, by last use, and which stage each
  // was last brought onto (its own or a copy).
  using Entry = std::pair<int64_t, int64_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> byEnd;
  std::vector<int64_t> onStage(items.size(), -1);
  auto startStage = [&] {
    ++stage;
    peaks.push_back(0);
    byEnd = {};
    live = 0;
    opsInStage = 0;
  };
  auto adding = [&](int64_t i) {
    int64_t bytes = 0;
    for (int64_t item : defsAt[i])
      bytes += items[item].bytes;
    for (int64_t item : usesAt[i])
      if (onStage[item] != stage)
        bytes += items[item].bytes;
    return bytes;
  };
  for (int64_t i = 0; i < n; ++i) {
    while (!byEnd.empty() && byEnd.top().first < i) {
      live -= items[byEnd.top().second].bytes;
      onStage[byEnd.top().second] = -1;
      byEnd.pop();
    }
    if (isPlaced[i]) {
      if (!fixed.empty())
        while (fixed[i] > stage)
          startStage();
      else if (opsInStage > 0 && live + adding(i) > budget)
        startStage();
    }
    for (int64_t item : defsAt[i])
      if (onStage[item] != stage) {
        onStage[item] = stage;
        live += items[item].bytes;
        byEnd.push({items[item].lastUse, item});
      }
    for (int64_t item : usesAt[i])
      if (onStage[item] != stage) {
        onStage[item] = stage;
        live += items[item].bytes;
        byEnd.push({items[item].lastUse, item});
      }
    if (isPlaced[i])
      ++opsInStage;
    stageOf[i] = stage;
    peaks[stage] = std::max(peaks[stage], live);
  }
  return stageOf;
}

ChipPlacement tessera::placeOnChips(func::FuncOp entry, int64_t chips,
                                    bool spread, int64_t chipBytes,
                                    bool mixed) {
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

  // Stages balanced by result bytes over the first k chips: op i goes to
  // the stage whose share of the total its running sum falls in.
  SmallVector<int64_t> chipOf(ops.size(), 0);
  auto cutByBytes = [&](ArrayRef<int64_t> w, int64_t k) {
    int64_t total = 0;
    for (int64_t x : w)
      total += x;
    int64_t running = 0;
    for (auto [i, op] : llvm::enumerate(ops)) {
      // The op's midpoint decides its stage, so a large op sits where most
      // of it falls rather than always starting a new stage.
      int64_t mid = running + (w[i] - 1) / 2;
      running += w[i];
      chipOf[i] = total > 0
                      ? std::min<int64_t>(
                            k - 1, static_cast<int64_t>(
                                       static_cast<__int128>(mid) * k / total))
                      : 0;
    }
  };
  llvm::DenseSet<Operation *> group;
  if (!annotated && mixed && placement.chips > 1 && chipBytes > 0)
    group = largeOpGroup(block, ops, chipBytes);
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
  } else if (!group.empty()) {
    // The group gets the chips its live estimate needs with half again to
    // spare (a spread tensor's blocks, the dots' partials and padding are
    // not in the estimate), the other ops stages on the chips before it.
    placement.mode = "mixed";
    placement.groupLiveBytes = groupLiveBytes(block, ops, group);
    int64_t need = (3 * placement.groupLiveBytes / 2 + chipBytes - 1) /
                   std::max<int64_t>(chipBytes, 1);
    placement.groupChips = std::clamp<int64_t>(need, 1, placement.chips - 1);
    placement.groupFirst = placement.chips - placement.groupChips;
    // A constant or argument whose first user is in the group weighs
    // nothing in the stages: it goes with that user.
    SmallVector<int64_t> staged(weight);
    for (auto [i, op] : llvm::enumerate(ops))
      if (group.contains(op))
        staged[i] = 0;
    cutByBytes(staged, placement.groupFirst);
    for (auto [i, op] : llvm::enumerate(ops))
      if (group.contains(op))
        chipOf[i] = placement.groupFirst;
  } else if (placement.chips > 1) {
    placement.mode = "stages";
    cutByBytes(weight, placement.chips);
  }
  // The cut by bytes ignores liveness and copies: when it leaves a chip
  // with more live than it holds, cut again, by the live estimate, with
  // the smallest budget that k stages meet, and keep that cut when its
  // fullest chip is below the first's.
  SmallVector<int64_t> peaks;
  if (placement.mode == "stages" && chipBytes > 0) {
    auto placed = [](Operation *op) {
      return !isa<tg::ConstantOp>(op) && !followsOperand(op);
    };
    LiveEstimate estimate(block, ops, placed, firstUser);
    estimate.cut(0, chipOf, peaks);
    peaks.resize(placement.chips, 0);
    int64_t fullest = *llvm::max_element(peaks);
    auto over = llvm::find_if(peaks, [&](int64_t p) { return p > chipBytes; });
    if (over != peaks.end()) {
      int64_t lo = 0, hi = 1;
      SmallVector<int64_t> tried;
      while (estimate.cut(hi, {}, tried),
             static_cast<int64_t>(tried.size()) > placement.chips)
        hi *= 2;
      while (lo + 1 < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        estimate.cut(mid, {}, tried);
        (static_cast<int64_t>(tried.size()) <= placement.chips ? hi : lo) = mid;
      }
      SmallVector<int64_t> livePeaks;
      SmallVector<int64_t> liveChip = estimate.cut(hi, {}, livePeaks);
      livePeaks.resize(placement.chips, 0);
      int64_t liveFullest = *llvm::max_element(livePeaks);
      if (liveFullest < fullest) {
        placement.cut = "live";
        placement.cutWhy =
            "cut by bytes, chip " + std::to_string(over - peaks.begin()) +
            " would hold " + std::to_string(*over) +
            " bytes live (copies from other chips included), over a chip's " +
            std::to_string(chipBytes) + "; cut by live bytes, the fullest " +
            "chip holds " + std::to_string(liveFullest);
        chipOf = liveChip;
        peaks = livePeaks;
      }
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
    if (!peaks.empty())
      stage.liveBytes = peaks[chipOf[i]];
    ++stage.ops;
    stage.bytes += weight[i];
    if (stage.firstOp.empty())
      stage.firstOp = nameOf(op);
    stage.lastOp = nameOf(op);
  }
  return placement;
}
