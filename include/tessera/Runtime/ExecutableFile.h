//===- ExecutableFile.h - The executable's on-disk container -----*- C++ -*-===//
//
// An executable file is a 32-byte header followed by the serialized
// tessera.exe.Executable message (proto/tessera_executable.proto):
//
//   offset  size  field
//        0     8  magic "TSRAEXE\n"
//        8     4  format version (little-endian u32)
//       12     4  header size (32)
//       16     8  payload size in bytes (u64)
//       24     8  XXH3-64 of the payload (u64)
//
// The header lets a reader reject a file that is not an executable, was cut
// short, was corrupted, or was written by an incompatible compiler, before
// it parses anything (docs/executable.md). The compiler writes files with
// encodeExecutable; the runtime reads them with readExecutableFile. This
// library links protobuf and LLVMSupport only.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_RUNTIME_EXECUTABLEFILE_H
#define TESSERA_RUNTIME_EXECUTABLEFILE_H

#include "tessera_executable.pb.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace tessera::runtime {

/// The version this build writes and accepts. Bump it on any change a reader
/// of the previous version would misread.
/// Version 2 added strided exchange runs (Exchange.strided), which a version 1
/// reader would silently copy as contiguous runs. Version 3 added shared
/// copy lists (Executable.copy_lists), which a version 2 reader would take
/// for exchanges that copy nothing. Version 4 added shared integer-list
/// parameters (Param.shared_ints), which a version 3 reader would find
/// missing.
inline constexpr uint32_t kExecutableFormatVersion = 4;
inline constexpr size_t kExecutableHeaderSize = 32;
/// Protobuf parses messages of less than 2 GiB.
inline constexpr uint64_t kMaxExecutablePayload = (uint64_t(1) << 31) - 1;

/// Header + payload, ready to write.
llvm::Expected<std::string> encodeExecutable(const exe::Executable &executable);

/// Writes the header for `payload` into the kExecutableHeaderSize bytes at
/// `header` (for a writer that produces the payload itself, piece by piece;
/// the caller checks the payload's size against kMaxExecutablePayload).
void writeExecutableHeader(char *header, llvm::StringRef payload);

/// Checks the header (magic, versions, sizes) and the payload's checksum of
/// `bytes`, without parsing, and returns the payload. Error messages start
/// with `sourceName` (the file's path).
llvm::Expected<llvm::StringRef> verifyExecutable(llvm::StringRef bytes,
                                                 llvm::StringRef sourceName);

/// verifyExecutable, then parses the payload.
llvm::Expected<exe::Executable> decodeExecutable(llvm::StringRef bytes,
                                                 llvm::StringRef sourceName);

/// Reads and decodes the file at `path` (at most the header plus
/// kMaxExecutablePayload bytes are read).
llvm::Expected<exe::Executable> readExecutableFile(llvm::StringRef path);

} // namespace tessera::runtime

#endif // TESSERA_RUNTIME_EXECUTABLEFILE_H
