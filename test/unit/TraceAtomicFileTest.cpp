//===- TraceAtomicFileTest.cpp - Temporary-then-rename writes -------------===//

#include "TraceTestUtil.h"

#include "tessera/Trace/AtomicFile.h"
#include "tessera/Trace/InputFile.h"

#include "llvm/Support/Errc.h"
#include "llvm/Support/FileSystem.h"

#include "gtest/gtest.h"

#include <atomic>
#include <fstream>
#include <iterator>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace tessera;
using tessera::testing::readWholeFile;
using tessera::testing::ScopedTempDir;

namespace {

TEST(TraceAtomicFile, WritesAndReplaces) {
  ScopedTempDir dir;
  std::string path = dir.path("out.json");
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(path, "first")));
  EXPECT_EQ(readWholeFile(path), "first");
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(path, "second")));
  EXPECT_EQ(readWholeFile(path), "second");
  // Nothing but the target is left in the folder.
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.json"});
}

TEST(TraceAtomicFile, DirectWritesKeepTheirPlace) {
  // Bytes written from where they are follow everything the stream holds
  // (in its buffer or queued for the writer thread) and precede what comes
  // after them; the large string is several of the stream's buffers, and
  // goes out in several write(2) calls, the last a partial one.
  ScopedTempDir dir;
  std::string path = dir.path("out.bin");
  std::string big((5 << 20) + 12345, 'b');
  for (size_t i = 0; i < big.size(); i += 4099)
    big[i] = static_cast<char>('0' + i % 10);
  std::string head(3 << 20, 'h');
  auto file = AtomicFileStream::open(path);
  ASSERT_TRUE(static_cast<bool>(file));
  (*file)->os() << head << "|";
  (*file)->writeDirect(big);
  (*file)->os() << "|tail";
  EXPECT_EQ((*file)->os().tell(), head.size() + big.size() + 6);
  ASSERT_FALSE(static_cast<bool>((*file)->commit()));
  EXPECT_EQ(readWholeFile(path), head + "|" + big + "|tail");
  // writeFileAtomically(path, bytes) writes them that way.
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(path, big)));
  EXPECT_EQ(readWholeFile(path), big);
}

TEST(TraceAtomicFile, FailedWriterLeavesNoTraces) {
  ScopedTempDir dir;
  std::string path = dir.path("out.json");
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(path, "old")));
  llvm::Error err = writeFileAtomically(path, [](llvm::raw_ostream &os) {
    os << "half a fi";
    return llvm::createStringError(llvm::errc::invalid_argument,
                                   "generator failed");
  });
  ASSERT_TRUE(static_cast<bool>(err));
  EXPECT_EQ(toString(std::move(err)), "generator failed");
  EXPECT_EQ(readWholeFile(path), "old");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.json"});
}

TEST(TraceAtomicFile, FailedNewFileIsNeverCreated) {
  ScopedTempDir dir;
  std::string path = dir.path("never.json");
  llvm::Error err = writeFileAtomically(path, [](llvm::raw_ostream &os) {
    os << "partial";
    return llvm::createStringError(llvm::errc::invalid_argument, "no");
  });
  consumeError(std::move(err));
  EXPECT_TRUE(dir.entries().empty());
}

TEST(TraceAtomicFile, MissingFolder) {
  ScopedTempDir dir;
  std::string path = dir.path("a/b/out.txt");
  llvm::Error err = writeFileAtomically(path, "x");
  ASSERT_TRUE(static_cast<bool>(err));
  EXPECT_NE(toString(std::move(err)).find(path), std::string::npos);

  AtomicWriteOptions options;
  options.createParentDirs = true;
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(path, "x", options)));
  EXPECT_EQ(readWholeFile(path), "x");
}

TEST(TraceAtomicFile, EmptyPathIsAnError) {
  llvm::Error err = writeFileAtomically("", "x");
  ASSERT_TRUE(static_cast<bool>(err));
  consumeError(std::move(err));
}

