//===- Regions.cpp - Ops with reducer and comparator regions --------------===//
//
// reduce, reduce_window, select_and_scatter, scatter and sort apply their
// region to scalars. A region that is one binary elementwise op of its two
// arguments (add, maximum, ...) is applied directly; any other region is
// evaluated as a block on rank-0 tensors, which is slow but always means
// what the region says. Batch norms and collectives live here too: over
// one replica as the identity, over several by meeting the other devices'
// evaluations (Rendezvous) and combining their values in group order.
//
//===----------------------------------------------------------------------===//

#include "Value.h"

#include "tessera/Dialect/TGraph/IR/CollectiveGroups.h"
#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace mlir;
namespace tg = tessera::tgraph;

namespace tessera::interp {
namespace {

/// One element of any type: floats in `f`, integers in `i`.
struct Scalar {
  double f = 0;
  int64_t i = 0;
};

Scalar load(const Tensor &t, int64_t k) {
  Scalar s;
  if (t.isFloat())
    s.f = t.f[k];
  else
    s.i = t.i[k];
  return s;
}
void store(Tensor &t, int64_t k, Scalar s) {
  if (t.isFloat())
    t.f[k] = s.f;
  else
    t.i[k] = s.i;
}

/// Applies a region to scalars: `numValues` accumulators and as many
/// elements, giving `numValues` new accumulators (or one predicate for a
/// comparator).
class RegionFn {
public:
  RegionFn(Operation *op, Region &region, Interpreter &interp)
      : op(op), block(region.front()), interp(interp) {
    for (BlockArgument a : block.getArguments()) {
      auto t = dyn_cast<RankedTensorType>(a.getType());
      std::optional<DType> d = t ? dtypeOf(t.getElementType()) : std::nullopt;
      argTypes.push_back(d.value_or(DType::F32));
    }
    // The fast path: `return op(arg0, arg1)` or `op(arg1, arg0)`.
    Operation *term = block.getTerminator();
    if (block.getNumArguments() == 2 && term->getNumOperands() == 1 &&
        std::next(block.begin()) == Block::iterator(term)) {
      Operation &only = block.front();
      if (only.getNumOperands() == 2 && only.getNumResults() == 1 &&
          term->getOperand(0) == only.getResult(0) &&
          isFastReducer(only.getName().stripDialect()) &&
          llvm::is_contained(block.getArguments(), only.getOperand(0)) &&
          llvm::is_contained(block.getArguments(), only.getOperand(1)) &&
          only.getOperand(0) != only.getOperand(1))
        fast = only.getName().stripDialect();
      if (auto cmp = dyn_cast<tg::CompareOp>(only))
        if (term->getOperand(0) == cmp.getResult() &&
            cmp.getLhs() == block.getArgument(0) &&
            cmp.getRhs() == block.getArgument(1) && !cmp.getCompareType()) {
          compareFast = true;
          direction = cmp.getComparisonDirection();
        }
    }
  }

  /// acc[k] = f(acc..., x...).
  llvm::Error combine(MutableArrayRef<Scalar> acc, ArrayRef<Scalar> x) {
    if (!fast.empty()) {
      DType d = argTypes[0];
      if (isFloat(d))
        acc[0].f = roundFloat(d, reduceFloat(fast, acc[0].f, x[0].f),
                              interp.options);
      else
        acc[0].i = reduceInt(fast, d, acc[0].i, x[0].i);
      return llvm::Error::success();
    }
    llvm::SmallVector<Scalar, 8> args(acc.begin(), acc.end());
    args.append(x.begin(), x.end());
    llvm::Expected<std::vector<Value>> r = callBlock(args);
    if (!r)
      return r.takeError();
    if (r->size() != acc.size())
      return opError(op, "the region returns " + llvm::Twine(r->size()) +
                             " values, expected " + llvm::Twine(acc.size()));
    for (size_t k = 0; k < acc.size(); ++k)
      acc[k] = load((*r)[k].t(), 0);
    return llvm::Error::success();
  }

