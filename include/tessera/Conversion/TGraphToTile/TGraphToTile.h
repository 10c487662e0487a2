//===- TGraphToTile.h - lower a tgraph entry function to tiles ---*- C++
//-*-===//
//
// The lowering behind the `tgraph-to-tile` pass, as a library function so
// tools and tests can call it without a pass manager. It reads the
// compatibility verdicts left by tgraph-check-compat and never fails on an op
// it cannot lower: such ops become tile.host_compute steps (reason: the
// checker's reason code, or "not-lowered"), so every model produces a program.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_CONVERSION_TGRAPHTOTILE_TGRAPHTOTILE_H
#define TESSERA_CONVERSION_TGRAPHTOTILE_TGRAPHTOTILE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include "tessera/Dialect/Tile/IR/Tile.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace tessera {

struct TargetDescription;

/// What a lowering produced, for reports and the conformance test.
struct TileLoweringStats {
  int64_t vars = 0;
  int64_t computeSets = 0;
  int64_t exchanges = 0;
  int64_t syncs = 0;
  int64_t hostCopies = 0;
  int64_t hostComputes = 0;
  int64_t tilesUsed = 0; ///< tiles holding at least one element of a buffer
  /// host_compute count per reason ("unsupported-dtype", "not-lowered", ...).
  std::map<std::string, int64_t> hostReasons;
  /// Ops left "not-lowered", per tgraph op name, so the next increment knows
  /// what to do first.
  std::map<std::string, int64_t> notLowered;
};

/// The attribute that numbers a tgraph op the tile program refers to: an op
/// left on the host (a `tile.host_compute`'s `op_id`) or an elided constant
/// (its `tile.var`'s `op_id`). The executable carries the tgraph functions;
/// this is how the runtime finds the op in them.
inline constexpr llvm::StringLiteral kOpIdAttr = "tile.op_id";

/// Name of the tile.program created for entry function @NAME: `NAME.tile`,
/// since the module's symbol table already holds @NAME (the tgraph function,
/// kept so reports can refer back to it).
std::string tileProgramName(llvm::StringRef entry);

/// The function a module's program starts at: `@main` (what the HLO importer
/// names ENTRY), else the only public function with a body (TOSA exports name
/// it `@forward`, `@predict`, ...). Null, with a diagnostic, otherwise.
mlir::func::FuncOp findEntryFunction(mlir::ModuleOp module);

struct TileLoweringOptions {
  /// Chips the program spans (ChipPlacement.h): 1 to the target's chips,
  /// at least what the sharding annotations name.
  int64_t chips = 1;
  /// Spread every op over all the chips' tiles rather than placing each on
  /// one chip (ChipPlacement.h); ignored when the entry has annotations.
  bool spread = false;
  /// A chip's usable bytes, for the stage cut's live estimate
  /// (ChipPlacement.h); 0 keeps the cut by result bytes.
  int64_t chipBytes = 0;
  /// Spread the large ops (each touching over a quarter of `chipBytes`)
  /// over a group of the last chips and place the rest in stages
  /// (ChipPlacement.h); ignored without such ops or with `spread`.
  bool mixed = false;
  /// Told of each buffer a one-chip lowering makes (its type, mapping and
  /// the program's tiles) as it makes it: the compiler works out the
  /// buffer's shares meanwhile (memory::ShareCache).
  using MadeBuffer = std::function<void(
      tile::BufferType type, tile::MappingAttr mapping, int64_t numTiles)>;
  MadeBuffer madeBuffer;
};

/// Lowers the entry function (findEntryFunction) of `module` into a
/// tile.program named tileProgramName(entry) appended to the module. Fails
/// (with a diagnostic) only when there is no entry, a program of that name
/// already exists, or the chips asked for do not fit the target or the
/// annotations.
mlir::LogicalResult lowerEntryToTile(mlir::ModuleOp module,
                                     const TargetDescription &target,
                                     TileLoweringStats *stats = nullptr,
                                     const TileLoweringOptions &options = {});

} // namespace tessera

#endif // TESSERA_CONVERSION_TGRAPHTOTILE_TGRAPHTOTILE_H
