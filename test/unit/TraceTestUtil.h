//===- TraceTestUtil.h - Helpers shared by the Trace unit tests --*- C++
//-*-===//

#ifndef TESSERA_TEST_UNIT_TRACETESTUTIL_H
#define TESSERA_TEST_UNIT_TRACETESTUTIL_H

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

namespace tessera::testing {

/// A fresh folder, removed with everything in it when the test ends.
class ScopedTempDir {
public:
  ScopedTempDir() {
    std::error_code ec =
        llvm::sys::fs::createUniqueDirectory("tessera-trace-test", dir);
    EXPECT_FALSE(ec) << ec.message();
  }
  ~ScopedTempDir() { llvm::sys::fs::remove_directories(dir); }
  std::string path(const llvm::Twine &name) const {
    llvm::SmallString<256> p(dir);
    llvm::sys::path::append(p, name);
    return std::string(p);
  }
  llvm::StringRef root() const { return dir; }

  /// Names of the entries of the folder, sorted.
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
         it.increment(ec))
      names.push_back(llvm::sys::path::filename(it->path()).str());
    std::sort(names.begin(), names.end());
    return names;
  }

private:
  llvm::SmallString<256> dir;
};

inline std::string readWholeFile(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return "<unreadable>";
  return (*buffer)->getBuffer().str();
}

} // namespace tessera::testing

#endif // TESSERA_TEST_UNIT_TRACETESTUTIL_H
