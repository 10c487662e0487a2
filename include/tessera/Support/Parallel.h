//===- Parallel.h - Work spread over LLVM's executor when large -*- C++ -*-===//
//
// The compile's parallel loops (docs/compile.md, "Threads and memory") run
// on LLVM's executor only when their work is large enough: below that,
// waking the executor's threads costs more than the loop. Each caller says
// what "large" is for its work; the loop's results must not depend on
// which thread ran an index.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_SUPPORT_PARALLEL_H
#define TESSERA_SUPPORT_PARALLEL_H

#include "llvm/Support/Parallel.h"

namespace tessera {

/// fn(i) for i in [0, n): with llvm::parallelFor when `parallel`, else in
/// order on this thread.
inline void parallelForIf(bool parallel, size_t n,
                          llvm::function_ref<void(size_t)> fn) {
  if (parallel) {
    llvm::parallelFor(0, n, fn);
    return;
  }
  for (size_t i = 0; i < n; ++i)
    fn(i);
}

} // namespace tessera

#endif // TESSERA_SUPPORT_PARALLEL_H
