//===- ExecutableCache.cpp - Executables reused across compiles -----------===//

#include "tessera/Compile/ExecutableCache.h"

#include "tessera/Runtime/ExecutableFile.h"
#include "tessera/Trace/AtomicFile.h"

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/wire_format_lite.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Errc.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"

#include <chrono>
#include <cstring>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/stat.h>
#include <vector>

using namespace llvm;

namespace tessera {

/// Bump when the key's encoding or an entry's meaning changes, so old
/// entries are never read as new ones.
static constexpr uint32_t kCacheSchemaVersion = 2;
static constexpr StringLiteral kEntryExtension = ".tessera";

namespace {
/// SHA-256 over length-prefixed fields: ("ab", "c") and ("a", "bc") differ.
class KeyHasher {
public:
  void field(StringRef name, StringRef value) {
    add(name);
    add(value);
  }

  std::string hex() {
    BLAKE3Result<> digest = hasher.final();
    return toHex(digest, /*LowerCase=*/true);
  }

private:
  void add(StringRef bytes) {
    char length[8];
    support::endian::write64le(length, bytes.size());
    hasher.update(arrayRefFromStringRef(StringRef(length, sizeof(length))));
    hasher.update(arrayRefFromStringRef(bytes));
  }
  // BLAKE3, not SHA-256: a cache hit hashes the whole model, and SHA-256
  // was a seventh of a hit's instructions (bert: 9.3 M of 65 M).
  BLAKE3 hasher;
};
} // namespace

std::optional<bool> flagChangesExecutable(StringRef name) {
  // Today no TESSERA_FLAGS flag reaches the pipeline's passes or the
  // executable writer: they choose dumps, reports, events, traces and the
  // runtime's behaviour. A flag that changes the executable belongs in
  // `kChanges`, and its value then joins the key.
  static const ArrayRef<StringRef> kChanges;
  static const StringRef kUnchanged[] = {
      // Dumps, reports, events and traces of the compile.
      "dump_to", "dump_as_text", "dump_as_dot", "dump_as_proto", "dump_pass_re",
      "dump_module_re", "dump_include_timestamp", "dump_max_modules",
      "dump_large_constants", "profiling", "enable_events", "report_format",
      "profile_execution", "report_every_nth_execution", "max_report_size",
      "report_directory", "serialized_graph", "compile_trace",
      "tensor_map_format", "memory_report_tile_format", "memory_report_format",
      // The cache itself.
      "executable_cache_dir", "executable_cache_max_bytes",
      // How many threads compute it (the result is the same for any), and
      // whether the passes' outputs are verified (a compile that fails it
      // writes nothing).
      "compile_threads", "reports_alongside", "verify_each",
      // tessera-run's, and side outputs of the compile.
      "use_model", "save_vertex_graph", "vertex_graph_max_vertices",
      "save_interval_report", "log_cycle_count", "trace_json",
      "allow_out_of_memory", "show_progress_bar"};
  if (is_contained(kChanges, name))
    return true;
  if (is_contained(kUnchanged, name))
    return false;
  return std::nullopt;
}

std::string computeExecutableCacheKey(const ExecutableCacheKeyInputs &in) {
  KeyHasher key;
  key.field("schema", std::to_string(kCacheSchemaVersion));
  key.field("format", std::to_string(runtime::kExecutableFormatVersion));
  key.field("compiler", in.compilerId);
  key.field("model_path", in.modelPath);
  key.field("model", in.modelBytes);
  key.field("target", in.targetJson);
  key.field("host_ops", in.hostOps);
  key.field("compat_fail_on", in.compatFailOn);
  key.field("precision_policy", in.precisionPolicy);
  key.field("chips", std::to_string(in.chips));
  key.field("placement", in.placement);
  key.field("recompute_distance", std::to_string(in.recomputeDistance));
  if (in.flags)
    for (const FlagInfo &flag : getFlagRegistry())
      if (flagChangesExecutable(flag.name).value_or(true))
        key.field(flag.name, flagValueText(*in.flags, flag));
  return key.hex();
}

//===----------------------------------------------------------------------===//
// The compiler's identity
//===----------------------------------------------------------------------===//

/// The NT_GNU_BUILD_ID note of a loaded object, or "" when it has none.
static std::string buildIdOf(const dl_phdr_info &info) {
  for (int i = 0; i < info.dlpi_phnum; ++i) {
    const ElfW(Phdr) &segment = info.dlpi_phdr[i];
    if (segment.p_type != PT_NOTE)
      continue;
    const char *at =
        reinterpret_cast<const char *>(info.dlpi_addr + segment.p_vaddr);
    const char *end = at + segment.p_memsz;
    // Notes are 4-byte aligned: header, name, descriptor.
    while (at + sizeof(ElfW(Nhdr)) <= end) {
      ElfW(Nhdr) note;
      std::memcpy(&note, at, sizeof(note));
      const char *name = at + sizeof(note);
      const char *desc = name + alignTo(note.n_namesz, 4);
      const char *next = desc + alignTo(note.n_descsz, 4);
      if (next > end)
        break;
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
          std::memcmp(name, "GNU", 4) == 0)
        return toHex(StringRef(desc, note.n_descsz), /*LowerCase=*/true);
      at = next;
    }
  }
  return "";
}

