//===- BackgroundWriter.h - A stream that writes on a thread ----*- C++ -*-===//
//
// Traces and exports run to gigabytes, and on a small machine the kernel's
// copy into the page cache costs as much as formatting them: writing on a
// second thread overlaps the two. The caller formats straight into 1 MiB
// buffers; a full one is handed to the writer thread as it is (no copy)
// and the caller goes on in a free one. At most five buffers exist, so
// memory stays a few MiB however fast the caller is. The thread starts
// with the first full buffer: a stream that never fills one is written on
// the caller's thread when it finishes.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TRACE_BACKGROUNDWRITER_H
#define TESSERA_TRACE_BACKGROUNDWRITER_H

#include "llvm/Support/raw_ostream.h"

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace tessera {

class BackgroundFdStream : public llvm::raw_ostream {
public:
  /// Writes to `fd` (closed by finish() when `closeFd`).
  BackgroundFdStream(int fd, bool closeFd);
  /// Finishes, dropping any error: call finish() to see it.
  ~BackgroundFdStream() override;

  /// Flushes, waits for every buffer to be written, and returns the first
  /// write error (later writes are skipped after one). Idempotent.
  std::error_code finish();

  /// Writes `bytes` on the caller's thread once everything before them is
  /// written: for bytes already in memory (an executable copied from the
  /// cache), where handing them to the writer thread only adds a copy.
  void writeDirect(llvm::StringRef bytes);

private:
  void write_impl(const char *ptr, size_t size) override;
  uint64_t current_pos() const override { return position; }
  void writerLoop();
  /// ::write until all of it is written; the first error.
  std::error_code writeAll(const char *data, size_t size);

  using Buffer = std::unique_ptr<char[]>;
  /// A buffer to write, and whether it returns to the pool after.
  struct Pending {
    Buffer data;
    size_t size;
    bool pooled;
  };
  /// Waits for a free pool buffer (or makes one) and writes into it.
  void takeFreeBuffer(std::unique_lock<std::mutex> &lock);
  /// Starts the writer thread unless it runs (under `mutex`).
  void startWriter();

  static constexpr size_t kBufferSize = 1 << 20;
  static constexpr size_t kBuffers = 5;
  /// The most one write(2) is given. Linux (6.x, ext4 and other file
  /// systems with large folios) sizes the page-cache folios a write creates
  /// by the write's length: from 2 MiB on they are whole 2 MiB blocks, and
  /// on a VM whose balloon reports free 2 MiB blocks to the host (the
  /// machines Tessera is measured on: page_reporting_order 9) every such block
  /// is faulted back in from the host as it is filled. A 56 MB executable took
  /// 115-163 ms as one write and 13-15 ms in 1 MiB writes there
  /// (bench/findings.md, twenty-fourth session); elsewhere the extra
  /// system calls cost microseconds.
  static constexpr size_t kMaxWrite = 1 << 20;

  int fd;
  bool closeFd, finished = false;
  /// finish() is flushing: with no writer thread started, the last bytes
  /// are written on the caller's thread.
  bool finishing = false;
  uint64_t position = 0;
  Buffer current;          ///< the buffer the caller formats into
  size_t allocated = 0;    ///< pool buffers in existence
  std::vector<Buffer> free; ///< written pool buffers, ready for reuse
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<Pending> queue;
  bool stopping = false;
  bool writing = false; ///< the writer thread holds a buffer off the queue
  std::error_code error;
  std::thread writer;
};

} // namespace tessera

#endif // TESSERA_TRACE_BACKGROUNDWRITER_H
