//===- TraceDumpNamesTest.cpp - Dump file names and hostile names ---------===//

#include "tessera/Trace/DumpNames.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

using namespace tessera;

namespace {

/// What "cannot leave the dump folder" means for one file name.
void expectSafeComponent(const std::string &name) {
  SCOPED_TRACE("name: " + name);
  EXPECT_FALSE(name.empty());
  EXPECT_EQ(name.find('/'), std::string::npos);
  EXPECT_EQ(name.find('\\'), std::string::npos);
  EXPECT_EQ(name.find('\0'), std::string::npos);
  EXPECT_EQ(name.find(".."), std::string::npos);
  EXPECT_NE(name.front(), '.');
  llvm::SmallString<128> joined("/dump");
  llvm::sys::path::append(joined, name);
  EXPECT_EQ(llvm::sys::path::parent_path(joined), "/dump");
}

TEST(TraceDumpNames, HostileModuleNames) {
  std::string nul("a\0b", 3);
  for (std::string hostile :
       {std::string("../../etc/passwd"), std::string("a/b"), std::string(".."),
        std::string("."), std::string(".hidden"), std::string("C:\\x\\y"),
        std::string("/abs/path"), nul, std::string("caf\xc3\xa9"),
        std::string(300, 'x'), std::string(300, '.'), std::string("")}) {
    std::string safe = sanitizeFileComponent(hostile);
    expectSafeComponent(safe);
    EXPECT_LE(safe.size(), kMaxFileComponentLength);
    expectSafeComponent(dumpNameBeforeOptimizations(1, hostile));
    expectSafeComponent(
        dumpNameForPass(1, 2, hostile, hostile, hostile, "mlir"));
  }
  EXPECT_EQ(sanitizeFileComponent("../../etc/passwd"), "______etc_passwd");
  EXPECT_EQ(sanitizeFileComponent("a/b"), "a_b");
  EXPECT_EQ(sanitizeFileComponent(""), "unnamed");
}

TEST(TraceDumpNames, OrdinaryNamesAreKept) {
  EXPECT_EQ(sanitizeFileComponent("jit_train-step"), "jit_train-step");
  // '.' would add a field to the dot-separated dump name.
  EXPECT_EQ(sanitizeFileComponent("cluster.12"), "cluster_12");
}

TEST(TraceDumpNames, LongNamesAreBoundedAndStayDistinct) {
  std::string a = std::string(299, 'm') + "a";
  std::string b = std::string(299, 'm') + "b";
  std::string safeA = sanitizeFileComponent(a);
  std::string safeB = sanitizeFileComponent(b);
  EXPECT_EQ(safeA.size(), kMaxFileComponentLength);
  EXPECT_NE(safeA, safeB);
  EXPECT_EQ(safeA.substr(0, 10), std::string(10, 'm'));
  // Deterministic: the same name gives the same file on every run.
  EXPECT_EQ(safeA, sanitizeFileComponent(a));
  // Exactly at the limit: kept as is.
  std::string limit(kMaxFileComponentLength, 'q');
  EXPECT_EQ(sanitizeFileComponent(limit), limit);
}

TEST(TraceDumpNames, FileNameFormats) {
  EXPECT_EQ(dumpNameBeforeOptimizations(1, "jit_f"),
            "module_0001.jit_f.before_optimizations.mlir");
  EXPECT_EQ(dumpNameForPass(1, 3, "tiny", "tile-map-tensors", "tile-liveness",
                            "mlir"),
            "module_0001.0003.tiny.after_tile-map-tensors.before_tile-"
            "liveness.mlir");
  EXPECT_EQ(dumpNameAfterOptimizations(12, "jit_f"),
            "module_0012.jit_f.after_optimizations.mlir");
  EXPECT_EQ(dumpNameAfterOptimizations(12, "jit_f", "-memory-usage-report.txt"),
            "module_0012.jit_f.after_optimizations-memory-usage-report.txt");
  EXPECT_EQ(dumpNameAfterOptimizations(12, "jit_f", "-tensor-map.json"),
            "module_0012.jit_f.after_optimizations-tensor-map.json");
  // Ids beyond four digits widen instead of wrapping.
  EXPECT_EQ(dumpModulePrefix(123456), "module_123456");
  EXPECT_EQ(dumpNameForPass(2, 10000, "big", "a", "b", "dot"),
            "module_0002.10000.big.after_a.before_b.dot");
  EXPECT_EQ(dumpNameWithTimestamp(1700000000123456,
                                  dumpNameBeforeOptimizations(1, "m")),
            "1700000000123456.module_0001.m.before_optimizations.mlir");
}

} // namespace
