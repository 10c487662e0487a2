//===- Schedule.cpp - program points of a tile program --------------------===//

#include "tessera/Memory/Schedule.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::memory;

static void scheduleBlock(Block &block, int32_t depth, int32_t parent,
                          Schedule &schedule);

static std::optional<StepKind> kindOf(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<StepKind>>(op)
      .Case([](tile::ComputeSetOp) { return StepKind::ComputeSet; })
      .Case([](tile::ExchangeOp) { return StepKind::Exchange; })
      .Case([](tile::SyncOp) { return StepKind::Sync; })
      .Case([](tile::HostCopyOp) { return StepKind::HostCopy; })
      .Case([](tile::HostComputeOp) { return StepKind::HostCompute; })
      .Case([](tile::CollectiveOp) { return StepKind::Collective; })
      .Case([](tile::RepeatOp) { return StepKind::Repeat; })
      .Case([](tile::IfOp) { return StepKind::If; })
      .Default([](Operation *) { return std::nullopt; });
}

static void scheduleOp(Operation *op, int32_t depth, int32_t parent,
                       Schedule &schedule) {
  std::optional<StepKind> kind = kindOf(op);
  if (!kind)
    return; // vars, terminators
  int64_t point = schedule.steps.size();
  schedule.steps.push_back({op, *kind, point, point, depth, parent});
  for (Region &region : op->getRegions())
    for (Block &block : region)
      scheduleBlock(block, depth + 1, static_cast<int32_t>(point), schedule);
  schedule.steps[point].endPoint = schedule.steps.size() - 1;
}

static void scheduleBlock(Block &block, int32_t depth, int32_t parent,
                          Schedule &schedule) {
  for (Operation &op : block)
    scheduleOp(&op, depth, parent, schedule);
}

Schedule tessera::memory::buildSchedule(tile::ProgramOp program) {
  Schedule schedule;
  // Counted first: the vector grown by doubling held up to twice the
  // steps (21 MB at 100 k ops).
  size_t steps = 0;
  program.getBody().walk([&](Operation *op) { steps += kindOf(op) ? 1 : 0; });
  schedule.steps.reserve(steps);
  scheduleBlock(program.getBody().front(), 0, -1, schedule);
  return schedule;
}

StringRef tessera::memory::stepKindName(StepKind kind) {
  // In the order of StepKind's enumerators.
  static constexpr llvm::StringLiteral names[] = {
      "compute_set",  "exchange",   "sync",   "host_copy",
      "host_compute", "collective", "repeat", "if"};
  static_assert(std::size(names) == static_cast<size_t>(StepKind::If) + 1,
                "a name for every StepKind");
  auto index = static_cast<size_t>(kind);
  return index < std::size(names) ? StringRef(names[index]) : StringRef();
}

std::string tessera::memory::stepName(const Step &step) {
  if (auto copy = dyn_cast<tile::HostCopyOp>(step.op)) {
    auto var = copy.getBuffer().getDefiningOp<tile::VarOp>();
    std::string buffer = var ? var.getName().str() : "?";
    return (copy.getDirection() == tile::HostDirection::Infeed ? "infeed "
                                                               : "outfeed ") +
           buffer;
  }
  return namedStepName(step).str();
}

llvm::StringRef tessera::memory::namedStepName(const Step &step) {
  if (auto name = step.op->getAttrOfType<StringAttr>("name"))
    return name.getValue();
  return "sync";
}
