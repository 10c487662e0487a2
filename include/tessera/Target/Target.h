//===- Target.h - Tessera target description --------------------*- C++ -*-===//
//
// The data that describes one tile accelerator system: how many chips and
// tiles, how much SRAM, how fast the units and the fabric are, which dtypes
// and ops it accepts and under which constraints. Every later layer (the
// compatibility checker, mapping, liveness, padding, the cost model) reads
// hardware facts from here and nowhere else, so a new chip is a JSON file,
// not a code change (see docs/targets.md).
//
// This header depends on LLVMSupport only: tools and the runtime can use it
// without pulling in MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TARGET_TARGET_H
#define TESSERA_TARGET_TARGET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tessera {

/// A bidirectional link between two chips of a system.
struct ChipLink {
  int64_t chipA = 0;
  int64_t chipB = 0;
  int64_t bandwidthBytesPerSecond = 0;
  int64_t latencyCycles = 0;

  bool operator==(const ChipLink &o) const;
};

/// Per-tile memory the compiler may not allocate tensors in.
struct ReservedBytes {
  int64_t code = 0;  ///< program code (vertex code is counted separately)
  int64_t stack = 0; ///< worker and supervisor stacks

  bool operator==(const ReservedBytes &o) const;
};

/// The matrix unit: per cycle it multiplies an M×K by a K×N block
/// (M·N·K multiply-accumulates), for any of `dtypes`.
struct MatrixUnit {
  int64_t m = 0, n = 0, k = 0;
  std::vector<std::string> dtypes;

  int64_t macsPerCycle() const { return m * n * k; }
  bool operator==(const MatrixUnit &o) const;
};

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

/// The fit of a [batch, m, n, k] block on `unit`.
MatmulFit matmulFit(int64_t batch, int64_t m, int64_t n, int64_t k,
                    const MatrixUnit &unit);

/// The on-tile buffer layout tile: a tile stores each buffer block in whole
/// [rows, cols] layout tiles (see LayoutView).
struct LayoutTile {
  int64_t rows = 1;
  int64_t cols = 1;

  bool operator==(const LayoutTile &o) const;
};

/// The on-chip tile-to-tile fabric.
struct ExchangeSpec {
  int64_t bandwidthBytesPerCycle = 0; ///< per tile
  int64_t latencyCycles = 0;          ///< first byte, any pair of tiles

  bool operator==(const ExchangeSpec &o) const;
};

/// The host ↔ chip link used by infeed/outfeed and host copies.
struct HostLink {
  int64_t bandwidthBytesPerSecond = 0;
  int64_t latencyCycles = 0;

  bool operator==(const HostLink &o) const;
};

/// Bytes the program itself costs on a tile, beyond its tensors: later used
/// by the memory estimate (code and state of each vertex and exchange).
struct ProgramOverheads {
  int64_t vertexCodeBytes = 0;    ///< per distinct vertex kind on a tile
  int64_t vertexStateBytes = 0;   ///< per vertex instance
  int64_t exchangeCodeBytes = 0;  ///< per exchange a tile takes part in
  int64_t exchangeStateBytes = 0; ///< per exchange a tile takes part in

  bool operator==(const ProgramOverheads &o) const;
};

/// What a target accepts for one tgraph op. The op is supported iff the
/// target has an OpConstraint for it. Constraints are generic, keyed by name
/// (see constraintKeys() in TargetSchema.h for the vocabulary):
///  - `max_*` limits: an integer upper bound (absent: unbounded),
///  - `allow_*` flags: whether a feature may be used (absent: allowed),
///  - name lists such as custom_call `targets` (absent: anything),
///  - `dtypes`: element types this op accepts (empty: every target dtype).
struct OpConstraint {
  std::string op;
  std::vector<std::string> dtypes;
  std::map<std::string, int64_t> limits;
  std::map<std::string, bool> flags;
  std::map<std::string, std::vector<std::string>> nameLists;
  std::string note; ///< free text shown in reports, e.g. why a limit exists

  /// The `max_*` bound of `key`, or nullopt when unbounded.
  std::optional<int64_t> limit(llvm::StringRef key) const;
  /// Whether `allow_*` flag `key` permits the feature (absent → true).
  bool allows(llvm::StringRef key) const;
  /// Whether `dtype` is accepted by this op (does not re-check the target).
  bool allowsDtype(llvm::StringRef dtype) const;
  /// Whether `name` is in name list `key` (absent list → any name).
  bool allowsName(llvm::StringRef key, llvm::StringRef name) const;

  bool operator==(const OpConstraint &o) const;
};

/// Padding of one on-tile buffer under the layout-tile rule.
struct PaddedSize {
  int64_t usefulElements = 0;
  int64_t paddedElements = 0;
  int64_t usefulBytes = 0;
  int64_t paddedBytes = 0;

  /// useful / padded, in [0, 1]; 1 for an empty buffer (nothing wasted).
  double usefulFraction() const;
};

/// One accelerator system. Build it with parseTarget() or a preset; the
/// parser guarantees every invariant documented in docs/targets.md (positive
/// counts, dtype lists drawn from `dtypes`, reserved < SRAM, ...).
struct TargetDescription {
  std::string name;
  std::string description;
  int64_t chips = 1;
  std::vector<ChipLink> chipLinks;
  int64_t tilesPerChip = 0;
  int64_t sramBytesPerTile = 0;
  ReservedBytes reservedBytesPerTile;
  int64_t clockHz = 0;
  /// Elements per cycle of the vector unit, per dtype name.
  std::map<std::string, int64_t> vectorWidth;
  MatrixUnit matrixUnit;
  LayoutTile layoutTile;
  /// Every on-tile buffer starts at a multiple of this many bytes and its
  /// size is rounded up to it (a power of two).
  int64_t alignmentBytes = 1;
  ExchangeSpec exchange;
  int64_t syncCycles = 0;
  HostLink hostLink;
  ProgramOverheads overheads;
  /// Element types the target stores and computes, by HLO name (f32, bf16).
  std::vector<std::string> dtypes;
  /// Supported ops, in file order.
  std::vector<OpConstraint> ops;
  /// Vertex kinds the tile runtime implements (see vertexKinds()).
  std::vector<std::string> runtimeOps;

  /// Tiles in the whole system (chips × tiles per chip).
  int64_t totalTiles() const { return chips * tilesPerChip; }
  /// SRAM per tile left for tensors after code and stack.
  int64_t usableBytesPerTile() const;
  /// usableBytesPerTile() over every tile of the system.
  int64_t usableBytesTotal() const {
    return totalTiles() * usableBytesPerTile();
  }
  /// Size of an on-tile buffer of `shape` with `dtypeBytes`-byte elements
  /// stored whole in its least-padded LayoutView (Layout.h); negative
  /// (dynamic) dims count as 0.
  PaddedSize paddedSize(llvm::ArrayRef<int64_t> shape,
                        int64_t dtypeBytes) const;
  bool supportsDtype(llvm::StringRef dtype) const;
  /// The constraints of `op` (a tgraph op name without the dialect prefix,
  /// e.g. "convolution"), or null when the target does not support it.
  const OpConstraint *opConstraint(llvm::StringRef op) const;
  bool runtimeImplements(llvm::StringRef vertexKind) const;
  /// Vector elements per cycle for `dtype`; 0 when the target gives none.
  int64_t vectorWidthFor(llvm::StringRef dtype) const;

  bool operator==(const TargetDescription &o) const;
  bool operator!=(const TargetDescription &o) const { return !(*this == o); }
};

} // namespace tessera

#endif // TESSERA_TARGET_TARGET_H
