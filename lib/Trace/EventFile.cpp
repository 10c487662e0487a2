//===- EventFile.cpp - Length-delimited trace event files -----------------===//
//
// Writer and reader of the event file (see EventFile.h, docs/events.md).
//
//===----------------------------------------------------------------------===//

#include "tessera/Trace/EventFile.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Errc.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cerrno>
#include <cstring>
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

void appendEventRecord(const TraceEvent &event, std::string &out) {
  std::string body;
  // SerializeToString only fails for messages with missing required fields,
  // which proto3 does not have.
  (void)event.SerializeToString(&body);
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

Expected<EventFileContents> parseEventFile(StringRef bytes) {
  EventFileContents contents;
  contents.fileSize = bytes.size();
  std::string header = eventFileHeader();

  // A file cut inside its header is a valid (empty) event file whose writer
  // died early: report it as damage, not as "not an event file".
  size_t headerBytes = std::min(bytes.size(), header.size());
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
  if (bytes.size() < header.size()) {
    contents.damage =
        EventFileDamage{0, 0,
                        formatv("the {0}-byte header is cut off after {1} "
                                "bytes",
                                header.size(), bytes.size())
                            .str()};
    return contents;
  }

  size_t pos = header.size();
  while (pos < bytes.size()) {
    size_t start = pos;
    size_t index = contents.events.size();
    uint64_t length = 0;
    VarintStatus status = readLength(bytes, pos, length);
    if (status == VarintStatus::CutOff) {
      contents.damage = EventFileDamage{
          start, index, "the record's length prefix is cut off"};
      break;
    }
    if (status == VarintStatus::Malformed) {
      contents.damage = EventFileDamage{
          start, index, "the record's length prefix is malformed or too large"};
      break;
    }
    uint64_t available = bytes.size() - pos;
    if (length > available) {
      contents.damage = EventFileDamage{
          start, index,
          formatv("the record needs {0} bytes but only {1} remain", length,
                  available)
              .str()};
      break;
    }
    TraceEvent event;
    if (!event.ParseFromArray(bytes.data() + pos, static_cast<int>(length))) {
      contents.damage = EventFileDamage{
          start, index,
          formatv("the {0}-byte record is not a valid TraceEvent", length)
              .str()};
      break;
    }
    contents.events.push_back(std::move(event));
    contents.offsets.push_back(start);
    pos += length;
  }
  return contents;
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

Expected<std::unique_ptr<EventWriter>> EventWriter::open(StringRef path,
                                                         Mode mode) {
  auto fail = [&](std::error_code ec, const Twine &what) -> Error {
    return createStringError(ec, "cannot %s event file '%s': %s",
                             what.str().c_str(), path.str().c_str(),
                             ec.message().c_str());
  };

  bool needHeader = true;
  if (mode == Mode::Append && sys::fs::exists(path)) {
    Expected<EventFileContents> existing = readEventFile(path);
    if (!existing)
      return existing.takeError();
    needHeader = existing->fileSize == 0;
    if (existing->damage) {
      // Appending behind a damaged tail would hide every new record from
      // readers, which stop at the damage. Cut the tail first (a damaged
      // header means the file holds no record: start it again).
      uint64_t keep = existing->damage->offset;
      if (keep < kEventFileHeaderSize) {
        keep = 0;
        needHeader = true;
      }
      if (::truncate(path.str().c_str(), static_cast<off_t>(keep)) != 0)
        return fail(std::error_code(errno, std::generic_category()), "repair");
    }
  }

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
  std::string record;
  appendEventRecord(event, record);
  if (Error err = writeAll(record))
    return err;
  ++records;
  return Error::success();
}

} // namespace tessera
