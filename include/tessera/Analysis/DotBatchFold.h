//===- DotBatchFold.h - fitting dot_general to max_batch_dims ---*- C++ -*-===//
//
// A dot_general with more batching dimensions than the target's
// `max_batch_dims` (a Llama decode step's attention dots have two: batch and
// heads) computes the same as one whose batching dimensions are collapsed
// into one: reshape each operand so its batching dimensions become one
// dimension, contract, and reshape the result back. The rewrite is exact —
// the same products and sums, only the indexing changes — so the compiler
// makes it itself (tgraph-legalize-for-target) and the compatibility
// checker counts such dots as compatible, with a note saying what is done.
//
// The plan lives here, where the checker reads it; the pass applies it.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_ANALYSIS_DOTBATCHFOLD_H
#define TESSERA_ANALYSIS_DOTBATCHFOLD_H

#include "tessera/Dialect/TGraph/IR/TGraph.h"
#include "tessera/Target/Target.h"

#include <optional>
#include <string>

namespace tessera {

/// The attribute the rewrite leaves on the dot_general it builds: what it
/// did, in words (the compatibility checker's note).
inline constexpr llvm::StringLiteral kRewrittenAttr = "tgraph.rewritten";

struct DotBatchFold {
  /// An operand whose batching dimensions are not adjacent and in pairing
  /// order is transposed first, so a reshape can merge them.
  bool transposeLhs = false, transposeRhs = false;
  int64_t maxBatchDims = 0;

  /// What the rewrite does, e.g. "batching dimensions [0, 1] x [0, 1]
  /// collapsed into one by reshapes, to fit max_batch_dims = 1".
  std::string describe(tgraph::DotGeneralOp dot) const;
};

/// How to make `dot` fit `constraint`'s `max_batch_dims`, or nullopt when it
/// fits already, or no collapse helps (a limit of 0, dynamic shapes).
std::optional<DotBatchFold> planDotBatchFold(tgraph::DotGeneralOp dot,
                                             const OpConstraint &constraint);

/// Whether `dims` are adjacent and ascending (a reshape can merge them).
bool isAdjacentRun(llvm::ArrayRef<int64_t> dims);

} // namespace tessera

#endif // TESSERA_ANALYSIS_DOTBATCHFOLD_H
