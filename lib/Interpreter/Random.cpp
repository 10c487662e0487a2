//===- Random.cpp - rng-bit-generator; vendor custom calls ----------------===//
//
// HLO leaves the bits of `rng-bit-generator` with `algorithm=rng_default`
// to the implementation; Tessera defines them as Philox4x32-10 (Salmon et
// al., "Parallel random numbers: as easy as 1, 2, 3", SC'11): key = state[0],
// 128-bit counter = (state[1], block index), four 32-bit words per block,
// consumed in row-major element order (a 64-bit element takes two words,
// low first). The new state is (state[0], state[1] + 1), so a chain of
// generators gives fresh bits. rng_philox and rng_three_fry name XLA's own
// bit layouts, which the interpreter does not reproduce: they are refused.
//
// Neuron's GELU custom calls are defined here too: they are the only vendor
// calls in the corpus whose meaning is known (PyTorch's exact GELU and its
// derivative).
//
//===----------------------------------------------------------------------===//

#include "Value.h"

#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cmath>

namespace tessera::interp {
namespace tg = tessera::tgraph;

namespace {

using Block = std::array<uint32_t, 4>;

Block philox(Block c, uint32_t k0, uint32_t k1) {
  for (int round = 0; round < 10; ++round) {
    uint64_t p0 = uint64_t(0xD2511F53u) * c[0];
    uint64_t p1 = uint64_t(0xCD9E8D57u) * c[2];
    c = {uint32_t(p1 >> 32) ^ c[1] ^ k0, uint32_t(p1),
         uint32_t(p0 >> 32) ^ c[3] ^ k1, uint32_t(p0)};
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return c;
}

} // namespace

llvm::Expected<Value> rngBitGenerator(tg::UnknownOp op,
                                      llvm::ArrayRef<Value> operands,
                                      const Options &options) {
  std::string algorithm = "rng_default";
  if (mlir::DictionaryAttr attrs = op.getHloAttributesAttr())
    if (auto a = attrs.getAs<mlir::StringAttr>("algorithm"))
      algorithm = a.getValue().str();
  if (algorithm != "rng_default")
    return opError(op, "rng-bit-generator algorithm '" + algorithm +
                           "' is XLA's bit layout, which the interpreter "
                           "does not reproduce (only rng_default is defined)");
  auto tuple = mlir::dyn_cast<mlir::TupleType>(op.getType());
  if (operands.size() != 1 || !operands[0].isTensor() || !tuple ||
      tuple.size() != 2)
    return opError(op, "expects one state operand and a (state, bits) "
                       "result");
  const Tensor &state = operands[0].t();
  if (state.isFloat() || state.size() < 2)
    return opError(op, "the state must hold at least two integers");
  llvm::Expected<DType> bitsType = dtypeOfTensor(op, tuple.getType(1));
  if (!bitsType)
    return bitsType.takeError();
  auto shape = mlir::cast<mlir::RankedTensorType>(tuple.getType(1)).getShape();
  std::optional<int64_t> n = checkedNumElements(shape);
  if (!n || *n > options.maxElements)
    return opError(op, "the result is larger than the interpreter's limit");
  if (isFloat(*bitsType))
    return opError(op, "bits of a float type");
  Tensor bits(*bitsType, shape);
  uint64_t key = uint64_t(state.i[0]), counter = uint64_t(state.i[1]);
  int words = dtypeBytes(*bitsType) > 4 ? 2 : 1;
  uint64_t block = 0;
  Block out{};
  int used = 4;
  auto word = [&]() -> uint32_t {
    if (used == 4) {
      out = philox({uint32_t(counter), uint32_t(counter >> 32),
                    uint32_t(block), uint32_t(block >> 32)},
                   uint32_t(key), uint32_t(key >> 32));
      ++block;
      used = 0;
    }
    return out[used++];
  };
  for (int64_t k = 0; k < *n; ++k) {
    uint64_t v = word();
    if (words == 2)
      v |= uint64_t(word()) << 32;
    bits.i[k] = wrapInt(*bitsType, int64_t(v));
  }
  Tensor next = state;
  next.i[1] = wrapInt(state.dtype, int64_t(counter + 1));
  Value result;
  result.tuple = {Value::of(std::move(next)), Value::of(std::move(bits))};
  return result;
}

llvm::Expected<Value> neuronGelu(tg::CustomCallOp op,
                                 llvm::ArrayRef<Value> operands,
                                 const Options &options) {
  bool backward = op.getCallTargetName() == "AwsNeuronGeluBackward";
  if (!backward && op.getCallTargetName() != "AwsNeuronGelu")
    return opError(op, "custom call target '" + op.getCallTargetName() +
                           "' has no defined semantics");
  if (operands.size() != 1 || !operands[0].isTensor() ||
      !operands[0].t().isFloat() ||
      op->getResult(0).getType() != op.getInputs()[0].getType())
    return opError(op, "expects one float operand and a result of its type");
  // PyTorch's default GELU (approximate='none'), which torch_xla's
  // GeluForwardImpl lowers to this call: x * Phi(x).
  Tensor out = operands[0].t();
  for (double &x : out.f) {
    double cdf = 0.5 * (1.0 + std::erf(x * M_SQRT1_2));
    x = backward ? cdf + x * std::exp(-0.5 * x * x) * 0.5 * M_2_SQRTPI *
                             M_SQRT1_2
                 : x * cdf;
  }
  normalize(out, options);
  return Value::of(std::move(out));
}

} // namespace tessera::interp
