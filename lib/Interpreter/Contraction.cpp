//===- Contraction.cpp - dot_general and convolution -----------------------===//
//
// Both accumulate in double (integers in int64, wrapped to the result type
// at the end, which modular arithmetic makes equal to wrapping every step).
// They are written as loops over precomputed offset tables, in the order
// that keeps the innermost loop contiguous where the layout allows, because
// the corpus' convolutions are billions of multiply-adds; float dots gather
// their operands into matrices for Eigen's GEMM (dlrm's training loop, run
// on the host, is almost all matmul).
//
//===----------------------------------------------------------------------===//

#include "Value.h"

#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include <Eigen/Dense>

using namespace mlir;
namespace tg = tessera::tgraph;

namespace tessera::interp {
namespace {

/// Offsets of every combination of `dims` of a tensor with `strides`.
std::vector<int64_t> offsetTable(ArrayRef<int64_t> dims,
                                 ArrayRef<int64_t> shape,
                                 ArrayRef<int64_t> strides) {
  Index sizes;
  for (int64_t d : dims)
    sizes.push_back(shape[d]);
  std::vector<int64_t> table;
  forEachIndex(sizes, [&](ArrayRef<int64_t> idx, int64_t) {
    int64_t off = 0;
    for (size_t j = 0; j < dims.size(); ++j)
      off += idx[j] * strides[dims[j]];
    table.push_back(off);
  });
  return table;
}

Index freeDims(int64_t rank, ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  Index out;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(a, d) && !llvm::is_contained(b, d))
      out.push_back(d);
  return out;
}

/// A dense view of a tensor's values as double (ints converted), so the
/// inner loops do not branch on the storage.
std::vector<double> asDouble(const Tensor &t) {
  if (t.isFloat())
    return t.f;
  std::vector<double> out(t.i.begin(), t.i.end());
  return out;
}

Value finish(Tensor out, std::vector<double> &acc, const Options &options) {
  if (out.isFloat())
    out.f = std::move(acc);
  else
    for (size_t k = 0; k < acc.size(); ++k)
      out.i[k] = static_cast<int64_t>(acc[k]);
  normalize(out, options);
  return Value::of(std::move(out));
}

llvm::Expected<Value> dot(tg::DotGeneralOp op, const Tensor &l,
                          const Tensor &r, Tensor out,
                          const Options &options) {
  auto ls = stridesOf(l.shape), rs = stridesOf(r.shape);
  std::vector<int64_t> lb = offsetTable(op.getLhsBatchingDimensions(), l.shape, ls);
  std::vector<int64_t> rb = offsetTable(op.getRhsBatchingDimensions(), r.shape, rs);
  std::vector<int64_t> lk = offsetTable(op.getLhsContractingDimensions(), l.shape, ls);
  std::vector<int64_t> rk = offsetTable(op.getRhsContractingDimensions(), r.shape, rs);
  std::vector<int64_t> lm = offsetTable(
      freeDims(l.rank(), op.getLhsBatchingDimensions(),
               op.getLhsContractingDimensions()),
      l.shape, ls);
  std::vector<int64_t> rn = offsetTable(
      freeDims(r.rank(), op.getRhsBatchingDimensions(),
               op.getRhsContractingDimensions()),
      r.shape, rs);
  size_t B = lb.size(), M = lm.size(), N = rn.size(), K = lk.size();
  if (B * M * N != size_t(out.size()) || rk.size() != K || rb.size() != B)
    return opError(op, "the operands' shapes do not give the result's");
  // Integer dots accumulate in (wrapping) 64-bit integers: products of two
  // 32-bit values are not exact in double.
  if (!out.isFloat() && !l.isFloat()) {
    for (size_t b = 0; b < B; ++b)
      for (size_t m = 0; m < M; ++m)
        for (size_t n = 0; n < N; ++n) {
          uint64_t acc = 0;
          for (size_t k = 0; k < K; ++k)
            acc += uint64_t(l.getI(lb[b] + lm[m] + lk[k])) *
                   uint64_t(r.getI(rb[b] + rn[n] + rk[k]));
          out.i[(b * M + m) * N + n] = int64_t(acc);
        }
    normalize(out, options);
    return Value::of(std::move(out));
  }
  // Floats: per batch, the operands gathered into dense M x K and K x N
  // matrices and multiplied by Eigen's GEMM in double (every product exact
  // to double, the sums blocked: the order differs from a naive loop by
  // double's rounding only, far under any tolerance the check uses).
  std::vector<double> L = asDouble(l), R = asDouble(r);
  std::vector<double> acc(out.size(), 0.0);
  using Matrix =
      Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Matrix A(M, K), Bm(K, N);
  for (size_t b = 0; b < B; ++b) {
    for (size_t m = 0; m < M; ++m)
      for (size_t k = 0; k < K; ++k)
        A(m, k) = L[lb[b] + lm[m] + lk[k]];
    for (size_t k = 0; k < K; ++k)
      for (size_t n = 0; n < N; ++n)
        Bm(k, n) = R[rb[b] + rk[k] + rn[n]];
    Eigen::Map<Matrix> C(acc.data() + b * M * N, M, N);
    C.noalias() = A * Bm;
  }
  return finish(std::move(out), acc, options);
}

llvm::Expected<Value> convolution(tg::ConvolutionOp op, const Tensor &l,
                                  const Tensor &r, Tensor out,
                                  const Options &options) {
  std::string error;
  FailureOr<tg::ConvDimLabels> labels =
      tg::parseConvDimLabels(op.getDimLabels(), error);
  if (failed(labels))
    return opError(op, error);
  const tg::ConvDimPart &in = labels->input, &ker = labels->kernel,
                        &res = labels->output;
  size_t S = in.spatial.size();
  auto get = [&](std::optional<ArrayRef<int64_t>> a, size_t k, int64_t dflt) {
    return a && k < a->size() ? (*a)[k] : dflt;
  };
  std::optional<ArrayRef<int64_t>> strides = op.getWindowStrides(),
                                   padding = op.getPadding(),
                                   lhsDil = op.getLhsDilation(),
                                   rhsDil = op.getRhsDilation();
  std::optional<ArrayRef<bool>> reversal = op.getWindowReversal();
  auto lsd = stridesOf(l.shape), rsd = stridesOf(r.shape),
       osd = stridesOf(out.shape);
  int64_t fgc = op.getFeatureGroupCount(), bgc = op.getBatchGroupCount();
  int64_t O = out.shape[res.featureOrOutput];
  int64_t I = r.shape[ker.batchOrInput];
  int64_t outBatch = out.shape[res.batchOrInput];
  if (fgc < 1 || bgc < 1 || O % fgc || O % bgc)
    return opError(op, "feature or batch group count does not divide the "
                       "output features");
  int64_t perFeatureGroup = O / fgc, perBatchGroup = O / bgc;
  Index kernelSpatial, outSpatial;
  for (size_t s = 0; s < S; ++s) {
    kernelSpatial.push_back(r.shape[ker.spatial[s]]);
    outSpatial.push_back(out.shape[res.spatial[s]]);
  }
  std::vector<double> L = asDouble(l), R = asDouble(r);
  std::vector<double> acc(out.size(), 0.0);
  int64_t lc = lsd[in.featureOrOutput], ri = rsd[ker.batchOrInput];
  Index lhsPos(S);
  for (int64_t n = 0; n < outBatch; ++n)
    for (int64_t o = 0; o < O; ++o) {
      int64_t g = o / perFeatureGroup, bg = o / perBatchGroup;
      int64_t lhsBase = (n + bg * outBatch) * lsd[in.batchOrInput] +
                        g * I * lc;
      int64_t rhsBase = o * rsd[ker.featureOrOutput];
      forEachIndex(outSpatial, [&](ArrayRef<int64_t> y, int64_t) {
        double sum = 0;
        forEachIndex(kernelSpatial, [&](ArrayRef<int64_t> kp, int64_t) {
          int64_t lOff = lhsBase, rOff = rhsBase;
          for (size_t s = 0; s < S; ++s) {
            int64_t pos = y[s] * get(strides, s, 1) - get(padding, 2 * s, 0) +
                          kp[s] * get(rhsDil, s, 1);
            int64_t base = get(lhsDil, s, 1);
            if (pos < 0 || pos % base)
              return;
            pos /= base;
            if (pos >= l.shape[in.spatial[s]])
              return;
            lOff += pos * lsd[in.spatial[s]];
            bool rev = reversal && s < reversal->size() && (*reversal)[s];
            rOff += (rev ? kernelSpatial[s] - 1 - kp[s] : kp[s]) *
                    rsd[ker.spatial[s]];
          }
          for (int64_t i = 0; i < I; ++i)
            sum += L[lOff + i * lc] * R[rOff + i * ri];
        });
        int64_t dst = n * osd[res.batchOrInput] + o * osd[res.featureOrOutput];
        for (size_t s = 0; s < S; ++s)
          dst += y[s] * osd[res.spatial[s]];
        acc[dst] = sum;
      });
    }
  return finish(std::move(out), acc, options);
}

} // namespace

llvm::Expected<Value> evalContraction(Operation *op, ArrayRef<Value> operands,
                                      const Options &options) {
  Type type = op->getResult(0).getType();
  llvm::Expected<DType> d = dtypeOfTensor(op, type);
  if (!d)
    return d.takeError();
  auto shape = cast<RankedTensorType>(type).getShape();
  std::optional<int64_t> n = checkedNumElements(shape);
  if (!n || *n > options.maxElements)
    return opError(op, "the result is larger than the interpreter's limit");
  Tensor out(*d, shape);
  const Tensor &l = operands[0].t(), &r = operands[1].t();
  if (auto dotOp = dyn_cast<tg::DotGeneralOp>(op))
    return dot(dotOp, l, r, std::move(out), options);
  return convolution(cast<tg::ConvolutionOp>(op), l, r, std::move(out),
                     options);
}

} // namespace tessera::interp
