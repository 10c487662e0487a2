//===- Lowerer.h - the tgraph-to-tile lowering's internals -------*- C++
//-*-===//
//
// Private to lib/Lowering: the Lowerer walks @main and emits buffers and
// steps; its per-family methods live in one file each (TGraphToTile.cpp:
// driver, buffers, steps, elementwise, host; LowerDataMovement.cpp;
// LowerReduce.cpp; LowerDot.cpp; LowerConvolution.cpp; LowerReduceWindow.cpp;
// LowerControlFlow.cpp; LowerCollectives.cpp; LowerBatchNorm.cpp;
// LowerIndexed.cpp with LowerGather.cpp, LowerScatter.cpp and LowerSort.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_LIB_LOWERING_LOWERER_H
#define TESSERA_LIB_LOWERING_LOWERER_H

#include "tessera/Dialect/TGraph/IR/TGraph.h"
#include "tessera/Dialect/Tile/IR/Tile.h"
#include "tessera/Lowering/MappingPlanner.h"
#include "tessera/Lowering/TGraphToTile.h"
#include "tessera/Target/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

#include <optional>

namespace tessera {
class WholeDimSplit;
} // namespace tessera

namespace tessera::lowering {

using namespace mlir;

/// Budgets that keep the exact per-element copy planning bounded; an op over
/// them is left on the host as "not-lowered" (with the budget in `detail`)
/// until block-wise copy planning exists.
inline constexpr int64_t kMaxCopyElements = int64_t(1) << 24;
inline constexpr int64_t kMaxCopyRuns = int64_t(1) << 16;
/// A view exchange of at most this many elements is listed as copies when
/// they are compact.
inline constexpr int64_t kMaxListedViewElements = int64_t(1) << 16;

/// Tensor leaves of a type, in tuple order: tokens have none, tuples recurse.
void flattenLeaves(Type type, SmallVectorImpl<Type> &leaves);
int64_t numLeaves(Type type);
/// The element type of a split contraction's partial sums: f32 for 16-bit
/// floats (as the chips' matrix units accumulate, and PopLibs' default
/// partials type), so splitting K does not round each slice; `elt`
/// otherwise.
Type partialsType(Type elt);
/// Static-shape ranked tensors get buffers; anything else stays on the host.
RankedTensorType bufferableTensor(Type type);
/// The mapping runs / element count of a buffer (a tile.var result).
ArrayRef<int64_t> runsOf(Value buffer);
int64_t elementsOf(Value buffer);
/// Row-major strides of a shape, and a flat index as coordinates.
SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape);
void unravel(int64_t index, ArrayRef<int64_t> shape,
             SmallVectorImpl<int64_t> &out);
/// unravel for indices visited mostly in order (planElementCopies asks for
/// 0, 1, 2, ...): the next index is an increment of the coordinates left by
/// the previous call, anything else a full unravel.
class RowMajorCursor {
public:
  explicit RowMajorCursor(ArrayRef<int64_t> shape) : shape(shape) {}
  void moveTo(int64_t index, SmallVectorImpl<int64_t> &coords);

private:
  ArrayRef<int64_t> shape;
  int64_t last = -2;
};
/// The vertex kind of a reducer region made of one known binary op on its
/// two arguments ("add", "maximum", ...), or "" for anything else.
std::string reducerKind(Region &body);
/// Bytes of one element (4 when the dtype has no known size).
int64_t bytesOfElement(Type elementType);
/// The one buffer of a tensor value, or null (none yet, or a tuple).
Value singleBuffer(const DenseMap<Value, SmallVector<Value>> &buffers,
                   Value value);

/// A one-input reduction's reducer kind ("add", ...), result type, input
/// buffer and scalar init buffer.
struct ReductionOperands {
  std::string kind;
  RankedTensorType outType;
  Value input, init;
};

/// A buffer of an op indexed at run time (LowerIndexed.cpp), laid out by
/// positions (IndexedLayout.h): an existing buffer to use in place or
/// re-lay (`source`), or a new one (no source).
struct PositionedBuffer {
  Value source;
  SmallVector<int64_t> shape;
  int64_t elementBytes = 0;
  /// An element's position: its coordinates dotted with these strides.
  SmallVector<int64_t> positionStrides;
};