  /// The comparator's verdict on interleaved (lhs_k, rhs_k) scalars.
  llvm::Expected<bool> compare(ArrayRef<Scalar> args) {
    if (compareFast) {
      bool f = isFloat(argTypes[0]);
      double a = f ? args[0].f : double(args[0].i),
             b = f ? args[1].f : double(args[1].i);
      if (!f && argTypes[0] == DType::U64) {
        uint64_t ua = uint64_t(args[0].i), ub = uint64_t(args[1].i);
        return direction == tg::ComparisonDirection::LT   ? ua < ub
               : direction == tg::ComparisonDirection::GT ? ua > ub
                                                          : slowCompare(args);
      }
      if (!f && (std::abs(args[0].i) > (int64_t(1) << 53) ||
                 std::abs(args[1].i) > (int64_t(1) << 53)))
        return slowCompare(args);
      switch (direction) {
      case tg::ComparisonDirection::LT:
        return a < b;
      case tg::ComparisonDirection::GT:
        return a > b;
      case tg::ComparisonDirection::LE:
        return a <= b;
      case tg::ComparisonDirection::GE:
        return a >= b;
      default:
        break;
      }
    }
    return slowCompare(args);
  }

private:
  llvm::Expected<bool> slowCompare(ArrayRef<Scalar> args) {
    llvm::Expected<std::vector<Value>> r = callBlock(args);
    if (!r)
      return r.takeError();
    if (r->size() != 1 || !r->front().isTensor())
      return opError(op, "the comparator does not return one predicate");
    return r->front().t().getI(0) != 0;
  }

  llvm::Expected<std::vector<Value>> callBlock(ArrayRef<Scalar> args) {
    if (args.size() != argTypes.size())
      return opError(op, "the region takes " +
                             llvm::Twine(argTypes.size()) + " values, given " +
                             llvm::Twine(args.size()));
    std::vector<Value> values;
    for (size_t k = 0; k < args.size(); ++k) {
      Tensor t(argTypes[k], {});
      store(t, 0, args[k]);
      values.push_back(Value::of(std::move(t)));
    }
    return interp.evalBlock(block, values);
  }

