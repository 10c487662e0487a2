//===- ExecutableCacheTest.cpp - The executable cache's key and folder ----===//

#include "TraceTestUtil.h"

#include "tessera/Compile/ExecutableCache.h"
#include "tessera/Runtime/ExecutableFile.h"
#include "tessera/Trace/AtomicFile.h"
#include "tessera/Trace/Flags.h"

#include "llvm/Support/Chrono.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/xxhash.h"

#include "gtest/gtest.h"

#include <fcntl.h>
#include <functional>
#include <sys/stat.h>

using namespace tessera;
using tessera::testing::readWholeFile;
using tessera::testing::ScopedTempDir;

namespace {

ExecutableCacheKeyInputs baseInputs() {
  ExecutableCacheKeyInputs in;
  in.compilerId = "compiler-1";
  in.modelPath = "models/mlp.hlo";
  in.modelBytes = "HloModule mlp\n";
  in.targetJson = "{\"name\": \"tile-1472\"}";
  in.hostOps = "";
  in.compatFailOn = "none";
  in.precisionPolicy = "bf16-to-f32";
  return in;
}

TEST(ExecutableCacheKey, IsSha256HexAndDeterministic) {
  std::string key = computeExecutableCacheKey(baseInputs());
  EXPECT_EQ(key.size(), 64u);
  EXPECT_EQ(key.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(key, computeExecutableCacheKey(baseInputs()));
}

TEST(ExecutableCacheKey, EveryInputChangesIt) {
  std::string base = computeExecutableCacheKey(baseInputs());
  using Change = std::function<void(ExecutableCacheKeyInputs &)>;
  std::vector<std::pair<std::string, Change>> changes = {
      {"compiler", [](auto &in) { in.compilerId = "compiler-2"; }},
      {"model path", [](auto &in) { in.modelPath = "other/mlp.hlo"; }},
      {"model bytes", [](auto &in) { in.modelBytes = "HloModule mlp \n"; }},
      {"target", [](auto &in) { in.targetJson = "{\"name\": \"core-8\"}"; }},
      {"host ops", [](auto &in) { in.hostOps = "dot.*"; }},
      {"compat", [](auto &in) { in.compatFailOn = "incompatible"; }},
      {"precision", [](auto &in) { in.precisionPolicy = "keep"; }},
      {"chips", [](auto &in) { in.chips = 2; }},
      {"placement", [](auto &in) { in.placement = "mixed"; }},
      {"recompute", [](auto &in) { in.recomputeDistance = 8; }},
  };
  for (auto &[what, change] : changes) {
    ExecutableCacheKeyInputs in = baseInputs();
    change(in);
    EXPECT_NE(computeExecutableCacheKey(in), base) << what;
  }
}

TEST(ExecutableCacheKey, FieldsCannotRunTogether) {
  ExecutableCacheKeyInputs a = baseInputs(), b = baseInputs();
  a.hostOps = "ab";
  a.compatFailOn = "c";
  b.hostOps = "a";
  b.compatFailOn = "bc";
  EXPECT_NE(computeExecutableCacheKey(a), computeExecutableCacheKey(b));
}

TEST(ExecutableCacheKey, EveryFlagIsClassified) {
  // A new flag must be decided: does it change the executable (then it is
  // part of the key) or not?
  for (const FlagInfo &flag : getFlagRegistry())
    EXPECT_TRUE(flagChangesExecutable(flag.name).has_value())
        << "--" << flag.name.str()
        << " is not classified in lib/Compile/ExecutableCache.cpp";
  EXPECT_FALSE(flagChangesExecutable("no_such_flag").has_value());
}

TEST(ExecutableCacheKey, ReportAndEventFlagsDoNotChangeIt) {
  llvm::Expected<TesseraFlags> plain = parseFlags("");
  llvm::Expected<TesseraFlags> reporting =
      parseFlags("--profiling --report_format=cbor --max_report_size=10 "
                 "--report_directory=r --compile_trace=t.json "
                 "--executable_cache_dir=c --dump_to=d");
  ASSERT_TRUE(static_cast<bool>(plain)) << toString(plain.takeError());
  ASSERT_TRUE(static_cast<bool>(reporting)) << toString(reporting.takeError());
  ExecutableCacheKeyInputs a = baseInputs(), b = baseInputs();
  a.flags = &*plain;
  b.flags = &*reporting;
  EXPECT_EQ(computeExecutableCacheKey(a), computeExecutableCacheKey(b));
}

TEST(ExecutableCacheKey, CompilerBuildIdIsStable) {
  llvm::StringRef id = compilerBuildId();
  EXPECT_EQ(id.size(), 64u);
  EXPECT_EQ(id, compilerBuildId());
}

/// A small valid executable file, distinct per `name`.
std::string executableBytes(const std::string &name, size_t padding = 0) {
  exe::Executable executable;
  executable.set_format_version(runtime::kExecutableFormatVersion);
  executable.set_module_name(name);
  executable.set_entry(std::string(padding, 'x'));
  llvm::Expected<std::string> bytes = runtime::encodeExecutable(executable);
  EXPECT_TRUE(static_cast<bool>(bytes));
  return bytes ? *bytes : std::string();
}

std::string keyOf(char digit) { return std::string(64, digit); }

void setMtime(const std::string &path, time_t seconds) {
  struct timespec times[2] = {{seconds, 0}, {seconds, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
}

TEST(ExecutableCache, StoresAndFindsEntries) {
  ScopedTempDir dir;
  llvm::Expected<ExecutableCache> cache =
      ExecutableCache::open(dir.path("cache/sub"), 1 << 20);
  ASSERT_TRUE(static_cast<bool>(cache)) << toString(cache.takeError());
  llvm::Expected<std::optional<ExecutableCache::Hit>> miss =
      cache->lookup(keyOf('a'));
  ASSERT_TRUE(static_cast<bool>(miss)) << toString(miss.takeError());
  EXPECT_FALSE(miss->has_value());

  std::string bytes = executableBytes("mlp");
  ASSERT_FALSE(static_cast<bool>(cache->store(keyOf('a'), bytes)));
  llvm::Expected<std::optional<ExecutableCache::Hit>> hit =
      cache->lookup(keyOf('a'));
  ASSERT_TRUE(static_cast<bool>(hit)) << toString(hit.takeError());
  ASSERT_TRUE(hit->has_value());
  EXPECT_EQ((*hit)->bytes(), bytes);
  EXPECT_EQ((*hit)->moduleName, "mlp");
  EXPECT_EQ((*hit)->path, cache->entryPath(keyOf('a')));
}

TEST(ExecutableCache, DamagedEntryIsAnError) {
  ScopedTempDir dir;
  llvm::Expected<ExecutableCache> cache =
      ExecutableCache::open(dir.path("cache"), 1 << 20);
  ASSERT_TRUE(static_cast<bool>(cache));
  std::string bytes = executableBytes("mlp");
  std::string flipped = bytes;
  flipped.back() ^= 1;
  for (const std::string &damaged :
       {bytes.substr(0, bytes.size() - 1), flipped, std::string("junk")}) {
    ASSERT_FALSE(static_cast<bool>(
        writeFileAtomically(cache->entryPath(keyOf('b')), damaged)));
    llvm::Expected<std::optional<ExecutableCache::Hit>> hit =
        cache->lookup(keyOf('b'));
    ASSERT_FALSE(static_cast<bool>(hit));
    EXPECT_NE(toString(hit.takeError()).find(cache->entryPath(keyOf('b'))),
              std::string::npos);
  }
  // A sound header and checksum over a payload that is no message (a
  // length-delimited field running past the end).
  std::string payload = "\x12\x7f";
  std::string forged = bytes.substr(0, runtime::kExecutableHeaderSize);
  llvm::support::endian::write64le(forged.data() + 16, payload.size());
  llvm::support::endian::write64le(forged.data() + 24,
                                   llvm::xxh3_64bits(payload));
  ASSERT_FALSE(static_cast<bool>(
      writeFileAtomically(cache->entryPath(keyOf('b')), forged + payload)));
  llvm::Expected<std::optional<ExecutableCache::Hit>> forgedHit =
      cache->lookup(keyOf('b'));
  ASSERT_FALSE(static_cast<bool>(forgedHit));
  EXPECT_NE(toString(forgedHit.takeError()).find("not a valid executable"),
            std::string::npos);
  // Storing over it repairs it.
  ASSERT_FALSE(static_cast<bool>(cache->store(keyOf('b'), bytes)));
  llvm::Expected<std::optional<ExecutableCache::Hit>> hit =
      cache->lookup(keyOf('b'));
  ASSERT_TRUE(static_cast<bool>(hit));
  EXPECT_TRUE(hit->has_value());
}

TEST(ExecutableCache, EvictsLeastRecentlyUsed) {
  ScopedTempDir dir;
  std::string first = executableBytes("a", 1000);
  // Room for three entries of this size, not four.
  uint64_t bound = first.size() * 3 + first.size() / 2;
  llvm::Expected<ExecutableCache> cache =
      ExecutableCache::open(dir.path("cache"), bound);
  ASSERT_TRUE(static_cast<bool>(cache));
  ASSERT_FALSE(static_cast<bool>(cache->store(keyOf('1'), first)));
  ASSERT_FALSE(
      static_cast<bool>(cache->store(keyOf('2'), executableBytes("b", 1000))));
  ASSERT_FALSE(
      static_cast<bool>(cache->store(keyOf('3'), executableBytes("c", 1000))));
  setMtime(cache->entryPath(keyOf('1')), 1000);
  setMtime(cache->entryPath(keyOf('2')), 2000);
  setMtime(cache->entryPath(keyOf('3')), 3000);
  // A hit makes entry 1 the most recently used.
  llvm::Expected<std::optional<ExecutableCache::Hit>> hit =
      cache->lookup(keyOf('1'));
  ASSERT_TRUE(static_cast<bool>(hit) && hit->has_value());
  ASSERT_FALSE(
      static_cast<bool>(cache->store(keyOf('4'), executableBytes("d", 1000))));
  EXPECT_TRUE(llvm::sys::fs::exists(cache->entryPath(keyOf('1'))));
  EXPECT_FALSE(llvm::sys::fs::exists(cache->entryPath(keyOf('2'))));
  EXPECT_TRUE(llvm::sys::fs::exists(cache->entryPath(keyOf('3'))));
  EXPECT_TRUE(llvm::sys::fs::exists(cache->entryPath(keyOf('4'))));
}

TEST(ExecutableCache, KeepsOtherFilesAndRemovesStaleTemporaries) {
  ScopedTempDir dir;
  llvm::Expected<ExecutableCache> cache =
      ExecutableCache::open(dir.path("cache"), 1);
  ASSERT_TRUE(static_cast<bool>(cache));
  std::string notes = dir.path("cache/notes.txt");
  std::string stale = cache->entryPath(keyOf('5')) + ".tmp-abcdefgh";
  std::string fresh = cache->entryPath(keyOf('6')) + ".tmp-abcdefgh";
  for (const std::string &path : {notes, stale, fresh})
    ASSERT_FALSE(static_cast<bool>(writeFileAtomically(path, "x")));
  setMtime(stale, 1000);
  setMtime(notes, 1000);
  // Larger than the bound: not stored, and nothing else is removed for it.
  ASSERT_FALSE(
      static_cast<bool>(cache->store(keyOf('7'), executableBytes("big"))));
  EXPECT_FALSE(llvm::sys::fs::exists(cache->entryPath(keyOf('7'))));
  EXPECT_TRUE(llvm::sys::fs::exists(notes));
  EXPECT_TRUE(llvm::sys::fs::exists(fresh));
  ASSERT_FALSE(static_cast<bool>(cache->evict()));
  EXPECT_FALSE(llvm::sys::fs::exists(stale));
  EXPECT_TRUE(llvm::sys::fs::exists(notes));
  EXPECT_TRUE(llvm::sys::fs::exists(fresh));
}

TEST(ExecutableCache, OpenFailsOnAFile) {
  ScopedTempDir dir;
  std::string file = dir.path("file");
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(file, "x")));
  llvm::Expected<ExecutableCache> cache = ExecutableCache::open(file, 1);
  ASSERT_FALSE(static_cast<bool>(cache));
  EXPECT_NE(toString(cache.takeError()).find("--executable_cache_dir"),
            std::string::npos);
}

} // namespace
