//===- Padding.h - layout-tile padding and matrix-unit fit --------*- C++
//-*-===//
//
// How much of a tile's memory and of its matrix unit does useful work. A
// buffer's elements on a tile are stored in whole layout tiles (the
// target's [rows, cols]), so a tile holding a [3, 16] operand on core-8's
// [8, 128] layout tile stores 1,024 slots for 48 elements. A matmul block is
// rounded up to the matrix unit's [M, N, K] the same way. See
// docs/memory.md.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_MEMORY_PADDING_H
#define TESSERA_MEMORY_PADDING_H

#include "tessera/Target/Layout.h"
#include "tessera/Target/Target.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <utility>

namespace tessera::memory {

// The layout rule (which slots a tile's part of a buffer takes) lives with
// the target, where the lowering plans with it too.
using tessera::paddedElementsOnTile;
using tessera::paddedRunAsBoxes;

// The matrix-unit fit moved to the target description (the runtime's
// cycle clock counts with it too); the memory library keeps its names.
using tessera::DimFit;
using tessera::MatmulFit;
using tessera::matmulFit;

/// Bytes of one element of an MLIR element type by its HLO dtype name
/// ("f32" → 4); 1 for pred and unknown names.
int64_t elementBytes(llvm::StringRef dtype);

} // namespace tessera::memory

#endif // TESSERA_MEMORY_PADDING_H
