//===- OpCost.cpp - FLOPs and bytes of tgraph ops -------------------------===//

#include "tessera/Analysis/OpCost.h"

#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::tgraph;

int64_t tessera::elementBytes(Type elementType) {
  if (auto complex = dyn_cast<ComplexType>(elementType))
    return 2 * elementBytes(complex.getElementType());
  unsigned bits =
      elementType.isIntOrFloat() ? elementType.getIntOrFloatBitWidth() : 8;
  return (bits + 7) / 8;
}

/// A dynamic dimension counts as its lower bound of 1, never as the
/// kDynamic sentinel (a large negative number).
static int64_t sizeOrOne(int64_t size) {
  return ShapedType::isDynamic(size) ? 1 : size;
}

static int64_t staticElements(RankedTensorType type) {
  int64_t n = 1;
  for (int64_t d : type.getShape())
    n *= sizeOrOne(d);
  return n;
}

int64_t tessera::valueBytes(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return staticElements(tensor) * elementBytes(tensor.getElementType());
  if (auto tuple = dyn_cast<TupleType>(type)) {
    int64_t sum = 0;
    for (Type t : tuple.getTypes())
      sum += valueBytes(t);
    return sum;
  }
  return 0;
}

static int64_t elementsOf(Value v) {
  auto tensor = dyn_cast<RankedTensorType>(v.getType());
  return tensor ? staticElements(tensor) : 0;
}

int64_t tessera::opFlops(Operation *op) {
  if (op->hasTrait<OpTrait::Elementwise>() || isa<SelectOp, ClampOp>(op))
    return op->getNumResults() ? elementsOf(op->getResult(0)) : 0;
  return llvm::TypeSwitch<Operation *, int64_t>(op)
      .Case([](DotGeneralOp dot) {
        int64_t k = 1;
        // Either side may know a contracting size the other leaves dynamic.
        for (auto [l, r] : llvm::zip(dot.getLhsContractingDimensions(),
                                     dot.getRhsContractingDimensions())) {
          int64_t size = dot.getLhs().getType().getDimSize(l);
          if (ShapedType::isDynamic(size))
            size = dot.getRhs().getType().getDimSize(r);
          k *= sizeOrOne(size);
        }
        return 2 * elementsOf(dot.getResult()) * k;
      })
      .Case([](ConvolutionOp conv) {
        std::string error;
        auto dims = parseConvDimLabels(conv.getDimLabels(), error);
        if (failed(dims))
          return int64_t(0);
        auto kernel = conv.getRhs().getType();
        // The kernel's input-feature dimension already is Cin / groups.
        int64_t perOutput =
            sizeOrOne(kernel.getDimSize(dims->kernel.batchOrInput));
        for (int64_t w : conv.getWindowSizes())
          perOutput *= sizeOrOne(w);
        return 2 * elementsOf(conv.getResult()) * perOutput;
      })
      .Case([](ReduceOp reduce) {
        int64_t n = 0;
        for (Value v : reduce.getInputs())
          n += elementsOf(v);
        return n;
      })
      .Case([](ReduceWindowOp rw) {
        int64_t window = 1;
        for (int64_t w : rw.getWindowDimensions())
          window *= w;
        int64_t out = 0;
        Type result = rw.getResult().getType();
        if (auto t = dyn_cast<RankedTensorType>(result))
          out = staticElements(t);
        else if (auto tuple = dyn_cast<TupleType>(result))
          for (Type t : tuple.getTypes())
            out += staticElements(cast<RankedTensorType>(t));
        return out * window;
      })
      .Case([](BatchNormTrainingOp bn) {
        return 7 * elementsOf(bn.getInputs().front());
      })
      .Case([](BatchNormInferenceOp bn) {
        return 4 * elementsOf(bn.getInputs().front());
      })
      .Default([](Operation *) { return int64_t(0); });
}

int64_t tessera::opBytes(Operation *op) {
  int64_t bytes = 0;
  for (Value v : op->getOperands())
    bytes += valueBytes(v.getType());
  for (Value v : op->getResults())
    bytes += valueBytes(v.getType());
  return bytes;
}
