//===- Interpreter.cpp - Environments, calls, control flow, tuples --------===//
//
// The evaluator walks a function's block in order, binding each op's result
// value; calls, fusions, while loops and conditionals evaluate the callee's
// block recursively. Op families that compute (elementwise, data movement,
// contractions, region ops) live in their own files.
//
//===----------------------------------------------------------------------===//

#include "Value.h"

#include "tessera/Dialect/TGraph/IR/CollectiveGroups.h"
#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <Eigen/Core>

#include <cmath>
#include <random>

using namespace mlir;
namespace tg = tessera::tgraph;

namespace tessera::interp {

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

Tensor::Tensor(DType dtype, llvm::ArrayRef<int64_t> shape)
    : dtype(dtype), shape(shape.begin(), shape.end()) {
  int64_t n = size();
  if (isFloat())
    f.assign(n, 0.0);
  else
    i.assign(n, 0);
}

int64_t Tensor::size() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

llvm::SmallVector<int64_t, 4> stridesOf(llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t, 4> strides(shape.size(), 1);
  for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

namespace {
/// The float of `dtype` next to `x` (a value of that type) in the direction
/// of `toward`.
double nextInType(DType dtype, double x, double toward) {
  if (dtype == DType::F32)
    return double(std::nextafter(static_cast<float>(x),
                                 static_cast<float>(toward)));
  auto step = [&](auto h) {
    using H = decltype(h);
    uint16_t bits = Eigen::numext::bit_cast<uint16_t>(H(static_cast<float>(x)));
    bool up = toward > x;
    if (x == 0)
      bits = up ? 1 : 0x8001;
    else if (up == (x > 0))
      ++bits; // away from zero
    else
      --bits;
    return double(static_cast<float>(Eigen::numext::bit_cast<H>(bits)));
  };
  return dtype == DType::F16 ? step(Eigen::half()) : step(Eigen::bfloat16());
}
} // namespace

double roundFloat(DType dtype, double v, const Options &options) {
  double nearest;
  switch (dtype) {
  case DType::F16:
    nearest = double(static_cast<float>(Eigen::half(static_cast<float>(v))));
    break;
  case DType::BF16:
    nearest =
        double(static_cast<float>(Eigen::bfloat16(static_cast<float>(v))));
    break;
  case DType::F32:
    if (options.computeInF64)
      return v;
    nearest = double(static_cast<float>(v));
    break;
  default:
    return v;
  }
  if (!options.stochasticRounding || nearest == v || !std::isfinite(nearest))
    return nearest;
  // Stochastic rounding: the neighbour above or below, with probability by
  // distance, so the result is unbiased and within one ulp.
  double other = nextInType(dtype, nearest, v);
  double lo = std::min(nearest, other), hi = std::max(nearest, other);
  if (!std::isfinite(lo) || !std::isfinite(hi))
    return nearest;
  double u = std::uniform_real_distribution<double>(0, 1)(
      *options.stochasticRounding);
  return u < (v - lo) / (hi - lo) ? hi : lo;
}

int64_t wrapInt(DType dtype, int64_t v) {
  switch (dtype) {
  case DType::Pred:
    return v != 0;
  case DType::S8:
    return int8_t(v);
  case DType::S16:
    return int16_t(v);
  case DType::S32:
    return int32_t(v);
  case DType::U8:
    return uint8_t(v);
  case DType::U16:
    return uint16_t(v);
  case DType::U32:
    return uint32_t(v);
  default:
    return v;
  }
}

void normalize(Tensor &t, const Options &options) {
  if (t.isFloat()) {
    if (t.dtype == DType::F64 ||
        (t.dtype == DType::F32 && options.computeInF64))
      return;
    for (double &v : t.f)
      v = roundFloat(t.dtype, v, options);
    return;
  }
  if (t.dtype == DType::S64 || t.dtype == DType::U64)
    return;
  for (int64_t &v : t.i)
    v = wrapInt(t.dtype, v);
}

std::optional<DType> dtypeOf(Type type) {
  if (type.isF16())
    return DType::F16;
  if (type.isBF16())
    return DType::BF16;
  if (type.isF32())
    return DType::F32;
  if (type.isF64())
    return DType::F64;
  auto it = dyn_cast<IntegerType>(type);
  if (!it)
    return std::nullopt;
  bool u = it.isUnsigned();
  switch (it.getWidth()) {
  case 1:
    return DType::Pred;
  case 8:
    return u ? DType::U8 : DType::S8;
  case 16:
    return u ? DType::U16 : DType::S16;
  case 32:
    return u ? DType::U32 : DType::S32;
  case 64:
    return u ? DType::U64 : DType::S64;
  default:
    return std::nullopt;
  }
}

/// "file:line:col", else the op's name (a NameLoc or its symbol), as
/// diagnostics name places.
static std::string placeOf(Operation *op) {
  std::string out;
  op->getLoc()->walk([&](Location l) {
    if (auto file = dyn_cast<FileLineColLoc>(l)) {
      out = (file.getFilename().getValue() + ":" + llvm::Twine(file.getLine()) +
             ":" + llvm::Twine(file.getColumn()))
                .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (!out.empty())
    return out;
  if (auto name = dyn_cast<NameLoc>(op->getLoc()))
    return name.getName().str();
  if (auto sym = op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
    return sym.str();
  return "(unknown location)";
}

llvm::Error opError(Operation *op, const llvm::Twine &message) {
  std::string loc = placeOf(op);
  return llvm::createStringError(loc + ": '" +
                                 op->getName().getStringRef() +
                                 "': " + message);
}

llvm::Expected<DType> dtypeOfTensor(Operation *op, Type type) {
  auto t = dyn_cast<RankedTensorType>(type);
  if (!t || !t.hasStaticShape())
    return opError(op, "cannot interpret a value of type " +
                           llvm::Twine(([&] {
                             std::string s;
                             llvm::raw_string_ostream os(s);
                             type.print(os);
                             return s;
                           })()));
  std::optional<DType> d = dtypeOf(t.getElementType());
  if (!d)
    return opError(op, "element type is not one the interpreter models");
  return *d;
}

Tensor fromHost(const HostTensor &h) {
  Tensor t(h.dtype, h.shape);
  int64_t n = t.size();
  if (t.isFloat())
    for (int64_t k = 0; k < n; ++k)
      t.f[k] = h.getDouble(k);
  else
    for (int64_t k = 0; k < n; ++k)
      t.i[k] = h.getInt(k);
  return t;
}

HostTensor toHost(const Tensor &t, const Options &options) {
  DType dtype = t.dtype == DType::F32 && options.computeInF64 ? DType::F64
                                                               : t.dtype;
  HostTensor h(dtype, t.shape);
  int64_t n = t.size();
  if (t.isFloat())
    for (int64_t k = 0; k < n; ++k)
      h.setDouble(k, t.f[k]);
  else
    for (int64_t k = 0; k < n; ++k)
      h.setInt(k, t.i[k]);
  return h;
}

//===----------------------------------------------------------------------===//
// Leaves
//===----------------------------------------------------------------------===//

namespace {

void flattenValue(const Value &v, std::vector<const Tensor *> &out) {
  if (v.isTensor()) {
    out.push_back(v.tensor.get());
    return;
  }
  for (const Value &e : v.tuple)
    flattenValue(e, out);
}

/// Builds a value of `type` from leaves, consuming them from `next`.
llvm::Expected<Value> unflatten(Operation *where, Type type,
                                llvm::ArrayRef<HostTensor> leaves,
                                size_t &next) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    Value v;
    for (Type e : tuple.getTypes()) {
      llvm::Expected<Value> ev = unflatten(where, e, leaves, next);
      if (!ev)
        return ev.takeError();
      v.tuple.push_back(std::move(*ev));
    }
    return v;
  }
  if (isa<tg::TokenType>(type))
    return Value();
  llvm::Expected<DType> d = dtypeOfTensor(where, type);
  if (!d)
    return d.takeError();
  if (next >= leaves.size())
    return opError(where, "too few values: expected at least " +
                              llvm::Twine(next + 1));
  const HostTensor &h = leaves[next++];
  auto t = cast<RankedTensorType>(type);
  if (h.dtype != *d || llvm::ArrayRef<int64_t>(h.shape) != t.getShape()) {
    HostTensor expect(*d, {});
    expect.shape.assign(t.getShape().begin(), t.getShape().end());
    return opError(where, "value " + llvm::Twine(next - 1) + " is " +
                              h.typeString() + ", expected " +
                              expect.typeString());
  }
  return Value::of(fromHost(h));
}

std::vector<HostTensor> leavesOf(llvm::ArrayRef<Value> values,
                                 const Options &options) {
  std::vector<const Tensor *> flat;
  for (const Value &v : values)
    flattenValue(v, flat);
  std::vector<HostTensor> out;
  out.reserve(flat.size());
  for (const Tensor *t : flat)
    out.push_back(toHost(*t, options));
  return out;
}

llvm::Expected<Tensor> constantTensor(tg::ConstantOp op, DType dtype,
                                      const Options &options) {
  if (op.getElided() || !op.getValue()) {
    if (!options.elidedConstant)
      return opError(op, "the constant is elided in the source "
                         "(constant({...})) and no data was given for it");
    llvm::Expected<HostTensor> h = options.elidedConstant(op);
    if (!h)
      return h.takeError();
    return fromHost(*h);
  }
  auto dense = dyn_cast<DenseElementsAttr>(*op.getValue());
  if (!dense)
    return opError(op, "the constant's value is not a dense literal");
  Tensor t(dtype, dense.getType().getShape());
  int64_t k = 0;
  if (t.isFloat()) {
    for (const llvm::APFloat &v : dense.getValues<llvm::APFloat>())
      t.f[k++] = v.convertToDouble();
  } else {
    bool isUnsigned = dtype == DType::Pred || !isSigned(dtype);
    for (const llvm::APInt &v : dense.getValues<llvm::APInt>())
      t.i[k++] = isUnsigned ? int64_t(v.getZExtValue()) : v.getSExtValue();
  }
  normalize(t, options);
  return t;
}

} // namespace

//===----------------------------------------------------------------------===//
// The evaluator
//===----------------------------------------------------------------------===//

llvm::Expected<Tensor> Interpreter::makeResult(Operation *op, Type type) {
  llvm::Expected<DType> d = dtypeOfTensor(op, type);
  if (!d)
    return d.takeError();
  auto t = cast<RankedTensorType>(type);
  std::optional<int64_t> n = checkedNumElements(t.getShape());
  if (!n || *n > options.maxElements)
    return opError(op, "the result has more than " +
                           llvm::Twine(options.maxElements) +
                           " elements, the interpreter's limit");
  return Tensor(*d, t.getShape());
}

llvm::Expected<std::vector<Value>>
Interpreter::evalBlock(Block &block, llvm::ArrayRef<Value> args) {
  if (block.getNumArguments() != args.size())
    return opError(block.getParentOp(),
                   "called with " + llvm::Twine(args.size()) +
                       " values, its block takes " +
                       llvm::Twine(block.getNumArguments()));
  llvm::DenseMap<mlir::Value, Value> env;
  for (auto [arg, v] : llvm::zip(block.getArguments(), args))
    env[arg] = v;
  auto lookup = [&](mlir::Value v) -> const Value & { return env[v]; };
  // Each value of this block dies at the op that uses it last (a use in an
  // op's regions counts as the op's): dropping it there bounds the memory
  // to the live values, as a real allocator does (bert's backward holds
  // tens of activations at once, not hundreds).
  llvm::DenseMap<mlir::Value, Operation *> lastUse;
  for (Operation &op : block)
    op.walk([&](Operation *inner) {
      for (mlir::Value v : inner->getOperands())
        if (v.getParentBlock() == &block)
          lastUse[v] = &op;
    });
  llvm::DenseMap<Operation *, llvm::SmallVector<mlir::Value, 4>> dying;
  for (auto [v, op] : lastUse)
    dying[op].push_back(v);
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      std::vector<Value> out;
      for (mlir::Value v : op.getOperands())
        out.push_back(lookup(v));
      return out;
    }
    llvm::SmallVector<Value, 4> operands;
    for (mlir::Value v : op.getOperands())
      operands.push_back(lookup(v));
    llvm::Expected<Value> result = evalOp(&op, operands);
    if (!result)
      return result.takeError();
    if (op.getNumResults() > 1)
      return opError(&op, "has more than one result");
    if (op.getNumResults() == 1 && !op.getResult(0).use_empty())
      env[op.getResult(0)] = std::move(*result);
    auto it = dying.find(&op);
    if (it != dying.end())
      for (mlir::Value v : it->second)
        env.erase(v);
  }
  return opError(block.getParentOp(), "block has no terminator");
}

llvm::Expected<std::vector<Value>>
Interpreter::call(Operation *caller, llvm::StringRef callee,
                  llvm::ArrayRef<Value> args) {
  auto fn = dyn_cast_or_null<func::FuncOp>(
      SymbolTable::lookupNearestSymbolFrom(
          scope, StringAttr::get(caller->getContext(), callee)));
  if (!fn || fn.isExternal())
    return opError(caller, "calls @" + callee + ", which has no body");
  // Recursion is not HLO, but a malformed module must not overflow the
  // stack.
  if (callDepth > 256)
    return opError(caller, "calls nest deeper than 256");
  ++callDepth;
  auto out = evalBlock(fn.getBody().front(), args);
  --callDepth;
  return out;
}

namespace {

/// The single value a call returns (several results become a tuple).
Value single(std::vector<Value> values) {
  if (values.size() == 1)
    return std::move(values.front());
  Value v;
  v.tuple = std::move(values);
  return v;
}

bool isTrue(const Value &v) {
  return v.isTensor() && v.t().size() == 1 && v.t().getF(0) != 0;
}

} // namespace

llvm::Expected<Value> Interpreter::evalOp(Operation *op,
                                          llvm::ArrayRef<Value> operands) {
  auto tensorResult = [&]() { return makeResult(op, op->getResult(0).getType()); };

  if (auto c = dyn_cast<tg::ConstantOp>(op)) {
    llvm::Expected<DType> d = dtypeOfTensor(op, c.getType());
    if (!d)
      return d.takeError();
    llvm::Expected<Tensor> t = constantTensor(c, *d, options);
    if (!t)
      return t.takeError();
    auto type = cast<RankedTensorType>(c.getType());
    if (t->dtype != *d || llvm::ArrayRef<int64_t>(t->shape) != type.getShape())
      return opError(op, "the constant's data does not have its type");
    return Value::of(std::move(*t));
  }
  if (auto iota = dyn_cast<tg::IotaOp>(op)) {
    llvm::Expected<Tensor> t = tensorResult();
    if (!t)
      return t.takeError();
    int64_t dim = iota.getIotaDimension();
    llvm::SmallVector<int64_t, 4> strides = stridesOf(t->shape);
    for (int64_t k = 0, n = t->size(); k < n; ++k) {
      int64_t index = (k / strides[dim]) % t->shape[dim];
      if (t->isFloat())
        t->f[k] = double(index);
      else
        t->i[k] = index;
    }
    normalize(*t, options);
    return Value::of(std::move(*t));
  }
  if (auto rng = dyn_cast<tg::RngOp>(op)) {
    llvm::Expected<Tensor> t = tensorResult();
    if (!t)
      return t.takeError();
    if (!t->isFloat())
      return opError(op, "rng of integers is not modelled");
    int64_t call = rngCalls[op]++;
    auto id = op->getAttrOfType<IntegerAttr>("tile.op_id");
    std::seed_seq seq{uint32_t(options.seed), uint32_t(options.seed >> 32),
                      uint32_t(id ? id.getInt() : 0), uint32_t(call)};
    std::mt19937_64 gen(seq);
    double a = operands[0].t().getF(0), b = operands[1].t().getF(0);
    bool uniform = rng.getDistribution() == tg::RngDistribution::UNIFORM;
    std::uniform_real_distribution<double> u(a, b);
    std::normal_distribution<double> g(a, b);
    for (double &v : t->f)
      v = uniform ? u(gen) : g(gen);
    normalize(*t, options);
    return Value::of(std::move(*t));
  }
  if (auto tuple = dyn_cast<tg::TupleOp>(op)) {
    Value v;
    v.tuple.assign(operands.begin(), operands.end());
    return v;
  }
  if (auto gte = dyn_cast<tg::GetTupleElementOp>(op)) {
    const Value &t = operands[0];
    uint64_t index = gte.getIndex();
    if (t.isTensor() || index >= t.tuple.size())
      return opError(op, "tuple index out of range");
    return t.tuple[index];
  }
  if (auto c = dyn_cast<tg::CallOp>(op)) {
    auto r = call(op, c.getCallee(), operands);
    if (!r)
      return r.takeError();
    return single(std::move(*r));
  }
  if (auto f = dyn_cast<tg::FusionOp>(op)) {
    auto r = call(op, f.getCallee(), operands);
    if (!r)
      return r.takeError();
    return single(std::move(*r));
  }
  if (auto w = dyn_cast<tg::WhileOp>(op)) {
    Value state = operands[0];
    for (int64_t it = 0;; ++it) {
      if (it >= options.maxWhileIterations)
        return opError(op, "ran " + llvm::Twine(it) +
                               " iterations without its condition failing");
      auto c = call(op, w.getCondition(), {state});
      if (!c)
        return c.takeError();
      if (c->size() != 1 || !c->front().isTensor())
        return opError(op, "the condition does not return one predicate");
      if (!isTrue(c->front()))
        return state;
      auto next = call(op, w.getBody(), {state});
      if (!next)
        return next.takeError();
      state = single(std::move(*next));
    }
  }
  if (auto cond = dyn_cast<tg::ConditionalOp>(op)) {
    const Tensor &index = operands[0].t();
    int64_t n = cond.getBranches().size();
    int64_t branch;
    if (index.dtype == DType::Pred)
      branch = index.i[0] ? 0 : 1;
    else
      branch = index.getI(0) < 0 || index.getI(0) >= n ? n - 1 : index.getI(0);
    // Branch i takes operand i (HLO passes one operand per branch).
    int64_t perBranch = (int64_t(operands.size()) - 1) / std::max<int64_t>(n, 1);
    llvm::ArrayRef<Value> args =
        operands.drop_front(1 + branch * perBranch).take_front(perBranch);
    auto callee = cast<FlatSymbolRefAttr>(cond.getBranches()[branch]);
    auto r = call(op, callee.getValue(), args);
    if (!r)
      return r.takeError();
    return single(std::move(*r));
  }
  if (isa<tg::AfterAllOp>(op))
    return Value();
  if (auto infeed = dyn_cast<tg::InfeedOp>(op)) {
    // (data tuple, token): the data's leaves come from the infeed queue.
    auto type = cast<TupleType>(infeed.getType());
    std::vector<HostTensor> leaves;
    llvm::SmallVector<Type> flat;
    if (auto data = dyn_cast<TupleType>(type.getType(0)))
      data.getFlattenedTypes(flat);
    else
      flat.push_back(type.getType(0));
    for (Type leaf : flat) {
      if (isa<tg::TokenType>(leaf))
        continue;
      if (!options.infeed)
        return opError(op, "no data was given for the infeed");
      llvm::Expected<DType> d = dtypeOfTensor(op, leaf);
      if (!d)
        return d.takeError();
      llvm::Expected<HostTensor> h =
          options.infeed(op, *d, cast<RankedTensorType>(leaf).getShape());
      if (!h)
        return h.takeError();
      leaves.push_back(std::move(*h));
    }
    size_t next = 0;
    llvm::Expected<Value> data = unflatten(op, type.getType(0), leaves, next);
    if (!data)
      return data.takeError();
    Value v;
    v.tuple = {std::move(*data), Value()};
    return v;
  }
  if (isa<tg::OutfeedOp>(op)) {
    if (options.outfeed)
      for (HostTensor &h : leavesOf(operands.take_front(1), options))
        options.outfeed->push_back(std::move(h));
    return Value();
  }
  if (isa<tg::ReplicaIdOp, tg::PartitionIdOp>(op)) {
    llvm::Expected<Tensor> t = tensorResult(); // one replica: id 0
    if (!t)
      return t.takeError();
    if (t->size() == 1) {
      tgraph::DeviceCounts counts = tgraph::deviceCounts(op);
      int64_t id = isa<tg::ReplicaIdOp>(op)
                       ? options.device / counts.partitions
                       : options.device % counts.partitions;
      if (t->isFloat())
        t->f[0] = double(id);
      else
        t->i[0] = id;
    }
    return Value::of(std::move(*t));
  }
  if (isa<tg::AllGatherOp, tg::AllToAllOp, tg::CollectivePermuteOp>(op) &&
      options.rendezvous)
    return evalCollective(op, operands, *this);
  if (isa<tg::AllGatherOp, tg::AllToAllOp, tg::CollectivePermuteOp>(op)) {
    // One replica: gathering one shard, or a permutation that can only map
    // 0 to 0, leaves the value as it is; a pair not from 0 to 0 sends
    // nothing, and HLO fills what receives nothing with zeros.
    if (auto cp = dyn_cast<tg::CollectivePermuteOp>(op)) {
      llvm::ArrayRef<int64_t> pairs = cp.getSourceTargetPairs();
      bool self = false;
      for (size_t k = 0; k + 1 < pairs.size(); k += 2)
        self |= pairs[k] == 0 && pairs[k + 1] == 0;
      if (!self) {
        llvm::Expected<Tensor> t = tensorResult();
        if (!t)
          return t.takeError();
        return Value::of(std::move(*t));
      }
    }
    if (llvm::ArrayRef<int64_t>(operands[0].t().shape) !=
        llvm::ArrayRef(cast<RankedTensorType>(op->getResult(0).getType())
                           .getShape()))
      return opError(op, "changes the shape, which one replica cannot");
    return operands[0];
  }
  if (auto cc = dyn_cast<tg::CustomCallOp>(op)) {
    // A transfer between Neuron cores moves its one operand unchanged.
    if (cc.getCallTargetName() == "AwsNeuronTransferWithStaticRing" &&
        operands.size() == 1 && op->getResult(0).getType() ==
                                    cc.getInputs()[0].getType())
      return operands[0];
    if (cc.getCallTargetName().starts_with("AwsNeuronGelu"))
      return neuronGelu(cc, operands, options);
    return opError(op, "custom call target '" + cc.getCallTargetName() +
                           "' has no defined semantics");
  }
  if (auto u = dyn_cast<tg::UnknownOp>(op)) {
    if (u.getOpcode() == "rng-bit-generator")
      return rngBitGenerator(u, operands, options);
    return opError(op, "HLO opcode '" + u.getOpcode() +
                           "' has no defined semantics");
  }
  if (isa<tg::DotGeneralOp, tg::ConvolutionOp>(op))
    return evalContraction(op, operands, options);
  if (op->getNumRegions() > 0 ||
      isa<tg::BatchNormTrainingOp, tg::BatchNormInferenceOp,
          tg::BatchNormGradOp>(op))
    return evalRegionOp(op, operands, *this);
  if (op->hasTrait<OpTrait::Elementwise>() ||
      isa<tg::SelectOp, tg::ClampOp, tg::BitcastConvertOp,
          tg::ReducePrecisionOp>(op))
    return evalElementwise(op, operands, options);
  return evalShape(op, operands, *this);
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

llvm::Expected<std::vector<HostTensor>>
interpretFunction(func::FuncOp func, llvm::ArrayRef<HostTensor> args,
                  const Options &options) {
  if (func.isExternal())
    return opError(func, "has no body");
  std::vector<Value> values;
  size_t next = 0;
  for (BlockArgument arg : func.getArguments()) {
    llvm::Expected<Value> v = unflatten(func, arg.getType(), args, next);
    if (!v)
      return v.takeError();
    values.push_back(std::move(*v));
  }
  if (next != args.size())
    return opError(func, "given " + llvm::Twine(args.size()) +
                             " values, its arguments have " +
                             llvm::Twine(next) + " leaves");
  Interpreter interp(func->getParentOp() ? func->getParentOp()
                                         : func.getOperation(),
                     options);
  auto results = interp.evalBlock(func.getBody().front(), values);
  if (!results)
    return results.takeError();
  return leavesOf(*results, options);
}

llvm::Expected<std::vector<HostTensor>>
interpretOp(Operation *op, llvm::ArrayRef<HostTensor> operandLeaves,
            const Options &options) {
  std::vector<Value> values;
  size_t next = 0;
  for (mlir::Value operand : op->getOperands()) {
    llvm::Expected<Value> v =
        unflatten(op, operand.getType(), operandLeaves, next);
    if (!v)
      return v.takeError();
    values.push_back(std::move(*v));
  }
  if (next != operandLeaves.size())
    return opError(op, "given " + llvm::Twine(operandLeaves.size()) +
                           " values, its operands have " + llvm::Twine(next) +
                           " leaves");
  Operation *scope = SymbolTable::getNearestSymbolTable(op);
  Interpreter interp(scope ? scope : op, options);
  llvm::Expected<Value> result = interp.evalOp(op, values);
  if (!result)
    return result.takeError();
  return leavesOf({*result}, options);
}

} // namespace tessera::interp
