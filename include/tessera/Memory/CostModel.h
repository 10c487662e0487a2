//===- CostModel.h - cycles, FLOPs and bytes per step -------------*- C++
//-*-===//
//
// A first-order estimate of what each step of a tile program costs on the
// target, padding included: a matmul vertex takes its padded block's MACs
// over the matrix unit's MACs per cycle; a vector vertex its tile's
// elements over the vector width (rounded up); an exchange its busiest
// tile's bytes (sent or received, views included: ExchangeTraffic.h) over
// the fabric bandwidth plus the latency, or when its
// copies cross chips the busiest link's bytes over the link bandwidth plus
// the route's latency (ChipRoutes.h), whichever is longer; a sync the
// target's sync cycles; a host copy its bytes over the host link. The
// runtime compares these with measured cycles. See docs/memory.md.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_MEMORY_COSTMODEL_H
#define TESSERA_MEMORY_COSTMODEL_H

#include "tessera/Memory/Liveness.h"
#include "tessera/Memory/Padding.h"

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <vector>

namespace tessera::memory {

/// One per program point, kept with the analysis through the compile:
/// its size counts per op in a large compile's peak memory (issue 16), so
/// what few steps have sits behind a pointer.
struct StepCost {
  int64_t cycles = 0; ///< one execution of the step (a body step: per trip)
  int64_t flops = 0;
  int64_t paddedFlops = 0; ///< what the units actually compute
  int64_t bytesMoved = 0;  ///< operands read + written, or bytes sent
  /// Of bytesMoved, what crosses between chips (an exchange's copies from a
  /// tile of one chip to a tile of another, over the links).
  int64_t interChipBytes = 0;
  /// interChipBytes by (from chip, to chip), for the pod view's links.
  struct ChipPairBytes {
    int64_t from, to, bytes;
  };
  std::vector<ChipPairBytes> chipBytes;
  /// matrix, vector, exchange, inter-chip (an exchange with copies between
  /// chips), collective (ring algorithm over the replicas' chips, see
  /// ChipRoutes::ringCycles), sync, host, control: a string literal.
  llvm::StringRef unit;
  /// The HLO instruction it implements: the text of an attribute (or a
  /// literal), which lives as long as the MLIRContext. A string per step
  /// was 32 bytes of each of a 100k-op program's 320k steps, plus a heap
  /// block for the longer names, at the compile's peak.
  llvm::StringRef op;
  /// Matmul vertices (shared: copies of the cost share it); null otherwise.
  std::shared_ptr<const MatmulFit> fit;
};

struct ProgramCost {
  std::vector<StepCost> steps; ///< per program point
  /// Whole program: loop bodies times their trip count (once when the trip
  /// count is unknown), the longer branch of an if.
  int64_t totalCycles = 0;
  int64_t unknownTripCounts = 0; ///< loops counted once
  double seconds = 0;
};

ProgramCost estimateCost(const ProgramLiveness &liveness,
                         const TargetDescription &target);

/// Where a collective's data goes between chips, as the cost model prices
/// it and the pod view routes it: replica r's program sits on chips
/// r * chipsPerReplica and up, and a collective passes data between the
/// replicas' first chips. A permute sends each pair's source whole; the
/// others pass blocks around each group's ring, member i to member i + 1.
struct CollectiveRoutes {
  /// Permute: (from chip, to chip) per source-target pair.
  std::vector<std::pair<int64_t, int64_t>> pairs;
  /// The others: each group's members' first chips, in group order.
  std::vector<std::vector<int64_t>> rings;
};
CollectiveRoutes collectiveRoutes(tile::CollectiveOp c,
                                  int64_t chipsPerReplica);

} // namespace tessera::memory

#endif // TESSERA_MEMORY_COSTMODEL_H
