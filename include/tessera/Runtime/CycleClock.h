//===- CycleClock.h - The model device's cycle count ---------------*- C++ -*-===//
//
// The model device computes on the host, but it counts what the chip would
// have spent, step by step, from the work each tile actually did
// (docs/execution.md, "The cycle clock"):
//
//   compute set  per tile, its vertex's TileWork (vector widths and the
//                matrix unit's padding included); the step lasts as long as
//                its slowest tile, and the others wait for it (sync).
//   exchange     per tile, the latency plus the larger of the bytes it
//                sent and received over the fabric's bandwidth; the step
//                lasts as long as its busiest tile.
//   sync         the target's sync cycles, every tile syncing.
//   host copy    the host link's latency plus the bytes over its
//                bandwidth; the tiles wait (idle).
//   host op      the host's wall time at the target's clock; tiles idle.
//
// Loops and branches count as run: a while loop's steps once per trip it
// made. Every tile's cycles add up to the run's: compute + exchange + sync
// + idle.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_RUNTIME_CYCLECLOCK_H
#define TESSERA_RUNTIME_CYCLECLOCK_H

#include "tessera/Runtime/Program.h"
#include "tessera/Runtime/Vertex.h"

#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <vector>

namespace tessera::runtime {

/// How much a profile keeps (the profile_execution flag).
enum class ProfileLevel { Device, Chip, Tile };

/// What the executions of one step in one run cost.
struct StepTotals {
  int64_t executions = 0;
  int64_t cycles = 0;
  int64_t flops = 0;
  int64_t bytes = 0;       ///< exchanged, or moved to or from the host
  int64_t activeTiles = 0; ///< most tiles working in one execution
  int64_t hostNs = 0;      ///< host ops: wall time
};

/// Where one tile's cycles went in one run; idle is the rest.
struct TileTotals {
  int64_t compute = 0, exchange = 0, sync = 0;
};

/// One executed step, as the interval report and the timeline see it.
/// The per-tile views are valid only during StepListener::stepRan.
struct StepInterval {
  const exe::Step *step = nullptr;
  int64_t start = 0;  ///< cycle of the run it started at
  int64_t cycles = 0;
  int64_t computing = 0, exchanging = 0, syncing = 0; ///< tiles
  int64_t flops = 0;
  int64_t bytes = 0; ///< exchanged, or moved to or from the host
  /// A compute set: tile firstTile + i did work[i].
  int64_t firstTile = 0;
  llvm::ArrayRef<TileWork> work;
  /// An exchange: (tile, cycles) of every tile sending or receiving.
  llvm::ArrayRef<std::pair<int64_t, int64_t>> exchangeTiles;
};

/// Told about every executed step, in order (the interval report, the
/// trace writer).
class StepListener {
public:
  virtual ~StepListener();
  virtual void stepRan(const StepInterval &interval) = 0;
};

class CycleClock {
public:
  CycleClock(const Program &program, ProfileLevel level);
  ~CycleClock();

  ProfileLevel level() const { return lvl; }
  const ComputeRates &rates() const { return computeRates; }
  void setListener(StepListener *l) { listener = l; }

  /// Starts counting a run from cycle 0.
  void beginRun();

  /// Per-tile work slots of a compute set over `tiles` tiles, filled by
  /// the device's threads (one slot per tile, so no locking).
  llvm::MutableArrayRef<TileWork> workSlots(int64_t tiles);
  /// The compute set `step` ran; its tiles' work is in the work slots.
  void computeSetRan(const exe::Step &step);
  void exchangeRan(const exe::Step &step);
  void syncRan(const exe::Step &step);
  /// A collective: the step's estimate (the ring over the replicas' chips,
  /// computed by the compiler's cost model), on every tile of the source,
  /// after `waitCycles` in which every tile waited for the group's last
  /// member to reach it (replicas that took different paths).
  void collectiveRan(const exe::Step &step, int64_t waitCycles = 0);
  void hostCopyRan(const exe::Step &step, int64_t bytes);
  void hostComputeRan(const exe::Step &step, int64_t wallNs);

  /// The run so far.
  int64_t cycles() const { return now; }
  const llvm::DenseMap<const exe::Step *, StepTotals> &steps() const {
    return stepTotals;
  }
  /// Per tile (chip and tile levels); sync steps are added in here.
  std::vector<TileTotals> tiles() const;

  /// The cycles and per-tile bytes of an exchange (computed once).
  struct ExchangeCost {
    int64_t cycles = 0;
    int64_t bytes = 0;
    std::vector<std::pair<int64_t, int64_t>> tileCycles; ///< (tile, cycles)
  };
  const ExchangeCost &exchangeCost(const exe::Exchange &exchange);

private:
  void finishStep(const exe::Step &step, int64_t cycles, StepTotals delta,
                  StepInterval interval);

  const Program &program;
  ProfileLevel lvl;
  ComputeRates computeRates;
  StepListener *listener = nullptr;
  int64_t now = 0;
  /// Sync steps' cycles, which every tile spends syncing.
  int64_t syncAll = 0;
  std::vector<TileWork> slots;
  std::vector<TileTotals> perTile;
  llvm::DenseMap<const exe::Step *, StepTotals> stepTotals;
  llvm::DenseMap<const exe::Exchange *, std::unique_ptr<ExchangeCost>>
      exchanges;
};

} // namespace tessera::runtime

#endif // TESSERA_RUNTIME_CYCLECLOCK_H
