//===- Shape.cpp - Data movement and indexing ------------------------------===//
//
// Every op here computes, for each result element in row-major order, which
// operand element it copies (or that it is padding). Start indices of
// dynamic slices and gathers are clamped into range, as HLO specifies.
//
//===----------------------------------------------------------------------===//

#include "Value.h"

#include "tessera/Dialect/TGraph/IR/TGraph.h"

using namespace mlir;
namespace tg = tessera::tgraph;

namespace tessera::interp {
namespace {

int64_t clampStart(int64_t start, int64_t dim, int64_t size) {
  return std::min(std::max<int64_t>(start, 0), std::max<int64_t>(dim - size, 0));
}

} // namespace

llvm::Expected<Value> evalShape(Operation *op, ArrayRef<Value> operands,
                                Interpreter &interp) {
  llvm::Expected<Tensor> made = interp.makeResult(op, op->getResult(0).getType());
  if (!made)
    return made.takeError();
  Tensor out = std::move(*made);
  for (const Value &v : operands)
    if (!v.isTensor())
      return opError(op, "an operand is a tuple");
  const Tensor &x = operands[0].t();
  auto xs = stridesOf(x.shape);
  auto done = [&]() -> llvm::Expected<Value> {
    return Value::of(std::move(out));
  };

  if (isa<tg::ReshapeOp, tg::BitcastOp>(op)) {
    if (x.size() != out.size() || x.dtype != out.dtype)
      return opError(op, "changes the element count or type");
    out.f = x.f;
    out.i = x.i;
    return done();
  }
  if (auto b = dyn_cast<tg::BroadcastInDimOp>(op)) {
    ArrayRef<int64_t> dims = b.getBroadcastDimensions();
    forEachIndex(out.shape, [&](ArrayRef<int64_t> r, int64_t k) {
      int64_t src = 0;
      for (size_t i = 0; i < dims.size(); ++i)
        src += (x.shape[i] == 1 ? 0 : r[dims[i]]) * xs[i];
      out.copyFrom(k, x, src);
    });
    return done();
  }
  if (auto t = dyn_cast<tg::TransposeOp>(op)) {
    ArrayRef<int64_t> perm = t.getPermutation();
    forEachIndex(out.shape, [&](ArrayRef<int64_t> r, int64_t k) {
      int64_t src = 0;
      for (size_t i = 0; i < perm.size(); ++i)
        src += r[i] * xs[perm[i]];
      out.copyFrom(k, x, src);
    });
    return done();
  }
  if (auto rev = dyn_cast<tg::ReverseOp>(op)) {
    llvm::SmallVector<bool, 6> flip(x.rank(), false);
    for (int64_t d : rev.getDimensions())
      flip[d] = true;
    forEachIndex(out.shape, [&](ArrayRef<int64_t> r, int64_t k) {
      int64_t src = 0;
      for (int64_t d = 0; d < x.rank(); ++d)
        src += (flip[d] ? x.shape[d] - 1 - r[d] : r[d]) * xs[d];
      out.copyFrom(k, x, src);
    });
    return done();
  }
  if (auto s = dyn_cast<tg::SliceOp>(op)) {
    ArrayRef<int64_t> start = s.getStartIndices(), stride = s.getStrides();
    forEachIndex(out.shape, [&](ArrayRef<int64_t> r, int64_t k) {
      int64_t src = 0;
      for (int64_t d = 0; d < x.rank(); ++d)
        src += (start[d] + r[d] * stride[d]) * xs[d];
      out.copyFrom(k, x, src);
    });
    return done();
  }
  if (isa<tg::DynamicSliceOp>(op)) {
    Index start(x.rank());
    for (int64_t d = 0; d < x.rank(); ++d)
      start[d] = clampStart(operands[1 + d].t().getI(0), x.shape[d],
                            out.shape[d]);
    forEachIndex(out.shape, [&](ArrayRef<int64_t> r, int64_t k) {
      int64_t src = 0;
      for (int64_t d = 0; d < x.rank(); ++d)
        src += (start[d] + r[d]) * xs[d];
      out.copyFrom(k, x, src);
    });
    return done();
  }
  if (isa<tg::DynamicUpdateSliceOp>(op)) {
    const Tensor &u = operands[1].t();
    out.f = x.f;
    out.i = x.i;
    Index start(x.rank());
    for (int64_t d = 0; d < x.rank(); ++d)
      start[d] = clampStart(operands[2 + d].t().getI(0), x.shape[d],
                            u.shape[d]);
    forEachIndex(u.shape, [&](ArrayRef<int64_t> r, int64_t k) {
      int64_t dst = 0;
      for (int64_t d = 0; d < x.rank(); ++d)
        dst += (start[d] + r[d]) * xs[d];
      out.copyFrom(dst, u, k);
    });
    return done();
  }
  if (auto c = dyn_cast<tg::ConcatenateOp>(op)) {
    int64_t dim = c.getDimension();
    auto os = stridesOf(out.shape);
    int64_t offset = 0;
    for (const Value &v : operands) {
      const Tensor &in = v.t();
      forEachIndex(in.shape, [&](ArrayRef<int64_t> r, int64_t k) {
        int64_t dst = linear(r, os) + offset * os[dim];
        out.copyFrom(dst, in, k);
      });
      offset += in.shape[dim];
    }
    return done();
  }
  if (auto p = dyn_cast<tg::PadOp>(op)) {
    const Tensor &pad = operands[1].t();
    ArrayRef<int64_t> low = p.getEdgePaddingLow(),
                      interior = p.getInteriorPadding();
    forEachIndex(out.shape, [&](ArrayRef<int64_t> r, int64_t k) {
      int64_t src = 0;
      for (int64_t d = 0; d < x.rank(); ++d) {
        int64_t pos = r[d] - low[d];
        int64_t step = interior[d] + 1;
        if (pos < 0 || pos % step != 0 || pos / step >= x.shape[d]) {
          out.copyFrom(k, pad, 0);
          return;
        }
        src += (pos / step) * xs[d];
      }
      out.copyFrom(k, x, src);
    });
    return done();
  }
  if (auto g = dyn_cast<tg::GatherOp>(op)) {
    const Tensor &idx = operands[1].t();
    ArrayRef<int64_t> offsetDims = g.getOffsetDims(),
                      collapsed = g.getCollapsedSliceDims(),
                      startMap = g.getStartIndexMap(),
                      sizes = g.getSliceSizes();
    int64_t ivd = g.getIndexVectorDim();
    auto is = stridesOf(idx.shape);
    // Operand dimensions the offset dimensions run over, in order.
    Index windowDims;
    for (int64_t d = 0; d < x.rank(); ++d)
      if (!llvm::is_contained(collapsed, d))
        windowDims.push_back(d);
    Index batchDims;
    for (int64_t d = 0; d < out.rank(); ++d)
      if (!llvm::is_contained(offsetDims, d))
        batchDims.push_back(d);
    forEachIndex(out.shape, [&](ArrayRef<int64_t> r, int64_t k) {
      // The start indices' position: the batch dims, with the index
      // vector dimension inserted at `ivd` (absent when ivd == rank).
      Index at;
      for (int64_t b : batchDims)
        at.push_back(r[b]);
      Index start(x.rank(), 0);
      for (size_t j = 0; j < startMap.size(); ++j) {
        Index pos = at;
        if (ivd < idx.rank())
          pos.insert(pos.begin() + ivd, int64_t(j));
        start[startMap[j]] = idx.getI(linear(pos, is));
      }
      int64_t src = 0;
      for (int64_t d = 0; d < x.rank(); ++d) {
        int64_t s = clampStart(start[d], x.shape[d], sizes[d]);
        src += s * xs[d];
      }
      for (size_t j = 0; j < offsetDims.size(); ++j)
        src += r[offsetDims[j]] * xs[windowDims[j]];
      out.copyFrom(k, x, src);
    });
    return done();
  }
  return opError(op, "the interpreter does not evaluate this op");
}

} // namespace tessera::interp