  Operation *op;
  Block &block;
  Interpreter &interp;
  llvm::SmallVector<DType> argTypes;
  StringRef fast;
  bool compareFast = false;
  tg::ComparisonDirection direction = tg::ComparisonDirection::LT;
};

/// The value of `op`: one tensor, or a tuple of several.
Value resultOf(std::vector<Tensor> &tensors) {
  if (tensors.size() == 1)
    return Value::of(std::move(tensors.front()));
  Value v;
  for (Tensor &t : tensors)
    v.tuple.push_back(Value::of(std::move(t)));
  return v;
}

/// Result tensors for each leaf of `op`'s result type.
llvm::Expected<std::vector<Tensor>> makeResults(Operation *op,
                                                Interpreter &interp) {
  Type type = op->getResult(0).getType();
  llvm::SmallVector<Type> leaves;
  if (auto tuple = dyn_cast<TupleType>(type))
    tuple.getFlattenedTypes(leaves);
  else
    leaves.push_back(type);
  std::vector<Tensor> out;
  for (Type t : leaves) {
    llvm::Expected<Tensor> r = interp.makeResult(op, t);
    if (!r)
      return r.takeError();
    out.push_back(std::move(*r));
  }
  return out;
}

llvm::Expected<Value> reduce(tg::ReduceOp op, ArrayRef<Value> operands,
                             Interpreter &interp) {
  size_t n = op.getInputs().size();
  auto outs = makeResults(op, interp);
  if (!outs)
    return outs.takeError();
  const Tensor &x0 = operands[0].t();
  ArrayRef<int64_t> dims = op.getDimensions();
  Index keptDims, reducedDims, reducedShape;
  for (int64_t d = 0; d < x0.rank(); ++d) {
    if (llvm::is_contained(dims, d)) {
      reducedDims.push_back(d);
      reducedShape.push_back(x0.shape[d]);
    } else {
      keptDims.push_back(d);
    }
  }
  auto xs = stridesOf(x0.shape);
  std::vector<int64_t> reducedOffsets;
  forEachIndex(reducedShape, [&](ArrayRef<int64_t> r, int64_t) {
    int64_t off = 0;
    for (size_t j = 0; j < r.size(); ++j)
      off += r[j] * xs[reducedDims[j]];
    reducedOffsets.push_back(off);
  });
  RegionFn fn(op, op.getBody(), interp);
  llvm::SmallVector<Scalar, 4> acc(n), x(n);
  llvm::Error err = llvm::Error::success();
  forEachIndex((*outs)[0].shape, [&](ArrayRef<int64_t> r, int64_t k) {
    if (err)
      return;
    int64_t base = 0;
    for (size_t j = 0; j < r.size(); ++j)
      base += r[j] * xs[keptDims[j]];
    for (size_t v = 0; v < n; ++v)
      acc[v] = load(operands[n + v].t(), 0);
    for (int64_t off : reducedOffsets) {
      for (size_t v = 0; v < n; ++v)
        x[v] = load(operands[v].t(), base + off);
      if ((err = fn.combine(acc, x)))
        return;
    }
    for (size_t v = 0; v < n; ++v)
      store((*outs)[v], k, acc[v]);
  });
  if (err)
    return std::move(err);
  for (Tensor &t : *outs)
    normalize(t, interp.options);
  return resultOf(*outs);
}

int64_t attrAt(std::optional<ArrayRef<int64_t>> a, size_t k, int64_t dflt) {
  return a && k < a->size() ? (*a)[k] : dflt;
}

llvm::Expected<Value> reduceWindow(tg::ReduceWindowOp op,
                                   ArrayRef<Value> operands,
                                   Interpreter &interp) {
  size_t n = op.getInputs().size();
  auto outs = makeResults(op, interp);
  if (!outs)
    return outs.takeError();
  const Tensor &x0 = operands[0].t();
  auto xs = stridesOf(x0.shape);
  ArrayRef<int64_t> window = op.getWindowDimensions();
  auto strides = op.getWindowStrides(), baseDil = op.getBaseDilations(),
       winDil = op.getWindowDilations(), padding = op.getPadding();
  RegionFn fn(op, op.getBody(), interp);
  llvm::SmallVector<Scalar, 4> acc(n), x(n);
  llvm::Error err = llvm::Error::success();
  forEachIndex((*outs)[0].shape, [&](ArrayRef<int64_t> r, int64_t k) {
    if (err)
      return;
    for (size_t v = 0; v < n; ++v)
      acc[v] = load(operands[n + v].t(), 0);
    forEachIndex(window, [&](ArrayRef<int64_t> w, int64_t) {
      if (err)
        return;
      int64_t src = 0;
      for (int64_t d = 0; d < x0.rank(); ++d) {
        int64_t pos = r[d] * attrAt(strides, d, 1) +
                      w[d] * attrAt(winDil, d, 1) -
                      attrAt(padding, 2 * d, 0);
        int64_t base = attrAt(baseDil, d, 1);
        if (pos < 0 || pos % base || pos / base >= x0.shape[d])
          return; // padding: the init value, which changes nothing
        src += (pos / base) * xs[d];
      }
      for (size_t v = 0; v < n; ++v)
        x[v] = load(operands[v].t(), src);
      err = fn.combine(acc, x);
    });
    for (size_t v = 0; v < n; ++v)
      store((*outs)[v], k, acc[v]);
  });
  if (err)
    return std::move(err);
  for (Tensor &t : *outs)
    normalize(t, interp.options);
  return resultOf(*outs);
}

llvm::Expected<Value> selectAndScatter(tg::SelectAndScatterOp op,
                                       ArrayRef<Value> operands,
                                       Interpreter &interp) {
  auto outs = makeResults(op, interp);
  if (!outs)
    return outs.takeError();
  Tensor &out = (*outs)[0];
  const Tensor &x = operands[0].t(), &source = operands[1].t();
  Scalar init = load(operands[2].t(), 0);
  for (int64_t k = 0; k < out.size(); ++k)
    store(out, k, init);
  auto xs = stridesOf(x.shape);
  Index window(x.rank(), 1);
  if (auto w = op.getWindowDimensions())
    window.assign(w->begin(), w->end());
  auto strides = op.getWindowStrides(), padding = op.getPadding();
  RegionFn select(op, op.getSelect(), interp),
      scatter(op, op.getScatter(), interp);
  llvm::Error err = llvm::Error::success();
  forEachIndex(source.shape, [&](ArrayRef<int64_t> r, int64_t k) {
    if (err)
      return;
    int64_t chosen = -1;
    Scalar best;
    forEachIndex(window, [&](ArrayRef<int64_t> w, int64_t) {
      if (err)
        return;
      int64_t src = 0;
      for (int64_t d = 0; d < x.rank(); ++d) {
        int64_t pos = r[d] * attrAt(strides, d, 1) + w[d] -
                      attrAt(padding, 2 * d, 0);
        if (pos < 0 || pos >= x.shape[d])
          return;
        src += pos * xs[d];
      }
      Scalar e = load(x, src);
      if (chosen < 0) {
        chosen = src;
        best = e;
        return;
      }
      llvm::Expected<bool> keep = select.compare({best, e});
      if (!keep) {
        err = keep.takeError();
        return;
      }
      if (!*keep) {
        chosen = src;
        best = e;
      }
    });
    if (err || chosen < 0)
      return;
    Scalar acc = load(out, chosen);
    if ((err = scatter.combine(acc, {load(source, k)})))
      return;
    store(out, chosen, acc);
  });
  if (err)
    return std::move(err);
  normalize(out, interp.options);
  return Value::of(std::move(out));
}

llvm::Expected<Value> scatter(tg::ScatterOp op, ArrayRef<Value> operands,
                              Interpreter &interp) {
  size_t n = op.getInputs().size();
  auto outs = makeResults(op, interp);
  if (!outs)
    return outs.takeError();
  for (size_t v = 0; v < n; ++v) {
    (*outs)[v].f = operands[v].t().f;
    (*outs)[v].i = operands[v].t().i;
  }
  const Tensor &x = operands[0].t(), &idx = operands[n].t();
  const Tensor &u0 = operands[n + 1].t();
  auto xs = stridesOf(x.shape), is = stridesOf(idx.shape);
  ArrayRef<int64_t> windowDims = op.getUpdateWindowDims(),
                    inserted = op.getInsertedWindowDims(),
                    toOperand = op.getScatterDimsToOperandDims();
  int64_t ivd = op.getIndexVectorDim();
  Index operandWindowDims; // operand dims the update window dims run over
  for (int64_t d = 0; d < x.rank(); ++d)
    if (!llvm::is_contained(inserted, d))
      operandWindowDims.push_back(d);
  Index scatterDims;
  for (int64_t d = 0; d < u0.rank(); ++d)
    if (!llvm::is_contained(windowDims, d))
      scatterDims.push_back(d);
  Index windowSize(x.rank(), 1);
  for (size_t j = 0; j < windowDims.size() && j < operandWindowDims.size(); ++j)
    windowSize[operandWindowDims[j]] = u0.shape[windowDims[j]];
  RegionFn fn(op, op.getUpdateComputation(), interp);
  llvm::SmallVector<Scalar, 4> acc(n), x1(n);
  llvm::Error err = llvm::Error::success();
  forEachIndex(u0.shape, [&](ArrayRef<int64_t> r, int64_t k) {
    if (err)
      return;
    Index at;
    for (int64_t d : scatterDims)
      at.push_back(r[d]);
    Index start(x.rank(), 0);
    for (size_t j = 0; j < toOperand.size(); ++j) {
      Index pos = at;
      if (ivd < idx.rank())
        pos.insert(pos.begin() + ivd, int64_t(j));
      start[toOperand[j]] = idx.getI(linear(pos, is));
    }
    // A window that does not fit in the operand is skipped whole.
    for (int64_t d = 0; d < x.rank(); ++d)
      if (start[d] < 0 || start[d] + windowSize[d] > x.shape[d])
        return;
    int64_t dst = 0;
    for (int64_t d = 0; d < x.rank(); ++d)
      dst += start[d] * xs[d];
    for (size_t j = 0; j < windowDims.size(); ++j)
      dst += r[windowDims[j]] * xs[operandWindowDims[j]];
    for (size_t v = 0; v < n; ++v) {
      acc[v] = load((*outs)[v], dst);
      x1[v] = load(operands[n + 1 + v].t(), k);
    }
    if ((err = fn.combine(acc, x1)))
      return;
    for (size_t v = 0; v < n; ++v)
      store((*outs)[v], dst, acc[v]);
  });
  if (err)
    return std::move(err);
  for (Tensor &t : *outs)
    normalize(t, interp.options);
  return resultOf(*outs);
}

llvm::Expected<Value> sort(tg::SortOp op, ArrayRef<Value> operands,
                           Interpreter &interp) {
  size_t n = operands.size();
  auto outs = makeResults(op, interp);
  if (!outs)
    return outs.takeError();
  const Tensor &x0 = operands[0].t();
  int64_t dim = op.getDimension();
  auto xs = stridesOf(x0.shape);
  Index outer = Index(x0.shape.begin(), x0.shape.end());
  int64_t len = x0.shape[dim];
  outer[dim] = 1;
  RegionFn fn(op, op.getComparator(), interp);
  llvm::Error err = llvm::Error::success();
  std::vector<int64_t> order(len);
  llvm::SmallVector<Scalar, 8> args(2 * n);
  forEachIndex(outer, [&](ArrayRef<int64_t> r, int64_t) {
    if (err)
      return;
    int64_t base = linear(r, xs);
    std::iota(order.begin(), order.end(), 0);
    // A stable sort is a valid result whether or not `is_stable` is set.
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      if (err)
        return false;
      for (size_t v = 0; v < n; ++v) {
        args[2 * v] = load(operands[v].t(), base + a * xs[dim]);
        args[2 * v + 1] = load(operands[v].t(), base + b * xs[dim]);
      }
      llvm::Expected<bool> less = fn.compare(args);
      if (!less) {
        err = less.takeError();
        return false;
      }
      return *less;
    });
    for (size_t v = 0; v < n; ++v)
      for (int64_t j = 0; j < len; ++j)
        (*outs)[v].copyFrom(base + j * xs[dim], operands[v].t(),
                            base + order[j] * xs[dim]);
  });
  if (err)
    return std::move(err);
  return resultOf(*outs);
}

