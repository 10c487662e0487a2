//===- AtomicFile.cpp - Write files via a temporary and a rename ----------===//

#include "tessera/Trace/AtomicFile.h"

#include "llvm/Support/Errc.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <mutex>
#include <set>

using namespace llvm;

namespace tessera {

Error writeFileAtomically(StringRef path,
                          function_ref<Error(raw_ostream &)> write,
                          const AtomicWriteOptions &options) {
  if (options.dashIsStdout && path == "-") {
    if (Error err = write(outs()))
      return err;
    outs().flush();
    return Error::success();
  }
  Expected<std::unique_ptr<AtomicFileStream>> file =
      AtomicFileStream::open(path, options);
  if (!file)
    return file.takeError();
  // On an error the stream's destructor removes the temporary.
  if (Error err = write((*file)->os()))
    return err;
  return (*file)->commit();
}

Error writeFileAtomically(StringRef path, StringRef contents,
                          const AtomicWriteOptions &options) {
  return writeFileAtomically(
      path,
      [&](raw_ostream &os) {
        os << contents;
        return Error::success();
      },
      options);
}

Expected<std::unique_ptr<AtomicFileStream>>
AtomicFileStream::open(StringRef path, const AtomicWriteOptions &options) {
  if (path.empty())
    return createStringError(errc::invalid_argument,
                             "cannot write a file with an empty name");
  StringRef parent = sys::path::parent_path(path);
  if (options.createParentDirs && !parent.empty())
    if (std::error_code ec = sys::fs::create_directories(parent))
      return createStringError(ec, "cannot create folder '%s': %s",
                               parent.str().c_str(), ec.message().c_str());
  // The temporary lives beside the target so the rename stays within one
  // file system (and is therefore atomic). TempFile also deletes it if the
  // process is killed by a signal before keep()/discard().
  Expected<sys::fs::TempFile> temp = sys::fs::TempFile::create(
      path + ".tmp-%%%%%%%%", sys::fs::all_read | sys::fs::all_write);
  if (!temp)
    return createStringError(errc::io_error, "cannot write '%s': %s",
                             path.str().c_str(),
                             toString(temp.takeError()).c_str());
  return std::unique_ptr<AtomicFileStream>(
      new AtomicFileStream(path.str(), std::move(*temp)));
}

namespace {
/// The temporaries of streams not yet committed or destroyed. Tools stop
/// on errors with exit(), which destroys no local: the temporaries it
/// would leave beside their targets are removed at exit instead.
struct LiveTemporaries {
  std::mutex mutex;
  std::set<sys::fs::TempFile *> files;

  static LiveTemporaries &get() {
    // Registered after the instance is built, so it runs before the
    // instance is destroyed.
    static LiveTemporaries instance;
    static const bool registered = (std::atexit(discardAll), true);
    (void)registered;
    return instance;
  }
  static void discardAll() {
    LiveTemporaries &live = get();
    std::lock_guard<std::mutex> lock(live.mutex);
    for (sys::fs::TempFile *file : live.files)
      consumeError(file->discard());
    live.files.clear();
  }
  void add(sys::fs::TempFile *file) {
    std::lock_guard<std::mutex> lock(mutex);
    files.insert(file);
  }
  void remove(sys::fs::TempFile *file) {
    std::lock_guard<std::mutex> lock(mutex);
    files.erase(file);
  }
};
} // namespace

AtomicFileStream::AtomicFileStream(std::string path, sys::fs::TempFile temp)
    : path(std::move(path)), temp(std::move(temp)) {
  stream = std::make_unique<raw_fd_ostream>(this->temp.FD,
                                            /*shouldClose=*/false);
  // Streams write traces and exports of gigabytes: fewer, larger writes.
  stream->SetBufferSize(1 << 20);
  LiveTemporaries::get().add(&this->temp);
}

AtomicFileStream::~AtomicFileStream() {
  if (done)
    return;
  LiveTemporaries::get().remove(&temp);
  stream->clear_error();
  stream.reset();
  consumeError(temp.discard());
}

Error AtomicFileStream::commit() {
  stream->flush();
  done = true;
  LiveTemporaries::get().remove(&temp);
  if (stream->has_error()) {
    std::error_code ec = stream->error();
    stream->clear_error();
    stream.reset();
    consumeError(temp.discard());
    return createStringError(ec, "cannot write '%s': %s", path.c_str(),
                             ec.message().c_str());
  }
  stream.reset();
  if (Error err = temp.keep(path))
    return createStringError(errc::io_error, "cannot write '%s': %s",
                             path.c_str(), toString(std::move(err)).c_str());
  return Error::success();
}

} // namespace tessera
