//===- Nn.cpp - TOSA convolutions, matmuls, pools -------------------------===//
//
// conv2d, depthwise_conv2d, transpose_conv2d, fully_connected, matmul and
// the pools, on TOSA's NHWC activations.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

using namespace mlir;
using namespace tessera::tosa_import;

namespace {

/// TOSA conv ops add a per-output-channel bias: broadcast it along the last
/// (feature) dimension.
Value addBias(Emitter &e, Value conv, Value bias) {
  auto type = rankedOf(conv);
  Value b = e.make<tg::BroadcastInDimOp>(type, bias,
                                         ArrayRef<int64_t>{type.getRank() - 1});
  return e.make<tg::AddOp>(type, conv, b);
}

/// conv2d: input NHWC, weights OHWI; TOSA pad is [top, bottom, left, right],
/// which is already HLO's (low, high) pair per spatial dimension.
FailureOr<Value> conv2d(tosa::Conv2DOp op, tosa::Conv2DOp::Adaptor a,
                        Emitter &e) {
  auto conv = e.make<tg::ConvolutionOp>(
      op.getType(), a.getInput(), a.getWeight(), "b01f_o01i->b01f",
      i64s(e, op.getStride()), i64s(e, op.getPad()), DenseI64ArrayAttr(),
      i64s(e, op.getDilation()), DenseBoolArrayAttr(), 1, 1);
  return addBias(e, conv, a.getBias());
}

/// depthwise_conv2d: weights [KH, KW, C, M] give C*M outputs, channel c*M+m
/// from input channel c: a grouped convolution with C groups whose kernel
/// is the row-major reshape [KH, KW, 1, C*M].
FailureOr<Value> depthwise(tosa::DepthwiseConv2DOp op,
                           tosa::DepthwiseConv2DOp::Adaptor a, Emitter &e) {
  auto w = rankedOf(a.getWeight());
  int64_t c = w.getDimSize(2), m = w.getDimSize(3);
  if (ShapedType::isDynamic(c) || ShapedType::isDynamic(m))
    return e.fail("depthwise weights need a static shape");
  Value kernel =
      reshapeTo(e, a.getWeight(), {w.getDimSize(0), w.getDimSize(1), 1, c * m});
  auto conv = e.make<tg::ConvolutionOp>(
      op.getType(), a.getInput(), kernel, "b01f_01io->b01f",
      i64s(e, op.getStride()), i64s(e, op.getPad()), DenseI64ArrayAttr(),
      i64s(e, op.getDilation()), DenseBoolArrayAttr(), c, 1);
  return addBias(e, conv, a.getBias());
}

/// transpose_conv2d (filter OHWI): a convolution over the input dilated by
/// the stride, padded by K-1 (+ out_pad, which may crop when negative),
/// with the kernel reversed spatially.
FailureOr<Value> transposeConv(tosa::TransposeConv2DOp op,
                               tosa::TransposeConv2DOp::Adaptor a, Emitter &e) {
  auto f = rankedOf(a.getFilter());
  int64_t kh = f.getDimSize(1), kw = f.getDimSize(2);
  if (ShapedType::isDynamic(kh) || ShapedType::isDynamic(kw))
    return e.fail("transpose_conv2d filter needs a static window");
  ArrayRef<int64_t> outPad = op.getOutPad();
  SmallVector<int64_t> padding = {kh - 1 + outPad[0], kh - 1 + outPad[1],
                                  kw - 1 + outPad[2], kw - 1 + outPad[3]};
  auto conv = e.make<tg::ConvolutionOp>(
      op.getType(), a.getInput(), a.getFilter(), "b01f_o01i->b01f",
      i64s(e, {1, 1}), i64s(e, padding), i64s(e, op.getStride()),
      DenseI64ArrayAttr(), e.rw.getDenseBoolArrayAttr({true, true}), 1, 1);
  return addBias(e, conv, a.getBias());
}

/// fully_connected: input [N, IC] x weight [OC, IC] -> [N, OC], plus bias.
FailureOr<Value> fullyConnected(tosa::FullyConnectedOp op,
                                tosa::FullyConnectedOp::Adaptor a, Emitter &e) {
  auto dot = e.make<tg::DotGeneralOp>(
      op.getType(), a.getInput(), a.getWeight(), ArrayRef<int64_t>{},
      ArrayRef<int64_t>{}, ArrayRef<int64_t>{1}, ArrayRef<int64_t>{1});
  return addBias(e, dot, a.getBias());
}

/// matmul: [N, H, C] x [N, C, W] -> [N, H, W], N the batch.
FailureOr<Value> matmul(tosa::MatMulOp op, tosa::MatMulOp::Adaptor a,
                        Emitter &e) {
  return e
      .make<tg::DotGeneralOp>(op.getType(), a.getA(), a.getB(),
                              ArrayRef<int64_t>{0}, ArrayRef<int64_t>{0},
                              ArrayRef<int64_t>{2}, ArrayRef<int64_t>{1})
      .getResult();
}

//===----------------------------------------------------------------------===//
// Pooling: reduce_window over NHWC
//===----------------------------------------------------------------------===//

template <typename TgOp>
Value poolWindow(Emitter &e, Type resultType, Value input, Attribute init,
                 ArrayRef<int64_t> kernel, ArrayRef<int64_t> stride,
                 ArrayRef<int64_t> pad) {
  Type elt = rankedOf(input).getElementType();
  Value initValue = splat(e, RankedTensorType::get({}, elt), init);
  auto window = e.make<tg::ReduceWindowOp>(
      resultType, ValueRange{input}, ValueRange{initValue},
      ArrayRef<int64_t>{1, kernel[0], kernel[1], 1},
      i64s(e, {1, stride[0], stride[1], 1}), DenseI64ArrayAttr(),
      DenseI64ArrayAttr(),
      i64s(e, {0, 0, pad[0], pad[1], pad[2], pad[3], 0, 0}));
  buildReducer<TgOp>(e, window.getBody(), elt);
  return window;
}

FailureOr<Value> maxPool(tosa::MaxPool2dOp op, tosa::MaxPool2dOp::Adaptor a,
                         Emitter &e) {
  Type elt = rankedOf(a.getInput()).getElementType();
  // Padding never wins a max: it is the lowest value of the type.
  return poolWindow<tg::MaxOp>(e, op.getType(), a.getInput(),
                               extremeAttr(elt, /*lowest=*/true),
                               op.getKernel(), op.getStride(), op.getPad());
}

/// avg_pool2d divides each window sum by the number of *valid* (unpadded)
/// elements, as TOSA specifies: with padding, that count is itself a
/// reduce_window of ones over the input with the same window.
FailureOr<Value> avgPool(tosa::AvgPool2dOp op, tosa::AvgPool2dOp::Adaptor a,
                         Emitter &e) {
  auto inType = rankedOf(a.getInput());
  auto outType = cast<RankedTensorType>(op.getType());
  Type elt = inType.getElementType();
  if (!isa<FloatType>(elt))
    return e.fail("integer avg_pool2d rounds its division; not imported");
  ArrayRef<int64_t> k = op.getKernel(), s = op.getStride(), p = op.getPad();
  Value sum = poolWindow<tg::AddOp>(e, outType, a.getInput(),
                                    numberAttr(elt, 0), k, s, p);
  Value count;
  if (llvm::all_of(p, [](int64_t v) { return v == 0; })) {
    count = splat(e, outType, numberAttr(elt, double(k[0] * k[1])));
  } else {
    Value ones = splat(e, inType, numberAttr(elt, 1));
    count =
        poolWindow<tg::AddOp>(e, outType, ones, numberAttr(elt, 0), k, s, p);
  }
  return e.make<tg::DivOp>(outType, sum, count).getResult();
}

} // namespace

void tessera::tosa_import::populateNnPatterns(RewritePatternSet &p) {
  // Contractions and windows.
  add<tosa::Conv2DOp>(p, conv2d);
  add<tosa::DepthwiseConv2DOp>(p, depthwise);
  add<tosa::TransposeConv2DOp>(p, transposeConv);
  add<tosa::FullyConnectedOp>(p, fullyConnected);
  add<tosa::MatMulOp>(p, matmul);
  add<tosa::MaxPool2dOp>(p, maxPool);
  add<tosa::AvgPool2dOp>(p, avgPool);
}