/// Where the buffers of an indexed op go: runs and re-layout copies per
/// PositionedBuffer (no copies: already in place), the tiles holding
/// positions (ascending), the copies replicating the index buffer on them,
/// and why.
struct PositionedPlan {
  SmallVector<SmallVector<int64_t>> runs, copies;
  SmallVector<int64_t> tiles, replicateCopies;
  std::string why;
};

class Lowerer {
public:
  Lowerer(ModuleOp module, const TargetDescription &target)
      : module(module), target(target), builder(module.getContext()),
        numTiles(target.totalTiles()) {}

  LogicalResult run(func::FuncOp entry, TileLoweringStats &stats);

private:
  // Buffers and names.
  std::string uniqueName(StringRef base);
  Value makeVar(Location loc, StringRef name, tile::Category category,
                const PlannedMapping &plan, ArrayRef<int64_t> shape,
                Type elementType, StringRef hlo);
  Value makeLinearVar(Location loc, StringRef name, tile::Category category,
                      RankedTensorType type, StringRef hlo);
  tile::Category resultCategory(Value result) const {
    return returned.contains(result) ? tile::Category::Output
                                     : tile::Category::Temporary;
  }

  // Steps; each keeps the sync bookkeeping.
  void syncBeforeReading(ValueRange reads);
  void emitComputeSet(Location loc, StringRef name, StringRef kind,
                      ValueRange ins, ValueRange outs,
                      ArrayRef<NamedAttribute> attrs = {});
  void emitExchange(Location loc, StringRef name, Value src, Value dst,
                    ArrayRef<int64_t> copies);
  /// An exchange whose copies are implied by a view of `src` (dst element
  /// at idx = src element offset + sum idx[d] * strides[d]); listed instead
  /// when `dst` has at most `listUpTo` elements and the copies are compact.
  void emitViewExchange(Location loc, StringRef name, Value src, Value dst,
                        int64_t offset, ArrayRef<int64_t> strides,
                        int64_t listUpTo = kMaxListedViewElements);
  void createExchange(Location loc, StringRef name, Value src, Value dst,
                      DenseI64ArrayAttr copies, DenseI64ArrayAttr viewStrides,
                      IntegerAttr viewOffset);
  void emitHostCopy(Location loc, tile::HostDirection direction, Value buffer);
  Value replicateScalar(Location loc, StringRef name, Value scalar, Value like);

  // Per-op lowerings. Each returns false, having emitted nothing, when it
  // cannot lower the op; the caller then leaves the op on the host.
  void lowerOp(Operation *op, StringRef name);
  void lowerOnHost(Operation *op, StringRef name, StringRef reason,
                   StringRef detail);
  /// The op's kOpIdAttr, assigned on first use.
  IntegerAttr opId(Operation *op);
  bool lowerElementwise(Operation *op, StringRef name);
  bool lowerAlias(Operation *op, StringRef name);
  bool lowerCopyOp(Operation *op, StringRef name, std::string &detail);
  bool lowerBookkeeping(Operation *op);
  /// infeed / outfeed as host copies into / out of the tiles.
  bool lowerHostTransfer(Operation *op, StringRef name);
  /// The operands of a one-input reduction whose body is one known binary
  /// op (reduce, reduce_window): nullopt when it has none of that form.
  std::optional<ReductionOperands> reductionOperands(ValueRange inputs,
                                                     ValueRange inits,
                                                     Region &body,
                                                     Type resultType);
  bool lowerReduce(Operation *op, StringRef name, std::string &detail);
  bool lowerDot(Operation *op, StringRef name, std::string &detail);
  bool lowerConvolution(Operation *op, StringRef name, std::string &detail);
  bool lowerReduceWindow(Operation *op, StringRef name, std::string &detail);
  // Ops indexed at run time: LowerIndexed.cpp (shared), LowerGather.cpp
  // (gather, dynamic_slice), LowerScatter.cpp (scatter,
  // dynamic_update_slice), LowerSort.cpp.
  std::optional<PositionedPlan> planPositioned(const WholeDimSplit &split,
                                               ArrayRef<int64_t> wholeDims,
                                               ArrayRef<PositionedBuffer> bufs,
                                               Value replicated,
                                               std::string &detail);
  Value placePositioned(Location loc, StringRef name, Value source,
                        const PositionedPlan &plan, size_t index);
  Value replicateIndices(Location loc, StringRef name, Value indices,
                         const PositionedPlan &plan);
  bool lowerGather(Operation *op, StringRef name, std::string &detail);
  bool lowerScatter(Operation *op, StringRef name, std::string &detail);
  bool lowerSort(Operation *op, StringRef name, std::string &detail);
  void lowerOutputs(func::ReturnOp ret);
  /// Marks the buffers holding `values` (an op's results, or an argument)
  /// with `result = <leaf index>`: they are the model's tensors in the
  /// tensor map, unlike the helper buffers the lowering adds. An op's
  /// buffers also get `result_of = <its tile.op_id>`, so a debugging run can
  /// check the op alone on the values the device gave it.
  void markResults(ValueRange values, StringRef name,
                   Operation *op = nullptr);
  void lowerBlock(Block &block, StringRef prefix);

