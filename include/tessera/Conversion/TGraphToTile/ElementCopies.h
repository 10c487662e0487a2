//===- ElementCopies.h - exchange runs from an index mapping -----*- C++
//-*-===//
//
// Data-movement ops (broadcast, transpose, slice, concatenate, pad, ...) and
// operands whose layout differs from the output's are lowered to exchanges.
// This helper turns "result element i comes from element s of source k" into
// tile.exchange copy runs (src tile, dst tile, count, elements, src element,
// src stride, dst element, dst stride), one list per source.
//
// It walks the result element by element (O(elements · log tiles)), joins
// neighbouring elements that stay contiguous on both sides into one copy, and
// folds copies that repeat with a constant tile and element stride into one
// run with count > 1, so a regular re-layout over 1,472 tiles stays a handful
// of runs. Irregular ones (transposes) can need a run per element; the caller
// gives a budget and falls back when it is exceeded.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_CONVERSION_TGRAPHTOTILE_ELEMENTCOPIES_H
#define TESSERA_CONVERSION_TGRAPHTOTILE_ELEMENTCOPIES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <utility>

namespace tessera {

/// Where result element i comes from: (source number, source element), or a
/// negative source number when no copy writes it (e.g. padding).
using ElementSource = std::pair<int, int64_t>;

/// Copy runs per source, or nullopt when more than `maxRuns` runs in all would
/// be needed or an element is not mapped.
std::optional<llvm::SmallVector<llvm::SmallVector<int64_t>>>
planElementCopies(llvm::ArrayRef<llvm::ArrayRef<int64_t>> sourceRuns,
                  llvm::ArrayRef<int64_t> destRuns, int64_t numElements,
                  llvm::function_ref<ElementSource(int64_t)> sourceOf,
                  int64_t maxRuns);

/// Copy runs moving every element i of a buffer to element i of one with the
/// same element count on another layout, computed interval by interval
/// (O(intervals), independent of the element count), folded like
/// planElementCopies. Same result as planElementCopies with the identity.
llvm::SmallVector<int64_t>
planIdentityCopies(llvm::ArrayRef<int64_t> sourceRuns,
                   llvm::ArrayRef<int64_t> destRuns);

} // namespace tessera

#endif // TESSERA_CONVERSION_TGRAPHTOTILE_ELEMENTCOPIES_H
