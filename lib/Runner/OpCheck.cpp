//===- OpCheck.cpp - Each graph op checked alone on the device's values ---===//
//
// A whole-model check says whether the outputs agree; when they do not, it
// cannot say where the device went wrong, and in a deep low-precision graph
// it cannot even tell a wrong vertex from rounding differences that grow
// layer by layer. Checking each op alone answers both: the op's inputs are
// the device's own values (read back after a run with private storage, so
// no two buffers share bytes), the reference interpreter applies the op to
// them, and the device's result must agree within the tolerance of the op's
// own types. An error then stays at the op that made it. Loops overwrite:
// their bodies' ops hold the last iteration, their state is rewritten after
// each one, and a loop may update its initial value in place; the run's
// record (each buffer's last writer, each loop's last trip count) says
// which values are still the ones their ops wrote.
//
//===----------------------------------------------------------------------===//

#include "tessera/Runner/Runner.h"

#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace tessera::runner {

namespace {

/// Ops whose result is not a function of their operands alone.
bool hasHiddenInputs(Operation *op) {
  return isa<tgraph::InfeedOp, tgraph::OutfeedOp, tgraph::RngOp,
             tgraph::CustomCallOp>(op);
}

std::string locationOf(Operation *op) {
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    return (loc.getFilename().getValue() + ":" + llvm::Twine(loc.getLine()))
        .str();
  return "";
}

/// Where a value's leaves are after a run: the run's inputs (entry
/// arguments) or device buffers.
struct Leaf {
  int32_t buffer = -1; ///< a device buffer, or
  int64_t input = -1;  ///< the index of an input leaf
};

class OpChecker {
public:
  OpChecker(const GraphModule &graph, const runtime::Program &program,
            const runtime::Device &device, const runtime::RunRecord &record,
            llvm::ArrayRef<HostTensor> inputs, uint64_t seed)
      : graph(graph), program(program), device(device), record(record),
        inputs(inputs), infeed(seed),
        options(referenceOptions(graph, seed, true, infeed)) {}

  OpCheckSummary run();

private:
  void collect(const google::protobuf::RepeatedPtrField<exe::Step> &steps);
  void checkBlock(Block &block);
  void checkOp(Operation &op);
  /// The leaves of `v`, or nullopt when some leaf is not on the device or
  /// may not hold the value the op read: loop-carried state (a loop body's
  /// arguments, and reshapes of them, which share their storage) was
  /// overwritten after the last iteration read it.
  std::optional<llvm::SmallVector<Leaf>> leavesOfValue(mlir::Value v);
  /// Whether buffer `b` still holds what the op named by its `hlo` wrote:
  /// its storage's last writer is one of that op's steps ("NAME" or
  /// "NAME.suffix"), not a later step that reused the storage (a loop
  /// updating its initial value in place).
  bool holdsItsOwnValue(int32_t b) const {
    const runtime::BufferLayout &storage =
        program.buffer(program.buffer(b).storage);
    const exe::Step *writer = record.lastWriter.lookup(storage.storage);
    if (!writer)
      return true; // constants: written at load
    llvm::StringRef hlo = storage.hlo;
    // Host copies are unnamed: an infeed of the value's own buffer (a
    // parameter, a host op's result) is its producer.
    if (writer->has_host_copy())
      return program.buffer(writer->host_copy().buffer()).hlo == hlo;
    llvm::StringRef name = writer->name();
    return name == hlo ||
           (name.starts_with(hlo) && name.size() > hlo.size() &&
            name[hlo.size()] == '.');
  }
  HostTensor read(const Leaf &leaf) const {
    return leaf.buffer >= 0 ? device.read(leaf.buffer) : inputs[leaf.input];
  }

