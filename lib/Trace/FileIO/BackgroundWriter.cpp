//===- BackgroundWriter.cpp - A file stream that writes on a thread -------===//

#include "tessera/Trace/BackgroundWriter.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace tessera {

BackgroundFdStream::BackgroundFdStream(int fd, bool closeFd)
    : raw_ostream(/*unbuffered=*/false), fd(fd), closeFd(closeFd) {
  std::unique_lock<std::mutex> lock(mutex);
  takeFreeBuffer(lock);
}

void BackgroundFdStream::startWriter() {
  // Started with the first buffer handed over, not with the stream: a
  // file written whole (writeDirect) or smaller than a buffer never needs
  // it, and a small compile with every report started ten threads, one
  // per file, only to join them.
  if (!writer.joinable())
    writer = std::thread([this] { writerLoop(); });
}

void BackgroundFdStream::takeFreeBuffer(std::unique_lock<std::mutex> &lock) {
  changed.wait(lock, [&] { return !free.empty() || allocated < kBuffers; });
  if (free.empty()) {
    // Not make_unique, which zeroes the megabyte: the buffer is written
    // before it is read, and zeroing it was a tenth of a small compile.
    current.reset(new char[kBufferSize]);
    ++allocated;
  } else {
    current = std::move(free.back());
    free.pop_back();
  }
  SetBuffer(current.get(), kBufferSize);
}

BackgroundFdStream::~BackgroundFdStream() { (void)finish(); }

void BackgroundFdStream::write_impl(const char *ptr, size_t size) {
  position += size;
  std::unique_lock<std::mutex> lock(mutex);
  if (finishing && !writer.joinable()) {
    // The last bytes of a stream that never filled a buffer: written here,
    // in order, as nothing was queued before them.
    if (!error)
      error = writeAll(ptr, size);
    return;
  }
  startWriter();
  if (ptr == current.get()) {
    // The caller's buffer, full or flushed: hand it over whole.
    queue.push_back({std::move(current), size, /*pooled=*/true});
    changed.notify_all();
    takeFreeBuffer(lock);
    return;
  }
  // A write larger than the buffer, passed straight through: copied, after
  // the queue drains enough that memory stays bounded.
  changed.wait(lock, [&] { return queue.size() < kBuffers; });
  Buffer copy(new char[size]);
  std::memcpy(copy.get(), ptr, size);
  queue.push_back({std::move(copy), size, /*pooled=*/false});
  changed.notify_all();
}

void BackgroundFdStream::writerLoop() {
  std::unique_lock<std::mutex> lock(mutex);
  while (true) {
    changed.wait(lock, [&] { return !queue.empty() || stopping; });
    if (queue.empty())
      return;
    Pending buffer = std::move(queue.front());
    queue.pop_front();
    bool failed = static_cast<bool>(error);
    writing = true;
    lock.unlock();
    // After an error the rest is dropped: the file is discarded anyway.
    std::error_code ec =
        failed ? std::error_code() : writeAll(buffer.data.get(), buffer.size);
    lock.lock();
    writing = false;
    if (ec && !error)
      error = ec;
    if (buffer.pooled)
      free.push_back(std::move(buffer.data));
    changed.notify_all();
  }
}

std::error_code BackgroundFdStream::writeAll(const char *data, size_t size) {
  for (size_t done = 0; done < size;) {
    ssize_t n = ::write(fd, data + done, std::min(size - done, kMaxWrite));
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return std::error_code(errno, std::generic_category());
    done += static_cast<size_t>(n);
  }
  return {};
}

void BackgroundFdStream::writeDirect(llvm::StringRef bytes) {
  flush();
  std::unique_lock<std::mutex> lock(mutex);
  changed.wait(lock, [&] { return queue.empty() && !writing; });
  position += bytes.size();
  if (error)
    return;
  // Nothing is queued and the caller is the only producer: the writer
  // thread stays idle while the bytes go out here.
  lock.unlock();
  std::error_code ec = writeAll(bytes.data(), bytes.size());
  lock.lock();
  if (ec && !error)
    error = ec;
}

std::error_code BackgroundFdStream::finish() {
  if (finished)
    return error;
  finishing = true;
  flush();
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  changed.notify_all();
  if (writer.joinable())
    writer.join();
  finished = true;
  if (closeFd && ::close(fd) != 0 && !error)
    error = std::error_code(errno, std::generic_category());
  return error;
}

} // namespace tessera