/// Per-feature sums over every other dimension of `t` (feature dim `f`).
std::vector<double> featureSums(const Tensor &t, int64_t f,
                                llvm::function_ref<double(int64_t, int64_t)> g) {
  std::vector<double> sums(t.shape[f], 0.0);
  auto ts = stridesOf(t.shape);
  for (int64_t k = 0, n = t.size(); k < n; ++k) {
    int64_t c = (k / ts[f]) % t.shape[f];
    sums[c] += g(k, c);
  }
  return sums;
}

llvm::Expected<Value> batchNorm(Operation *op, ArrayRef<Value> operands,
                                Interpreter &interp) {
  auto outs = makeResults(op, interp);
  if (!outs)
    return outs.takeError();
  auto epsAttr = op->getAttrOfType<FloatAttr>("epsilon");
  auto fAttr = op->getAttrOfType<IntegerAttr>("feature_index");
  if (!epsAttr || !fAttr)
    return opError(op, "has no epsilon or feature_index");
  double eps = epsAttr.getValueAsDouble();
  int64_t f = fAttr.getInt();
  const Tensor &x = operands[0].t();
  for (const Value &v : operands)
    if (!v.t().isFloat())
      return opError(op, "batch norm of integers");
  int64_t C = x.shape[f];
  double count = double(x.size()) / double(std::max<int64_t>(C, 1));
  auto ts = stridesOf(x.shape);
  auto feature = [&](int64_t k) { return (k / ts[f]) % C; };
  const std::vector<double> &X = x.f;
  auto vec = [&](size_t k) -> const std::vector<double> & {
    return operands[k].t().f;
  };
  std::vector<Tensor> &o = *outs;
  if (isa<tg::BatchNormTrainingOp>(op)) {
    const auto &scale = vec(1), &offset = vec(2);
    std::vector<double> mean = featureSums(x, f, [&](int64_t k, int64_t) {
      return X[k];
    });
    for (double &m : mean)
      m /= count;
    std::vector<double> var = featureSums(x, f, [&](int64_t k, int64_t c) {
      double d = X[k] - mean[c];
      return d * d;
    });
    for (double &v : var)
      v /= count;
    for (int64_t k = 0; k < x.size(); ++k) {
      int64_t c = feature(k);
      o[0].f[k] = (X[k] - mean[c]) / std::sqrt(var[c] + eps) * scale[c] +
                  offset[c];
    }
    o[1].f = mean;
    o[2].f = var;
  } else if (isa<tg::BatchNormInferenceOp>(op)) {
    const auto &scale = vec(1), &offset = vec(2), &mean = vec(3),
               &var = vec(4);
    for (int64_t k = 0; k < x.size(); ++k) {
      int64_t c = feature(k);
      o[0].f[k] = (X[k] - mean[c]) / std::sqrt(var[c] + eps) * scale[c] +
                  offset[c];
    }
  } else {
    const auto &scale = vec(1), &mean = vec(2), &var = vec(3), &dy = vec(4);
    std::vector<double> sumDy = featureSums(x, f, [&](int64_t k, int64_t) {
      return dy[k];
    });
    std::vector<double> sumDyXc =
        featureSums(x, f, [&](int64_t k, int64_t c) {
          return dy[k] * (X[k] - mean[c]);
        });
    for (int64_t k = 0; k < x.size(); ++k) {
      int64_t c = feature(k);
      double inv = 1.0 / std::sqrt(var[c] + eps);
      o[0].f[k] = scale[c] * inv *
                  (dy[k] - sumDy[c] / count -
                   (X[k] - mean[c]) * sumDyXc[c] / count * inv * inv);
    }
    for (int64_t c = 0; c < C; ++c) {
      o[1].f[c] = sumDyXc[c] / std::sqrt(var[c] + eps);
      o[2].f[c] = sumDy[c];
    }
  }
  for (Tensor &t : o)
    normalize(t, interp.options);
  return resultOf(o);
}

} // namespace

