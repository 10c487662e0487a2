//===- Program.h - A loaded, validated executable ----------------*- C++ -*-===//
//
// What the model device needs from an executable, checked once at load:
// every buffer's per-tile layout (which element ranges each tile holds and
// where in the tile's memory), every step's operands, and the prepared
// vertex of every compute set. Nothing here is trusted from the file: sizes,
// indices, mappings, placements and copies are checked, and a bad one is an
// error naming the file and the buffer or step (docs/executable.md).
//
// A tile stores its elements of a buffer in ascending element order,
// contiguously from the buffer's offset on that tile: the element of a
// global index is found through the tile's intervals.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_RUNTIME_PROGRAM_H
#define TESSERA_RUNTIME_PROGRAM_H

#include "tessera/Runtime/ExecutableFile.h"
#include "tessera/Support/HostTensor.h"
#include "tessera/Target/Target.h"

#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <string>
#include <vector>

namespace tessera::runtime {

class Vertex;

/// Elements [begin, end) of a buffer, stored from element `local` of the
/// tile's part.
struct Interval {
  int64_t begin = 0, end = 0, local = 0;
};

/// One tile's part of a buffer.
struct TileShare {
  int64_t tile = 0;
  int64_t offset = 0;   ///< byte offset in the tile's memory
  int64_t elements = 0; ///< elements on the tile
  std::vector<Interval> intervals; ///< ascending by begin
  /// The local index of element `e`, which the tile must hold (-1 if not).
  int64_t localOf(int64_t e) const;
};

/// A run of elements held by one tile, for finding any element's tile.
struct ElementRun {
  int64_t begin = 0, end = 0;
  int32_t share = 0; ///< index into BufferLayout::shares
  int64_t local = 0; ///< local index of `begin`
};

struct BufferLayout {
  std::string name;
  std::string hlo;
  exe::Category category = exe::CATEGORY_TEMPORARY;
  DType dtype = DType::F32;
  int64_t elementBytes = 4;
  std::vector<int64_t> shape;
  int64_t numElements = 0;
  /// The buffer whose bytes it is: itself, or the one it aliases.
  int32_t storage = 0;
  /// Tiles holding elements, ascending by tile (an alias: its storage's).
  std::vector<TileShare> shares;
  /// The tgraph op (`tile.op_id`) whose result leaf `resultLeaf` it holds,
  /// or -1.
  int64_t resultOp = -1;
  int32_t resultLeaf = 0;
  /// Every element's run, ascending by begin.
  std::vector<ElementRun> runs;
  /// L when run r is elements [r L, (r + 1) L) (the last may be shorter),
  /// else 0.
  int64_t runLength = 0;

  /// This buffer's share on `tile`, or null.
  const TileShare *shareOn(int64_t tile) const;
  /// The run holding element `e` (0 <= e < numElements).
  const ElementRun &runOf(int64_t e) const;
  /// "'name' (f32[2,3])" for messages.
  std::string describe() const;
};

/// How copy run `run` of an exchange is strided: copy k goes between tiles
/// `srcTileStep` / `dstTileStep` apart per k, in chunks of `chunk`
/// contiguous elements `srcStride` / `dstStride` apart (one chunk of all its
/// elements, tiles advancing by one, when the exchange lists no strides).
struct RunStrides {
  int64_t chunk = 0, srcStride = 0, dstStride = 0, srcTileStep = 1,
          dstTileStep = 1;
};

/// The copy runs of a listed exchange: its own, or the shared list it
/// names (Program::copyRuns). Runs of eight, and empty or five strides per
/// run.
struct CopyRuns {
  llvm::ArrayRef<int64_t> copies, strided;
  int64_t numRuns() const { return copies.size() / 8; }
  /// Copy run `run`: its eight integers.
  const int64_t *run(int64_t run) const { return copies.data() + 8 * run; }
  RunStrides stridesOf(int64_t run) const;
};

/// A compute set, prepared: its vertex checked and set up at load.
struct PreparedComputeSet {
  const exe::ComputeSet *proto = nullptr;
  std::unique_ptr<Vertex> vertex;
};

struct LoadOptions {
  /// Run even when a tile's allocation exceeds its memory (the overflow is
  /// held on the host); otherwise loading fails naming the tiles.
  bool allowOutOfMemory = false;
  /// Give every buffer bytes of its own instead of the allocator's offsets,
  /// so every value the program computes is still there after a run (for
  /// checking each op alone). Costs the sum of all buffers' sizes.
  bool privateStorage = false;
};

class Program {
public:
  ~Program();
  /// Validates `executable` (read from `source`) and prepares its vertices.
  static llvm::Expected<std::unique_ptr<Program>>
  load(exe::Executable executable, llvm::StringRef source,
       const LoadOptions &options = {});

  const exe::Executable &executable() const { return exe; }
  const TargetDescription &target() const { return targetDesc; }
  llvm::StringRef source() const { return sourceName; }
  int64_t numTiles() const { return exe.num_tiles(); }
  /// Chips one replica spans, and the replicas that run the program at
  /// once (1 for executables written before these were).
  int64_t chips() const { return std::max<int64_t>(exe.chips(), 1); }
  int64_t replicas() const { return std::max<int64_t>(exe.replicas(), 1); }
  const std::vector<BufferLayout> &buffers() const { return bufferLayouts; }
  const BufferLayout &buffer(int32_t i) const { return bufferLayouts[i]; }
  /// Bytes of memory each tile's arena needs (its buffers' extent).
  const std::vector<int64_t> &arenaBytes() const { return arenaSize; }
  /// The prepared vertex of a compute-set step.
  const PreparedComputeSet &prepared(const exe::ComputeSet *cs) const {
    return *computeSets.find(cs)->second;
  }
  /// Tiles whose allocation exceeds their memory (loaded with
  /// allowOutOfMemory), with the compile report's wording.
  const std::vector<std::string> &outOfMemory() const { return oomLines; }
  /// "step 'name' (file:line)" for messages.
  static std::string where(const exe::Step &step);
  /// The copy runs of listed exchange `x` of this program (checked at load).
  CopyRuns copyRuns(const exe::Exchange &x) const;
  /// The integer list of parameter `p`: its own, or the shared list it
  /// names (checked at load); null when `p` is no integer list.
  const exe::Ints *intsOf(const exe::Param &p) const;

private:
  Program() = default;
  llvm::Error loadBuffers();
  llvm::Error loadSteps(const google::protobuf::RepeatedPtrField<exe::Step> &,
                        int depth);
  llvm::Error checkStep(const exe::Step &step);
  llvm::Error fail(const llvm::Twine &what) const;

  exe::Executable exe;
  std::string sourceName;
  TargetDescription targetDesc;
  std::vector<BufferLayout> bufferLayouts;
  std::vector<int64_t> arenaSize;
  llvm::DenseMap<const exe::ComputeSet *, std::unique_ptr<PreparedComputeSet>>
      computeSets;
  std::vector<std::string> oomLines;
  bool privateStorage = false;
};

} // namespace tessera::runtime

#endif // TESSERA_RUNTIME_PROGRAM_H
