//===- Calls.cpp - func.call between imported functions -------------------===//
//
// Exports split a model into functions (TFLite subgraphs, torch modules
// kept outlined). A call with one result becomes tgraph.call, which
// tgraph-to-tile inlines with its step names prefixed by the call's. A call
// with another number of results is inlined here: tgraph.call, like every
// HLO instruction, has exactly one result, and a tuple would change the
// callee's signature for its other callers. Calls are imported after every
// other op, so a callee's body is tgraph when it is inlined.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "tessera/Conversion/TosaToTGraph.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::tosa_import;

namespace {

bool isGraphType(Type t) {
  return isa<RankedTensorType, TupleType, tg::TokenType>(t);
}

/// The callee when `call` can be imported, else null with `why` set.
func::FuncOp importableCallee(func::CallOp call, std::string &why) {
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  if (!callee) {
    why = "the callee is not a func.func of this module";
    return nullptr;
  }
  if (callee.isExternal()) {
    why = "the callee is a declaration without a body";
    return nullptr;
  }
  if (!llvm::all_of(call.getOperandTypes(), isGraphType) ||
      !llvm::all_of(call.getResultTypes(), isGraphType)) {
    why = "a scalar argument or result (tgraph passes tensors only)";
    return nullptr;
  }
  return callee;
}

bool needsInlining(func::CallOp call) { return call.getNumResults() != 1; }

bool containsCall(func::FuncOp fn) {
  return fn.walk([](func::CallOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// Clones the callee's single block in place of the call.
void inlineCall(func::CallOp call, func::FuncOp callee, PatternRewriter &rw) {
  Block &body = callee.getBody().front();
  IRMapping map;
  map.map(body.getArguments(), call.getOperands());
  for (Operation &op : body.without_terminator())
    rw.clone(op, map);
  SmallVector<Value> results;
  for (Value v : body.getTerminator()->getOperands())
    results.push_back(map.lookupOrDefault(v));
  rw.replaceOp(call, results);
}

} // namespace

void tessera::importCalls(ArrayRef<func::CallOp> calls, PatternRewriter &rw) {
  // Inlining copies the callee's body: its own calls are imported first,
  // so no func.call is copied. Calls left when nothing moves are recursive.
  llvm::SetVector<Operation *> pending(calls.begin(), calls.end());
  llvm::SetVector<func::FuncOp> inlinedCallees;
  auto importOne = [&](func::CallOp call, bool recursive) {
    rw.setInsertionPoint(call);
    std::string why;
    func::FuncOp callee = importableCallee(call, why);
    if (callee && needsInlining(call)) {
      if (recursive)
        why = "the callee takes part in a recursion, and a call with " +
              std::to_string(call.getNumResults()) +
              " results must be inlined (tgraph.call has one result)";
      else if (!callee.getBody().hasOneBlock())
        why = "the callee has more than one block";
    }
    if (!why.empty()) {
      replaceWithUnknown(call, call.getOperands(), rw,
                         ("func.call @" + call.getCallee() + ": " + why).str());
      return;
    }
    if (!needsInlining(call)) {
      rw.replaceOpWithNewOp<tg::CallOp>(call, call.getResult(0).getType(),
                                        call.getCalleeAttr(),
                                        call.getOperands());
      return;
    }
    inlineCall(call, callee, rw);
    inlinedCallees.insert(callee);
  };
  bool progress = true;
  while (progress && !pending.empty()) {
    progress = false;
    for (Operation *op : SmallVector<Operation *>(pending.getArrayRef())) {
      auto call = cast<func::CallOp>(op);
      if (needsInlining(call)) {
        std::string why;
        func::FuncOp callee = importableCallee(call, why);
        if (callee && containsCall(callee))
          continue;
      }
      pending.remove(op);
      importOne(call, /*recursive=*/false);
      progress = true;
    }
  }
  for (Operation *op : pending)
    importOne(cast<func::CallOp>(op), /*recursive=*/true);

  // A private callee inlined at all its calls is dead: left in, it would be
  // assessed and counted as if it were part of the model.
  for (func::FuncOp callee : inlinedCallees)
    if (callee.isPrivate() && SymbolTable::symbolKnownUseEmpty(
                                  callee, callee->getParentOfType<ModuleOp>()))
      rw.eraseOp(callee);
}