// A pipe or device (/dev/null) is written in place: renaming a temporary
// over it would replace it with a regular file. A FIFO stands in for
// /dev/null here, so a failure cannot damage the machine.
TEST(TraceAtomicFile, PipesAndDevicesAreWrittenInPlace) {
  ScopedTempDir dir;
  std::string path = dir.path("pipe");
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] {
    std::ifstream in(path, std::ios::binary);
    received.assign(std::istreambuf_iterator<char>(in), {});
  });
  llvm::Error err = writeFileAtomically(path, "through the pipe");
  reader.join();
  EXPECT_FALSE(static_cast<bool>(err)) << toString(std::move(err));
  EXPECT_EQ(received, "through the pipe");
  llvm::sys::fs::file_status status;
  ASSERT_FALSE(llvm::sys::fs::status(path, status));
  EXPECT_EQ(status.type(), llvm::sys::fs::file_type::fifo_file);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"pipe"});
}

// /dev/stdout on a pipe is a link to /proc/self/fd/1, and that link reads
// "pipe:[N]", which names no file: the pipe is found through the kernel
// and written in place, as `-o /dev/stdout | ...` asks.
TEST(TraceAtomicFile, APipeReachedThroughProcIsWrittenInPlace) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::string path = "/proc/self/fd/" + std::to_string(fds[1]);
  llvm::Error err = writeFileAtomically(path, "through /proc");
  EXPECT_FALSE(static_cast<bool>(err)) << toString(std::move(err));
  ::close(fds[1]);
  std::string received;
  char buffer[64];
  for (ssize_t n; (n = ::read(fds[0], buffer, sizeof(buffer))) > 0;)
    received.append(buffer, n);
  ::close(fds[0]);
  EXPECT_EQ(received, "through /proc");
}

TEST(TraceAtomicFile, AFolderIsAnError) {
  ScopedTempDir dir;
  llvm::Error err = writeFileAtomically(dir.path(""), "x");
  ASSERT_TRUE(static_cast<bool>(err));
  EXPECT_NE(toString(std::move(err)).find("it is a folder"),
            std::string::npos);
}

// A replaced file is never missing, nor half written, to a reader that
// opens it meanwhile: the new file takes the old one's name in one step
// (an exchange over an existing file, a rename otherwise).
TEST(TraceAtomicFile, ReadersNeverMissAReplacedFile) {
  ScopedTempDir dir;
  std::string path = dir.path("report.json");
  const std::string a(64 << 10, 'a'), b(64 << 10, 'b');
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(path, a)));
  std::atomic<bool> writing{true};
  std::atomic<int> reads{0};
  int missing = 0, torn = 0;
  std::thread reader([&] {
    while (writing.load()) {
      std::ifstream in(path, std::ios::binary);
      if (!in) {
        ++missing;
        continue;
      }
      std::string got((std::istreambuf_iterator<char>(in)),
                      std::istreambuf_iterator<char>());
      ++reads;
      if (got != a && got != b)
        ++torn;
    }
  });
  while (reads.load() == 0)
    std::this_thread::yield();
  for (int i = 0; i < 300; ++i)
    if (llvm::Error err = writeFileAtomically(path, i % 2 ? a : b)) {
      ADD_FAILURE() << toString(std::move(err));
      break;
    }
  writing = false;
  reader.join();
  EXPECT_GT(reads.load(), 1);
  EXPECT_EQ(missing, 0);
  EXPECT_EQ(torn, 0);
  EXPECT_EQ(readWholeFile(path), a); // the last write (i = 299)
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"report.json"});
}

