//===- Padding.h - layout-tile padding and matrix-unit fit --------*- C++
//-*-===//
//
// How much of a tile's memory and of its matrix unit does useful work. A
// buffer's elements on a tile are stored in whole layout tiles (the
// target's [rows, cols] blocks of its two minor dimensions), so a tile
// holding a [3, 16] operand on core-8's [8, 128] layout tile stores 1,024
// slots for 48 elements. A matmul block is rounded up to the matrix unit's
// [M, N, K] the same way. See docs/memory.md.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_MEMORY_PADDING_H
#define TESSERA_MEMORY_PADDING_H

#include "tessera/Target/Target.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <utility>

namespace tessera::memory {

/// Element slots a tile stores for the element intervals [begin, end) (in
/// row-major order of `shape`) it holds: the number of distinct layout
/// tiles they touch times rows × cols. Rank 0 and 1 shapes are [1, 1] and
/// [1, n], as in TargetDescription::paddedSize. Intervals may come in any
/// order and may be adjacent.
int64_t
paddedElementsOnTile(llvm::ArrayRef<int64_t> shape, LayoutTile layout,
                     llvm::ArrayRef<std::pair<int64_t, int64_t>> intervals);

/// One dimension of a matmul block against the matrix unit.
struct DimFit {
  int64_t size = 0;   ///< block size
  int64_t padded = 0; ///< rounded up to the unit
  bool exact() const { return size == padded; }
  /// "exact fit" or "padded 3→8".
  std::string describe() const;
};

/// A [M, N, K] matmul block (times `batch`) on the matrix unit.
struct MatmulFit {
  int64_t batch = 1;
  DimFit m, n, k;
  int64_t usefulMacs() const { return batch * m.size * n.size * k.size; }
  int64_t paddedMacs() const { return batch * m.padded * n.padded * k.padded; }
  /// useful / padded MACs in [0, 1] (1 for an empty block).
  double utilization() const;
};

MatmulFit matmulFit(int64_t batch, int64_t m, int64_t n, int64_t k,
                    const MatrixUnit &unit);

/// Bytes of one element of an MLIR element type by its HLO dtype name
/// ("f32" → 4); 1 for pred and unknown names.
int64_t elementBytes(llvm::StringRef dtype);

} // namespace tessera::memory

#endif // TESSERA_MEMORY_PADDING_H
