//===- HloEmitLibraryCall.cpp - cuBLAS and cuDNN custom calls as math -----===//
//
// XLA:GPU rewrites dots into `__cublas$gemm` / `__cublas$lt$matmul` custom
// calls and convolutions into `__cudnn$convForward` /
// `__cudnn$convBiasActivationForward`, folding scaling, addends, biases and
// activations into the call's backend_config. Each is imported as the
// dot_general or convolution it started as, followed by those steps as
// separate tgraph ops, in the order the library applies them:
//
//   gemm: epilogue(alpha * dot(a, b) + beta * c + bias)
//   conv: activation(conv_result_scale * conv(x, w)
//                    + side_input_scale * side_input + bias)
//
// The call's result is often a tuple (result, workspace): the workspace is
// scratch memory, so it becomes a zero constant, and the tuple is dropped
// again when only its result is read (Emitter::foldLibraryTuples).
//
//===----------------------------------------------------------------------===//

#include "HloEmitOps.h"
#include "HloGpuConfig.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"

#include <cmath>

using namespace mlir;
using llvm::StringRef;
using llvm::Twine;

namespace tessera::hlo::detail {
namespace {

enum class Library { None, Gemm, LtMatmul, ConvForward, ConvBiasActivation };

Library libraryOf(StringRef target) {
  return llvm::StringSwitch<Library>(target)
      .Case("__cublas$gemm", Library::Gemm)
      .Case("__cublas$lt$matmul", Library::LtMatmul)
      .Case("__cudnn$convForward", Library::ConvForward)
      .Case("__cudnn$convBiasActivationForward", Library::ConvBiasActivation)
      .Default(Library::None);
}

/// Activations with an exact tgraph form. GeluTanh is cuBLASLt's GELU
/// epilogue (the tanh approximation XLA matches when it fuses it).
enum class Activation {
  None,
  Relu,
  Relu6,
  Sigmoid,
  Tanh,
  Elu,
  LeakyRelu,
  GeluTanh,
  GeluErf
};

/// Builds the ops of one library call. They are named
/// "<instruction>.<op>" (as HLO names the instructions it adds) until
/// finish() gives the op computing the call's result the instruction's own
/// location.
class MathBuilder {
public:
  explicit MathBuilder(InstrEmit &e) : e(e) {}

  template <typename OpTy> Location helperLoc() {
    return e.helperLoc(OpTy::getOperationName().drop_front(strlen("tgraph.")));
  }
  void track(Operation *op) { created.push_back(op); }
  template <typename OpTy, typename... Args>
  Value make(Type type, Args &&...args) {
    auto op = e.builder().create<OpTy>(helperLoc<OpTy>(), type,
                                       std::forward<Args>(args)...);
    track(op);
    return op->getResult(0);
  }
  template <typename OpTy> Value binary(Value a, Value b) {
    return make<OpTy>(a.getType(), a, b);
  }
  /// A constant of `type` with every element `value`.
  Value splat(RankedTensorType type, double value) {
    Type elt = type.getElementType();
    Attribute element;
    if (auto f = dyn_cast<FloatType>(elt)) {
      llvm::APFloat v(value);
      bool lost;
      v.convert(f.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven,
                &lost);
      element = FloatAttr::get(elt, v);
    } else {
      element = IntegerAttr::get(elt, static_cast<int64_t>(value));
    }
    return make<tg::ConstantOp>(type, DenseElementsAttr::get(type, element),
                                /*elided=*/false);
  }
  Value splat(Value like, double value) {
    return splat(cast<RankedTensorType>(like.getType()), value);
  }
  /// `x * value`, skipping the multiplication by one.
  Value scale(Value x, double value) {
    return value == 1 ? x : binary<tg::MulOp>(x, splat(x, value));
  }
  Value activate(Value x, Activation act, double leakyAlpha);

