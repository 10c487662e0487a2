//===- LowerControlFlow.cpp - while, conditional, call on tiles -----------===//
//
// The tile program is one flat list of steps with structured control:
//  - tgraph.while -> tile.repeat. The loop state (the tuple's tensor leaves)
//    lives in carried buffers: the init buffer itself when nothing reads it
//    after the loop, else a copy. The condition is lowered once before the
//    loop into the 1-element `NAME.cond` buffer and again at the end of each
//    iteration, after the body's results are copied back into the carried
//    buffers. `trip_count` is set for the `i < N` counter pattern.
//  - tgraph.conditional -> tile.if (nested ifs for a branch index), each
//    branch's results copied into shared result buffers.
//  - tgraph.call / tgraph.fusion: the callee's body inline, its step names
//    prefixed with the call's ("call.3/add.1").
// Computations are lowered by the same per-op code as the entry
// (Lowerer::lowerBlock) with their block arguments bound to buffers; vars
// are declared before the outermost repeat / if (Lowerer::makeVar).
//
// Syncs: the Lowerer's `dirty` sets describe the steps since the last sync
// in program order; a loop body also follows its own end. So the loop is
// entered after a sync (the control reads `NAME.cond`), and each iteration
// ends with one, so an iteration starts with nothing in flight, as the
// first does. Each branch of an if starts from the state before it; after
// it, a buffer is dirty when it is dirty after either branch.
//
//===----------------------------------------------------------------------===//

#include "Lowerer.h"

#include "tessera/Conversion/TGraphToTile/ElementCopies.h"

#include "llvm/ADT/ScopeExit.h"

#include <functional>

using namespace mlir;
using namespace tessera;
using namespace tessera::lowering;
namespace tg = tessera::tgraph;

bool Lowerer::lowerControlFlow(Operation *op, StringRef name,
                               std::string &detail) {
  // Bodies are lowered by recursion: bound it, so a chain of thousands of
  // nested calls is an op left on the host, not a stack overflow
  // (docs/limits.md).
  if (controlFlowDepth >= kMaxControlFlowDepth) {
    detail = "control flow (calls, loops, branches) nested more than " +
             std::to_string(kMaxControlFlowDepth) + " deep is not lowered";
    return false;
  }
  ++controlFlowDepth;
  auto leave = llvm::make_scope_exit([&] { --controlFlowDepth; });
  if (auto w = dyn_cast<tg::WhileOp>(op))
    return lowerWhile(w, name, detail);
  if (auto c = dyn_cast<tg::ConditionalOp>(op))
    return lowerConditional(c, name, detail);
  if (auto call = dyn_cast<tg::CallOp>(op))
    return lowerCall(op, call.getCalleeAttr(), call.getInputs(), name, detail);
  if (auto fusion = dyn_cast<tg::FusionOp>(op))
    return lowerCall(op, fusion.getCalleeAttr(), fusion.getInputs(), name,
                     detail);
  return false;
}

//===----------------------------------------------------------------------===//
// Inlining computations
//===----------------------------------------------------------------------===//

func::FuncOp Lowerer::inlinableCallee(FlatSymbolRefAttr callee,
                                      std::string &detail) {
  auto fn = module.lookupSymbol<func::FuncOp>(callee);
  if (!fn || fn.isExternal()) {
    detail = ("computation @" + callee.getValue() + " has no body").str();
    return nullptr;
  }
  if (!fn.getBody().hasOneBlock() ||
      !isa<func::ReturnOp>(fn.getBody().front().getTerminator())) {
    detail = ("computation @" + callee.getValue() +
              " is not one block ending in func.return")
                 .str();
    return nullptr;
  }
  if (inlining.contains(fn)) {
    detail = ("recursive use of @" + callee.getValue()).str();
    return nullptr;
  }
  return fn;
}

SmallVector<Value> Lowerer::lowerBodyInline(func::FuncOp fn,
                                            ArrayRef<SmallVector<Value>> args,
                                            StringRef prefix) {
  inlining.insert(fn);
  Block &body = fn.getBody().front();
  for (auto [arg, bufs] : llvm::zip(body.getArguments(), args))
    buffers[arg] = bufs;
  lowerBlock(body, prefix);
  SmallVector<Value> results;
  for (Value v : body.getTerminator()->getOperands()) {
    auto it = buffers.find(v);
    if (it != buffers.end())
      results.append(it->second);
    else
      results.append(numLeaves(v.getType()), Value());
  }
  inlining.erase(fn);
  return results;
}

