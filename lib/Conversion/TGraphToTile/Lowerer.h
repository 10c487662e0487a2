//===- Lowerer.h - the tgraph-to-tile lowering's internals -------*- C++
//-*-===//
//
// Private to lib/Conversion/TGraphToTile: the Lowerer walks @main and emits buffers and
// steps; its per-family methods live in one file each (TGraphToTile.cpp:
// driver, buffers, steps, elementwise, host; LowerDataMovement.cpp;
// LowerReduce.cpp; LowerDot.cpp; LowerConvolution.cpp; LowerReduceWindow.cpp;
// LowerControlFlow.cpp; LowerCollectives.cpp; LowerBatchNorm.cpp;
// LowerIndexed.cpp with LowerGather.cpp, LowerScatter.cpp and LowerSort.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_CONVERSION_TGRAPHTOTILE_LOWERER_H
#define TESSERA_CONVERSION_TGRAPHTOTILE_LOWERER_H

#include "tessera/Conversion/TGraphToTile/ChipPlacement.h"
#include "tessera/Conversion/TGraphToTile/FoldQueue.h"
#include "tessera/Conversion/TGraphToTile/MappingPlanner.h"
#include "tessera/Conversion/TGraphToTile/TGraphToTile.h"
#include "tessera/Dialect/TGraph/IR/TGraph.h"
#include "tessera/Dialect/Tile/IR/Tile.h"
#include "tessera/Target/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

#include <deque>
#include <map>
#include <memory>
#include <optional>

namespace tessera {
class WholeDimSplit;
} // namespace tessera

