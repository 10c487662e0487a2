//===- NpyTest.cpp - .npy files ---------------------------------------------===//
//
// Every element type round-trips through a .npy file with NumPy's dtype
// names (bf16 as float32, exactly); a file is rejected, with its name and
// the reason, when it is cut short, lies about its size, or holds another
// type or shape than asked for; a failed write leaves no file behind.
//
//===----------------------------------------------------------------------===//

#include "tessera/Support/Npy.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace tessera;

namespace {

class NpyTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("npy-test", dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }
  std::string path(llvm::StringRef name) {
    llvm::SmallString<128> p(dir);
    llvm::sys::path::append(p, name);
    return p.str().str();
  }
  std::string bytesOf(llvm::StringRef file) {
    auto buffer = llvm::MemoryBuffer::getFile(file);
    return buffer ? (*buffer)->getBuffer().str() : "";
  }
  void writeBytes(llvm::StringRef file, llvm::StringRef bytes) {
    std::error_code ec;
    llvm::raw_fd_ostream os(file, ec);
    os << bytes;
  }
  std::string errorOf(llvm::Expected<HostTensor> t) {
    if (t)
      return "no error";
    return llvm::toString(t.takeError());
  }
  llvm::SmallString<128> dir;
};

TEST_F(NpyTest, EveryElementTypeRoundTrips) {
  for (DType d : {DType::Pred, DType::S8, DType::S16, DType::S32, DType::S64,
                  DType::U8, DType::U16, DType::U32, DType::U64, DType::F16,
                  DType::BF16, DType::F32, DType::F64}) {
    HostTensor t(d, {2, 3});
    for (int64_t i = 0; i < 6; ++i)
      t.setDouble(i, d == DType::Pred ? i % 2 : 1.5 * i - (isSigned(d) ? 4 : 0));
    std::string file = path(("t-" + dtypeName(d) + ".npy").str());
    ASSERT_FALSE(bool(writeNpy(file, t)));
    // The header names NumPy's dtype.
    EXPECT_NE(bytesOf(file).find(("'descr': '" + npyTypeString(d) + "'").str()),
              std::string::npos)
        << dtypeName(d).str();
    llvm::Expected<HostTensor> back = readNpyAs(file, d, {2, 3}, "t");
    ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
    EXPECT_EQ(back->dtype, d);
    EXPECT_EQ(back->shape, t.shape);
    EXPECT_EQ(back->bytes, t.bytes) << dtypeName(d).str();
  }
  // A scalar and an empty tensor.
  HostTensor scalar(DType::F32, {});
  scalar.setDouble(0, 2.5);
  ASSERT_FALSE(bool(writeNpy(path("s.npy"), scalar)));
  llvm::Expected<HostTensor> s = readNpy(path("s.npy"));
  ASSERT_TRUE(bool(s));
  EXPECT_EQ(s->rank(), 0);
  EXPECT_EQ(s->getDouble(0), 2.5);
  ASSERT_FALSE(bool(writeNpy(path("e.npy"), HostTensor(DType::S32, {0, 4}))));
  llvm::Expected<HostTensor> e = readNpy(path("e.npy"));
  ASSERT_TRUE(bool(e));
  EXPECT_EQ(e->shape, (std::vector<int64_t>{0, 4}));
}

TEST_F(NpyTest, BadFilesAreErrorsNamingTheFile) {
  HostTensor t(DType::F32, {4, 4});
  std::string good = path("good.npy");
  ASSERT_FALSE(bool(writeNpy(good, t)));
  std::string bytes = bytesOf(good);

  writeBytes(path("cut.npy"), llvm::StringRef(bytes).drop_back(4));
  EXPECT_EQ(errorOf(readNpy(path("cut.npy"))),
            path("cut.npy") + ": its header declares 64 bytes of data, the "
                              "file holds 60");
  writeBytes(path("long.npy"), bytes + "xxxx");
  EXPECT_EQ(errorOf(readNpy(path("long.npy"))),
            path("long.npy") + ": its header declares 64 bytes of data, the "
                               "file holds 68");
  writeBytes(path("text.npy"), "just some text, no magic");
  EXPECT_EQ(errorOf(readNpy(path("text.npy"))),
            path("text.npy") +
                ": not a valid .npy file: this file do not have a valid npy "
                "format.");
  // A shape far larger than the file: refused before any allocation.
  std::string huge = bytes;
  // (The header keeps its length: the new shape eats into its padding.)
  size_t at = huge.find("(4, 4), }          ");
  ASSERT_NE(at, std::string::npos);
  huge.replace(at, 19, "(9999999, 99999), }");
  writeBytes(path("huge.npy"), huge);
  EXPECT_EQ(errorOf(readNpy(path("huge.npy"))),
            path("huge.npy") + ": its header declares 3999959600004 bytes of "
                               "data, the file holds 64");
  EXPECT_EQ(errorOf(readNpyAs(good, DType::F32, {16}, "parameter 'x'")),
            good + ": holds f32[4,4], parameter 'x' is f32[16]");
  EXPECT_EQ(errorOf(readNpyAs(good, DType::S32, {4, 4}, "parameter 'x'")),
            good + ": holds f32[4,4], parameter 'x' is s32[4,4]");
  EXPECT_NE(errorOf(readNpy(path("missing.npy"))).find("cannot read"),
            std::string::npos);
}

TEST_F(NpyTest, AFailedWriteLeavesNoFile) {
  std::string inMissingDir = path("no/such/dir/x.npy");
  llvm::Error err = writeNpy(inMissingDir, HostTensor(DType::F32, {2}));
  EXPECT_TRUE(bool(err));
  llvm::consumeError(std::move(err));
  EXPECT_FALSE(llvm::sys::fs::exists(inMissingDir));
  // Overwriting replaces the file whole.
  std::string file = path("x.npy");
  ASSERT_FALSE(bool(writeNpy(file, HostTensor(DType::F32, {100}))));
  ASSERT_FALSE(bool(writeNpy(file, HostTensor(DType::F32, {2}))));
  llvm::Expected<HostTensor> back = readNpy(file);
  ASSERT_TRUE(bool(back));
  EXPECT_EQ(back->numElements(), 2);
  std::error_code ec;
  int files = 0;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    ++files;
  EXPECT_EQ(files, 1); // no temporaries left
}

} // namespace
