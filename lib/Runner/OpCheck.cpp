//===- OpCheck.cpp - Each graph op checked alone on the device's values ---===//
//
// A whole-model check says whether the outputs agree; when they do not, it
// cannot say where the device went wrong, and in a deep low-precision graph
// it cannot even tell a wrong vertex from rounding differences that grow
// layer by layer. Checking each op alone answers both: the op's inputs are
// the device's own values (read back after a run with private storage, so
// nothing was overwritten), the reference interpreter applies the op to
// them, and the device's result must agree within the tolerance of the op's
// own types. An error then stays at the op that made it.
//
//===----------------------------------------------------------------------===//

#include "tessera/Runner/Runner.h"

#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace tessera::runner {

namespace {

/// Leaves of `type` as the interpreter and the executable number them:
/// tuples flattened depth-first, tokens none.
int64_t countLeaves(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    int64_t n = 0;
    for (Type t : tuple.getTypes())
      n += countLeaves(t);
    return n;
  }
  return isa<TensorType>(type) ? 1 : 0;
}

void collectHostOps(const google::protobuf::RepeatedPtrField<exe::Step> &steps,
                    llvm::DenseSet<int64_t> &ids) {
  for (const exe::Step &s : steps) {
    if (s.has_host_compute())
      ids.insert(s.host_compute().op_id());
    else if (s.has_repeat())
      collectHostOps(s.repeat().body(), ids);
    else if (s.has_if_step()) {
      collectHostOps(s.if_step().then_body(), ids);
      collectHostOps(s.if_step().else_body(), ids);
    }
  }
}

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

} // namespace

OpCheckSummary checkOps(const GraphModule &graph,
                        const runtime::Program &program,
                        const runtime::Device &device,
                        llvm::ArrayRef<HostTensor> inputs, uint64_t seed) {
  OpCheckSummary summary;
  // Each graph op's leaves, as buffers holding them.
  llvm::DenseMap<int64_t, llvm::SmallVector<int32_t>> leavesOf;
  for (const auto &[i, b] : llvm::enumerate(program.buffers())) {
    if (b.resultOp < 0)
      continue;
    llvm::SmallVector<int32_t> &leaves = leavesOf[b.resultOp];
    if (static_cast<int64_t>(leaves.size()) <= b.resultLeaf)
      leaves.resize(b.resultLeaf + 1, -1);
    leaves[b.resultLeaf] = static_cast<int32_t>(i);
  }
  llvm::DenseSet<int64_t> hostOps;
  collectHostOps(program.executable().steps(), hostOps);

  // The entry's arguments are the inputs' leaves, in order.
  func::FuncOp entry = graph.entry();
  llvm::DenseMap<mlir::Value, std::pair<size_t, size_t>> argLeaves;
  size_t next = 0;
  for (BlockArgument arg : entry.getArguments()) {
    size_t n = countLeaves(arg.getType());
    argLeaves[arg] = {next, n};
    next += n;
  }

  InfeedSource noInfeed(seed);
  interp::Options options = referenceOptions(graph, seed, true, noInfeed);
  // Only top-level ops: a loop body's buffers hold its last iteration, and
  // its carried values were overwritten after that iteration read them.
  for (Operation &op : entry.getBody().front().without_terminator()) {
    auto id = op.getAttrOfType<IntegerAttr>("tile.op_id");
    int64_t numResultLeaves = 0;
    for (mlir::Value r : op.getResults())
      numResultLeaves += countLeaves(r.getType());
    if (numResultLeaves == 0)
      continue;
    if (id && hostOps.contains(id.getInt())) {
      ++summary.hostOps;
      continue;
    }
    if (hasHiddenInputs(&op)) {
      ++summary.hiddenInputs;
      continue;
    }
    auto found = id ? leavesOf.find(id.getInt()) : leavesOf.end();
    if (found == leavesOf.end() ||
        static_cast<int64_t>(found->second.size()) != numResultLeaves ||
        llvm::is_contained(found->second, -1)) {
      ++summary.noBuffer;
      continue;
    }

    // The operands' leaves: the device's values of the ops that made them.
    std::vector<HostTensor> operands;
    bool available = true;
    for (mlir::Value v : op.getOperands()) {
      if (auto arg = dyn_cast<BlockArgument>(v)) {
        auto [first, n] = argLeaves.lookup(arg);
        for (size_t k = first; k < first + n && available; ++k)
          if (k < inputs.size())
            operands.push_back(inputs[k]);
          else
            available = false;
        continue;
      }
      Operation *def = v.getDefiningOp();
      auto defId = def->getAttrOfType<IntegerAttr>("tile.op_id");
      auto defLeaves =
          defId ? leavesOf.find(defId.getInt()) : leavesOf.end();
      if (defLeaves == leavesOf.end()) {
        available = false;
        break;
      }
      int64_t first = 0;
      for (mlir::Value r : def->getResults()) {
        if (r == v)
          break;
        first += countLeaves(r.getType());
      }
      int64_t n = countLeaves(v.getType());
      for (int64_t k = first; k < first + n && available; ++k) {
        if (k >= static_cast<int64_t>(defLeaves->second.size()) ||
            defLeaves->second[k] < 0)
          available = false;
        else
          operands.push_back(device.read(defLeaves->second[k]));
      }
    }
    if (!available) {
      ++summary.skipped;
      continue;
    }

    llvm::Expected<std::vector<HostTensor>> ref =
        interp::interpretOp(&op, operands, options);
    OpCheck check;
    check.opId = id.getInt();
    check.location = locationOf(&op);
    const runtime::BufferLayout &firstLeaf =
        program.buffer(found->second.front());
    check.name = firstLeaf.hlo.empty() ? op.getName().getStringRef().str()
                                       : firstLeaf.hlo;
    if (!ref) {
      check.error = toString(ref.takeError());
      summary.checks.push_back(std::move(check));
      continue;
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
  return summary;
}

} // namespace tessera::runner