namespace tessera::lowering {

/// A convolution's planned buffers and copies, as attributes
/// (LowerConvolution.cpp).
struct ConvLowering;

/// An exchange's copies as a plan holds them: runs and their strides
/// (null: none), or a fold still running on the lowering's FoldQueue,
/// whose runs the exchange gets once it is done (Lowerer::harvestFolds).
struct ExchangeCopies {
  mlir::DenseI64ArrayAttr copies, strided;
  FoldQueue::Ticket pending;
};

/// Budgets that keep the exact per-element copy planning bounded; an op over
/// them is left on the host as "not-lowered" (with the budget in `detail`)
/// until block-wise copy planning exists.
inline constexpr int64_t kMaxCopyElements = int64_t(1) << 24;
inline constexpr int64_t kMaxCopyRuns = int64_t(1) << 16;
/// Copy folds of at least this many pieces run on the FoldQueue; smaller
/// ones cost less than handing them over.
inline constexpr size_t kFoldLaterPieces = 1024;
/// Pieces waiting for or in a fold on the FoldQueue (64 bytes each): past
/// this the lowering folds the next itself.
inline constexpr size_t kMaxPendingFoldPieces = size_t(1) << 16;
/// A view exchange of at most this many elements is listed as copies when
/// they are compact.
inline constexpr int64_t kMaxListedViewElements = int64_t(1) << 16;
/// Calls, loops and branches nested deeper than this stay on the host.
inline constexpr int64_t kMaxControlFlowDepth = 64;

/// Tensor leaves of a type, in tuple order: tokens have none, tuples recurse.
void flattenLeaves(mlir::Type type, mlir::SmallVectorImpl<mlir::Type> &leaves);
int64_t numLeaves(mlir::Type type);
/// The element type of a split contraction's partial sums: f32 for 16-bit
/// floats (as the chips' matrix units accumulate, and PopLibs' default
/// partials type), so splitting K does not round each slice; `elt`
/// otherwise.
mlir::Type partialsType(mlir::Type elt);
/// Static-shape ranked tensors get buffers; anything else stays on the host.
mlir::RankedTensorType bufferableTensor(mlir::Type type);
/// The mapping runs / element count of a buffer (a tile.var result).
mlir::ArrayRef<int64_t> runsOf(mlir::Value buffer);
int64_t elementsOf(mlir::Value buffer);
/// Row-major strides of a shape, and a flat index as coordinates.
mlir::SmallVector<int64_t> stridesOf(mlir::ArrayRef<int64_t> shape);
void unravel(int64_t index, mlir::ArrayRef<int64_t> shape,
             mlir::SmallVectorImpl<int64_t> &out);
/// unravel for indices visited mostly in order (planElementCopies asks for
/// 0, 1, 2, ...): the next index is an increment of the coordinates left by
/// the previous call, anything else a full unravel.
class RowMajorCursor {
public:
  explicit RowMajorCursor(mlir::ArrayRef<int64_t> shape) : shape(shape) {}
  void moveTo(int64_t index, mlir::SmallVectorImpl<int64_t> &coords);

private:
  mlir::ArrayRef<int64_t> shape;
  int64_t last = -2;
};
/// The vertex kind of a reducer region made of one known binary op on its
/// two arguments ("add", "maximum", ...), or "" for anything else.
std::string reducerKind(mlir::Region &body);
/// Bytes of one element (4 when the dtype has no known size).
int64_t bytesOfElement(mlir::Type elementType);
/// The one buffer of a tensor value, or null (none yet, or a tuple).
mlir::Value singleBuffer(const mlir::DenseMap<mlir::Value, mlir::SmallVector<mlir::Value>> &buffers,
                   mlir::Value value);

/// The bytes of `pointers` (uniqued attributes and types: their addresses
/// name their contents) then of `numbers`, in order, as a lookup key for
/// the lowering's memos of plans.
std::string planKey(mlir::ArrayRef<const void *> pointers,
                    std::initializer_list<mlir::ArrayRef<int64_t>> numbers);

/// A one-input reduction's reducer kind ("add", ...), result type, input
/// buffer and scalar init buffer.
struct ReductionOperands {
  std::string kind;
  mlir::RankedTensorType outType;
  mlir::Value input, init;
};

/// A buffer of an op indexed at run time (LowerIndexed.cpp), laid out by
/// positions (IndexedLayout.h): an existing buffer to use in place or
/// re-lay (`source`), or a new one (no source).
struct PositionedBuffer {
  mlir::Value source;
  mlir::SmallVector<int64_t> shape;
  int64_t elementBytes = 0;
  /// An element's position: its coordinates dotted with these strides.
  mlir::SmallVector<int64_t> positionStrides;
};

/// Where the buffers of an indexed op go: runs and re-layout copies per
/// PositionedBuffer (no copies: already in place), the tiles holding
/// positions (ascending), the copies replicating the index buffer on them,
/// and why.
struct PositionedPlan {
  mlir::SmallVector<mlir::SmallVector<int64_t>> runs, copies;
  mlir::SmallVector<int64_t> tiles, replicateCopies;
  std::string why;
};

class Lowerer {
public:
  /// `numTiles` is one chip's: every op is planned on the tiles of the
  /// chip `placement` gives it, numbered from 0 on that chip, and the
  /// program's tiles are renumbered system-wide at the end
  /// (placeTilesOnChips). A spread placement plans every op over all its
  /// chips' tiles at once, a mixed one its group's ops over the group's.
  Lowerer(mlir::ModuleOp module, const TargetDescription &target,
          const ChipPlacement &placement,
          const TileLoweringOptions::MadeBuffer &madeBuffer = {})
      : module(module), target(target), placement(placement),
        builder(module.getContext()),
        numTiles(placement.tilesOn(0, target.tilesPerChip)),
        madeBuffer(placement.chips == 1 ? madeBuffer : nullptr) {}

