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

#include "tessera/Trace/BackgroundWriter.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>

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

/// Moves the file `from` to `to` in one step, as rename(2) does: a reader
/// of `to` sees the old file or the new one, never neither. When `to` is a
/// regular file already, the two are exchanged and the old one is then
/// removed from `from`'s name (see the definition for why).
std::error_code replaceFile(llvm::StringRef from, llvm::StringRef to);

/// A file written over time (a trace, an interval report) that appears
/// under its name only when commit() succeeds: until then it is a
/// temporary beside it, removed if the writer gives up or the process dies.
/// A path naming a device or pipe (/dev/null, a FIFO) is written in place;
/// a symbolic link is followed, so the file it points to is replaced and the
/// link stays.
class AtomicFileStream {
public:
  static llvm::Expected<std::unique_ptr<AtomicFileStream>>
  open(llvm::StringRef path, const AtomicWriteOptions &options = {});
  ~AtomicFileStream();

  llvm::raw_ostream &os() { return *stream; }
  /// Appends bytes already in memory without copying them to the writer
  /// thread (BackgroundFdStream::writeDirect).
  void writeDirect(llvm::StringRef bytes) { stream->writeDirect(bytes); }
  /// Flushes and renames the temporary to the path.
  llvm::Error commit();

private:
  AtomicFileStream(std::string path, llvm::sys::fs::TempFile file);
  AtomicFileStream(std::string path,
                   std::unique_ptr<BackgroundFdStream> device);
  std::string path;
  /// None when writing a device or pipe in place.
  std::optional<llvm::sys::fs::TempFile> temp;
  std::unique_ptr<BackgroundFdStream> stream;
  bool done = false;
};

} // namespace tessera

#endif // TESSERA_TRACE_ATOMICFILE_H