bool Lowerer::lowerCall(Operation *op, FlatSymbolRefAttr callee,
                        ValueRange inputs, StringRef name,
                        std::string &detail) {
  func::FuncOp fn = inlinableCallee(callee, detail);
  if (!fn)
    return false;
  if (fn.getNumArguments() != inputs.size() || fn.getNumResults() != 1) {
    detail = "callee signature does not match the call";
    return false;
  }
  SmallVector<SmallVector<Value>> args;
  for (Value in : inputs)
    args.push_back(buffers.lookup(in));
  // The results are the callee's buffers: no copy.
  buffers[op->getResult(0)] = lowerBodyInline(fn, args, (name + "/").str());
  return true;
}

//===----------------------------------------------------------------------===//
// Steps shared by loops and branches
//===----------------------------------------------------------------------===//

void Lowerer::syncAll(Location loc) {
  Block *block = builder.getInsertionBlock();
  for (auto it = builder.getInsertionPoint(); it != block->begin();) {
    --it;
    if (isa<tile::VarOp>(*it))
      continue;
    if (isa<tile::SyncOp>(*it)) {
      dirty.clear();
      computeDirty.clear();
      return;
    }
    break;
  }
  builder.create<tile::SyncOp>(loc);
  ++stats->syncs;
  dirty.clear();
  computeDirty.clear();
}

/// A parallel assignment to[i] = from[i]: a source that is also a
/// destination (a loop swapping two values), or may share storage with one
/// (a reshape alias), is first copied aside, so no copy reads what another
/// has overwritten. When the destinations may have been read since the
/// last sync (a loop's state, by this iteration's steps), the copies start
/// after one.
void Lowerer::copyInto(Location loc, StringRef name, ArrayRef<Value> from,
                       ArrayRef<Value> to, bool destsMayBeRead) {
  SmallVector<Value> sources(from);
  // An alias of its own destination holds the same elements on the same
  // tiles: nothing to copy.
  for (auto [src, dst] : llvm::zip(sources, to))
    if (src && dst && storageOf(src) == storageOf(dst))
      src = Value();
  DenseSet<Value> dests;
  for (auto [src, dst] : llvm::zip(sources, to))
    if (src && dst)
      dests.insert(storageOf(dst));
  bool any = false;
  for (auto [i, src] : llvm::enumerate(sources)) {
    if (!src || !to[i])
      continue;
    any = true;
    if (!dests.contains(storageOf(src)))
      continue;
    auto var = src.getDefiningOp<tile::VarOp>();
    auto type = cast<tile::BufferType>(src.getType());
    std::string tmpName = (name + ".tmp" + Twine(i)).str();
    PlannedMapping plan{SmallVector<int64_t>(runsOf(src)),
                        "'" + var.getName().str() +
                            "' set aside: it is also overwritten"};
    Value tmp = makeVar(loc, tmpName, tile::Category::Temporary, plan,
                        type.getShape(), type.getElementType(), "");
    emitExchange(loc, tmpName, src, tmp,
                 planIdentityCopies(runsOf(src), runsOf(tmp)));
    src = tmp;
  }
  if (!any)
    return;
  if (destsMayBeRead)
    syncAll(loc);
  for (auto [src, dst] : llvm::zip(sources, to))
    if (src && dst)
      emitExchange(loc, name, src, dst,
                   planIdentityCopies(runsOf(src), runsOf(dst)));
}

/// A region's single block, ending in tile.yield, with the builder set to
/// fill it.
static Block *startRegion(OpBuilder &builder, Region &region, Location loc) {
  Block *block = new Block();
  region.push_back(block);
  builder.setInsertionPointToEnd(block);
  builder.create<tile::YieldOp>(loc);
  builder.setInsertionPointToStart(block);
  return block;
}

//===----------------------------------------------------------------------===//
// while
//===----------------------------------------------------------------------===//

namespace {
/// Where a value comes from once tuple plumbing and calls are looked
/// through: a block argument of the computation traced from (`path`: the
/// tuple indices into it, innermost last) or another value (`path` empty).
struct Traced {
  Value value;
  SmallVector<int64_t> path;
};
} // namespace

