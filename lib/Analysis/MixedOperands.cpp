//===- MixedOperands.cpp - dots and convolutions of two float types -------===//

#include "tessera/Analysis/MixedOperands.h"

#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

FloatType tessera::mixedOperandType(Operation *op) {
  if (!isa<tgraph::DotGeneralOp, tgraph::ConvolutionOp>(op) ||
      op->getNumOperands() != 2)
    return {};
  auto lhs = dyn_cast<FloatType>(getElementTypeOrSelf(op->getOperand(0)));
  auto rhs = dyn_cast<FloatType>(getElementTypeOrSelf(op->getOperand(1)));
  if (!lhs || !rhs || lhs == rhs)
    return {};
  if (lhs.getWidth() != rhs.getWidth())
    return lhs.getWidth() > rhs.getWidth() ? lhs : rhs;
  // Two types of one width (f16 and bf16; the f8 kinds): neither holds the
  // other, and f32 holds both.
  return Float32Type::get(op->getContext());
}
