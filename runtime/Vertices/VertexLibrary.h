//===- VertexLibrary.h - Vertex factories, one per family --------*- C++ -*-===//
//
// Private to runtime/Vertices: each family file defines its factories;
// VertexLibrary.cpp maps kinds to them.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_RUNTIME_VERTICES_VERTEXLIBRARY_H
#define TESSERA_RUNTIME_VERTICES_VERTEXLIBRARY_H

#include "tessera/Runtime/Vertex.h"

#include <cstdint>

namespace tessera::runtime {

using VertexResult = llvm::Expected<std::unique_ptr<Vertex>>;

// Elementwise.cpp
VertexResult createElementwise(const VertexSpec &spec, llvm::StringRef op);
VertexResult createIota(const VertexSpec &spec);
VertexResult createFill(const VertexSpec &spec);
VertexResult createBranchIndexEquals(const VertexSpec &spec);
/// Whether `op` is an elementwise op the library implements.
bool isElementwiseOp(llvm::StringRef op);

// Matmul.cpp
VertexResult createMatmulPartial(const VertexSpec &spec);

// Reduce.cpp: reduce-partial.OP, reduce.OP (also the K-split sums of
// matmul and convolution).
VertexResult createReducePartial(const VertexSpec &spec, llvm::StringRef op);
VertexResult createReduce(const VertexSpec &spec, llvm::StringRef op);
/// Whether `op` is a reducer the library implements.
bool isReducer(llvm::StringRef op);

// Indexed.cpp: ops indexed at run time.
VertexResult createGather(const VertexSpec &spec);
VertexResult createScatter(const VertexSpec &spec, llvm::StringRef combiner);
/// dynamic-slice, or dynamic-update-slice when `update`.
VertexResult createDynamicSlice(const VertexSpec &spec, bool update);

// Sort.cpp
VertexResult createSort(const VertexSpec &spec);

// BatchNorm.cpp: batch-norm.{statistics,moments,normalise,grad-statistics,
// grad}.
VertexResult createBatchNorm(const VertexSpec &spec, llvm::StringRef op);

// Window.cpp
VertexResult createReduceWindow(const VertexSpec &spec, llvm::StringRef op);
VertexResult createConvPartial(const VertexSpec &spec);

/// A VertexSpec error unless every operand has `dtype`.
llvm::Error expectSameType(const VertexSpec &spec);
/// Products summed into partials: the inputs share one type, and the
/// output is that type or, for 16-bit floats, f32 (the lowering keeps the
/// partials of a split contraction in f32 so the split does not round).
/// Returns whether the output is the wider f32. Only the first `operands`
/// inputs are the products' operands (an accumulated input follows them).
llvm::Expected<bool> expectPartialsOutput(const VertexSpec &spec,
                                          size_t operands = SIZE_MAX);

/// The first slot of each output (n + 1 entries, n = output 0's elements)
/// from `partials_per_output_runs` = [count, outputs, ...], checked to
/// cover input 0's slots exactly: slots gathered output-major, as the
/// reductions of reduce and batch norm lay them out.
llvm::Expected<std::vector<int64_t>> readFirstSlots(const VertexSpec &spec);

/// Row-major strides of `shape`.
std::vector<int64_t> rowMajorStrides(llvm::ArrayRef<int64_t> shape);

} // namespace tessera::runtime

#endif // TESSERA_RUNTIME_VERTICES_VERTEXLIBRARY_H