/// A tensor as exchanged between devices: floats as f64, integers as s64,
/// so no value changes on the way.
static HostTensor toHost(const Tensor &t) {
  HostTensor h(t.isFloat() ? DType::F64 : DType::S64, t.shape);
  for (int64_t k = 0, n = t.size(); k < n; ++k)
    if (t.isFloat())
      h.setDouble(k, t.f[k]);
    else
      h.setInt(k, t.i[k]);
  return h;
}

static Tensor fromHost(const HostTensor &h, DType dtype) {
  Tensor t(dtype, h.shape);
  for (int64_t k = 0, n = t.size(); k < n; ++k)
    if (t.isFloat())
      t.f[k] = h.getDouble(k);
    else
      t.i[k] = h.getInt(k);
  return t;
}

/// Every member's value of `t`, in `members` order.
static llvm::Expected<std::vector<Tensor>> meet(Operation *op, const Tensor &t,
                                                ArrayRef<int64_t> members,
                                                Interpreter &interp) {
  const Options &o = interp.options;
  llvm::Expected<std::vector<HostTensor>> all = o.rendezvous->exchange(
      interp.collectives++, o.device, members, toHost(t));
  if (!all)
    return opError(op, llvm::toString(all.takeError()));
  std::vector<Tensor> out;
  for (const HostTensor &h : *all) {
    if (llvm::ArrayRef<int64_t>(h.shape) != llvm::ArrayRef<int64_t>(t.shape))
      return opError(op, "the devices' operands differ in shape");
    out.push_back(fromHost(h, t.dtype));
  }
  return out;
}