  const GraphModule &graph;
  const runtime::Program &program;
  const runtime::Device &device;
  const runtime::RunRecord &record;
  llvm::ArrayRef<HostTensor> inputs;
  InfeedSource infeed;
  interp::Options options;
  OpCheckSummary summary;
  /// Each op's result leaves, as buffers; ops lowered twice (a function
  /// called from two places) are ambiguous and left out.
  llvm::DenseMap<int64_t, llvm::SmallVector<int32_t>> leavesOf;
  llvm::DenseSet<int64_t> ambiguous, hostOps;
  llvm::DenseMap<int64_t, const exe::Repeat *> repeatOf;
  llvm::DenseMap<mlir::Value, std::pair<size_t, size_t>> argLeaves;
};

void OpChecker::collect(
    const google::protobuf::RepeatedPtrField<exe::Step> &steps) {
  for (const exe::Step &s : steps) {
    if (s.has_host_compute()) {
      hostOps.insert(s.host_compute().op_id());
    } else if (s.has_repeat()) {
      if (s.repeat().op_id_plus_one() > 0)
        repeatOf[s.repeat().op_id_plus_one() - 1] = &s.repeat();
      collect(s.repeat().body());
    } else if (s.has_if_step()) {
      collect(s.if_step().then_body());
      collect(s.if_step().else_body());
    }
  }
}

std::optional<llvm::SmallVector<Leaf>>
OpChecker::leavesOfValue(mlir::Value v) {
  llvm::SmallVector<Leaf> out;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto found = argLeaves.find(arg);
    if (found == argLeaves.end())
      return std::nullopt; // a loop body's state
    auto [first, n] = found->second;
    for (size_t k = first; k < first + n; ++k) {
      if (k >= inputs.size())
        return std::nullopt;
      out.push_back({-1, int64_t(k)});
    }
    return out;
  }
  Operation *def = v.getDefiningOp();
  // Tuples and their elements are the same buffers under another name.
  if (auto gte = dyn_cast<tgraph::GetTupleElementOp>(def)) {
    auto whole = leavesOfValue(gte.getOperand());
    if (!whole)
      return std::nullopt;
    auto tuple = cast<TupleType>(gte.getOperand().getType());
    int64_t first = 0;
    for (int64_t i = 0; i < int64_t(gte.getIndex()); ++i)
      first += leafCount(tuple.getType(i));
    int64_t n = leafCount(v.getType());
    out.append(whole->begin() + first, whole->begin() + first + n);
    return out;
  }
  if (auto tuple = dyn_cast<tgraph::TupleOp>(def)) {
    for (mlir::Value in : tuple.getInputs()) {
      auto part = leavesOfValue(in);
      if (!part)
        return std::nullopt;
      out.append(part->begin(), part->end());
    }
    return out;
  }
  // A reshape or bitcast aliases its operand's storage.
  if (isa<tgraph::ReshapeOp, tgraph::BitcastOp>(def) &&
      !leavesOfValue(def->getOperand(0)))
    return std::nullopt;
  auto id = def->getAttrOfType<IntegerAttr>("tile.op_id");
  if (!id || ambiguous.contains(id.getInt()))
    return std::nullopt;
  auto found = leavesOf.find(id.getInt());
  if (found == leavesOf.end())
    return std::nullopt;
  int64_t first = 0;
  for (mlir::Value r : def->getResults()) {
    if (r == v)
      break;
    first += leafCount(r.getType());
  }
  int64_t n = leafCount(v.getType());
  for (int64_t k = first; k < first + n; ++k) {
    if (k >= int64_t(found->second.size()) || found->second[k] < 0)
      return std::nullopt;
    if (!holdsItsOwnValue(found->second[k]))
      return std::nullopt;
    out.push_back({found->second[k], -1});
  }
  return out;
}