static std::optional<Traced> trace(ModuleOp module, Value v,
                                   SmallVector<int64_t> path) {
  SmallVector<tg::CallOp> calls;
  for (int steps = 0; steps < 256; ++steps) {
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (calls.empty())
        return Traced{v, path};
      tg::CallOp call = calls.pop_back_val();
      if (arg.getArgNumber() >= call.getInputs().size())
        return std::nullopt;
      v = call.getInputs()[arg.getArgNumber()];
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (auto gte = dyn_cast<tg::GetTupleElementOp>(def)) {
      path.push_back(gte.getIndex());
      v = gte.getOperand();
    } else if (auto tuple = dyn_cast<tg::TupleOp>(def)) {
      if (path.empty())
        return Traced{v, {}};
      int64_t i = path.pop_back_val();
      if (i < 0 || i >= int64_t(tuple.getInputs().size()))
        return std::nullopt;
      v = tuple.getInputs()[i];
    } else if (auto call = dyn_cast<tg::CallOp>(def)) {
      auto fn = module.lookupSymbol<func::FuncOp>(call.getCalleeAttr());
      if (!fn || fn.isExternal() || !fn.getBody().hasOneBlock() ||
          fn.getBody().front().getTerminator()->getNumOperands() != 1)
        return std::nullopt;
      calls.push_back(call);
      v = fn.getBody().front().getTerminator()->getOperand(0);
    } else {
      if (!path.empty())
        return std::nullopt;
      return Traced{v, {}};
    }
  }
  return std::nullopt;
}

/// The integer value of a scalar constant.
static std::optional<int64_t> scalarInt(const Traced &t) {
  if (!t.path.empty())
    return std::nullopt;
  auto c = t.value.getDefiningOp<tg::ConstantOp>();
  if (!c || !c.getValue())
    return std::nullopt;
  auto dense = dyn_cast<DenseIntElementsAttr>(*c.getValue());
  if (!dense || dense.getNumElements() != 1)
    return std::nullopt;
  return (*dense.begin()).getSExtValue();
}

/// Whether `t` is (an element of) the loop state.
static bool isState(const std::optional<Traced> &t) {
  return t && isa<BlockArgument>(t->value);
}
static bool isState(const std::optional<Traced> &t, ArrayRef<int64_t> path) {
  return isState(t) && ArrayRef(t->path) == path;
}

/// The trip count of `while (i < N) { ...; i = i + s }` with constant
/// initial i, N and s > 0 (also `<=`, and the bound on the left).
static std::optional<int64_t> staticTripCount(ModuleOp module, tg::WhileOp op,
                                              func::FuncOp cond,
                                              func::FuncOp body) {
  Value pred = cond.getBody().front().getTerminator()->getOperand(0);
  std::optional<Traced> p = trace(module, pred, {});
  if (!p || !p->path.empty())
    return std::nullopt;
  auto cmp = p->value.getDefiningOp<tg::CompareOp>();
  if (!cmp)
    return std::nullopt;
  std::optional<Traced> lhs = trace(module, cmp.getLhs(), {});
  std::optional<Traced> rhs = trace(module, cmp.getRhs(), {});
  using Dir = tg::ComparisonDirection;
  Dir dir = cmp.getComparisonDirection();
  // Counter on the left: i < N, i <= N; on the right: N > i, N >= i.
  std::optional<Traced> counter, bound;
  bool inclusive;
  if (isState(lhs) && (dir == Dir::LT || dir == Dir::LE)) {
    counter = lhs, bound = rhs, inclusive = dir == Dir::LE;
  } else if (isState(rhs) && (dir == Dir::GT || dir == Dir::GE)) {
    counter = rhs, bound = lhs, inclusive = dir == Dir::GE;
  } else {
    return std::nullopt;
  }
  std::optional<int64_t> n = bound ? scalarInt(*bound) : std::nullopt;
  std::optional<Traced> initT = trace(module, op.getOperand(), counter->path);
  std::optional<int64_t> init = initT ? scalarInt(*initT) : std::nullopt;
  std::optional<Traced> next =
      trace(module, body.getBody().front().getTerminator()->getOperand(0),
            counter->path);
  if (!n || !init || !next || !next->path.empty())
    return std::nullopt;
  auto add = next->value.getDefiningOp<tg::AddOp>();
  if (!add)
    return std::nullopt;
  std::optional<Traced> a = trace(module, add.getLhs(), {});
  std::optional<Traced> b = trace(module, add.getRhs(), {});
  std::optional<int64_t> step;
  if (isState(a, counter->path) && b)
    step = scalarInt(*b);
  else if (isState(b, counter->path) && a)
    step = scalarInt(*a);
  if (!step || *step <= 0)
    return std::nullopt;
  int64_t end = *n + (inclusive ? 1 : 0);
  return end <= *init ? 0 : (end - *init + *step - 1) / *step;
}