/// Tensors of equal shape but along `dim`, concatenated along it.
/// Copies block `fromBlock` of `from` into block `toBlock` of `to`, blocks
/// being `each` wide along `dim` (the tensors agree on every other
/// dimension).
static void copyBlock(const Tensor &from, int64_t fromBlock, Tensor &to,
                      int64_t toBlock, int64_t dim, int64_t each) {
  int64_t inner = 1, outer = 1;
  for (int64_t d = dim + 1; d < from.rank(); ++d)
    inner *= from.shape[d];
  for (int64_t d = 0; d < dim; ++d)
    outer *= from.shape[d];
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t k = 0; k < each * inner; ++k)
      to.copyFrom((o * to.shape[dim] + toBlock * each) * inner + k, from,
                  (o * from.shape[dim] + fromBlock * each) * inner + k);
}

/// A tensor of `like`'s type with `size` along `dim`.
static Tensor resized(const Tensor &like, int64_t dim, int64_t size) {
  llvm::SmallVector<int64_t, 4> shape(like.shape);
  shape[dim] = size;
  return Tensor(like.dtype, shape);
}

static Tensor concatenate(ArrayRef<Tensor> parts, int64_t dim) {
  int64_t each = parts[0].shape[dim];
  Tensor out = resized(parts[0], dim, each * int64_t(parts.size()));
  for (size_t m = 0; m < parts.size(); ++m)
    copyBlock(parts[m], 0, out, m, dim, each);
  return out;
}

