//===- EventFile.h - Length-delimited trace event files ----------*- C++
//-*-===//
//
// The event file is an append-only log: an 8-byte header, then one record per
// TraceEvent (varint length + serialized message), the framing protobuf's
// writeDelimitedTo uses. Every record is flushed to the kernel as soon as it
// is written, so a crashing process leaves every complete record readable; a
// reader returns those records and says where (byte offset, record index) the
// damaged tail starts. docs/events.md describes the bytes.
//
// Event files are the one kind of output that is NOT written to a temporary
// name and renamed: a log must be visible while it grows, and surviving a
// crash is exactly what the framing is for.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TRACE_EVENTFILE_H
#define TESSERA_TRACE_EVENTFILE_H

#include "tessera_events.pb.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tessera {

/// The header: 7 ASCII bytes "TESSEVT" then the format version byte.
inline constexpr char kEventFileMagic[] = "TESSEVT";
inline constexpr uint8_t kEventFileVersion = 1;
inline constexpr size_t kEventFileHeaderSize = 8;
/// Largest record a reader accepts; protobuf cannot parse more than 2 GiB.
inline constexpr uint64_t kMaxEventRecordSize = (1ull << 31) - 1;

/// Where and why reading stopped before the end of the file.
struct EventFileDamage {
  /// Byte offset of the first record (or header byte) that is incomplete or
  /// corrupt; every record before it was returned.
  uint64_t offset = 0;
  /// 0-based index of the record that could not be read.
  size_t recordIndex = 0;
  /// Human-readable reason ("record length prefix is cut off", ...).
  std::string reason;

  /// "stopped at byte offset 123 (record 2): <reason>".
  std::string describe() const;
};

struct EventFileContents {
  std::vector<TraceEvent> events;
  /// Byte offset at which each event's record (its length prefix) starts.
  std::vector<uint64_t> offsets;
  /// Set when the file ends in an incomplete or corrupt record.
  std::optional<EventFileDamage> damage;
  uint64_t fileSize = 0;
};

/// Parses the bytes of an event file. Fails only when the bytes are not an
/// event file at all (wrong magic or version); truncation and corruption
/// after a valid header prefix are reported in `damage`. Never aborts.
llvm::Expected<EventFileContents> parseEventFile(llvm::StringRef bytes);

/// Reads and parses `path`; fails when it cannot be opened or read, or is not
/// an event file.
llvm::Expected<EventFileContents> readEventFile(llvm::StringRef path);

/// What scanning a file found besides its events.
struct EventFileScan {
  uint64_t fileSize = 0;
  size_t records = 0;
  std::optional<EventFileDamage> damage;
};

/// Reads `path` record by record, handing each complete event (and the byte
/// offset of its record) to `onEvent` as soon as it is read: memory holds
/// one 1 MiB window, or one record when a record is larger. Fails like
/// readEventFile, or with the first error `onEvent` returns.
llvm::Expected<EventFileScan>
scanEventFile(llvm::StringRef path,
              llvm::function_ref<llvm::Error(TraceEvent &, uint64_t offset)>
                  onEvent);

/// Reads an event file as it grows (`tessera-prof monitor`): each read()
/// decodes the records completed since the last one. A record still being
/// written is kept for the next read, unless the read is `final`, when a
/// cut-off tail is damage as in scanEventFile.
class EventFileTail {
public:
  static llvm::Expected<std::unique_ptr<EventFileTail>>
  open(llvm::StringRef path);
  ~EventFileTail();
  EventFileTail(const EventFileTail &) = delete;
  EventFileTail &operator=(const EventFileTail &) = delete;

  /// Reads to the current end of the file; returns how many events it
  /// handed to `onEvent`. Fails like scanEventFile.
  llvm::Expected<size_t>
  read(llvm::function_ref<llvm::Error(TraceEvent &, uint64_t offset)> onEvent,
       bool final);

  /// Set once a record is malformed (or, after a final read, cut off);
  /// nothing after it is read.
  const std::optional<EventFileDamage> &damage() const { return fileDamage; }
  size_t records() const { return index; }
  /// The file's bytes read so far.
  uint64_t bytesRead() const { return base + window.size(); }

private:
  EventFileTail(llvm::sys::fs::file_t fd, std::string path)
      : fd(fd), filePath(std::move(path)) {}

  llvm::sys::fs::file_t fd;
  std::string filePath;
  std::string window;  ///< bytes read but not yet decoded
  uint64_t base = 0;   ///< file offset of window[0]
  size_t index = 0;    ///< records decoded
  bool header = false; ///< the header was read and checked
  std::optional<EventFileDamage> fileDamage;
};

/// Appends TraceEvents to an event file, one flushed record per event.
/// Safe to share between threads, and to have several writers (in this
/// process or others) appending to one file: each record is written whole
/// under an exclusive flock(2) of the file, which opening in Append mode
/// (header, repair) takes too.
class EventWriter {
public:
  enum class Mode {
    /// Start a new file (replacing any existing one).
    Truncate,
    /// Append to an existing event file (created if absent). A damaged tail
    /// left by a crash is cut off first, so new records stay readable.
    Append,
  };

  static llvm::Expected<std::unique_ptr<EventWriter>>
  open(llvm::StringRef path, Mode mode = Mode::Truncate);

  ~EventWriter();
  EventWriter(const EventWriter &) = delete;
  EventWriter &operator=(const EventWriter &) = delete;

  /// Serializes `event` and writes its record with a single write call.
  llvm::Error write(const TraceEvent &event);

  /// Number of records written through this writer.
  size_t recordsWritten() const {
    std::lock_guard<std::mutex> guard(mutex);
    return records;
  }
  llvm::StringRef path() const { return filePath; }

private:
  EventWriter(int fd, std::string path) : fd(fd), filePath(std::move(path)) {}
  llvm::Error writeAll(llvm::StringRef bytes);

  int fd;
  std::string filePath;
  mutable std::mutex mutex; ///< one record at a time from this writer
  size_t records = 0;
};

/// The header bytes every event file starts with.
std::string eventFileHeader();

/// Appends the record framing of `event` (varint length + bytes) to `out`.
void appendEventRecord(const TraceEvent &event, std::string &out);

} // namespace tessera

#endif // TESSERA_TRACE_EVENTFILE_H