  /// Names the op of `result` after the instruction and returns the op
  /// standing for the instruction: the (result, workspace) tuple when the
  /// call returns one, else the result's op.
  Operation *finish(Value result) {
    Operation *resultOp = result.getDefiningOp();
    resultOp->setLoc(e.loc);
    Operation *returned = resultOp;
    if (auto tuple = dyn_cast<TupleType>(e.resultType)) {
      // The workspace is the library's scratch memory: its contents are
      // not defined, and zeros are one choice of them.
      Value workspace =
          splat(cast<RankedTensorType>(tuple.getType(1)), /*value=*/0);
      returned = make<tg::TupleOp>(tuple, ValueRange{result, workspace})
                     .getDefiningOp();
      e.libraryTuple(returned);
    }
    for (Operation *op : created)
      if (op != returned)
        e.helpers.push_back(op);
    return returned;
  }

private:
  InstrEmit &e;
  SmallVector<Operation *> created;
};

Value MathBuilder::activate(Value x, Activation act, double leakyAlpha) {
  Type type = x.getType();
  auto negative = [&] {
    auto shape = cast<RankedTensorType>(type);
    return make<tg::CompareOp>(
        RankedTensorType::get(shape.getShape(), e.builder().getI1Type()),
        tg::ComparisonDirection::LT, x, splat(x, 0), StringAttr());
  };
  auto scalar = [&](double value) {
    return splat(RankedTensorType::get(
                     {}, cast<RankedTensorType>(type).getElementType()),
                 value);
  };
  // x * 0.5 * (1 + cdfTerm): both GELU forms.
  // One op per statement: the evaluation order of arguments is
  // unspecified, and the printed IR must not depend on the compiler.
  auto gelu = [&](Value cdfTerm) {
    Value one = splat(x, 1);
    Value onePlus = binary<tg::AddOp>(one, cdfTerm);
    Value half = splat(x, 0.5);
    return binary<tg::MulOp>(x, binary<tg::MulOp>(half, onePlus));
  };
  switch (act) {
  case Activation::None:
    return x;
  case Activation::Relu:
    return binary<tg::MaxOp>(x, splat(x, 0));
  case Activation::Relu6: {
    Value low = scalar(0);
    Value high = scalar(6);
    return make<tg::ClampOp>(type, low, x, high);
  }
  case Activation::Sigmoid:
    return make<tg::LogisticOp>(type, x);
  case Activation::Tanh:
    return make<tg::TanhOp>(type, x);
  case Activation::Elu: {
    Value isNegative = negative();
    return make<tg::SelectOp>(type, isNegative, make<tg::Expm1Op>(type, x), x);
  }
  case Activation::LeakyRelu: {
    Value isNegative = negative();
    return make<tg::SelectOp>(type, isNegative, scale(x, leakyAlpha), x);
  }
  case Activation::GeluTanh: {
    // tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)), the form XLA fuses.
    Value cube = binary<tg::MulOp>(binary<tg::MulOp>(x, x), x);
    Value inner =
        binary<tg::AddOp>(x, binary<tg::MulOp>(splat(x, 0.044715), cube));
    return gelu(make<tg::TanhOp>(
        type, binary<tg::MulOp>(splat(x, std::sqrt(2 / M_PI)), inner)));
  }
  case Activation::GeluErf:
    return gelu(
        make<tg::ErfOp>(type, binary<tg::DivOp>(x, splat(x, std::sqrt(2.0)))));
  }
  llvm_unreachable("unknown activation");
}

std::string typeString(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  type.print(os);
  return s;
}

std::string number(double value) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format("%g", value);
  return s;
}

/// The call's result: the array, or element 0 of a (result, workspace)
/// tuple. Null, with `whyNot`, for any other tuple (an auxiliary output).
RankedTensorType resultTensor(InstrEmit &e, std::string &whyNot) {
  if (auto tensor = dyn_cast<RankedTensorType>(e.resultType))
    return tensor;
  if (auto tuple = dyn_cast<TupleType>(e.resultType);
      tuple && tuple.size() == 2) {
    auto result = dyn_cast<RankedTensorType>(tuple.getType(0));
    auto workspace = dyn_cast<RankedTensorType>(tuple.getType(1));
    if (result && workspace && workspace.getRank() == 1 &&
        workspace.hasStaticShape() && workspace.getElementType().isInteger(8))
      return result;
  }
  whyNot = "its result " + typeString(e.resultType) +
           " is not an array or a (result, s8/u8 workspace) tuple";
  return nullptr;
}

/// The result's minor-to-major dimension order from its layout (the first
/// tuple element's for tuples); the default order when none is printed.
SmallVector<int64_t> minorToMajor(const Shape &shape, int64_t rank) {
  const Shape &array =
      shape.kind == Shape::Kind::Tuple && !shape.elements.empty()
          ? shape.elements[0]
          : shape;
  SmallVector<int64_t> order;
  StringRef text = array.layout.trim("{}").split(':').first;
  SmallVector<StringRef> parts;
  text.split(parts, ',', -1, /*KeepEmpty=*/false);
  for (StringRef part : parts) {
    int64_t dim;
    if (part.trim().getAsInteger(10, dim))
      break;
    order.push_back(dim);
  }
  if (static_cast<int64_t>(order.size()) != rank) {
    order.clear();
    for (int64_t d = rank - 1; d >= 0; --d)
      order.push_back(d);
  }
  return order;
}

/// The bias and activation of a cuBLASLt epilogue; false for the ones
/// that also return an auxiliary output.
bool epilogueSteps(StringRef epilogue, bool &bias, Activation &act) {
  bias = epilogue.starts_with("BIAS");
  StringRef rest = bias ? epilogue.drop_front(4).ltrim('_') : epilogue;
  if (rest.empty() || rest == "DEFAULT")
    act = Activation::None;
  else if (rest == "RELU")
    act = Activation::Relu;
  else if (rest == "GELU")
    act = Activation::GeluTanh;
  else
    return false;
  return true;
}

std::optional<Activation> cudnnActivation(StringRef mode) {
  return llvm::StringSwitch<std::optional<Activation>>(mode)
      .Case("kNone", Activation::None)
      .Case("kRelu", Activation::Relu)
      .Case("kRelu6", Activation::Relu6)
      .Case("kSigmoid", Activation::Sigmoid)
      .Case("kTanh", Activation::Tanh)
      .Case("kElu", Activation::Elu)
      .Case("kLeakyRelu", Activation::LeakyRelu)
      .Case("kGeluExact", Activation::GeluErf)
      .Default(std::nullopt);
}

/// Only ReLU (a max) is exact on integers; the others need floats.
bool activationFits(Activation act, Type elt) {
  return act == Activation::None || act == Activation::Relu ||
         isa<FloatType>(elt);
}

Emitted operandCountError(InstrEmit &e, StringRef target, size_t n,
                          StringRef roles) {
  return e.fail(e.instr.opcodeLoc, "custom call to '" + target +
                                       "' with this backend_config takes " +
                                       Twine(n) + " operands (" + roles +
                                       "), got " + Twine(e.operands.size()));
}

Emitted gemm(InstrEmit &e, StringRef target, const GemmConfig &c,
             std::string &whyNot) {
  // The config first: it names what is unsupported more precisely than
  // the result shape that follows from it (GELU_AUX's extra element).
  bool hasBias = false;
  Activation act = Activation::None;
  if (!epilogueSteps(c.epilogue, hasBias, act))
    whyNot = "epilogue " + c.epilogue +
             " also returns its input (an auxiliary output)";
  else if (c.isFp8 || c.damaxOutput)
    whyNot = "FP8 GEMMs scale their operands and return an amax";
  if (!whyNot.empty())
    return keepAsUnknown();
  RankedTensorType out = resultTensor(e, whyNot);
  if (!out)
    return keepAsUnknown();
  Type elt = out.getElementType();
  if (c.alphaImag != 0)
    whyNot = "alpha_imag = " + number(c.alphaImag) + " (complex scaling)";
  else if (isa<ComplexType>(elt) &&
           (c.alphaReal != 1 || c.beta != 0 || c.epilogue != "DEFAULT"))
    whyNot = "complex GEMMs are imported without scaling or epilogue only";
  else if (isa<IntegerType>(elt) &&
           (c.alphaReal != 1 || (c.beta != 0 && c.beta != 1)))
    whyNot = "integer GEMMs take alpha = 1 and beta = 0 or 1 only, not "
             "alpha = " +
             number(c.alphaReal) + ", beta = " + number(c.beta);
  else if (!activationFits(act, elt))
    whyNot = "epilogue " + c.epilogue + " on " + typeString(elt);
  if (!whyNot.empty())
    return keepAsUnknown();

  size_t expected = 2 + (c.beta != 0) + hasBias;
  if (e.operands.size() != expected)
    return operandCountError(
        e, target, expected,
        c.beta != 0 ? (hasBias ? "lhs, rhs, addend, bias" : "lhs, rhs, addend")
                    : (hasBias ? "lhs, rhs, bias" : "lhs, rhs"));
  // The bias covers the result's most minor dimensions (XLA fuses only
  // such broadcasts), read in its own default layout.
  SmallVector<int64_t> biasDims;
  if (hasBias) {
    auto biasType = cast<RankedTensorType>(e.operands.back().getType());
    int64_t k = biasType.getRank();
    if (k > out.getRank())
      return e.fail(e.instr.opcodeLoc, "custom call to '" + target +
                                           "': bias " + typeString(biasType) +
                                           " has more dimensions than " +
                                           "the result " + typeString(out));
    SmallVector<int64_t> order = minorToMajor(e.instr.shape, out.getRank());
    for (int64_t j = 0; j < k; ++j)
      biasDims.push_back(order[k - 1 - j]);
  }

  MathBuilder b(e);
  Value v =
      b.make<tg::DotGeneralOp>(out, e.operands[0], e.operands[1], c.lhsBatch,
                               c.rhsBatch, c.lhsContract, c.rhsContract);
  v.getDefiningOp()->setAttr(tg::kLibraryCallAttr,
                             e.builder().getStringAttr(target));
  v = b.scale(v, c.alphaReal);
  if (c.beta != 0)
    v = b.binary<tg::AddOp>(v, b.scale(e.operands[2], c.beta));
  if (hasBias)
    v = b.binary<tg::AddOp>(
        v, b.make<tg::BroadcastInDimOp>(out, e.operands.back(), biasDims));
  return b.finish(b.activate(v, act, /*leakyAlpha=*/0));
}

Emitted conv(InstrEmit &e, Library kind, StringRef target, const ConvConfig &c,
             std::string &whyNot) {
  RankedTensorType out = resultTensor(e, whyNot);
  if (!out)
    return keepAsUnknown();
  std::optional<Activation> act = cudnnActivation(c.activation);
  if (!act)
    whyNot = "activation " + c.activation +
             " clips at a value the backend_config does not carry";
  else if (c.reorderedInt8)
    whyNot = "its filter and bias are reordered for int8x32 kernels "
             "(reordered_int8_nchw_vect)";
  else if (!activationFits(*act, out.getElementType()))
    whyNot = "activation " + c.activation + " on " +
             typeString(out.getElementType());
  if (!whyNot.empty())
    return keepAsUnknown();

  bool fused = kind == Library::ConvBiasActivation;
  size_t n = e.operands.size();
  if (!fused && n != 2)
    return operandCountError(e, target, 2, "input, filter");
  if (fused && n != 3 && n != 4)
    return operandCountError(e, target, 3, "input, filter, bias");
  bool hasSideInput = n == 4;
  if (c.sideInputScale != 0 && !hasSideInput)
    return e.fail(e.instr.opcodeLoc,
                  "custom call to '" + target + "' has side_input_scale = " +
                      number(c.sideInputScale) + " but no side input operand");

  ConvAttrs attrs;
  if (!readConvAttrs(e, attrs))
    return failure();
  std::string labelsError;
  FailureOr<tg::ConvDimLabels> labels =
      tg::parseConvDimLabels(attrs.labels, labelsError);
  if (failed(labels))
    return e.fail(attrs.labelsLoc, labelsError);

  MathBuilder b(e);
  // The builder HLO `convolution` uses, so both read the window alike.
  auto op = buildConvolution(e, b.helperLoc<tg::ConvolutionOp>(), out,
                             e.operands[0], e.operands[1], attrs);
  b.track(op);
  op->setAttr(tg::kLibraryCallAttr, e.builder().getStringAttr(target));
  Value v = b.scale(op.getResult(), c.convResultScale);
  if (hasSideInput && c.sideInputScale != 0)
    v = b.binary<tg::AddOp>(v, b.scale(e.operands[3], c.sideInputScale));
  if (fused) {
    int64_t feature = labels->output.featureOrOutput;
    v = b.binary<tg::AddOp>(
        v, b.make<tg::BroadcastInDimOp>(out, e.operands[2],
                                        llvm::ArrayRef<int64_t>{feature}));
  }
  return b.finish(b.activate(v, *act, c.leakyReluAlpha));
}

} // namespace