llvm::Expected<Value> evalCollective(Operation *op, ArrayRef<Value> operands,
                                     Interpreter &interp) {
  const Options &o = interp.options;
  tg::DeviceCounts counts = tg::deviceCounts(op);
  if (o.device < 0 || o.device >= counts.devices())
    return opError(op, "device " + llvm::Twine(o.device) +
                           " is not one of the module's " +
                           llvm::Twine(counts.devices()));
  if (isa<tg::CollectivePermuteOp>(op)) {
    // Every device meets (a permute pairs any of them); each takes the
    // value sent to it, or zeros.
    std::vector<int64_t> everyone(counts.devices());
    std::iota(everyone.begin(), everyone.end(), 0);
    llvm::Expected<std::vector<Tensor>> all =
        meet(op, operands[0].t(), everyone, interp);
    if (!all)
      return all.takeError();
    for (auto [from, to] : tg::permutePairs(op, counts))
      if (to == o.device && from >= 0 && from < counts.devices())
        return Value::of(std::move((*all)[from]));
    llvm::Expected<Tensor> zeros =
        interp.makeResult(op, op->getResult(0).getType());
    if (!zeros)
      return zeros.takeError();
    return Value::of(std::move(*zeros));
  }
  std::vector<int64_t> members;
  for (const std::vector<int64_t> &g : tg::collectiveGroups(op, counts))
    if (llvm::is_contained(g, o.device))
      members = g;
  if (members.empty())
    return opError(op, "device " + llvm::Twine(o.device) +
                           " is in none of its replica groups");
  int64_t self = llvm::find(members, o.device) - members.begin();
  if (auto a2a = dyn_cast<tg::AllToAllOp>(op)) {
    // Member m's block `self` becomes block m of the result.
    llvm::Expected<std::vector<Tensor>> all =
        meet(op, operands[0].t(), members, interp);
    if (!all)
      return all.takeError();
    const Tensor &mine = operands[0].t();
    int64_t dim = a2a.getDimension(), n = members.size();
    if (mine.rank() == 0 || mine.shape[dim] % n != 0)
      return opError(op, "dimension " + llvm::Twine(dim) +
                             " does not split into " + llvm::Twine(n) +
                             " blocks");
    Tensor out(mine.dtype, mine.shape);
    for (int64_t m = 0; m < n; ++m)
      copyBlock((*all)[m], self, out, m, dim, mine.shape[dim] / n);
    return Value::of(std::move(out));
  }
  if (auto gather = dyn_cast<tg::AllGatherOp>(op)) {
    llvm::Expected<std::vector<Tensor>> all =
        meet(op, operands[0].t(), members, interp);
    if (!all)
      return all.takeError();
    return Value::of(concatenate(*all, gather.getAllGatherDim()));
  }
  // all_reduce (each operand leaf) and reduce_scatter: the region folds
  // the members' values in group order.
  Region &body = op->getRegion(0);
  std::vector<Tensor> results;
  for (const Value &operand : operands) {
    const Tensor &t = operand.t();
    llvm::Expected<std::vector<Tensor>> all = meet(op, t, members, interp);
    if (!all)
      return all.takeError();
    Tensor acc = (*all)[0];
    RegionFn fn(op, body, interp);
    for (size_t m = 1; m < all->size(); ++m)
      for (int64_t k = 0, n = acc.size(); k < n; ++k) {
        Scalar a = load(acc, k);
        if (llvm::Error e = fn.combine(a, {load((*all)[m], k)}))
          return std::move(e);
        store(acc, k, a);
      }
    results.push_back(std::move(acc));
  }
  if (auto rs = dyn_cast<tg::ReduceScatterOp>(op)) {
    // Member i keeps the i-th block along the scatter dimension.
    const Tensor &sum = results[0];
    int64_t dim = rs.getScatterDimension();
    int64_t each = sum.shape[dim] / int64_t(members.size());
    Tensor out = resized(sum, dim, each);
    copyBlock(sum, self, out, 0, dim, each);
    return Value::of(std::move(out));
  }
  return resultOf(results);
}