/// The init buffers nothing reads after `op` (no value whose buffers hold
/// their elements, directly or through an alias, has a user after `op` in
/// its block), so the loop may update them in place. Only temporaries
/// qualify: parameters, constants and outputs keep their data.
DenseSet<Value> Lowerer::deadAfter(Operation *op, ArrayRef<Value> init) {
  DenseSet<Value> dead;
  for (Value b : init) {
    auto var = b.getDefiningOp<tile::VarOp>();
    if (var.getCategory() == tile::Category::Temporary && storageOf(b) == b)
      dead.insert(b);
  }
  Block *block = op->getBlock();
  for (auto &[value, leaves] : buffers) {
    if (llvm::none_of(
            leaves, [&](Value l) { return l && dead.contains(storageOf(l)); }))
      continue;
    bool readAfter = llvm::any_of(value.getUsers(), [&](Operation *user) {
      Operation *inBlock = block->findAncestorOpInBlock(*user);
      return !inBlock || (inBlock != op && !inBlock->isBeforeInBlock(op));
    });
    if (readAfter)
      for (Value l : leaves)
        if (l)
          dead.erase(storageOf(l));
  }
  return dead;
}

bool Lowerer::lowerWhile(tg::WhileOp op, StringRef name, std::string &detail) {
  func::FuncOp cond = inlinableCallee(op.getConditionAttr(), detail);
  func::FuncOp body =
      cond ? inlinableCallee(op.getBodyAttr(), detail) : func::FuncOp();
  if (!body)
    return false;
  if (cond.getNumArguments() != 1 || body.getNumArguments() != 1 ||
      cond.getNumResults() != 1 || body.getNumResults() != 1) {
    detail = "condition or body does not take and return the loop state";
    return false;
  }
  RankedTensorType predType = bufferableTensor(cond.getResultTypes()[0]);
  if (!predType || predType.getNumElements() != 1) {
    detail = "the condition does not return one predicate";
    return false;
  }
  SmallVector<Value> init = buffers.lookup(op.getOperand());
  if (int64_t(init.size()) != numLeaves(op.getType()) ||
      llvm::any_of(init, [](Value b) { return !b; })) {
    detail = "a loop-carried value has no buffer (dynamic shape)";
    return false;
  }
  Location loc = op.getLoc();
  // The loop state: reuse a dead init buffer, else copy the init value into
  // a buffer of the same layout (so the copy stays on each tile).
  DenseSet<Value> reusable = deadAfter(op, init);
  SmallVector<Value> carried;
  for (auto [i, b] : llvm::enumerate(init)) {
    if (reusable.erase(b)) {
      carried.push_back(b);
      continue;
    }
    auto type = cast<tile::BufferType>(b.getType());
    auto var = b.getDefiningOp<tile::VarOp>();
    std::string carryName = (name + ".state" + Twine(i)).str();
    PlannedMapping plan{SmallVector<int64_t>(runsOf(b)),
                        "loop state: the layout of its initial value '" +
                            var.getName().str() + "'"};
    Value c = makeVar(loc, carryName, tile::Category::Temporary, plan,
                      type.getShape(), type.getElementType(), name);
    emitExchange(loc, carryName, b, c,
                 planIdentityCopies(runsOf(b), runsOf(c)));
    carried.push_back(c);
  }
  // The condition before the first iteration.
  std::string condName = (name + ".cond").str();
  Value pred = makeVar(loc, condName, tile::Category::Temporary,
                       planLinear(1, numTiles, 1), predType.getShape(),
                       predType.getElementType(), name);
  auto evaluateCondition = [&]() {
    SmallVector<Value> p = lowerBodyInline(cond, {carried}, "");
    if (!p.empty() && p[0])
      emitExchange(loc, condName, p[0], pred,
                   planIdentityCopies(runsOf(p[0]), runsOf(pred)));
  };
  evaluateCondition();
  syncAll(loc);

  int64_t tripCount =
      staticTripCount(module, op, cond, body).value_or(int64_t(-1));
  auto repeat =
      builder.create<tile::RepeatOp>(loc, builder.getStringAttr(name), pred,
                                     builder.getI64IntegerAttr(tripCount),
                                     opId(op));
  {
    OpBuilder::InsertionGuard guard(builder);
    Operation *outerAnchor = varAnchor;
    if (!varAnchor)
      varAnchor = repeat;
    startRegion(builder, repeat.getBody(), loc);
    SmallVector<Value> next = lowerBodyInline(body, {carried}, "");
    copyInto(loc, (name + ".next").str(), next, carried,
             /*destsMayBeRead=*/true);
    evaluateCondition();
    syncAll(loc);
    varAnchor = outerAnchor;
  }
  buffers[op.getResult()] = carried;
  return true;
}