  mlir::LogicalResult run(mlir::func::FuncOp entry, TileLoweringStats &stats);

private:
  // Buffers and names.
  std::string uniqueName(mlir::StringRef base);
  mlir::Value makeVar(mlir::Location loc, mlir::StringRef name, tile::Category category,
                const PlannedMapping &plan, mlir::ArrayRef<int64_t> shape,
                mlir::Type elementType, mlir::StringRef hlo);
  mlir::Value makeVar(mlir::Location loc, mlir::StringRef name,
                      tile::Category category, tile::MappingAttr mapping,
                      mlir::StringRef why, mlir::ArrayRef<int64_t> shape,
                      mlir::Type elementType, mlir::StringRef hlo);
  /// A linear var for `type`; `graphValue`, the tgraph value it holds, lets
  /// the grain follow its users (kernelGrain).
  mlir::Value makeLinearVar(mlir::Location loc, mlir::StringRef name,
                            tile::Category category,
                            mlir::RankedTensorType type, mlir::StringRef hlo,
                            mlir::Value graphValue = {});
  /// `grain`, or for a convolution kernel (`graphValue` is some
  /// convolution's rhs) a multiple of its innermost dimension, so each tile
  /// holds whole rows and a weight block split by input feature moves as a
  /// few strided runs, not pieces cut wherever a tile's elements end. Kept
  /// only while it costs a tile at most twice its even share, or
  /// a 64th of its memory.
  int64_t kernelGrain(mlir::Value graphValue, int64_t grain) const;
  /// kernelGrain's grain for a tensor of `shape`; unless that made it a
  /// kernel's, on a target whose layout tile has several rows, whichever of
  /// the vector grain and the whole sub-boxes prod(shape[d:]) (each tile
  /// within a quarter above its even share) takes the fewest layout-tile
  /// slots over the tiles (Layout.h): a part cut mid-row pays for whole
  /// layout tiles, a block only for its remainder.
  int64_t linearGrain(mlir::Value graphValue, mlir::ArrayRef<int64_t> shape,
                      int64_t grain) const;
  /// planLinear, started where the chip is emptiest (`load`) when the
  /// tensor covers only part of it; tensors of one element count share
  /// their start, so elementwise ops between them move no data.
  PlannedMapping planBalancedLinear(int64_t numElements, int64_t grain);
  tile::Category resultCategory(mlir::Value result) const {
    return returned.contains(result) ? tile::Category::Output
                                     : tile::Category::Temporary;
  }

  // Steps; each keeps the sync bookkeeping.
  void syncBeforeReading(mlir::ValueRange reads);
  /// Tiles holding elements of every buffer, as maximal contiguous ranges
  /// in tile order: a compute set may only run where each of its operands
  /// has data.
  llvm::SmallVector<std::pair<int64_t, int64_t>>
  commonTileRanges(mlir::ValueRange buffers);
  /// tile::tilesWithElements of `mapping` on this chip's tiles, remembered
  /// per mapping (attributes are uniqued): every compute set on a buffer
  /// reads them, and a matrix split by column blocks has runs for every
  /// row (4096 for bert_small_train's logits).
  llvm::ArrayRef<std::pair<int64_t, int64_t>>
  tileRangesOf(tile::MappingAttr mapping);
  void emitComputeSet(mlir::Location loc, mlir::StringRef name, mlir::StringRef kind,
                      mlir::ValueRange ins, mlir::ValueRange outs,
                      mlir::ArrayRef<mlir::NamedAttribute> attrs = {});
  /// Listed copies; `strided` (five per run, or none) makes runs strided.
  void emitExchange(mlir::Location loc, mlir::StringRef name, mlir::Value src,
                    mlir::Value dst, mlir::ArrayRef<int64_t> copies,
                    mlir::ArrayRef<int64_t> strided = {});
  /// The same with the copies as attributes (null: none).
  void emitExchange(mlir::Location loc, mlir::StringRef name, mlir::Value src,
                    mlir::Value dst, mlir::DenseI64ArrayAttr copies,
                    mlir::DenseI64ArrayAttr strided = {});
  /// The same with copies that may still be folding: the exchange is made
  /// now, and gets them when the fold is done (harvestFolds).
  void emitExchange(mlir::Location loc, mlir::StringRef name, mlir::Value src,
                    mlir::Value dst, const ExchangeCopies &copies);
  /// Gives the exchanges waiting for folds that are done their runs, in
  /// the order they were made; with `all`, waits for every fold first.
  void harvestFolds(bool all);
  /// An exchange whose copies are implied by a view of `src` (dst element
  /// at idx = src element offset + sum idx[d] * strides[d]); listed instead
  /// when `dst` has at most `listUpTo` elements and the copies are compact.
  void emitViewExchange(mlir::Location loc, mlir::StringRef name, mlir::Value src, mlir::Value dst,
                        int64_t offset, mlir::ArrayRef<int64_t> strides,
                        int64_t listUpTo = kMaxListedViewElements);
  tile::ExchangeOp createExchange(mlir::Location loc, mlir::StringRef name,
                                 mlir::Value src, mlir::Value dst,
                                 mlir::DenseI64ArrayAttr copies,
                                 mlir::DenseI64ArrayAttr viewStrides,
                                 mlir::IntegerAttr viewOffset,
                                 mlir::DenseI64ArrayAttr strided = {});
  void emitHostCopy(mlir::Location loc, tile::HostDirection direction, mlir::Value buffer);
  mlir::Value replicateScalar(mlir::Location loc, mlir::StringRef name, mlir::Value scalar, mlir::Value like);

