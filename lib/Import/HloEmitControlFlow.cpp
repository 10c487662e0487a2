//===- HloEmitControlFlow.cpp - HLO tuples, calls and control flow --------===//
//
// tuple and get-tuple-element, and the ops that refer to computations by
// symbol (call, fusion, while, conditional): those computations are
// emitted as functions of their own.
//
//===----------------------------------------------------------------------===//

#include "HloEmitOps.h"

using namespace mlir;
using llvm::SMLoc;
using llvm::StringRef;

namespace tessera::hlo::detail {
namespace {

Emitted getTupleElement(InstrEmit &e) {
  int64_t index;
  if (!arity(e, 1) || !requiredInt(e, "index", index))
    return failure();
  return e.emit<tg::GetTupleElementOp>(e.operands[0],
                                       static_cast<uint64_t>(index));
}

Emitted call(InstrEmit &e) {
  FlatSymbolRefAttr fn = callee(e, "to_apply");
  if (!fn)
    return failure();
  return e.emit<tg::CallOp>(fn, e.operands);
}

Emitted fusion(InstrEmit &e) {
  // Both are read before either is checked, so both can be reported.
  FlatSymbolRefAttr fn = callee(e, "calls");
  const Attr *kind = required(e, "kind");
  if (!fn || !kind)
    return failure();
  return e.emit<tg::FusionOp>(fn, e.operands,
                              e.builder().getStringAttr(kind->value));
}

Emitted whileLoop(InstrEmit &e) {
  if (!arity(e, 1))
    return failure();
  FlatSymbolRefAttr cond = callee(e, "condition");
  FlatSymbolRefAttr body = cond ? callee(e, "body") : nullptr;
  if (!body)
    return failure();
  return e.emit<tg::WhileOp>(e.operands[0], cond, body);
}

/// `branch_computations={...}` (indexed by an integer), or the predicated
/// form's `true_computation=` and `false_computation=`.
Emitted conditional(InstrEmit &e) {
  llvm::SmallVector<Attribute, 2> branches;
  if (const Attr *list = e.attrs.take("branch_computations")) {
    llvm::SmallVector<std::pair<StringRef, SMLoc>, 4> names;
    if (!parseComputationList(*list, e.diags(), names))
      return failure();
    for (auto [name, at] : names) {
      FlatSymbolRefAttr branch = e.symbol(name, at);
      if (!branch)
        return failure();
      branches.push_back(branch);
    }
  } else {
    FlatSymbolRefAttr onTrue = callee(e, "true_computation");
    FlatSymbolRefAttr onFalse =
        onTrue ? callee(e, "false_computation") : nullptr;
    if (!onFalse)
      return failure();
    branches = {onTrue, onFalse};
  }
  if (e.operands.empty())
    return badArity(e, branches.size() + 1);
  return e.emit<tg::ConditionalOp>(e.operands[0],
                                   e.builder().getArrayAttr(branches),
                                   e.operands.drop_front());
}

} // namespace

Emitted emitControlFlow(Op kind, InstrEmit &e) {
  switch (kind) {
  case Op::Tuple:
    return e.emit<tg::TupleOp>(e.operands);
  case Op::GetTupleElement:
    return getTupleElement(e);
  case Op::Call:
    return call(e);
  case Op::Fusion:
    return fusion(e);
  case Op::While:
    return whileLoop(e);
  case Op::Conditional:
    return conditional(e);
  default:
    llvm_unreachable("not a control flow opcode");
  }
}

} // namespace tessera::hlo::detail