void OpChecker::checkOp(Operation &op) {
  if (isa<tgraph::TupleOp, tgraph::GetTupleElementOp>(op))
    return; // no computation: their buffers are their operands'
  int64_t numResultLeaves = 0;
  for (mlir::Value r : op.getResults())
    numResultLeaves += leafCount(r.getType());
  if (numResultLeaves == 0)
    return;
  auto id = op.getAttrOfType<IntegerAttr>("tile.op_id");
  if (id && hostOps.contains(id.getInt())) {
    ++summary.hostOps;
    return;
  }
  if (hasHiddenInputs(&op)) {
    ++summary.hiddenInputs;
    return;
  }
  auto found = id ? leavesOf.find(id.getInt()) : leavesOf.end();
  if (found == leavesOf.end() || ambiguous.contains(id.getInt()) ||
      static_cast<int64_t>(found->second.size()) != numResultLeaves ||
      llvm::is_contained(found->second, -1)) {
    ++summary.noBuffer;
    return;
  }
  if (!llvm::all_of(found->second,
                    [&](int32_t b) { return holdsItsOwnValue(b); })) {
    ++summary.overwritten;
    return;
  }
  // The operands' leaves: the device's values of the ops that made them.
  std::vector<HostTensor> operands;
  for (mlir::Value v : op.getOperands()) {
    std::optional<llvm::SmallVector<Leaf>> leaves = leavesOfValue(v);
    if (!leaves) {
      ++summary.skipped;
      return;
    }
    for (const Leaf &leaf : *leaves)
      operands.push_back(read(leaf));
  }

  OpCheck check;
  check.opId = id.getInt();
  check.location = locationOf(&op);
  const runtime::BufferLayout &firstLeaf =
      program.buffer(found->second.front());
  check.name = firstLeaf.hlo.empty() ? op.getName().getStringRef().str()
                                     : firstLeaf.hlo;
  llvm::Expected<std::vector<HostTensor>> ref =
      interp::interpretOp(&op, operands, options);
  if (!ref) {
    check.error = toString(ref.takeError());
    summary.checks.push_back(std::move(check));
    return;
  }
  // One line per op: its worst leaf, a failing one first.
  auto ratio = [](const OutputCheck &c) {
    if (c.tolerance > 0)
      return c.normErr / c.tolerance;
    return c.mismatches > 0 ? 1e300 : 0.0;
  };
  check.pass = true;
  for (auto [k, buffer] : llvm::enumerate(found->second)) {
    OutputCheck c = checkOutput(check.name, device.read(buffer), (*ref)[k]);
    if (k == 0 || (!c.pass && check.pass) ||
        (c.pass == check.pass && ratio(c) > ratio(check.worst)))
      check.worst = c;
    check.pass &= c.pass;
  }
  summary.checks.push_back(std::move(check));
}

void OpChecker::checkBlock(Block &block) {
  for (Operation &op : block.without_terminator()) {
    auto loop = dyn_cast<tgraph::WhileOp>(op);
    auto id = op.getAttrOfType<IntegerAttr>("tile.op_id");
    const exe::Repeat *repeat =
        loop && id ? repeatOf.lookup(id.getInt()) : nullptr;
    if (!repeat) {
      checkOp(op);
      continue;
    }
    // A loop the device ran: its condition's and body's ops hold their
    // last iteration, checked one by one (the loop as a whole would be a
    // whole-model check in miniature). A loop whose last execution ran no
    // iteration holds nothing of its body.
    if (record.lastIterations.lookup(repeat) == 0) {
      ++summary.loopsNotRun;
      continue;
    }
    for (FlatSymbolRefAttr name : {loop.getConditionAttr(), loop.getBodyAttr()})
      if (auto fn = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
              &op, name))
        checkBlock(fn.getBody().front());
  }
}

OpCheckSummary OpChecker::run() {
  for (const auto &[i, b] : llvm::enumerate(program.buffers())) {
    if (b.resultOp < 0)
      continue;
    llvm::SmallVector<int32_t> &leaves = leavesOf[b.resultOp];
    if (static_cast<int64_t>(leaves.size()) <= b.resultLeaf)
      leaves.resize(b.resultLeaf + 1, -1);
    if (leaves[b.resultLeaf] >= 0)
      ambiguous.insert(b.resultOp);
    leaves[b.resultLeaf] = static_cast<int32_t>(i);
  }
  collect(program.executable().steps());
  // The entry's arguments are the inputs' leaves, in order.
  size_t next = 0;
  for (BlockArgument arg : graph.entry().getArguments()) {
    size_t n = leafCount(arg.getType());
    argLeaves[arg] = {next, n};
    next += n;
  }
  checkBlock(graph.entry().getBody().front());
  return std::move(summary);
}

} // namespace

OpCheckSummary checkOps(const GraphModule &graph,
                        const runtime::Program &program,
                        const runtime::Device &device,
                        const runtime::RunRecord &record,
                        llvm::ArrayRef<HostTensor> inputs, uint64_t seed) {
  return OpChecker(graph, program, device, record, inputs, seed).run();
}

} // namespace tessera::runner