llvm::Expected<Value> evalRegionOp(Operation *op, ArrayRef<Value> operands,
                                   Interpreter &interp) {
  for (const Value &v : operands)
    if (!v.isTensor())
      return opError(op, "an operand is a tuple");
  if (auto r = dyn_cast<tg::ReduceOp>(op))
    return reduce(r, operands, interp);
  if (auto r = dyn_cast<tg::ReduceWindowOp>(op))
    return reduceWindow(r, operands, interp);
  if (auto s = dyn_cast<tg::SelectAndScatterOp>(op))
    return selectAndScatter(s, operands, interp);
  if (auto s = dyn_cast<tg::ScatterOp>(op))
    return scatter(s, operands, interp);
  if (auto s = dyn_cast<tg::SortOp>(op))
    return sort(s, operands, interp);
  if (isa<tg::BatchNormTrainingOp, tg::BatchNormInferenceOp,
          tg::BatchNormGradOp>(op))
    return batchNorm(op, operands, interp);
  if (isa<tg::AllReduceOp, tg::ReduceScatterOp>(op) &&
      interp.options.rendezvous)
    return evalCollective(op, operands, interp);
  if (isa<tg::AllReduceOp, tg::ReduceScatterOp>(op)) {
    // One replica: reducing over a group of one leaves each value as it is.
    if (operands.size() == 1) {
      if (llvm::ArrayRef<int64_t>(operands[0].t().shape) !=
          llvm::ArrayRef(
              cast<RankedTensorType>(op->getResult(0).getType()).getShape()))
        return opError(op, "changes the shape, which one replica cannot");
      return operands[0];
    }
    Value v;
    v.tuple.assign(operands.begin(), operands.end());
    return v;
  }
  return opError(op, "the interpreter does not evaluate this op");
}

} // namespace tessera::interp
