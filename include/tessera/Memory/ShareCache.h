//===- ShareCache.h - buffers' shares worked out ahead ------------*- C++
//-*-===//
//
// A buffer's per-tile shares (the liveness's first and, on models spread
// over every tile, largest part) depend on its type, its mapping and the
// target alone, which the lowering knows as it makes each buffer. A
// ShareCache works them out on a thread of its own while the lowering goes
// on (it lowers on one thread), and the liveness takes them from it instead
// of computing them after the lowering.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_MEMORY_SHARECACHE_H
#define TESSERA_MEMORY_SHARECACHE_H

#include "tessera/Dialect/Tile/IR/Tile.h"
#include "tessera/Memory/Liveness.h"
#include "tessera/Target/Target.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/ThreadPool.h"

#include <future>
#include <memory>
#include <tuple>

namespace tessera::memory {

/// Shares of buffers of a (type, mapping) on a program of some tiles,
/// computed on one helper thread. Every method is for one thread (the
/// lowering's, then the analysis'); the helper reads only the attributes,
/// which are immutable.
class ShareCache {
public:
  explicit ShareCache(const TargetDescription &target);
  /// Waits for the shares in progress.
  ~ShareCache();

  /// Starts working out the shares of buffers of `type` and `mapping` on a
  /// program of `numTiles` tiles, unless they are under way or waiting.
  void prefetch(tile::BufferType type, tile::MappingAttr mapping,
                int64_t numTiles);

  /// Moves the shares of (type, mapping, numTiles) into `buffer`'s tiles,
  /// bytes and padded bytes, waiting for them if they are under way; false
  /// when they were never asked for (or were taken).
  bool take(tile::BufferType type, tile::MappingAttr mapping, int64_t numTiles,
            BufferLiveness &buffer);

  /// (type, mapping) pairs whose shares were worked out.
  int64_t computed() const { return numComputed; }
  /// Those not taken yet.
  size_t waiting() const { return entries.size(); }

private:
  struct Entry {
    BufferLiveness shares;
    std::shared_future<void> done;
  };
  using Key = std::tuple<const void *, const void *, int64_t>;

  TargetDescription target;
  llvm::StdThreadPool pool;
  llvm::DenseMap<Key, std::unique_ptr<Entry>> entries;
  int64_t numComputed = 0;
};

} // namespace tessera::memory

#endif // TESSERA_MEMORY_SHARECACHE_H
