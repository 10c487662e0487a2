//===- InputFile.h - Reading an input file with a size bound ----*- C++ -*-===//
//
// Every file a tool reads whole (a model, a target, a flag file, a report
// an event file points to) goes through readInputFile: a regular file over
// its limit is refused before a byte is read, a pipe is read up to the
// limit, and a device (/dev/zero, /dev/random) or a folder is refused, so
// an endless or huge input is a clear error, not an allocation failure.
// The limits are in docs/limits.md.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TRACE_INPUTFILE_H
#define TESSERA_TRACE_INPUTFILE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>

namespace tessera {

/// The largest model (HLO text, MLIR), target file and flag file read.
inline constexpr uint64_t kMaxModelBytes = uint64_t(2) << 30;
inline constexpr uint64_t kMaxTargetBytes = uint64_t(16) << 20;
inline constexpr uint64_t kMaxFlagFileBytes = uint64_t(1) << 20;
/// A report stored as a file: protobuf's largest message.
inline constexpr uint64_t kMaxReportBytes = (uint64_t(1) << 31) - 1;

/// Reads `path` ("-" is standard input) whole, refusing it when it is over
/// `maxBytes`, a folder or a device. `what` names the input in errors
/// ("model", "target file"): "cannot read the target file 'x': ...".
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readInputFile(llvm::StringRef path, uint64_t maxBytes, llvm::StringRef what,
              bool isText = false);

/// readInputFile's checks alone, before a tool that reads the file itself
/// (mlir-translate's main) opens it: missing, a folder, a device, or a
/// regular file over `maxBytes` is an error; a pipe passes.
llvm::Error checkInputFile(llvm::StringRef path, uint64_t maxBytes,
                           llvm::StringRef what);

/// How deep brackets may nest in MLIR text: MLIR's parser recurses once
/// per level of a type, attribute or region, and 100,000 levels overflow
/// its stack. Real modules nest a few dozen levels.
inline constexpr unsigned kMaxMlirNesting = 1000;

/// Fails when `text` (MLIR; `name` is its file) nests (), [], {} or <>
/// deeper than `maxDepth`, outside strings and `//` comments, naming the
/// line and column where it does.
llvm::Error checkMlirNesting(llvm::StringRef text, llvm::StringRef name,
                             unsigned maxDepth = kMaxMlirNesting);

} // namespace tessera

#endif // TESSERA_TRACE_INPUTFILE_H