  // Per-op lowerings. Each returns false, having emitted nothing, when it
  // cannot lower the op; the caller then leaves the op on the host.
  void lowerOp(mlir::Operation *op, mlir::StringRef name);
  void lowerOnHost(mlir::Operation *op, mlir::StringRef name, mlir::StringRef reason,
                   mlir::StringRef detail);
  /// The op's kOpIdAttr, assigned on first use.
  mlir::IntegerAttr opId(mlir::Operation *op);
  bool lowerElementwise(mlir::Operation *op, mlir::StringRef name);
  bool lowerAlias(mlir::Operation *op, mlir::StringRef name);
  bool lowerCopyOp(mlir::Operation *op, mlir::StringRef name, std::string &detail);
  bool lowerBookkeeping(mlir::Operation *op);
  /// infeed / outfeed as host copies into / out of the tiles.
  bool lowerHostTransfer(mlir::Operation *op, mlir::StringRef name);
  /// The operands of a one-input reduction whose body is one known binary
  /// op (reduce, reduce_window): nullopt when it has none of that form.
  std::optional<ReductionOperands> reductionOperands(mlir::ValueRange inputs,
                                                     mlir::ValueRange inits,
                                                     mlir::Region &body,
                                                     mlir::Type resultType);
  bool lowerReduce(mlir::Operation *op, mlir::StringRef name, std::string &detail);
  bool lowerDot(mlir::Operation *op, mlir::StringRef name, std::string &detail);
  bool lowerConvolution(mlir::Operation *op, mlir::StringRef name, std::string &detail);
  bool lowerReduceWindow(mlir::Operation *op, mlir::StringRef name, std::string &detail);
  // Ops indexed at run time: LowerIndexed.cpp (shared), LowerGather.cpp
  // (gather, dynamic_slice), LowerScatter.cpp (scatter,
  // dynamic_update_slice), LowerSort.cpp.
  std::optional<PositionedPlan> planPositioned(const WholeDimSplit &split,
                                               mlir::ArrayRef<int64_t> wholeDims,
                                               mlir::ArrayRef<PositionedBuffer> bufs,
                                               mlir::Value replicated,
                                               std::string &detail);
  mlir::Value placePositioned(mlir::Location loc, mlir::StringRef name, mlir::Value source,
                        const PositionedPlan &plan, size_t index);
  mlir::Value replicateIndices(mlir::Location loc, mlir::StringRef name, mlir::Value indices,
                         const PositionedPlan &plan);
  bool lowerGather(mlir::Operation *op, mlir::StringRef name, std::string &detail);
  /// A gather read from its table where the table is (LowerGather.cpp),
  /// when that beats the split `plan` (nullopt: none fits) on the worst
  /// tile; false, having emitted nothing, otherwise.
  bool lowerGatherInPlace(mlir::Operation *op, mlir::StringRef name,
                          mlir::Value table, mlir::Value indices,
                          mlir::RankedTensorType outType,
                          mlir::ArrayRef<mlir::NamedAttribute> attrs,
                          const std::optional<PositionedPlan> &plan);
  bool lowerScatter(mlir::Operation *op, mlir::StringRef name, std::string &detail);
  bool lowerSort(mlir::Operation *op, mlir::StringRef name, std::string &detail);
  void lowerOutputs(mlir::func::ReturnOp ret);
  /// Marks the buffers holding `values` (an op's results, or an argument)
  /// with `result = <leaf index>`: they are the model's tensors in the
  /// tensor map, unlike the helper buffers the lowering adds. An op's
  /// buffers also get `result_of = <its tile.op_id>`, so a debugging run can
  /// check the op alone on the values the device gave it.
  void markResults(mlir::ValueRange values, mlir::StringRef name,
                   mlir::Operation *op = nullptr);
  void lowerBlock(mlir::Block &block, mlir::StringRef prefix);

