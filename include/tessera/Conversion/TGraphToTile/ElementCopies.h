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

/// Grows copy runs from pieces listed in dest element order, each moving
/// `length` elements that are contiguous on both sides between one tile
/// pair: a piece continuing the pending copy joins it, and finished copies
/// fold into runs (count > 1) where the tile and element strides repeat.
/// Feeding one element at a time or whole pieces gives the same runs, so
/// planners that know where a tile's elements end can skip the element walk.
class CopyRunBuilder {
public:
  /// One copy being grown.
  struct Pending {
    int source = -1;
    int64_t srcTile = 0, dstTile = 0, srcElement = 0, dstElement = 0,
            length = 0;
  };
  CopyRunBuilder(size_t numSources, int64_t maxRuns)
      : copies(numSources), maxRuns(maxRuns) {}
  /// Adds a piece; false once more than maxRuns runs are needed.
  bool add(int source, int64_t srcTile, int64_t dstTile, int64_t srcElement,
           int64_t dstElement, int64_t length) {
    if (source == pending.source && srcTile == pending.srcTile &&
        dstTile == pending.dstTile &&
        pending.srcElement + pending.length == srcElement &&
        pending.dstElement + pending.length == dstElement) {
      pending.length += length;
      return true;
    }
    if (!flush())
      return false;
    pending = {source, srcTile, dstTile, srcElement, dstElement, length};
    return true;
  }
  /// Ends the pending copy (a gap in the dest: an element no copy writes).
  bool flush() {
    if (pending.source < 0 || pending.length == 0)
      return true;
    llvm::SmallVector<int64_t> &runs = copies[pending.source];
    size_t before = runs.size();
    appendCopy(runs, pending);
    totalRuns += (runs.size() - before) / 8;
    pending = Pending();
    return totalRuns <= maxRuns;
  }
  /// The runs per source (after a last flush).
  llvm::SmallVector<llvm::SmallVector<int64_t>> take() {
    return std::move(copies);
  }

  /// Appends a copy to `runs`, folding it into the last run when it
  /// continues that run's tile and element strides. Inline: a view's
  /// planning folds a copy per row piece.
  static void appendCopy(llvm::SmallVector<int64_t> &runs, const Pending &p) {
    size_t n = runs.size();
    if (n >= 8) {
      int64_t *r = &runs[n - 8];
      int64_t count = r[2];
      if (r[3] == p.length && p.srcTile == r[0] + count &&
          p.dstTile == r[1] + count) {
        if (count == 1) {
          r[5] = p.srcElement - r[4];
          r[7] = p.dstElement - r[6];
          r[2] = 2;
          return;
        }
        if (p.srcElement == r[4] + count * r[5] &&
            p.dstElement == r[6] + count * r[7]) {
          r[2] = count + 1;
          return;
        }
      }
    }
    runs.append(
        {p.srcTile, p.dstTile, 1, p.length, p.srcElement, 0, p.dstElement, 0});
  }

private:
  llvm::SmallVector<llvm::SmallVector<int64_t>> copies;
  int64_t maxRuns, totalRuns = 0;
  Pending pending;
};

/// Copy runs per source, or nullopt when more than `maxRuns` runs in all would
/// be needed or an element is not mapped. The reference element walk: a
/// planner that can split by intervals (viewCopyRuns) must give its runs.
std::optional<llvm::SmallVector<llvm::SmallVector<int64_t>>>
planElementCopies(llvm::ArrayRef<llvm::ArrayRef<int64_t>> sourceRuns,
                  llvm::ArrayRef<int64_t> destRuns, int64_t numElements,
                  llvm::function_ref<ElementSource(int64_t)> sourceOf,
                  int64_t maxRuns);

/// Where result elements [i, i + length) come from: source elements
/// [element, element + length) of source number `source` (negative: no copy
/// writes them), with length >= 1.
struct SourceSpan {
  int source;
  int64_t element, length;
};

/// planElementCopies' runs from spans: `spanOf(i)` gives the longest run of
/// result elements from i that it knows to be contiguous in one source, and
/// each span is split only where a source or dest tile's interval ends, so
/// a pad or concatenate costs a step per row piece, not per element.
std::optional<llvm::SmallVector<llvm::SmallVector<int64_t>>>
planSpanCopies(llvm::ArrayRef<llvm::ArrayRef<int64_t>> sourceRuns,
               llvm::ArrayRef<int64_t> destRuns, int64_t numElements,
               llvm::function_ref<SourceSpan(int64_t)> spanOf, int64_t maxRuns);

/// Copy runs moving every element i of a buffer to element i of one with the
/// same element count on another layout, computed interval by interval
/// (O(intervals), independent of the element count), folded like
/// planElementCopies. Same result as planElementCopies with the identity.
llvm::SmallVector<int64_t>
planIdentityCopies(llvm::ArrayRef<int64_t> sourceRuns,
                   llvm::ArrayRef<int64_t> destRuns);
/// The same runs, or nullopt (found early) when they are more than
/// `maxRuns`.
std::optional<llvm::SmallVector<int64_t>>
planIdentityCopies(llvm::ArrayRef<int64_t> sourceRuns,
                   llvm::ArrayRef<int64_t> destRuns, int64_t maxRuns);

} // namespace tessera

#endif // TESSERA_CONVERSION_TGRAPHTOTILE_ELEMENTCOPIES_H
