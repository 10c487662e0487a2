//===- EventFile.cpp - Length-delimited trace event files -----------------===//
//
// Writer and reader of the event file (see EventFile.h, docs/events.md).
//
//===----------------------------------------------------------------------===//

#include "tessera/Trace/EventFile.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Errc.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cerrno>
#include <cstring>
#include <sys/file.h>
#include <unistd.h>

using namespace llvm;

namespace tessera {

std::string EventFileDamage::describe() const {
  return formatv("stopped at byte offset {0} (record {1}): {2}", offset,
                 recordIndex, reason)
      .str();
}

std::string eventFileHeader() {
  std::string header(kEventFileMagic, sizeof(kEventFileMagic) - 1);
  header.push_back(static_cast<char>(kEventFileVersion));
  return header;
}

// proto3 `string` fields must be UTF-8: protobuf serializes invalid ones
// but refuses to parse them back, so one bad module name would make its
// record, and every later one, unreadable. The two functions below visit
// every string field an event can hold, by the schema
// (tessera_events.proto): the module name, a COMPILE_BEGIN's target, a
// COMPILE_END's pass names and report paths, a transfer's tensor names, an
// EXECUTE's report path. They use the generated accessors, not reflection:
// reflection built the schema's descriptors on the first event of a
// process (0.45 M instructions, 7% of a small model's reports).
// TraceEventFile.EveryStringFieldIsRepaired finds each string field by
// reflection and fails when one of them is missed here.

/// Whether a report's path, when it has one, is valid UTF-8.
static bool pathIsUtf8(const Report &r) {
  return r.content_case() != Report::kPath || json::isUTF8(r.path());
}

/// Whether every string field of `event` is valid UTF-8.
static bool stringsAreUtf8(const TraceEvent &event) {
  if (!json::isUTF8(event.module_name()))
    return false;
  switch (event.payload_case()) {
  case TraceEvent::kCompileBegin:
    return json::isUTF8(event.compile_begin().target());
  case TraceEvent::kCompileEnd: {
    const CompileEnd &end = event.compile_end();
    for (const PassRecord &pass : end.pass_timeline())
      if (!json::isUTF8(pass.name()))
        return false;
    return pathIsUtf8(end.compilation_report()) &&
           pathIsUtf8(end.tensor_map()) && pathIsUtf8(end.instruction_info()) &&
           pathIsUtf8(end.compatibility_report()) &&
           pathIsUtf8(end.memory_report());
  }
  case TraceEvent::kTransfer:
    for (const TensorTransfer &tensor : event.transfer().tensors())
      if (!json::isUTF8(tensor.name()))
        return false;
    return true;
  case TraceEvent::kExecute:
    return pathIsUtf8(event.execute().execution_report());
  default:
    return true;
  }
}

/// Replaces each invalid byte of `text` by U+FFFD, if it has any.
static void repair(std::string &text) {
  if (!json::isUTF8(text))
    text = json::fixUTF8(text);
}

/// A report's path, when it has one, repaired.
static void repairPath(Report &r) {
  if (r.content_case() == Report::kPath)
    repair(*r.mutable_path());
}

/// Repairs every string field of `event` that stringsAreUtf8 checks; sets
/// no field that was not set (the messages are reached only when present).
static void repairStrings(TraceEvent &event) {
  repair(*event.mutable_module_name());
  switch (event.payload_case()) {
  case TraceEvent::kCompileBegin:
    repair(*event.mutable_compile_begin()->mutable_target());
    break;
  case TraceEvent::kCompileEnd: {
    CompileEnd &end = *event.mutable_compile_end();
    for (PassRecord &pass : *end.mutable_pass_timeline())
      repair(*pass.mutable_name());
    if (end.has_compilation_report())
      repairPath(*end.mutable_compilation_report());
    if (end.has_tensor_map())
      repairPath(*end.mutable_tensor_map());
    if (end.has_instruction_info())
      repairPath(*end.mutable_instruction_info());
    if (end.has_compatibility_report())
      repairPath(*end.mutable_compatibility_report());
    if (end.has_memory_report())
      repairPath(*end.mutable_memory_report());
    break;
  }
  case TraceEvent::kTransfer:
    for (TensorTransfer &tensor : *event.mutable_transfer()->mutable_tensors())
      repair(*tensor.mutable_name());
    break;
  case TraceEvent::kExecute:
    if (event.execute().has_execution_report())
      repairPath(*event.mutable_execute()->mutable_execution_report());
    break;
  default:
    break;
  }
}

void appendEventRecord(const TraceEvent &event, std::string &out) {
  std::string body;
  // Repaired on a copy, only when needed: almost every event is valid.
  TraceEvent copy;
  const TraceEvent *toWrite = &event;
  if (!stringsAreUtf8(event)) {
    copy = event;
    repairStrings(copy);
    toWrite = &copy;
  }
  // SerializeToString only fails for messages with missing required fields,
  // which proto3 does not have.
  (void)toWrite->SerializeToString(&body);
  // Base-128 varint, least significant group first: the framing protobuf's
  // writeDelimitedTo / parseDelimitedFrom use.
  uint64_t length = body.size();
  do {
    uint8_t byte = length & 0x7f;
    length >>= 7;
    if (length)
      byte |= 0x80;
    out.push_back(static_cast<char>(byte));
  } while (length);
  out += body;
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

namespace {
/// Outcome of decoding one length prefix.
enum class VarintStatus { Ok, CutOff, Malformed };

/// Decodes a varint of at most 5 bytes (32 bits) at `bytes[pos]`.
VarintStatus readLength(StringRef bytes, size_t &pos, uint64_t &value) {
  value = 0;
  for (unsigned i = 0; i < 5; ++i) {
    if (pos >= bytes.size())
      return VarintStatus::CutOff;
    uint8_t byte = static_cast<uint8_t>(bytes[pos++]);
    value |= static_cast<uint64_t>(byte & 0x7f) << (7 * i);
    if (!(byte & 0x80))
      return value > kMaxEventRecordSize ? VarintStatus::Malformed
                                         : VarintStatus::Ok;
  }
  return VarintStatus::Malformed;
}
} // namespace

/// Checks the header at the front of `bytes` (all of a file of `fileSize`
/// bytes, or its first bytes): an error when it is not an event file, the
/// damage when the file is cut inside its header.
static Error checkHeader(StringRef bytes, uint64_t fileSize,
                         std::optional<EventFileDamage> &damage) {
  std::string header = eventFileHeader();
  // A file cut inside its header is a valid (empty) event file whose writer
  // died early: report it as damage, not as "not an event file".
  size_t headerBytes = std::min<size_t>(bytes.size(), header.size());
  if (bytes.substr(0, headerBytes) !=
      StringRef(header).substr(0, headerBytes)) {
    if (bytes.size() >= sizeof(kEventFileMagic) - 1 &&
        bytes.starts_with(StringRef(kEventFileMagic)))
      return createStringError(
          errc::invalid_argument,
          "unsupported event file version %u (this build reads version %u)",
          static_cast<unsigned>(static_cast<uint8_t>(bytes[header.size() - 1])),
          static_cast<unsigned>(kEventFileVersion));
    return createStringError(errc::invalid_argument,
                             "not a Tessera event file (no 'TESSEVT' header)");
  }
  if (fileSize < header.size())
    damage = EventFileDamage{
        0, 0,
        formatv("the {0}-byte header is cut off after {1} bytes", header.size(),
                fileSize)
            .str()};
  return Error::success();
}

/// Decodes the complete records at the front of `window`, which starts at
/// file offset `base`, handing each to `onEvent`; returns the bytes
/// consumed. A record cut off by the end of the window is left for the
/// next window unless `atEnd`, when it is damage; so is a malformed one.
static Expected<size_t>
scanRecords(StringRef window, uint64_t base, size_t &index, bool atEnd,
            std::optional<EventFileDamage> &damage,
            function_ref<Error(TraceEvent &, uint64_t)> onEvent) {
  size_t pos = 0;
  // One message, reused: parsing into it keeps its allocations.
  TraceEvent event;
  while (pos < window.size()) {
    size_t start = pos;
    uint64_t length = 0;
    VarintStatus status = readLength(window, pos, length);
    if (status == VarintStatus::CutOff) {
      if (atEnd)
        damage = EventFileDamage{base + start, index,
                                 "the record's length prefix is cut off"};
      return start;
    }
    if (status == VarintStatus::Malformed) {
      damage = EventFileDamage{
          base + start, index,
          "the record's length prefix is malformed or too large"};
      return start;
    }
    uint64_t available = window.size() - pos;
    if (length > available) {
      if (atEnd)
        damage = EventFileDamage{
            base + start, index,
            formatv("the record needs {0} bytes but only {1} remain", length,
                    available)
                .str()};
      return start;
    }
    if (!event.ParseFromArray(window.data() + pos, static_cast<int>(length))) {
      damage = EventFileDamage{
          base + start, index,
          formatv("the {0}-byte record is not a valid TraceEvent", length)
              .str()};
      return start;
    }
    if (Error err = onEvent(event, base + start))
      return std::move(err);
    ++index;
    pos += length;
  }
  return pos;
}

Expected<EventFileContents> parseEventFile(StringRef bytes) {
  EventFileContents contents;
  contents.fileSize = bytes.size();
  if (Error err = checkHeader(bytes, bytes.size(), contents.damage))
    return std::move(err);
  if (contents.damage)
    return contents;
  size_t index = 0;
  Expected<size_t> consumed = scanRecords(
      bytes.drop_front(kEventFileHeaderSize), kEventFileHeaderSize, index,
      /*atEnd=*/true, contents.damage, [&](TraceEvent &e, uint64_t offset) {
        contents.events.push_back(std::move(e));
        contents.offsets.push_back(offset);
        return Error::success();
      });
  if (!consumed)
    return consumed.takeError();
  return contents;
}

//===----------------------------------------------------------------------===//
// Reading as the file grows
//===----------------------------------------------------------------------===//

static Error readError(StringRef path, std::error_code ec) {
  return createStringError(ec, "cannot read '%s': %s", path.str().c_str(),
                           ec.message().c_str());
}

Expected<std::unique_ptr<EventFileTail>> EventFileTail::open(StringRef path) {
  Expected<sys::fs::file_t> fd = sys::fs::openNativeFileForRead(path);
  if (!fd)
    return readError(path, errorToErrorCode(fd.takeError()));
  return std::unique_ptr<EventFileTail>(new EventFileTail(*fd, path.str()));
}

EventFileTail::~EventFileTail() { sys::fs::closeFile(fd); }

Expected<size_t>
EventFileTail::read(function_ref<Error(TraceEvent &, uint64_t)> onEvent,
                    bool final) {
  size_t before = index;
  // A window over the file: records are decoded as they complete, so
  // memory holds one chunk (or one record, when a record is larger).
  constexpr size_t kChunk = 1 << 20;
  while (!fileDamage) {
    size_t have = window.size();
    window.resize(have + kChunk);
    Expected<size_t> got = sys::fs::readNativeFile(
        fd, MutableArrayRef<char>(window.data() + have, kChunk));
    if (!got)
      return readError(filePath, errorToErrorCode(got.takeError()));
    window.resize(have + *got);
    bool atEnd = *got == 0;
    if (!header) {
      if (window.size() < kEventFileHeaderSize && !(atEnd && final)) {
        if (atEnd)
          break;
        continue;
      }
      if (Error err = checkHeader(window, base + window.size(), fileDamage))
        return createStringError(errc::invalid_argument, "'%s': %s",
                                 filePath.c_str(),
                                 toString(std::move(err)).c_str());
      if (fileDamage)
        break;
      header = true;
      window.erase(0, kEventFileHeaderSize);
      base = kEventFileHeaderSize;
    }
    Expected<size_t> consumed =
        scanRecords(window, base, index, atEnd && final, fileDamage, onEvent);
    if (!consumed)
      return consumed.takeError();
    window.erase(0, *consumed);
    base += *consumed;
    if (atEnd)
      break;
  }
  return index - before;
}

Expected<EventFileScan>
scanEventFile(StringRef path,
              function_ref<Error(TraceEvent &, uint64_t)> onEvent) {
  Expected<std::unique_ptr<EventFileTail>> tail = EventFileTail::open(path);
  if (!tail)
    return tail.takeError();
  if (Expected<size_t> read = (*tail)->read(onEvent, /*final=*/true); !read)
    return read.takeError();
  EventFileScan scan;
  scan.fileSize = (*tail)->bytesRead();
  scan.records = (*tail)->records();
  scan.damage = (*tail)->damage();
  return scan;
}

Expected<EventFileContents> readEventFile(StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFile(path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return createStringError(buffer.getError(), "cannot read '%s': %s",
                             path.str().c_str(),
                             buffer.getError().message().c_str());
  Expected<EventFileContents> contents = parseEventFile((*buffer)->getBuffer());
  if (!contents)
    return createStringError(errc::invalid_argument, "'%s': %s",
                             path.str().c_str(),
                             toString(contents.takeError()).c_str());
  return contents;
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

namespace {

/// An exclusive flock(2) on an event file for as long as it lives. Every
/// writer takes it to append a record or to repair and start a file, so
/// processes (and writers in one process: each open is its own lock
/// holder) appending to one file never tear or cut each other's records.
class FileLock {
public:
  explicit FileLock(int fd) : fd(fd) {
    while (::flock(fd, LOCK_EX) != 0 && errno == EINTR)
      ;
  }
  ~FileLock() { ::flock(fd, LOCK_UN); }
  FileLock(const FileLock &) = delete;
  FileLock &operator=(const FileLock &) = delete;

private:
  int fd;
};

} // namespace

Expected<std::unique_ptr<EventWriter>> EventWriter::open(StringRef path,
                                                         Mode mode) {
  auto fail = [&](std::error_code ec, const Twine &what) -> Error {
    return createStringError(ec, "cannot %s event file '%s': %s",
                             what.str().c_str(), path.str().c_str(),
                             ec.message().c_str());
  };

  int fd = -1;
  sys::fs::OpenFlags flags =
      mode == Mode::Append ? sys::fs::OF_Append : sys::fs::OF_None;
  if (std::error_code ec = sys::fs::openFileForWrite(
          path, fd,
          mode == Mode::Append ? sys::fs::CD_OpenAlways
                               : sys::fs::CD_CreateAlways,
          flags))
    return fail(ec, "open");
  std::unique_ptr<EventWriter> writer(new EventWriter(fd, path.str()));
  // Under the lock: another writer may be appending, or starting the file
  // (two would write two headers), or repairing it.
  FileLock lock(fd);
  bool needHeader = true;
  if (mode == Mode::Append) {
    // Scanned, not loaded: a long log costs one record of memory.
    Expected<EventFileScan> existing = scanEventFile(
        path, [](TraceEvent &, uint64_t) { return Error::success(); });
    if (!existing)
      return existing.takeError();
    needHeader = existing->fileSize == 0;
    if (existing->damage) {
      // Appending behind a damaged tail would hide every new record from
      // readers, which stop at the damage. Cut the tail first (a damaged
      // header means the file holds no record: start it again). No writer
      // is mid-record: they write under the lock.
      uint64_t keep = existing->damage->offset;
      if (keep < kEventFileHeaderSize) {
        keep = 0;
        needHeader = true;
      }
      if (::ftruncate(fd, static_cast<off_t>(keep)) != 0)
        return fail(std::error_code(errno, std::generic_category()), "repair");
    }
  }
  if (needHeader)
    if (Error err = writer->writeAll(eventFileHeader()))
      return std::move(err);
  return std::move(writer);
}

EventWriter::~EventWriter() {
  if (fd >= 0)
    ::close(fd);
}

Error EventWriter::writeAll(StringRef bytes) {
  // Plain write(2): once it returns, the bytes belong to the kernel and
  // survive a crash of this process (not a power loss; that needs fsync,
  // which would make every event cost a disk round trip).
  while (!bytes.empty()) {
    ssize_t written = ::write(fd, bytes.data(), bytes.size());
    if (written < 0) {
      if (errno == EINTR)
        continue;
      std::error_code ec(errno, std::generic_category());
      return createStringError(ec, "cannot write event file '%s': %s",
                               filePath.c_str(), ec.message().c_str());
    }
    bytes = bytes.drop_front(static_cast<size_t>(written));
  }
  return Error::success();
}

Error EventWriter::write(const TraceEvent &event) {
  // Serialized outside the locks: only the write is exclusive.
  std::string record;
  appendEventRecord(event, record);
  std::lock_guard<std::mutex> guard(mutex);
  FileLock lock(fd);
  if (Error err = writeAll(record))
    return err;
  ++records;
  return Error::success();
}

} // namespace tessera