  // Chips (TGraphToTile.cpp, "Chips"): while an op is lowered every buffer
  // it makes is on `currentChip`; its operands held on another chip are
  // copied over first.
  /// Binds the op's operands to copies on `currentChip` where they are
  /// elsewhere; returns the bindings to restore after the op.
  mlir::SmallVector<std::pair<mlir::Value, mlir::SmallVector<mlir::Value>>>
  localizeOperands(mlir::Operation *op, mlir::StringRef name);
  int64_t chipOf(mlir::Value buffer) const { return bufferChip.lookup(buffer); }
  /// Makes `chip` the current one, with the tiles its ops are planned over.
  void setChip(int64_t chip) {
    currentChip = chip;
    numTiles = placement.tilesOn(chip, target.tilesPerChip);
  }
  /// Renumbers the program's tiles system-wide: a buffer on chip c moves
  /// from tile t of its chip to c * tilesPerChip + t, with its steps.
  void placeTilesOnChips(tile::ProgramOp program);

  // Control flow (LowerControlFlow.cpp): while -> tile.repeat, conditional
  // -> tile.if, call / fusion inlined.
  bool lowerControlFlow(mlir::Operation *op, mlir::StringRef name, std::string &detail);
  bool lowerWhile(tgraph::WhileOp op, mlir::StringRef name, std::string &detail);
  bool lowerConditional(tgraph::ConditionalOp op, mlir::StringRef name,
                        std::string &detail);
  bool lowerCall(mlir::Operation *op, mlir::FlatSymbolRefAttr callee, mlir::ValueRange inputs,
                 mlir::StringRef name, std::string &detail);
  /// The callee of a computation reference, or null with `detail` saying
  /// why it cannot be lowered inline (missing, external, several blocks,
  /// already being lowered: recursion).
  mlir::func::FuncOp inlinableCallee(mlir::FlatSymbolRefAttr callee, std::string &detail);
  /// Lowers `fn`'s body at the insertion point with its arguments bound to
  /// `args` (the buffers of each argument's leaves) and returns the
  /// buffers of its results' leaves.
  mlir::SmallVector<mlir::Value> lowerBodyInline(mlir::func::FuncOp fn,
                                     mlir::ArrayRef<mlir::SmallVector<mlir::Value>> args,
                                     mlir::StringRef prefix);
  /// Copies buffers into others of the same element counts by exchange
  /// (a parallel assignment: safe when a source is also a destination).
  void copyInto(mlir::Location loc, mlir::StringRef name, mlir::ArrayRef<mlir::Value> from,
                mlir::ArrayRef<mlir::Value> to, bool destsMayBeRead);
  /// The loop-init buffers nothing reads after `op`.
  mlir::DenseSet<mlir::Value> deadAfter(mlir::Operation *op, mlir::ArrayRef<mlir::Value> init);
  /// A tile.sync unless the last step emitted already is one.
  void syncAll(mlir::Location loc);

