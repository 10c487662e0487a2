//===- Heap.cpp - Giving freed heap memory back to the system -------------===//
//
// jemalloc is found at run time, through a weak reference to its mallctl:
// tessera-compile links it (it is faster than glibc's malloc on the
// compile's many short-lived tables), the libraries do not force it on the
// programs that embed them, and a program preloading it is served as well.
//
//===----------------------------------------------------------------------===//

#include "tessera/Support/Heap.h"

#include <cstddef>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

extern "C" int mallctl(const char *name, void *oldp, size_t *oldlenp,
                       void *newp, size_t newlen) __attribute__((weak));

void tessera::releaseFreedHeap() {
  if (mallctl) {
    // 4096 is MALLCTL_ARENAS_ALL: every arena's dirty and muzzy pages.
    (void)mallctl("arena.4096.purge", nullptr, nullptr, nullptr, 0);
    return;
  }
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}
