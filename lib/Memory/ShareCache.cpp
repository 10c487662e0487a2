//===- ShareCache.cpp - buffers' shares worked out ahead ------------------===//

#include "tessera/Memory/ShareCache.h"

#include "BufferShares.h"

#include "tessera/Dialect/TGraph/IR/HloTypes.h"
#include "tessera/Memory/Padding.h"

using namespace tessera;
using namespace tessera::memory;

ShareCache::ShareCache(const TargetDescription &target)
    : target(target), pool(llvm::hardware_concurrency(1)) {}

ShareCache::~ShareCache() { pool.wait(); }

void ShareCache::prefetch(tile::BufferType type, tile::MappingAttr mapping,
                          int64_t numTiles) {
  auto [it, inserted] = entries.try_emplace(
      Key{type.getAsOpaquePointer(), mapping.getAsOpaquePointer(), numTiles});
  if (!inserted)
    return;
  it->second = std::make_unique<Entry>();
  Entry *entry = it->second.get();
  entry->shares.dtype = hloDtypeName(type.getElementType());
  entry->shares.elementBytes = elementBytes(entry->shares.dtype);
  ++numComputed;
  // The pool's one thread takes the entries in turn, so one scratch serves
  // them all. The entry stays where it is (a unique_ptr) until taken, and
  // take waits for its task first.
  entry->done = pool.async([this, entry, type, mapping, numTiles] {
    static thread_local ShareScratch scratch;
    computeShares(type, mapping, numTiles, target, entry->shares, scratch);
  });
}

bool ShareCache::take(tile::BufferType type, tile::MappingAttr mapping,
                      int64_t numTiles, BufferLiveness &buffer) {
  auto it = entries.find(
      Key{type.getAsOpaquePointer(), mapping.getAsOpaquePointer(), numTiles});
  if (it == entries.end())
    return false;
  Entry &entry = *it->second;
  entry.done.wait();
  buffer.tiles = std::move(entry.shares.tiles);
  buffer.bytes = entry.shares.bytes;
  buffer.paddedBytes = entry.shares.paddedBytes;
  entries.erase(it);
  return true;
}