// replaceFile, which the event files, .npy outputs and SQL exports use:
// onto a new name, over a file, and never over a folder.
TEST(TraceAtomicFile, ReplaceFile) {
  ScopedTempDir dir;
  std::string from = dir.path("new.tmp"), to = dir.path("out.bin");
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(from, "one")));
  ASSERT_FALSE(replaceFile(from, to));
  EXPECT_EQ(readWholeFile(to), "one");

  // A descriptor open on the old file still reads it, as after rename(2).
  std::ifstream old(to, std::ios::binary);
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(from, "two")));
  ASSERT_FALSE(replaceFile(from, to));
  EXPECT_EQ(readWholeFile(to), "two");
  std::string before((std::istreambuf_iterator<char>(old)),
                     std::istreambuf_iterator<char>());
  EXPECT_EQ(before, "one");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.bin"});

  std::string folder = dir.path("folder");
  ASSERT_FALSE(llvm::sys::fs::create_directory(folder));
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(from, "three")));
  EXPECT_TRUE(static_cast<bool>(replaceFile(from, folder)));
  EXPECT_TRUE(llvm::sys::fs::is_directory(folder));
  EXPECT_EQ(readWholeFile(from), "three");
}

// An output named through a symbolic link replaces the file the link
// points to; the link stays a link (a dangling one gets its target made).
TEST(TraceAtomicFile, SymbolicLinksAreWrittenThrough) {
  ScopedTempDir dir;
  std::string target = dir.path("real.json"), link = dir.path("link.json");
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(target, "old")));
  ASSERT_EQ(::symlink("real.json", link.c_str()), 0);
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(link, "new")));
  EXPECT_TRUE(llvm::sys::fs::is_symlink_file(link));
  EXPECT_EQ(readWholeFile(target), "new");

  std::string dangling = dir.path("dangling.json");
  ASSERT_EQ(::symlink("made.json", dangling.c_str()), 0);
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(dangling, "made")));
  EXPECT_TRUE(llvm::sys::fs::is_symlink_file(dangling));
  EXPECT_EQ(readWholeFile(dir.path("made.json")), "made");

  std::string loop = dir.path("loop.json");
  ASSERT_EQ(::symlink("loop.json", loop.c_str()), 0);
  llvm::Error err = writeFileAtomically(loop, "x");
  ASSERT_TRUE(static_cast<bool>(err));
  EXPECT_NE(toString(std::move(err)).find("too many levels"),
            std::string::npos);
}

// Inputs read whole are bounded: a regular file over its limit is refused
// before it is read, a pipe once it passes the limit, a device or a folder
// at once.
TEST(TraceInputFile, ReadsAreBounded) {
  ScopedTempDir dir;
  std::string small = dir.path("small.txt"), big = dir.path("big.txt");
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(small, "hello")));
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(big, std::string(64, 'x'))));
  auto ok = readInputFile(small, 16, "thing");
  ASSERT_TRUE(static_cast<bool>(ok)) << toString(ok.takeError());
  EXPECT_EQ((*ok)->getBuffer(), "hello");
  auto tooBig = readInputFile(big, 16, "thing");
  ASSERT_FALSE(static_cast<bool>(tooBig));
  EXPECT_NE(toString(tooBig.takeError()).find("it is 64 bytes; the limit is 16"),
            std::string::npos);
  auto device = readInputFile("/dev/zero", 16, "model");
  ASSERT_FALSE(static_cast<bool>(device));
  EXPECT_EQ(toString(device.takeError()),
            "cannot read the model '/dev/zero': it is a device, not a file");
  auto folder = readInputFile(dir.path(""), 16, "model");
  ASSERT_FALSE(static_cast<bool>(folder));
  EXPECT_NE(toString(folder.takeError()).find("it is a folder"),
            std::string::npos);

  std::string pipe = dir.path("pipe");
  ASSERT_EQ(::mkfifo(pipe.c_str(), 0600), 0);
  std::thread writer([&] {
    std::ofstream out(pipe, std::ios::binary);
    out << std::string(40, 'y');
  });
  auto endless = readInputFile(pipe, 16, "model");
  writer.join();
  ASSERT_FALSE(static_cast<bool>(endless));
  EXPECT_NE(toString(endless.takeError()).find("past the limit of 16 bytes"),
            std::string::npos);
}

} // namespace
