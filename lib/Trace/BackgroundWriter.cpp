//===- BackgroundWriter.cpp - A file stream that writes on a thread -------===//

#include "tessera/Trace/BackgroundWriter.h"

#include <cerrno>
#include <unistd.h>

namespace tessera {

BackgroundFdStream::BackgroundFdStream(int fd, bool closeFd)
    : raw_ostream(/*unbuffered=*/false), fd(fd), closeFd(closeFd) {
  SetBufferSize(kBufferSize);
  writer = std::thread([this] { writerLoop(); });
}

BackgroundFdStream::~BackgroundFdStream() { (void)finish(); }

void BackgroundFdStream::write_impl(const char *ptr, size_t size) {
  position += size;
  std::unique_lock<std::mutex> lock(mutex);
  changed.wait(lock, [&] { return queue.size() < kMaxQueued; });
  queue.emplace_back(ptr, size);
  changed.notify_all();
}

void BackgroundFdStream::writerLoop() {
  std::unique_lock<std::mutex> lock(mutex);
  while (true) {
    changed.wait(lock, [&] { return !queue.empty() || stopping; });
    if (queue.empty())
      return;
    std::string buffer = std::move(queue.front());
    queue.pop_front();
    changed.notify_all();
    bool failed = static_cast<bool>(error);
    lock.unlock();
    // After an error the rest is dropped: the file is discarded anyway.
    std::error_code ec;
    for (size_t done = 0; !failed && done < buffer.size();) {
      ssize_t n = ::write(fd, buffer.data() + done, buffer.size() - done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0) {
        ec = std::error_code(errno, std::generic_category());
        break;
      }
      done += static_cast<size_t>(n);
    }
    lock.lock();
    if (ec && !error)
      error = ec;
  }
}

std::error_code BackgroundFdStream::finish() {
  if (finished)
    return error;
  flush();
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  changed.notify_all();
  writer.join();
  finished = true;
  if (closeFd && ::close(fd) != 0 && !error)
    error = std::error_code(errno, std::generic_category());
  return error;
}

} // namespace tessera