//===----------------------------------------------------------------------===//
// conditional
//===----------------------------------------------------------------------===//

bool Lowerer::lowerConditional(tg::ConditionalOp op, StringRef name,
                               std::string &detail) {
  SmallVector<func::FuncOp> branches;
  for (Attribute a : op.getBranches()) {
    func::FuncOp fn = inlinableCallee(cast<FlatSymbolRefAttr>(a), detail);
    if (!fn)
      return false;
    if (fn.getNumArguments() != 1 || fn.getNumResults() != 1) {
      detail = "a branch does not take one operand and return one value";
      return false;
    }
    branches.push_back(fn);
  }
  SmallVector<Value> index = buffers.lookup(op.getBranchIndex());
  if (branches.empty() || op.getBranchOperands().size() != branches.size() ||
      index.size() != 1 || !index[0] || elementsOf(index[0]) != 1) {
    detail = "the branch index has no 1-element buffer";
    return false;
  }
  Value idx = index[0];
  bool isPred = cast<tile::BufferType>(idx.getType()).getElementType() ==
                builder.getI1Type();
  if (isPred && branches.size() != 2) {
    detail = "a predicate selects between exactly two branches";
    return false;
  }
  SmallVector<Type> leaves;
  flattenLeaves(op.getType(), leaves);
  if (llvm::any_of(leaves, [](Type t) { return !bufferableTensor(t); })) {
    detail = "a result has a dynamic shape";
    return false;
  }
  Location loc = op.getLoc();
  SmallVector<Value> results;
  for (Type leaf : leaves)
    results.push_back(makeLinearVar(loc, name, resultCategory(op.getResult()),
                                    bufferableTensor(leaf), name));
  buffers[op.getResult()] = results;

  // The predicate of each if: the i1 operand itself (true runs branch 0),
  // or "index == k" for branches 0..N-2; any other index runs the last
  // branch, as in HLO.
  SmallVector<Value> preds;
  if (isPred) {
    preds.push_back(idx);
  } else {
    for (int64_t k = 0; k + 1 < int64_t(branches.size()); ++k) {
      std::string predName = (name + ".is" + Twine(k)).str();
      Value p = makeVar(loc, predName, tile::Category::Temporary,
                        planSameAs(runsOf(idx), "the branch index"), {},
                        builder.getI1Type(), name);
      emitComputeSet(
          loc, predName, "branch-index.equals", idx, p,
          builder.getNamedAttr("index", builder.getI64IntegerAttr(k)));
      preds.push_back(p);
    }
  }
  auto lowerBranch = [&](size_t k) {
    SmallVector<Value> r = lowerBodyInline(
        branches[k], {buffers.lookup(op.getBranchOperands()[k])}, "");
    r.resize(results.size());
    copyInto(loc, (name + ".result").str(), r, results,
             /*destsMayBeRead=*/false);
  };
  Operation *outerAnchor = varAnchor;
  std::function<void(size_t)> emitFrom = [&](size_t k) {
    if (k + 1 == branches.size())
      return lowerBranch(k);
    syncBeforeReading(preds[k]);
    auto ifOp =
        builder.create<tile::IfOp>(loc, builder.getStringAttr(name), preds[k]);
    if (!varAnchor)
      varAnchor = ifOp;
    OpBuilder::InsertionGuard guard(builder);
    DenseSet<Value> dirtyBefore = dirty, computeDirtyBefore = computeDirty;
    startRegion(builder, ifOp.getThenBody(), loc);
    lowerBranch(k);
    DenseSet<Value> dirtyThen = dirty, computeDirtyThen = computeDirty;
    dirty = dirtyBefore, computeDirty = computeDirtyBefore;
    startRegion(builder, ifOp.getElseBody(), loc);
    emitFrom(k + 1);
    dirty.insert(dirtyThen.begin(), dirtyThen.end());
    computeDirty.insert(computeDirtyThen.begin(), computeDirtyThen.end());
  };
  emitFrom(0);
  varAnchor = outerAnchor;
  return true;
}
