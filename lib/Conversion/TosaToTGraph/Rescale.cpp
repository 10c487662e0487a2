//===- Rescale.cpp - TOSA rescale
//------------------------------------------===//
//
// tosa.rescale on plain integer tensors, as the TOSA spec computes it, in
// 64-bit tgraph integer arithmetic: widen (sign- or zero-extending as the
// type says), subtract input_zp, multiply by the channel's multiplier, add
// the rounding term (1 << (shift - 1), adjusted by +-2^30 with
// double_round when shift > 31), shift right arithmetically, add
// output_zp, clamp to the output type's range and narrow. Quantized
// (!quant.uniform) types never reach this: Common.cpp reports them.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

using namespace mlir;
using namespace tessera::tosa_import;

namespace {

/// The spec's ERROR_IF / REQUIRE conditions that the attributes alone
/// decide, as a reason, or "".
std::string checkRescale(tosa::RescaleOp op, IntegerType in, IntegerType out,
                         int64_t channels) {
  std::string why;
  llvm::raw_string_ostream os(why);
  ArrayRef<int32_t> mult = op.getMultiplier();
  ArrayRef<int8_t> shift = op.getShift();
  int64_t expected = op.getPerChannel() ? channels : 1;
  // Zero points are only allowed for 8-bit types and uint16 (0 or 32768).
  auto inZp = static_cast<int32_t>(op.getInputZp());
  auto outZp = static_cast<int32_t>(op.getOutputZp());
  auto zpAllowed = [](IntegerType t, int32_t zp) {
    if (t.getWidth() == 8)
      return true;
    if (t.getWidth() == 16 && t.isUnsigned())
      return zp == 0 || zp == 32768;
    return zp == 0;
  };
  if (ShapedType::isDynamic(expected))
    os << "per-channel rescale needs a static channel (last) dimension";
  else if (static_cast<int64_t>(mult.size()) != expected ||
           static_cast<int64_t>(shift.size()) != expected)
    os << "rescale has " << mult.size() << " multipliers and " << shift.size()
       << " shifts, expected " << expected;
  else if (!op.getScale32() && op.getDoubleRound())
    os << "rescale with double_round needs scale32";
  else if (op.getScale32() && in.getWidth() == 48)
    os << "rescale of a 48-bit input needs scale32 = false";
  else if (!zpAllowed(in, inZp) || !zpAllowed(out, outZp))
    os << "rescale zero point (input_zp = " << inZp << ", output_zp = " << outZp
       << ") is not allowed for " << in << " -> " << out;
  else if (llvm::any_of(mult, [](int32_t m) { return m < 0; }))
    os << "rescale multiplier is negative";
  else if (llvm::any_of(shift, [](int8_t s) { return s < 2 || s > 62; }))
    os << "rescale shift is outside TOSA's range [2, 62]";
  return why;
}

/// A per-channel (or single) i64 vector broadcast to `type`.
Value channelConst(Emitter &e, RankedTensorType type, ArrayRef<int64_t> v) {
  auto i64 = e.rw.getI64Type();
  if (llvm::all_equal(v))
    return splat(e, type, IntegerAttr::get(i64, v[0]));
  auto vecType = RankedTensorType::get({static_cast<int64_t>(v.size())}, i64);
  Value c = e.make<tg::ConstantOp>(vecType, DenseElementsAttr::get(vecType, v),
                                   /*elided=*/false);
  return e.make<tg::BroadcastInDimOp>(type, c,
                                      ArrayRef<int64_t>{type.getRank() - 1});
}

FailureOr<Value> rescale(tosa::RescaleOp op, tosa::RescaleOp::Adaptor a,
                         Emitter &e) {
  auto inType = rankedOf(a.getInput());
  auto outType = cast<RankedTensorType>(op.getType());
  auto in = dyn_cast<IntegerType>(inType.getElementType());
  auto out = dyn_cast<IntegerType>(outType.getElementType());
  if (!in || !out || in.isSigned() || out.isSigned())
    return e.fail("rescale of non-integer (or si-typed) tensors");
  int64_t channels = inType.getRank() ? inType.getShape().back() : 1;
  if (op.getPerChannel() && inType.getRank() == 0)
    return e.fail("per-channel rescale of a 0-d tensor");
  std::string why = checkRescale(op, in, out, channels);
  if (!why.empty())
    return e.fail(why);

  auto wide = RankedTensorType::get(inType.getShape(), e.rw.getI64Type());
  auto i64 = e.rw.getI64Type();
  SmallVector<int64_t> mult, shift, roundUp, roundDown;
  for (auto [m, s] : llvm::zip(op.getMultiplier(), op.getShift())) {
    int64_t round = int64_t(1) << (s - 1);
    int64_t adjust = op.getDoubleRound() && s > 31 ? int64_t(1) << 30 : 0;
    mult.push_back(m);
    shift.push_back(s);
    roundUp.push_back(round + adjust);
    roundDown.push_back(round - adjust);
  }
  // The I32Attr getters return uint32_t; zero points are signed.
  auto inZp = static_cast<int32_t>(op.getInputZp());
  auto outZp = static_cast<int32_t>(op.getOutputZp());
  // tgraph.convert follows HLO: unsigned types zero-extend, others
  // sign-extend, as the spec reads the input.
  Value x = e.make<tg::ConvertOp>(wide, a.getInput());
  if (inZp != 0)
    x = e.make<tg::SubOp>(wide, x, splat(e, wide, IntegerAttr::get(i64, inZp)));
  Value r = e.make<tg::MulOp>(wide, x, channelConst(e, wide, mult));
  Value round = channelConst(e, wide, roundUp);
  if (roundUp != roundDown) {
    // double_round moves the rounding point away from zero by 2^30.
    auto pred = RankedTensorType::get(inType.getShape(), e.rw.getI1Type());
    Value nonNegative = e.make<tg::CompareOp>(
        pred, tg::ComparisonDirection::GE, x,
        splat(e, wide, IntegerAttr::get(i64, 0)), StringAttr());
    round = e.make<tg::SelectOp>(wide, nonNegative, round,
                                 channelConst(e, wide, roundDown));
  }
  r = e.make<tg::AddOp>(wide, r, round);
  r = e.make<tg::ShrAOp>(wide, r, channelConst(e, wide, shift));
  if (outZp != 0)
    r = e.make<tg::AddOp>(wide, r,
                          splat(e, wide, IntegerAttr::get(i64, outZp)));
  unsigned width = out.getWidth();
  APInt lo = out.isUnsigned() ? APInt::getMinValue(width)
                              : APInt::getSignedMinValue(width);
  APInt hi = out.isUnsigned() ? APInt::getMaxValue(width)
                              : APInt::getSignedMaxValue(width);
  auto scalar = RankedTensorType::get({}, i64);
  auto extend = [&](const APInt &v) {
    return IntegerAttr::get(i64, out.isUnsigned() ? v.getZExtValue()
                                                  : v.getSExtValue());
  };
  r = e.make<tg::ClampOp>(wide, splat(e, scalar, extend(lo)), r,
                          splat(e, scalar, extend(hi)));
  return e.make<tg::ConvertOp>(outType, r).getResult();
}

} // namespace

void tessera::tosa_import::populateRescalePatterns(RewritePatternSet &p) {
  add<tosa::RescaleOp>(p, rescale);
}