/// Without a build id, the object's bytes identify its code.
static std::string fileHashOf(StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> file =
      MemoryBuffer::getFile(path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!file)
    return "unreadable:" + path.str();
  return toHex(SHA256::hash(arrayRefFromStringRef((*file)->getBuffer())),
               /*LowerCase=*/true);
}

StringRef compilerBuildId() {
  static const std::string id = [] {
    std::vector<std::pair<std::string, std::string>> objects;
    dl_iterate_phdr(
        [](dl_phdr_info *info, size_t, void *data) {
          auto &objects =
              *static_cast<std::vector<std::pair<std::string, std::string>> *>(
                  data);
          StringRef name = info->dlpi_name ? info->dlpi_name : "";
          // The kernel's vDSO changes with the kernel, not the compiler.
          if (name.starts_with("linux-vdso") || name.starts_with("linux-gate"))
            return 0;
          objects.push_back({name.str(), buildIdOf(*info)});
          return 0;
        },
        &objects);
    KeyHasher hasher;
    for (auto &[name, buildId] : objects) {
      // The program itself comes first, with an empty name.
      std::string path =
          name.empty() ? sys::fs::getMainExecutable(nullptr, nullptr) : name;
      hasher.field(sys::path::filename(path),
                   buildId.empty() ? fileHashOf(path) : buildId);
    }
    return hasher.hex();
  }();
  return id;
}

//===----------------------------------------------------------------------===//
// The cache folder
//===----------------------------------------------------------------------===//

Expected<ExecutableCache> ExecutableCache::open(StringRef dir,
                                                uint64_t maxBytes) {
  if (std::error_code ec = sys::fs::create_directories(dir))
    return createStringError(ec,
                             "cannot use '%s' as the executable cache "
                             "(--executable_cache_dir): %s",
                             dir.str().c_str(), ec.message().c_str());
  // create_directories accepts an existing file of that name.
  if (!sys::fs::is_directory(dir))
    return createStringError(errc::not_a_directory,
                             "cannot use '%s' as the executable cache "
                             "(--executable_cache_dir): not a folder",
                             dir.str().c_str());
  return ExecutableCache(dir.str(), maxBytes);
}

std::string ExecutableCache::entryPath(StringRef key) const {
  SmallString<256> path(dir);
  sys::path::append(path, key + kEntryExtension);
  return std::string(path);
}

/// The module_name field of a serialized tessera.exe.Executable, found by
/// skipping the other top-level fields on the wire instead of parsing them.
static Expected<std::string> moduleNameOf(StringRef payload, StringRef path) {
  using google::protobuf::internal::WireFormatLite;
  constexpr int kModuleNameField = exe::Executable::kModuleNameFieldNumber;
  google::protobuf::io::CodedInputStream input(
      reinterpret_cast<const uint8_t *>(payload.data()),
      static_cast<int>(payload.size()));
  std::string name;
  while (uint32_t tag = input.ReadTag()) {
    if (WireFormatLite::GetTagFieldNumber(tag) == kModuleNameField &&
        WireFormatLite::GetTagWireType(tag) ==
            WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
      // The last occurrence wins, as in a parse.
      if (!WireFormatLite::ReadString(&input, &name))
        break;
    } else if (!WireFormatLite::SkipField(&input, tag)) {
      break;
    }
  }
  if (!input.ConsumedEntireMessage() ||
      input.CurrentPosition() != static_cast<int>(payload.size()))
    return createStringError(errc::illegal_byte_sequence,
                             "%s: the payload is not a valid executable "
                             "message",
                             path.str().c_str());
  return name;
}

