//===- HloEmitNn.cpp - HLO contractions and normalization -----------------===//
//
// dot (as dot_general), convolution with its window and dimension labels,
// and the three batch-norm ops.
//
//===----------------------------------------------------------------------===//

#include "HloEmitOps.h"

using namespace mlir;

namespace tessera::hlo::detail {
namespace {

Emitted dot(InstrEmit &e) {
  llvm::SmallVector<int64_t, 2> lhsBatch, rhsBatch, lhsContract, rhsContract;
  bool hasLhs = e.instr.findAttr("lhs_contracting_dims");
  bool hasRhs = e.instr.findAttr("rhs_contracting_dims");
  if (!arity(e, 2) || !optionalInts(e, "lhs_batch_dims", lhsBatch) ||
      !optionalInts(e, "rhs_batch_dims", rhsBatch) ||
      !optionalInts(e, "lhs_contracting_dims", lhsContract) ||
      !optionalInts(e, "rhs_contracting_dims", rhsContract))
    return failure();
  // Dumps from before dot dimension numbers existed contract the last
  // lhs dimension with the first (vector) or second-to-last rhs one.
  auto lhsType = dyn_cast<RankedTensorType>(e.operands[0].getType());
  auto rhsType = dyn_cast<RankedTensorType>(e.operands[1].getType());
  if (!hasLhs && !hasRhs && lhsType && rhsType && lhsType.getRank() >= 1 &&
      rhsType.getRank() >= 1) {
    lhsContract.push_back(lhsType.getRank() - 1);
    rhsContract.push_back(rhsType.getRank() == 1 ? 0 : rhsType.getRank() - 2);
  }
  return e.emit<tg::DotGeneralOp>(e.operands[0], e.operands[1], lhsBatch,
                                  rhsBatch, lhsContract, rhsContract);
}

Emitted convolution(InstrEmit &e) {
  ConvAttrs attrs;
  if (!arity(e, 2) || !readConvAttrs(e, attrs))
    return failure();
  return buildConvolution(e, e.loc, e.resultType, e.operands[0], e.operands[1],
                          attrs)
      .getOperation();
}

template <typename OpTy> Emitted batchNorm(InstrEmit &e) {
  const Attr *eps = required(e, "epsilon");
  double epsilon;
  int64_t feature;
  if (!eps || !parseFloatValue(*eps, e.diags(), epsilon) ||
      !requiredInt(e, "feature_index", feature))
    return failure();
  // The op keeps epsilon as f32, as XLA's proto does.
  return e.emit<OpTy>(e.operands, llvm::APFloat(static_cast<float>(epsilon)),
                      static_cast<uint64_t>(feature));
}

} // namespace

bool readConvAttrs(InstrEmit &e, ConvAttrs &out) {
  const Attr *labels = required(e, "dim_labels");
  if (!labels)
    return false;
  out.labels = labels->value;
  out.labelsLoc = labels->valueLoc();
  if (const Attr *w = e.attrs.take("window"))
    if (!parseWindow(*w, e.diags(), out.window))
      return false;
  return optionalInt(e, "feature_group_count", out.featureGroups) &&
         optionalInt(e, "batch_group_count", out.batchGroups);
}

tg::ConvolutionOp buildConvolution(InstrEmit &e, Location loc, Type type,
                                   Value lhs, Value rhs, const ConvAttrs &a) {
  DenseBoolArrayAttr reversal;
  if (!a.window.reversal.empty())
    reversal = e.builder().getDenseBoolArrayAttr(a.window.reversal);
  return e.builder().create<tg::ConvolutionOp>(
      loc, type, lhs, rhs, a.labels, optionalI64s(e, a.window.stride),
      optionalI64s(e, a.window.padding), optionalI64s(e, a.window.lhsDilate),
      optionalI64s(e, a.window.rhsDilate), reversal,
      static_cast<uint64_t>(a.featureGroups),
      static_cast<uint64_t>(a.batchGroups));
}

Emitted emitNn(Op kind, InstrEmit &e) {
  switch (kind) {
  case Op::Dot:
    return dot(e);
  case Op::Convolution:
    return convolution(e);
  case Op::BatchNormTraining:
    return batchNorm<tg::BatchNormTrainingOp>(e);
  case Op::BatchNormInference:
    return batchNorm<tg::BatchNormInferenceOp>(e);
  case Op::BatchNormGrad:
    return batchNorm<tg::BatchNormGradOp>(e);
  default:
    llvm_unreachable("not a contraction or normalization opcode");
  }
}

} // namespace tessera::hlo::detail