  // Collectives (LowerCollectives.cpp); batch norm (LowerBatchNorm.cpp).
  bool lowerCollective(mlir::Operation *op, mlir::StringRef name, std::string &detail);
  std::string tooFewChips() const;
  /// A collective over several devices as tile.collective steps.
  bool lowerCollectiveSteps(mlir::Operation *op, mlir::StringRef name,
                            std::string &detail);
  bool lowerBatchNorm(mlir::Operation *op, mlir::StringRef name, std::string &detail);

  mlir::ModuleOp module;
  const TargetDescription &target;
  const ChipPlacement &placement;
  mlir::OpBuilder builder;
  /// Tiles the current op is planned over (see the constructor).
  int64_t numTiles;
  /// Told of each var made, on one chip (where the program's tiles are
  /// numTiles and mappings keep their numbers): TileLoweringOptions.
  TileLoweringOptions::MadeBuffer madeBuffer;
  /// The chip of the op being lowered, and of each buffer made (absent:
  /// chip 0).
  int64_t currentChip = 0;
  mlir::DenseMap<mlir::Value, int64_t> bufferChip;
  /// Copies of a graph value's buffers on another chip, made once.
  mlir::DenseMap<std::pair<mlir::Value, int64_t>,
                 mlir::SmallVector<mlir::Value>>
      chipCopies;
  /// The entry's block: its ops are the ones placed on chips.
  mlir::Block *entryBlock = nullptr;
  /// Devices the program runs on at once (tile.program's `replicas`): the
  /// module's replicas times partitions when the target has chips for all
  /// of them, else 1 (collectives over several stay on the host).
  int64_t replicas = 1;
  TileLoweringStats *stats = nullptr;
  /// Bytes of every var made so far, per tile of each chip (makeVar adds
  /// them).
  std::map<int64_t, TileLoad> loads;
  TileLoad &load() {
    return loads.try_emplace(currentChip, numTiles).first->second;
  }
  /// The start tile chosen for each (chip, element count) of a linear
  /// mapping that covers part of the chip.
  llvm::DenseMap<std::pair<int64_t, int64_t>, int64_t> linearStarts;
  /// tileRangesOf's answers (vectors: their elements stay put as the map
  /// grows).
  llvm::DenseMap<mlir::Attribute, std::vector<std::pair<int64_t, int64_t>>>
      tileRanges;
  /// Buffers of each tgraph value, one per tensor leaf (null: no buffer, e.g.
  /// a dynamic shape).
  mlir::DenseMap<mlir::Value, mlir::SmallVector<mlir::Value>> buffers;
  /// tgraph values the entry returns (their buffers are outputs).
  mlir::DenseSet<mlir::Value> returned;
  /// Buffers written since the last tile.sync, and those of them written by
  /// a compute set (an exchange into one must wait for its vertices).
  mlir::DenseSet<mlir::Value> dirty, computeDirty;
  llvm::StringMap<int64_t> names;
  /// Alias vars (reshape, collectives over one replica) name the elements
  /// of another buffer: the var they are stored in. Steps write only
  /// storage vars, so a read of an alias waits for writes to its storage.
  mlir::DenseMap<mlir::Value, mlir::Value> aliasStorage;
  /// The copies viewCopyRuns listed for each view (null: too fragmented
  /// to list), by their source and destination mappings, destination type,
  /// run budget, offset and strides (attributes and types are uniqued, so
  /// their addresses name their contents): a model repeats a few views
  /// many times (mobilenetv2: 257 unlistable views, 31 distinct; a
  /// transformer's layers the same transposes), and each answer costs a
  /// walk of up to every element. The copies are uniqued attributes too,
  /// which the exchange holds anyway.
  llvm::StringMap<mlir::DenseI64ArrayAttr> viewCopies;
  /// Copy runs that re-lay `buffer` out on `target` (same element count):
  /// null when the layouts already agree, nullopt when they would be more
  /// than `maxRuns` (the caller then uses an identity view exchange).
  /// Interval by interval, so any tensor size is fine. Remembered by the
  /// two mappings (uniqued, so their addresses name their runs) and the
  /// budget: an elementwise chain re-lays the same layouts again and again
  /// (mobilenetv2: 262 re-layouts, 25 distinct). The copies are uniqued
  /// attributes too, which the exchange holds anyway.
  std::optional<mlir::DenseI64ArrayAttr>
  relayoutCopies(mlir::Value buffer, tile::MappingAttr target,
                 int64_t maxRuns);
  llvm::StringMap<std::optional<mlir::DenseI64ArrayAttr>> relayouts;
  static constexpr size_t kMaxRelayouts = 4096;
  /// What replicateScalar made for a scalar's mapping and its consumer's:
  /// the copies' mapping, the broadcast (a copy per tile, folded: its runs
  /// and their strides) and the number of copies. A graph multiplies by
  /// the same scalar over the same layouts again and again; each
  /// replication otherwise built and uniqued its copies again.
  struct Replication {
    tile::MappingAttr mapping;
    mlir::DenseI64ArrayAttr copies, strided;
    int64_t count = 0;
  };
  llvm::DenseMap<std::pair<const void *, const void *>, Replication>
      replications;
  static constexpr size_t kMaxReplications = 4096;
  /// The convolutions planned so far, by everything a plan depends on (see
  /// lowerConvolution): a model repeats a few convolutions many times on
  /// the same layouts (a ResNet stage's, a generated model's blocks), and
  /// planning one is most of its lowering. A null plan remembers a
  /// convolution left on the host, `noGrid` why.
  struct RememberedConvPlan {
    std::shared_ptr<const ConvLowering> plan;
    bool noGrid = false;
  };
  llvm::StringMap<RememberedConvPlan> convPlans;
  static constexpr size_t kMaxConvPlans = 4096;
  /// Copy folds run meanwhile on other threads (null on one thread), and
  /// the exchanges waiting for their runs, oldest first.
  std::unique_ptr<FoldQueue> folds;
  std::deque<std::pair<tile::ExchangeOp, FoldQueue::Ticket>> foldedLater;
  /// The runs of each fold harvested, as attributes: a remembered plan
  /// hands its tickets to later exchanges. The ticket keeps the (emptied)
  /// fold, so its address is not reused for another.
  struct HarvestedFold {
    FoldQueue::Ticket fold;
    mlir::DenseI64ArrayAttr copies, strided;
  };
  llvm::DenseMap<FoldQueue::Fold *, HarvestedFold> harvested;
  const HarvestedFold &harvest(const FoldQueue::Ticket &ticket);
  /// The first var of each small constant value (and type) on each chip,
  /// which later equal constants alias.
  llvm::DenseMap<std::pair<int64_t, mlir::Attribute>, mlir::Value>
      smallConstants;
  mlir::Value storageOf(mlir::Value buffer) const {
    mlir::Value s = aliasStorage.lookup(buffer);
    return s ? s : buffer;
  }
  /// The outermost tile.repeat / tile.if being filled: vars are declared
  /// before it (null at the program's top level).
  mlir::Operation *varAnchor = nullptr;
  /// Functions being lowered inline (recursion guard).
  mlir::DenseSet<mlir::Operation *> inlining;
  /// Calls, loops and branches being lowered around the current op.
  int64_t controlFlowDepth = 0;
  /// The next `tile.op_id` (kOpIdAttr) for a tgraph op the program refers
  /// to.
  int64_t nextOpId = 0;
};

} // namespace tessera::lowering

#endif // TESSERA_CONVERSION_TGRAPHTOTILE_LOWERER_H
