//===- AtomicFile.cpp - Write files via a temporary and a rename ----------===//

#include "tessera/Trace/AtomicFile.h"
#include "tessera/Trace/BackgroundWriter.h"

#include "llvm/Support/Errc.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;

namespace tessera {

/// Exchanges the names `from` and `to` when `to` is a regular file; false
/// (nothing changed) where it is not, or where the file system cannot
/// exchange.
///
/// Why not rename: ext4 (as mounted by default, auto_da_alloc) takes a
/// rename over an existing file as a request for durability and allocates
/// and starts writing the new file's blocks inside the rename. That cost
/// 0.2 ms a file here, more than a small model's report takes to format:
/// eight outputs made a quarter of neuron_linear_tiny's reports-on cost,
/// every time a user recompiled into the same folder. An exchange is just
/// as atomic for readers and does not trigger it. What it gives up is the
/// heuristic's protection against power loss, which Tessera does not
/// promise anyway: no writer calls fsync (docs/events.md).
static bool exchangeFiles(StringRef from, StringRef to) {
#ifdef RENAME_EXCHANGE
  std::string source = from.str(), target = to.str();
  struct stat status;
  if (::lstat(target.c_str(), &status) != 0 || !S_ISREG(status.st_mode))
    return false;
  if (::renameat2(AT_FDCWD, source.c_str(), AT_FDCWD, target.c_str(),
                  RENAME_EXCHANGE) != 0)
    return false;
  // The target changed between the check and the exchange (into a folder,
  // say): exchanged back, and the plain rename the caller then tries
  // reports what is wrong with it. (What came from the target is never
  // removed as an old file.)
  if (::lstat(source.c_str(), &status) != 0 || !S_ISREG(status.st_mode)) {
    (void)::renameat2(AT_FDCWD, source.c_str(), AT_FDCWD, target.c_str(),
                      RENAME_EXCHANGE);
    return false;
  }
  return true;
#else
  (void)from;
  (void)to;
  return false;
#endif
}

std::error_code replaceFile(StringRef from, StringRef to) {
  if (!exchangeFiles(from, to))
    return sys::fs::rename(from, to);
  // `from` now names the old file. The new one is in place whether or not
  // it can be removed.
  (void)sys::fs::remove(from);
  return {};
}

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
  if (options.dashIsStdout && path == "-")
    return writeFileAtomically(
        path,
        [&](raw_ostream &os) {
          os << contents;
          return Error::success();
        },
        options);
  Expected<std::unique_ptr<AtomicFileStream>> file =
      AtomicFileStream::open(path, options);
  if (!file)
    return file.takeError();
  // Written from where they are: handed to the background writer, a
  // write larger than its buffer is copied whole (an executable's size
  // added to the compile's peak memory), and even in pieces each byte is
  // copied once more (a tenth of a cache hit).
  (*file)->writeDirect(contents);
  return (*file)->commit();
}

/// The file a path names once symbolic links are followed (the link's own
/// path when it dangles at the end: writing creates its target), so an
/// output written through a link replaces the linked file, not the link.
static Expected<std::string> followLinks(StringRef path) {
  std::string current = path.str();
  // The kernel's own limit on links in a path (ELOOP).
  for (int hops = 0; hops < 40; ++hops) {
    if (!sys::fs::is_symlink_file(current))
      return current;
    char target[4096];
    ssize_t n = ::readlink(current.c_str(), target, sizeof(target) - 1);
    if (n < 0)
      return createStringError(std::error_code(errno, std::generic_category()),
                               "cannot write '%s': %s", path.str().c_str(),
                               std::strerror(errno));
    StringRef link(target, static_cast<size_t>(n));
    if (sys::path::is_absolute(link)) {
      current = link.str();
    } else {
      SmallString<256> next(sys::path::parent_path(current));
      sys::path::append(next, link);
      current = std::string(next);
    }
  }
  return createStringError(std::make_error_code(std::errc::too_many_symbolic_link_levels),
                           "cannot write '%s': too many levels of symbolic "
                           "links",
                           path.str().c_str());
}

Expected<std::unique_ptr<AtomicFileStream>>
AtomicFileStream::open(StringRef requested, const AtomicWriteOptions &options) {
  if (requested.empty())
    return createStringError(errc::invalid_argument,
                             "cannot write a file with an empty name");
  // A device, pipe or socket (/dev/null, /dev/stdout, a FIFO) is written in
  // place under the name given: renaming a temporary over it would replace
  // it with a file. The kernel says what the name reaches, before the
  // links are followed by hand: /dev/stdout on a pipe is a link to
  // /proc/self/fd/1, whose own link reads "pipe:[N]", which names no file.
  sys::fs::file_status status;
  if (!sys::fs::status(requested, status) && sys::fs::exists(status) &&
      !sys::fs::is_directory(status) && !sys::fs::is_regular_file(status)) {
    int fd;
    if (std::error_code ec = sys::fs::openFileForWrite(
            requested, fd, sys::fs::CD_OpenExisting, sys::fs::OF_None))
      return createStringError(ec, "cannot write '%s': %s",
                               requested.str().c_str(), ec.message().c_str());
    return std::unique_ptr<AtomicFileStream>(new AtomicFileStream(
        requested.str(), std::make_unique<BackgroundFdStream>(fd, true)));
  }
  Expected<std::string> resolved = followLinks(requested);
  if (!resolved)
    return resolved.takeError();
  StringRef path = *resolved;
  if (!sys::fs::status(path, status) && sys::fs::is_directory(status))
    return createStringError(errc::is_a_directory,
                             "cannot write '%s': it is a folder",
                             path.str().c_str());
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

AtomicFileStream::AtomicFileStream(std::string path, sys::fs::TempFile file)
    : path(std::move(path)), temp(std::move(file)) {
  // Streams write traces and exports of gigabytes: the writes go to a
  // second thread, overlapping the caller's formatting. TempFile closes
  // the descriptor when it is kept or discarded.
  stream = std::make_unique<BackgroundFdStream>(temp->FD, /*closeFd=*/false);
  LiveTemporaries::get().add(&*temp);
}

AtomicFileStream::AtomicFileStream(std::string path,
                                   std::unique_ptr<BackgroundFdStream> device)
    : path(std::move(path)), stream(std::move(device)) {}

AtomicFileStream::~AtomicFileStream() {
  if (done || !temp)
    return;
  LiveTemporaries::get().remove(&*temp);
  (void)stream->finish();
  stream.reset();
  consumeError(temp->discard());
}

Error AtomicFileStream::commit() {
  std::error_code ec = stream->finish();
  done = true;
  if (temp)
    LiveTemporaries::get().remove(&*temp);
  if (ec) {
    stream.reset();
    if (temp)
      consumeError(temp->discard());
    return createStringError(ec, "cannot write '%s': %s", path.c_str(),
                             ec.message().c_str());
  }
  stream.reset();
  if (!temp)
    return Error::success();
  // Exchanged, the temporary's name holds the old file, which discard()
  // removes (and closes the descriptor, as keep() would).
  if (exchangeFiles(temp->TmpName, path)) {
    consumeError(temp->discard());
    return Error::success();
  }
  if (Error err = temp->keep(path))
    return createStringError(errc::io_error, "cannot write '%s': %s",
                             path.c_str(), toString(std::move(err)).c_str());
  return Error::success();
}

} // namespace tessera
