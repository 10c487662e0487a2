//===- InputFile.cpp - Reading an input file with a size bound ------------===//

#include "tessera/Trace/InputFile.h"

#include "llvm/Support/Errc.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace tessera {

static Error readError(StringRef path, StringRef what, std::error_code ec,
                       const Twine &why) {
  return createStringError(ec, "cannot read the %s '%s': %s",
                           what.str().c_str(), path.str().c_str(),
                           why.str().c_str());
}

/// The checks made before reading: what the path is, and a regular file's
/// size. Sets `regular` when it is a regular file within the limit.
static Error checkPath(StringRef path, uint64_t maxBytes, StringRef what,
                       bool &regular) {
  regular = false;
  if (path == "-")
    return Error::success();
  sys::fs::file_status status;
  if (std::error_code ec = sys::fs::status(path, status))
    return readError(path, what, ec, ec.message());
  if (sys::fs::is_directory(status))
    return readError(path, what, make_error_code(errc::is_a_directory),
                     "it is a folder");
  if (status.type() == sys::fs::file_type::character_file ||
      status.type() == sys::fs::file_type::block_file)
    return readError(path, what, make_error_code(errc::invalid_argument),
                     "it is a device, not a file");
  if (sys::fs::is_regular_file(status)) {
    if (status.getSize() > maxBytes)
      return readError(path, what, make_error_code(errc::file_too_large),
                       formatv("it is {0} bytes; the limit is {1}",
                               status.getSize(), maxBytes));
    regular = true;
  }
  return Error::success();
}

Error checkInputFile(StringRef path, uint64_t maxBytes, StringRef what) {
  bool regular;
  return checkPath(path, maxBytes, what, regular);
}

Expected<std::unique_ptr<MemoryBuffer>>
readInputFile(StringRef path, uint64_t maxBytes, StringRef what, bool isText) {
  auto error = [&](std::error_code ec, const Twine &why) -> Error {
    return readError(path, what, ec, why);
  };
  bool stdinput = path == "-";
  bool regular;
  if (Error err = checkPath(path, maxBytes, what, regular))
    return std::move(err);
  if (!stdinput) {
    if (regular) {
      ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
          MemoryBuffer::getFile(path, isText,
                                /*RequiresNullTerminator=*/true);
      if (!buffer)
        return error(buffer.getError(), buffer.getError().message());
      return std::move(*buffer);
    }
  }
  // A pipe (or standard input): its size is unknown until it ends, so it
  // is read in chunks and refused once it passes the limit.
  Expected<sys::fs::file_t> fd =
      stdinput ? Expected<sys::fs::file_t>(sys::fs::getStdinHandle())
               : sys::fs::openNativeFileForRead(path);
  if (!fd) {
    std::error_code ec = errorToErrorCode(fd.takeError());
    return error(ec, ec.message());
  }
  std::string bytes;
  constexpr size_t kChunk = 1 << 20;
  while (true) {
    size_t have = bytes.size();
    bytes.resize(have + kChunk);
    Expected<size_t> got = sys::fs::readNativeFile(
        *fd, MutableArrayRef<char>(bytes.data() + have, kChunk));
    if (!got) {
      if (!stdinput)
        sys::fs::closeFile(*fd);
      std::error_code ec = errorToErrorCode(got.takeError());
      return error(ec, ec.message());
    }
    bytes.resize(have + *got);
    if (*got == 0)
      break;
    if (bytes.size() > maxBytes) {
      if (!stdinput)
        sys::fs::closeFile(*fd);
      return error(make_error_code(errc::file_too_large),
                   formatv("it goes on past the limit of {0} bytes",
                           maxBytes));
    }
  }
  if (!stdinput)
    sys::fs::closeFile(*fd);
  return MemoryBuffer::getMemBufferCopy(bytes, path == "-" ? "<stdin>" : path);
}

Error checkMlirNesting(StringRef text, StringRef name, unsigned maxDepth) {
  unsigned depth = 0, line = 1;
  size_t lineStart = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (c == '\n') {
      ++line;
      lineStart = i + 1;
    } else if (c == '"') {
      // A string: skip to its closing quote (escapes skip a character).
      for (++i; i < e && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
    } else if (c == '/' && i + 1 < e && text[i + 1] == '/') {
      i = text.find('\n', i);
      if (i == StringRef::npos)
        break;
      --i; // the newline is counted above
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > maxDepth)
        return createStringError(
            errc::invalid_argument,
            "%s:%u:%zu: brackets nest more than %u levels deep here "
            "(docs/limits.md)",
            name.str().c_str(), line, i - lineStart + 1, maxDepth);
    } else if ((c == ')' || c == ']' || c == '}' || c == '>') && depth) {
      // '->' is an arrow, not a closing bracket.
      if (!(c == '>' && i && text[i - 1] == '-'))
        --depth;
    }
  }
  return Error::success();
}

} // namespace tessera