bool isLibraryCallTarget(StringRef target) {
  return libraryOf(target) != Library::None;
}

Emitted emitLibraryCall(InstrEmit &e, StringRef target, StringRef config,
                        const Attr *configAttr, std::string &whyNot) {
  if (!configAttr)
    return e.fail(e.instr.opcodeLoc,
                  "custom call to '" + target +
                      "' needs a backend_config (its dimension numbers and "
                      "scaling)");
  for (auto [i, operand] : llvm::enumerate(e.operands))
    if (!isa<RankedTensorType>(operand.getType()))
      return e.fail(e.instr.opcodeLoc, "custom call to '" + target +
                                           "': operand " + Twine(i) +
                                           " is not an array");
  ConfigError error;
  auto configError = [&]() -> Emitted {
    // Unquoted JSON is the source text itself, so a syntax error can be
    // pointed at; in a quoted string escapes shift the offsets.
    llvm::SMLoc at = configAttr->valueLoc();
    if (error.offset && !configAttr->value.starts_with("\"") &&
        *error.offset < configAttr->value.size())
      at =
          llvm::SMLoc::getFromPointer(configAttr->value.data() + *error.offset);
    return e.fail(at,
                  "in backend_config of '" + target + "': " + error.message);
  };
  Library kind = libraryOf(target);
  if (kind == Library::Gemm || kind == Library::LtMatmul) {
    GemmConfig c;
    if (!readGemmConfig(config, c, error))
      return configError();
    return gemm(e, target, c, whyNot);
  }
  ConvConfig c;
  if (!readConvConfig(config, c, error))
    return configError();
  return conv(e, kind, target, c, whyNot);
}

} // namespace tessera::hlo::detail
