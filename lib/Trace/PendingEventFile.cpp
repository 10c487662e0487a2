//===- PendingEventFile.cpp - An event file that appears only on success --===//

#include "tessera/Trace/PendingEventFile.h"
#include "tessera/Trace/AtomicFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using namespace llvm;

namespace tessera {

PendingEventFile::PendingEventFile(std::string path, std::string tempPath,
                                   std::unique_ptr<EventWriter> writer)
    : path(std::move(path)), tempPath(std::move(tempPath)),
      writer(std::move(writer)) {}

Expected<std::unique_ptr<PendingEventFile>>
PendingEventFile::create(StringRef path) {
  // Reserve a unique name in the target's folder (so the final rename stays
  // on one file system), then let EventWriter truncate and fill it.
  int fd;
  SmallString<256> temp;
  if (std::error_code ec =
          sys::fs::createUniqueFile(path + ".partial-%%%%%%", fd, temp))
    return createStringError(ec, "cannot write '%s': %s", path.str().c_str(),
                             ec.message().c_str());
  sys::Process::SafelyCloseFileDescriptor(fd);
  Expected<std::unique_ptr<EventWriter>> writer =
      EventWriter::open(temp, EventWriter::Mode::Truncate);
  if (!writer) {
    sys::fs::remove(temp);
    return writer.takeError();
  }
  return std::unique_ptr<PendingEventFile>(
      new PendingEventFile(path.str(), temp.str().str(), std::move(*writer)));
}

PendingEventFile::~PendingEventFile() {
  writer.reset();
  if (!committed)
    sys::fs::remove(tempPath);
}

Error PendingEventFile::write(const TraceEvent &event) {
  return writer->write(event);
}

Error PendingEventFile::commit() {
  writer.reset();
  if (std::error_code ec = replaceFile(tempPath, path))
    return createStringError(ec, "cannot write '%s': %s", path.c_str(),
                             ec.message().c_str());
  committed = true;
  return Error::success();
}

} // namespace tessera
