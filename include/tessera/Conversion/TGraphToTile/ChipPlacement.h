//===- ChipPlacement.h - which chip each op of the entry runs on -*- C++
//-*-===//
//
// A program may span several chips of its target (model parallelism): each
// top-level op of the entry runs on one chip, its buffers on that chip's
// tiles, and an operand that lives on another chip is first copied over
// the chips' links by an exchange step (the lowering's localization). This
// file decides the chips, before the lowering:
//
//  - `sharding={maximal device=N}` on an op (the HLO annotation, kept by
//    the importer as `tgraph.sharding`) puts it on chip N;
//  - without annotations, a program over k chips is cut into k pipeline
//    stages in op order, balanced by the bytes each op's results hold
//    (constants and parameters count at their first user, where they go);
//    when that cut leaves a chip with more bytes live than it holds (the
//    estimate counts copies from other chips), the stages are cut instead
//    so that the largest live estimate of any chip is as small as k
//    stages allow;
//  - ops that only rename buffers (tuples, reshapes) follow their operand,
//    constants and parameters their first user;
//  - or, when single ops are too large for one chip (an op, its operands
//    and result must sit on its chip), every op is spread over all k chips'
//    tiles, each tensor split across the chips (`spread`);
//  - or a mix (`mixed`): the large ops (each touching over a quarter of a
//    chip) spread over a group of the last chips, the rest in pipeline
//    stages on the others, so a model whose loss alone fills a chip keeps
//    its many small ops off the spread exchanges.
//
// The tgraph-to-tile pass chooses k (the fewest chips whose tiles hold the
// program, docs/multichip.md).
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_CONVERSION_TGRAPHTOTILE_CHIPPLACEMENT_H
#define TESSERA_CONVERSION_TGRAPHTOTILE_CHIPPLACEMENT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera {

/// One chip's share of the entry, for the compile report.
struct ChipStage {
  int64_t chip = 0;
  int64_t ops = 0;   ///< top-level ops placed on it
  int64_t bytes = 0; ///< their results' (and first-used inputs') bytes
  /// The peak of the bytes the chip holds live (its values and the copies
  /// it receives from other chips, before padding): an estimate.
  int64_t liveBytes = 0;
  std::string firstOp, lastOp;
};

struct ChipPlacement {
  int64_t chips = 1;
  /// Top-level ops of the entry and their chip (absent: chip 0).
  llvm::DenseMap<mlir::Operation *, int64_t> opChip;
  /// Per entry argument.
  std::vector<int64_t> argChip;
  /// How the ops were placed: "single", "annotations", "stages",
  /// "spread" (every op over all the chips' tiles, opChip empty) or
  /// "mixed" (stages, and the large ops over the group below).
  std::string mode = "single";
  bool spread() const { return mode == "spread"; }
  /// The chips the large ops of a mixed placement are spread over:
  /// `groupChips` chips from `groupFirst`; their ops are placed on
  /// `groupFirst` (opChip) and planned over all the group's tiles.
  int64_t groupFirst = -1, groupChips = 0;
  /// The group's estimated peak of live bytes (before padding), which
  /// sized it.
  int64_t groupLiveBytes = 0;
  /// The tiles an op placed on `chip` is planned over.
  int64_t tilesOn(int64_t chip, int64_t tilesPerChip) const {
    if (spread())
      return chips * tilesPerChip;
    return chip == groupFirst ? groupChips * tilesPerChip : tilesPerChip;
  }
  std::vector<ChipStage> stages;
  /// How stages were cut: "bytes" (balanced by result bytes) or "live"
  /// (by the live estimate, as the cut by bytes overflowed a chip), with
  /// the reason for the latter.
  std::string cut = "bytes";
  std::string cutWhy;
  /// Annotations that were read but not applied, and why.
  std::vector<std::string> notes;

  int64_t chipOf(mlir::Operation *op) const { return opChip.lookup(op); }
};

/// The device of a `{maximal device=N}` sharding on `op`, if it has one.
std::optional<int64_t> maximalDevice(mlir::Operation *op);

/// The chips the annotations of `entry` need (1 + the highest device), or 0
/// when it has none.
int64_t annotatedChips(mlir::func::FuncOp entry);

/// The modes tgraph-to-tile's `placement` option (and tessera-compile's
/// `--placement`) takes, as an error message lists them.
inline constexpr llvm::StringLiteral kPlacementModes =
    "auto, stages, spread or mixed";
/// Whether `mode` is one of kPlacementModes.
bool isPlacementMode(llvm::StringRef mode);

/// The largest bytes one top-level op of `entry` touches: its operands and
/// results (what must fit on its chip when ops are placed whole).
int64_t largestOpBytes(mlir::func::FuncOp entry);

/// Places the ops of `entry` on `chips` chips: by the annotations when it
/// has some, else spread when `spread`, else mixed when `mixed` and some op
/// touches over a quarter of `chipBytes` (a chip's usable bytes), else in
/// balanced stages (cut by the live estimate when the balanced cut has a
/// chip live over `chipBytes`; 0: never). `chips` must cover the
/// annotations.
ChipPlacement placeOnChips(mlir::func::FuncOp entry, int64_t chips,
                           bool spread = false, int64_t chipBytes = 0,
                           bool mixed = false);

} // namespace tessera

#endif // TESSERA_CONVERSION_TGRAPHTOTILE_CHIPPLACEMENT_H
