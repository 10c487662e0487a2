//===- AtomicFile.h - Write files via a temporary and a rename ---*- C++
//-*-===//
//
// DESIGN's rule "anything that writes files writes to a temporary name and
// renames": readers never see half a file, and a failed write leaves neither
// a partial output nor a stray temporary behind. Every Tessera tool writes
// its outputs through these helpers.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TRACE_ATOMICFILE_H
#define TESSERA_TRACE_ATOMICFILE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace tessera {

struct AtomicWriteOptions {
  /// Create missing parent folders first.
  bool createParentDirs = false;
  /// Treat the path "-" as standard output (written directly).
  bool dashIsStdout = true;
};

/// Writes `path` by streaming into a temporary file in the same folder and
/// renaming it over `path` once `write` succeeded. If `write` returns an
/// error, or the data cannot be written, the temporary is removed, `path` is
/// untouched, and the error is returned (naming the path).
llvm::Error
writeFileAtomically(llvm::StringRef path,
                    llvm::function_ref<llvm::Error(llvm::raw_ostream &)> write,
                    const AtomicWriteOptions &options = {});

/// Convenience form writing a byte string.
llvm::Error writeFileAtomically(llvm::StringRef path, llvm::StringRef contents,
                                const AtomicWriteOptions &options = {});

} // namespace tessera

#endif // TESSERA_TRACE_ATOMICFILE_H
