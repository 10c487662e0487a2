//===- InstructionInfo.cpp - ML role of each dot and convolution ----------===//
//
// The graph says which ops belong to the backward pass: frameworks name them
// (TF `gradients/...`, JAX `transpose(jvp(...))`, torch_xla `...Backward...`,
// TF op types `Conv2DBackpropInput/Filter`); unnamed ones show in the graph
// (a weight's second, transposed use; a contraction over the batch giving a
// weight's shape); and everything computed from them is backward too. A
// backward contraction whose result has the shape of a weight (a function
// argument in a forward contraction's weight position) is the weight update;
// any other is the gradient passed to the layer's input.
//
//===----------------------------------------------------------------------===//

#include "tessera/Analysis/InstructionInfo.h"

#include "tessera/Analysis/OpIdentity.h"
#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseSet.h"

#include <set>

using namespace mlir;
using namespace tessera;
using namespace tessera::tgraph;

namespace {

bool isContraction(Operation *op) {
  return isa<DotGeneralOp, ConvolutionOp>(op);
}

/// Named by its framework as part of the backward pass.
bool isGradientByName(Operation *op) {
  // Substring tests rather than a regex: llvm::Regex took 9% of a
  // 3,000-op compile with reports on, matching every op's name.
  auto says = [](StringRef name) {
    std::string lower = name.lower();
    StringRef s(lower);
    return s.contains("gradient/") || s.contains("gradients/") ||
           s.contains("transpose(jvp") || s.contains("backward") ||
           s.contains("backprop") || s.contains("_grad/") ||
           s.ends_with("_grad");
  };
  for (llvm::StringLiteral attr : {kOpNameAttr, kOpTypeAttr})
    if (auto s = op->getAttrOfType<StringAttr>(attr))
      if (says(s.getValue()))
        return true;
  return false;
}

/// Follows value-preserving ops back to where a weight enters the function:
/// an argument, an element of a tuple argument (a while loop's state), or
/// through single-operand custom calls (device transfers such as Neuron's
/// TransferWithStaticRing). Null when the value is computed.
Value tracedArgument(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto gte = dyn_cast<GetTupleElementOp>(def))
      return isa<BlockArgument>(gte.getOperand()) ? v : Value();
    bool passThrough = isa<ConvertOp, ReshapeOp, TransposeOp, CopyOp, BitcastOp,
                           BroadcastInDimOp>(def) ||
                       (isa<CustomCallOp>(def) && def->getNumOperands() == 1);
    if (!passThrough)
      return nullptr;
    v = def->getOperand(0);
  }
  return v;
}

std::vector<int64_t> shapeOf(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t ? std::vector<int64_t>(t.getShape().begin(), t.getShape().end())
           : std::vector<int64_t>();
}

} // namespace

/// A weight gradient contracts the batch: dimension 0 of both operands.
static bool contractsBatchOfBoth(Operation *op) {
  auto dot = dyn_cast<DotGeneralOp>(op);
  return dot &&
         dot.getLhsContractingDimensions() == llvm::ArrayRef<int64_t>{0} &&
         dot.getRhsContractingDimensions() == llvm::ArrayRef<int64_t>{0};
}

/// The shape, and for matrices also its transpose.
static std::vector<std::vector<int64_t>> shapesOf(Value v) {
  std::vector<int64_t> shape = shapeOf(v);
  std::vector<std::vector<int64_t>> shapes = {shape};
  if (shape.size() == 2)
    shapes.push_back({shape[1], shape[0]});
  return shapes;
}

void tessera::classifyMlTypes(
    ModuleOp module, llvm::function_ref<void(Operation *, MlType)> fn) {
  llvm::SmallVector<Operation *> contractions;
  module.walk([&](Operation *op) {
    if (isContraction(op))
      contractions.push_back(op);
  });

  // Weights: arguments in the weight position (dot rhs, convolution
  // kernel) of contractions that are not themselves weight gradients.
  llvm::DenseSet<Value> weights;
  std::set<std::vector<int64_t>> weightShapes;
  for (Operation *op : contractions)
    if (!contractsBatchOfBoth(op))
      if (Value arg = tracedArgument(op->getOperand(1))) {
        weights.insert(arg);
        weightShapes.insert(shapeOf(arg));
      }
  auto hasWeightShape = [&](Value v) {
    for (const std::vector<int64_t> &shape : shapesOf(v))
      if (weightShapes.count(shape))
        return true;
    return false;
  };

  // Backward ops: named so by the framework; found from the graph when
  // names say nothing (a weight used by a second contraction is the
  // transposed use that passes the gradient to the input; a contraction
  // over the batch producing a weight's shape is the weight gradient); and
  // everything computed from them. Program order within each function is a
  // topological order.
  llvm::DenseSet<Operation *> backward;
  llvm::DenseSet<Value> usedWeights;
  module.walk([&](Operation *op) {
    if (!isa_and_nonnull<TGraphDialect>(op->getDialect()))
      return;
    bool isBackward = isGradientByName(op);
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        isBackward = isBackward || backward.contains(def);
    if (isContraction(op)) {
      for (Value operand : op->getOperands())
        if (Value arg = tracedArgument(operand);
            arg && weights.contains(arg) && !usedWeights.insert(arg).second)
          isBackward = true;
      if (contractsBatchOfBoth(op) && hasWeightShape(op->getResult(0)))
        isBackward = true;
    }
    if (isBackward)
      backward.insert(op);
  });
  bool training = !backward.empty();

  for (Operation *op : contractions) {
    if (!training) {
      fn(op, MlType::InferenceForward);
      continue;
    }
    if (!backward.contains(op)) {
      fn(op, MlType::TrainingForward);
      continue;
    }
    llvm::StringRef opType;
    if (auto s = op->getAttrOfType<StringAttr>(kOpTypeAttr))
      opType = s.getValue();
    bool weightUpdate =
        opType.contains("BackpropFilter") ||
        (!opType.contains("BackpropInput") && hasWeightShape(op->getResult(0)));
    fn(op, weightUpdate ? MlType::TrainingWeightUpdate
                        : MlType::TrainingInputGradient);
  }
}

nlohmann::ordered_json tessera::buildInstructionInfo(ModuleOp module) {
  nlohmann::ordered_json types = nlohmann::ordered_json::object();
  int64_t unnamed = 0;
  classifyMlTypes(module, [&](Operation *op, MlType type) {
    OpIdentity id = identifyOp(op);
    std::string key = id.instruction.empty() ? "op#" + std::to_string(unnamed++)
                                             : id.instruction;
    if (!id.opName.empty())
      key = id.opName + "/" + key;
    types[key] = static_cast<int>(type);
  });
  return {{"ml_types", std::move(types)}};
}