  // Control flow (LowerControlFlow.cpp): while -> tile.repeat, conditional
  // -> tile.if, call / fusion inlined.
  bool lowerControlFlow(Operation *op, StringRef name, std::string &detail);
  bool lowerWhile(tgraph::WhileOp op, StringRef name, std::string &detail);
  bool lowerConditional(tgraph::ConditionalOp op, StringRef name,
                        std::string &detail);
  bool lowerCall(Operation *op, FlatSymbolRefAttr callee, ValueRange inputs,
                 StringRef name, std::string &detail);
  /// The callee of a computation reference, or null with `detail` saying
  /// why it cannot be lowered inline (missing, external, several blocks,
  /// already being lowered: recursion).
  func::FuncOp inlinableCallee(FlatSymbolRefAttr callee, std::string &detail);
  /// Lowers `fn`'s body at the insertion point with its arguments bound to
  /// `args` (the buffers of each argument's leaves) and returns the
  /// buffers of its results' leaves.
  SmallVector<Value> lowerBodyInline(func::FuncOp fn,
                                     ArrayRef<SmallVector<Value>> args,
                                     StringRef prefix);
  /// Copies buffers into others of the same element counts by exchange
  /// (a parallel assignment: safe when a source is also a destination).
  void copyInto(Location loc, StringRef name, ArrayRef<Value> from,
                ArrayRef<Value> to, bool destsMayBeRead);
  /// The loop-init buffers nothing reads after `op`.
  DenseSet<Value> deadAfter(Operation *op, ArrayRef<Value> init);
  /// A tile.sync unless the last step emitted already is one.
  void syncAll(Location loc);

  // Collectives (LowerCollectives.cpp); batch norm (LowerBatchNorm.cpp).
  bool lowerCollective(Operation *op, StringRef name, std::string &detail);
  bool lowerBatchNorm(Operation *op, StringRef name, std::string &detail);

  ModuleOp module;
  const TargetDescription &target;
  OpBuilder builder;
  int64_t numTiles;
  TileLoweringStats *stats = nullptr;
  /// Buffers of each tgraph value, one per tensor leaf (null: no buffer, e.g.
  /// a dynamic shape).
  DenseMap<Value, SmallVector<Value>> buffers;
  /// tgraph values the entry returns (their buffers are outputs).
  DenseSet<Value> returned;
  /// Buffers written since the last tile.sync, and those of them written by
  /// a compute set (an exchange into one must wait for its vertices).
  DenseSet<Value> dirty, computeDirty;
  llvm::StringMap<int64_t> names;
  /// Alias vars (reshape, collectives over one replica) name the elements
  /// of another buffer: the var they are stored in. Steps write only
  /// storage vars, so a read of an alias waits for writes to its storage.
  DenseMap<Value, Value> aliasStorage;
  Value storageOf(Value buffer) const {
    Value s = aliasStorage.lookup(buffer);
    return s ? s : buffer;
  }
  /// The outermost tile.repeat / tile.if being filled: vars are declared
  /// before it (null at the program's top level).
  Operation *varAnchor = nullptr;
  /// Functions being lowered inline (recursion guard).
  DenseSet<Operation *> inlining;
  /// The next `tile.op_id` (kOpIdAttr) for a tgraph op the program refers
  /// to.
  int64_t nextOpId = 0;
};

} // namespace tessera::lowering

#endif // TESSERA_LIB_LOWERING_LOWERER_H
