//===- ExecutableFile.cpp - The executable's on-disk container ------------===//

#include "tessera/Runtime/ExecutableFile.h"

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/xxhash.h"

#include <cstring>

using namespace llvm;

namespace tessera::runtime {

static constexpr char kMagic[8] = {'T', 'S', 'R', 'A', 'E', 'X', 'E', '\n'};

Expected<std::string> encodeExecutable(const exe::Executable &executable) {
  size_t size = executable.ByteSizeLong();
  if (size > kMaxExecutablePayload)
    return createStringError("the executable is " + std::to_string(size) +
                             " bytes; the format holds at most " +
                             std::to_string(kMaxExecutablePayload));
  // Serialized once, straight behind the header: a growing string and a
  // copy of it were two more payloads at the compile's peak RSS.
  std::string out(kExecutableHeaderSize + size, '\0');
  char *payload = out.data() + kExecutableHeaderSize;
  {
    google::protobuf::io::ArrayOutputStream stream(payload, int(size));
    google::protobuf::io::CodedOutputStream coded(&stream);
    // Deterministic: protobuf writes map entries (vertex parameters) in
    // hash order, which differs between processes, so the same compile
    // would give different bytes -- and the executable cache promises
    // identical ones.
    coded.SetSerializationDeterministic(true);
    executable.SerializeWithCachedSizes(&coded);
    if (coded.HadError() || size_t(coded.ByteCount()) != size)
      return createStringError("cannot serialize the executable");
  }
  writeExecutableHeader(out.data(), StringRef(payload, size));
  return out;
}

void writeExecutableHeader(char *header, StringRef payload) {
  std::memcpy(header, kMagic, sizeof(kMagic));
  support::endian::write32le(header + 8, kExecutableFormatVersion);
  support::endian::write32le(header + 12, kExecutableHeaderSize);
  support::endian::write64le(header + 16, payload.size());
  support::endian::write64le(header + 24, xxh3_64bits(payload));
}

static Error fail(StringRef source, const Twine &what) {
  return createStringError(source + ": " + what);
}

Expected<StringRef> verifyExecutable(StringRef bytes, StringRef sourceName) {
  if (bytes.size() < kExecutableHeaderSize) {
    if (bytes.size() >= 8 && std::memcmp(bytes.data(), kMagic, 8) != 0)
      return fail(sourceName, "not a Tessera executable (bad magic)");
    return fail(sourceName, "truncated: " + Twine(bytes.size()) +
                                " bytes, shorter than the " +
                                Twine(kExecutableHeaderSize) +
                                "-byte header");
  }
  if (std::memcmp(bytes.data(), kMagic, 8) != 0)
    return fail(sourceName, "not a Tessera executable (bad magic)");
  uint32_t version = support::endian::read32le(bytes.data() + 8);
  uint32_t headerSize = support::endian::read32le(bytes.data() + 12);
  uint64_t payloadSize = support::endian::read64le(bytes.data() + 16);
  uint64_t checksum = support::endian::read64le(bytes.data() + 24);
  if (version != kExecutableFormatVersion)
    return fail(sourceName, "format version " + Twine(version) +
                                ", but this runtime reads version " +
                                Twine(kExecutableFormatVersion) +
                                "; recompile the model");
  if (headerSize != kExecutableHeaderSize)
    return fail(sourceName, "header size " + Twine(headerSize) +
                                ", expected " + Twine(kExecutableHeaderSize));
  uint64_t have = bytes.size() - kExecutableHeaderSize;
  if (payloadSize > kMaxExecutablePayload)
    return fail(sourceName, "declared payload of " + Twine(payloadSize) +
                                " bytes exceeds the format's limit");
  if (have < payloadSize)
    return fail(sourceName, "truncated: the header declares " +
                                Twine(payloadSize) + " payload bytes, " +
                                Twine(have) + " present");
  if (have > payloadSize)
    return fail(sourceName, Twine(have - payloadSize) +
                                " unexpected bytes after the payload");
  StringRef payload = bytes.drop_front(kExecutableHeaderSize);
  if (xxh3_64bits(payload) != checksum)
    return fail(sourceName, "checksum mismatch: the file is corrupt");
  return payload;
}

Expected<exe::Executable> decodeExecutable(StringRef bytes,
                                           StringRef sourceName) {
  Expected<StringRef> payload = verifyExecutable(bytes, sourceName);
  if (!payload)
    return payload.takeError();
  exe::Executable executable;
  if (!executable.ParseFromArray(payload->data(),
                                 static_cast<int>(payload->size())))
    return fail(sourceName, "the payload is not a valid executable message");
  if (executable.format_version() != kExecutableFormatVersion)
    return fail(sourceName, "payload format version " +
                                Twine(executable.format_version()) +
                                " does not match its header");
  return executable;
}

Expected<exe::Executable> readExecutableFile(StringRef path) {
  sys::fs::file_status status;
  if (std::error_code ec = sys::fs::status(path, status))
    return fail(path, "cannot read: " + ec.message());
  if (status.type() == sys::fs::file_type::directory_file)
    return fail(path, "is a directory, not an executable");
  // Bounded read: a device node or an endless pipe stops at the limit.
  uint64_t limit = kExecutableHeaderSize + kMaxExecutablePayload + 1;
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      status.type() == sys::fs::file_type::regular_file
          ? MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false)
          : MemoryBuffer::getFileSlice(path, limit, 0);
  if (!buffer)
    return fail(path, "cannot read: " + buffer.getError().message());
  if ((*buffer)->getBufferSize() >= limit)
    return fail(path, "larger than the largest executable (" + Twine(limit) +
                          " bytes)");
  return decodeExecutable((*buffer)->getBuffer(), path);
}

} // namespace tessera::runtime
