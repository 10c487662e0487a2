//===- Heap.h - Giving freed heap memory back to the system -----*- C++ -*-===//
//
// The compile frees large scratch tables (the allocator's indexes, the
// builders' maps) at points where its peak resident size is decided. The
// C library's allocator keeps such memory resident unless asked; how to
// ask depends on which allocator the program was linked with (glibc's
// malloc_trim, jemalloc's arena purge).
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_SUPPORT_HEAP_H
#define TESSERA_SUPPORT_HEAP_H

namespace tessera {

/// Returns the pages of freed heap memory to the system, with whichever
/// allocator serves malloc in this process. A no-op where neither is known.
void releaseFreedHeap();

} // namespace tessera

#endif // TESSERA_SUPPORT_HEAP_H
