//===- ExecutableCache.h - Executables reused across compiles ----*- C++
//-*-===//
//
// --executable_cache_dir=DIR: tessera-compile looks each model up in DIR
// before compiling it and stores what it compiled there (docs/compile.md,
// "Executable cache"). An entry is one executable file, named by the
// SHA-256 key of everything the executable depends on, so a lookup is one
// open() and the runtime format's own checksum tells a damaged entry from a
// good one. Entries are written atomically (temporary + rename): concurrent
// compiles of one model both succeed, and a reader never sees half an entry.
// The folder is bounded by --executable_cache_max_bytes, least recently used
// first (an entry's mtime is its last use).
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_COMPILE_EXECUTABLECACHE_H
#define TESSERA_COMPILE_EXECUTABLECACHE_H

#include "tessera/Trace/Flags.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace tessera {

/// Everything a compiled executable is a function of. Two compiles with
/// equal inputs write byte-identical executables.
struct ExecutableCacheKeyInputs {
  /// compilerBuildId(): changes whenever the compiler's code does.
  llvm::StringRef compilerId;
  /// The model's path as given: op locations (file:line, in the executable)
  /// and the fallback module name (its stem) come from it.
  llvm::StringRef modelPath;
  /// The model file's bytes, as read.
  llvm::StringRef modelBytes;
  /// The resolved target's canonical JSON (toJson), so a preset and a JSON
  /// file describing the same target share entries.
  llvm::StringRef targetJson;
  /// tessera-compile's options that change the executable.
  llvm::StringRef hostOps;
  llvm::StringRef compatFailOn;
  llvm::StringRef precisionPolicy;
  int64_t chips = 0;
  llvm::StringRef placement = "auto";
  int64_t recomputeDistance = 0;
  /// The TESSERA_FLAGS flags for which flagChangesExecutable() holds.
  const TesseraFlags *flags = nullptr;
};

/// The key: 64 lowercase hex digits of SHA-256 over the inputs, each
/// length-prefixed so that no two different inputs encode alike.
std::string computeExecutableCacheKey(const ExecutableCacheKeyInputs &inputs);

/// Whether TESSERA_FLAGS flag `name` changes the executable (and so is part
/// of the key); nullopt for a flag this file does not classify, which a unit
/// test turns into a failure, so every new flag gets decided.
std::optional<bool> flagChangesExecutable(llvm::StringRef name);

/// Hex of the GNU build ids of the running program and every shared object
/// it loaded (protobuf, libstdc++, ...; LLVM and MLIR are linked into the
/// program, so its own id covers them, or libLLVM.so is one of the objects
/// when TESSERA_STATIC_LLVM is OFF): the linker derives a build id from the
/// linked code, so any change to the compiler changes it, and a rebuild of
/// the same code keeps it. Objects without one contribute a hash of their
/// bytes instead. Computed once per process.
llvm::StringRef compilerBuildId();

/// A cache folder. Errors name the folder or entry; none of them fails a
/// compile (the caller reports them as warnings), except open().
class ExecutableCache {
public:
  /// Creates `dir` if needed; fails when it cannot be a folder.
  static llvm::Expected<ExecutableCache> open(llvm::StringRef dir,
                                              uint64_t maxBytes);

  /// DIR/<key>.tessera.
  std::string entryPath(llvm::StringRef key) const;

  struct Hit {
    std::string path;
    /// The entry as read: what a compile would write to -o.
    std::unique_ptr<llvm::MemoryBuffer> file;
    llvm::StringRef bytes() const { return file->getBuffer(); }
    /// The executable's module_name, for the events.
    std::string moduleName;
  };
  /// The entry of `key`, its header and checksum verified (the message is
  /// not parsed: on a large model that alone would cost a sizeable part of
  /// the compile), and its use recorded (mtime = now). nullopt when there is
  /// none; an Error when one exists but is damaged (the caller recompiles and
  /// stores over it).
  llvm::Expected<std::optional<Hit>> lookup(llvm::StringRef key) const;

  /// Writes the entry of `key` atomically (replacing a damaged one), then
  /// evicts. An executable larger than the bound is not stored.
  llvm::Error store(llvm::StringRef key, llvm::StringRef bytes) const;

  /// Removes least recently used entries (oldest mtime first; ties by name)
  /// until the entries total at most the bound, and temporaries that a
  /// killed writer left behind more than an hour ago.
  llvm::Error evict() const;

private:
  ExecutableCache(std::string dir, uint64_t maxBytes)
      : dir(std::move(dir)), maxBytes(maxBytes) {}
  std::string dir;
  uint64_t maxBytes;
};

} // namespace tessera

#endif // TESSERA_COMPILE_EXECUTABLECACHE_H