Expected<std::optional<ExecutableCache::Hit>>
ExecutableCache::lookup(StringRef key) const {
  Hit hit;
  hit.path = entryPath(key);
  sys::fs::file_status status;
  if (std::error_code ec = sys::fs::status(hit.path, status))
    return ec == errc::no_such_file_or_directory
               ? Expected<std::optional<Hit>>(std::nullopt)
               : createStringError(ec, "%s: cannot read: %s", hit.path.c_str(),
                                   ec.message().c_str());
  if (!sys::fs::is_regular_file(status))
    return createStringError(errc::invalid_argument, "%s: not a regular file",
                             hit.path.c_str());
  if (status.getSize() >
      runtime::kExecutableHeaderSize + runtime::kMaxExecutablePayload)
    return createStringError(errc::file_too_large,
                             "%s: larger than the largest executable",
                             hit.path.c_str());
  // Read, not mapped (IsVolatile): the bytes verified below are the ones
  // written to -o even if the entry is changed in place meanwhile.
  ErrorOr<std::unique_ptr<MemoryBuffer>> file =
      MemoryBuffer::getFile(hit.path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false,
                            /*IsVolatile=*/true);
  if (!file)
    return file.getError() == errc::no_such_file_or_directory
               ? Expected<std::optional<Hit>>(std::nullopt)
               : createStringError(file.getError(), "%s: cannot read: %s",
                                   hit.path.c_str(),
                                   file.getError().message().c_str());
  // Header, sizes and the payload's XXH3 checksum: a truncated or
  // bit-flipped entry is caught here, never handed to -o.
  Expected<StringRef> payload =
      runtime::verifyExecutable((*file)->getBuffer(), hit.path);
  if (!payload)
    return payload.takeError();
  Expected<std::string> moduleName = moduleNameOf(*payload, hit.path);
  if (!moduleName)
    return moduleName.takeError();
  hit.moduleName = std::move(*moduleName);
  hit.file = std::move(*file);
  // The entry's mtime is its last use, for eviction. A read-only cache
  // still serves hits, so a failure here is ignored.
  (void)::utimensat(AT_FDCWD, hit.path.c_str(), nullptr, 0);
  return std::optional<Hit>(std::move(hit));
}

Error ExecutableCache::store(StringRef key, StringRef bytes) const {
  // It could only be kept by evicting itself.
  if (bytes.size() > maxBytes)
    return Error::success();
  // A temporary beside the entry, renamed over it: a concurrent compile of
  // the same model renames identical bytes, and readers see either no
  // entry or a whole one.
  AtomicWriteOptions options;
  options.dashIsStdout = false;
  if (Error err = writeFileAtomically(entryPath(key), bytes, options))
    return err;
  return evict();
}

/// DIR/<64 hex digits>.tessera: an entry. Nothing else in the folder is
/// ever removed, except our own stale temporaries.
static bool isEntryName(StringRef name) {
  if (!name.consume_back(kEntryExtension) || name.size() != 64)
    return false;
  return all_of(name,
                [](char c) { return isDigit(c) || (c >= 'a' && c <= 'f'); });
}

Error ExecutableCache::evict() const {
  struct Entry {
    std::string path;
    uint64_t size;
    sys::TimePoint<> used;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  auto staleBefore = std::chrono::system_clock::now() - std::chrono::hours(1);
  std::error_code ec;
  for (sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    StringRef name = sys::path::filename(it->path());
    // Another process may remove a file between listing and stat.
    sys::fs::file_status status;
    if (sys::fs::status(it->path(), status) ||
        !sys::fs::is_regular_file(status))
      continue;
    if (isEntryName(name)) {
      entries.push_back(
          {it->path(), status.getSize(), status.getLastModificationTime()});
      total += status.getSize();
    } else if (isEntryName(name.split(".tmp-").first) &&
               status.getLastModificationTime() < staleBefore) {
      // A writer killed by SIGKILL leaves its temporary; a live writer's is
      // at most minutes old.
      (void)sys::fs::remove(it->path());
    }
  }
  if (ec)
    return createStringError(ec, "cannot list the executable cache '%s': %s",
                             dir.c_str(), ec.message().c_str());
  if (total <= maxBytes)
    return Error::success();
  llvm::sort(entries, [](const Entry &a, const Entry &b) {
    return std::tie(a.used, a.path) < std::tie(b.used, b.path);
  });
  for (const Entry &entry : entries) {
    if (total <= maxBytes)
      break;
    // A concurrent evictor may have removed it first: it is gone either way.
    std::error_code removed = sys::fs::remove(entry.path);
    if (removed && removed != errc::no_such_file_or_directory)
      return createStringError(removed,
                               "cannot evict '%s' from the executable cache: "
                               "%s",
                               entry.path.c_str(), removed.message().c_str());
    total -= entry.size;
  }
  return Error::success();
}

} // namespace tessera
