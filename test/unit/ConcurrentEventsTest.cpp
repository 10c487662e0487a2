//===- ConcurrentEventsTest.cpp - compiles in threads, one event file -----===//
//
// Several threads compile at once and write their COMPILE_BEGIN/END events
// to one event file, some through one shared writer and some through
// writers of their own (separate opens, as separate processes would have):
// every record must come back whole, none lost, none interleaved.
//
//===----------------------------------------------------------------------===//

#include "TraceTestUtil.h"

#include "tessera/Compile/Compiler.h"
#include "tessera/InitAll.h"
#include "tessera/Target/Presets.h"
#include "tessera/Trace/EventFile.h"
#include "tessera/Trace/Flags.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

using namespace tessera;

namespace {

const char *kModel = R"mlir(
  func.func @main(%x: tensor<64x32xf32> loc("x"), %w: tensor<32x16xf32> loc("w"))
      -> tensor<64x16xf32> {
    %d = tgraph.dot_general %x, %w, batching_dims = [] x [], contracting_dims = [1] x [0]
           : (tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<64x16xf32> loc("d")
    %t = tgraph.tanh %d : tensor<64x16xf32> loc("t")
    return %t : tensor<64x16xf32>
  }
)mlir";

/// An EventWriter as the sink's event output.
class WriterOutput : public EventOutput {
public:
  explicit WriterOutput(EventWriter &writer) : writer(writer) {}
  llvm::Error write(const TraceEvent &event) override {
    return writer.write(event);
  }

private:
  EventWriter &writer;
};

TEST(ConcurrentEvents, ThreadsCompilingIntoOneFileLoseNothing) {
  constexpr int kThreads = 6, kCompiles = 8;
  tessera::testing::ScopedTempDir dir;
  std::string path = dir.path("jobs.events");
  llvm::Expected<std::unique_ptr<EventWriter>> shared =
      EventWriter::open(path, EventWriter::Mode::Append);
  ASSERT_TRUE(bool(shared)) << llvm::toString(shared.takeError());
  llvm::Expected<TargetDescription> target = loadPreset("tile-1472");
  ASSERT_TRUE(bool(target)) << llvm::toString(target.takeError());
  TesseraFlags flags;
  flags.profiling = true; // reports inline: large records

  std::mutex failuresMutex;
  std::vector<std::string> failures;
  auto fail = [&](const std::string &what) {
    std::lock_guard<std::mutex> guard(failuresMutex);
    failures.push_back(what);
  };
  // Even threads share one writer; odd ones open the file again for every
  // compile, as separate processes would (each open scans the file for a
  // damaged tail while the others are writing).
  auto work = [&](int thread) {
    mlir::DialectRegistry registry;
    registerAllDialects(registry);
    mlir::MLIRContext context(registry);
    context.disableMultithreading();
    Dumper dumper(flags, "test", llvm::nulls());
    for (int i = 0; i < kCompiles; ++i) {
      std::unique_ptr<EventWriter> own;
      EventWriter *writer = shared->get();
      if (thread % 2) {
        llvm::Expected<std::unique_ptr<EventWriter>> opened =
            EventWriter::open(path, EventWriter::Mode::Append);
        if (!opened)
          return fail(llvm::toString(opened.takeError()));
        own = std::move(*opened);
        writer = own.get();
      }
      WriterOutput output(*writer);
      ReportSink sink(ReportSinkOptions::fromFlags(flags), &output,
                      dir.root().str(), "test", llvm::nulls());
      Compiler compiler(flags, CompileOptions(), *target, sink, dumper,
                        llvm::nulls());
      auto module = mlir::parseSourceString<mlir::ModuleOp>(kModel, &context);
      if (!module)
        return fail("cannot parse the model");
      if (mlir::failed(compiler.compile(*module, "model")))
        return fail("compile failed");
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back(work, t);
  for (std::thread &t : threads)
    t.join();
  ASSERT_TRUE(failures.empty()) << failures.front();
  shared->reset();

  // Every module id: one COMPILE_BEGIN, then one COMPILE_END with its
  // reports, all readable.
  std::map<int64_t, std::pair<int, int>> byModule;
  llvm::Expected<EventFileScan> scan =
      scanEventFile(path, [&](TraceEvent &event, uint64_t) {
        if (event.type() == TraceEvent::COMPILE_BEGIN)
          ++byModule[event.compile_begin().module_id()].first;
        if (event.type() == TraceEvent::COMPILE_END) {
          auto &entry = byModule[event.compile_end().module_id()];
          EXPECT_EQ(entry.first, 1) << "an END before its BEGIN";
          ++entry.second;
          EXPECT_TRUE(event.compile_end().has_compilation_report());
        }
        return llvm::Error::success();
      });
  ASSERT_TRUE(bool(scan)) << llvm::toString(scan.takeError());
  EXPECT_FALSE(scan->damage.has_value());
  EXPECT_EQ(scan->records, size_t(2 * kThreads * kCompiles));
  EXPECT_EQ(byModule.size(), size_t(kThreads * kCompiles));
  for (auto &[id, counts] : byModule) {
    EXPECT_EQ(counts.first, 1) << "module " << id;
    EXPECT_EQ(counts.second, 1) << "module " << id;
  }
}

// Writers that open a new file at the same moment: one header, every
// record readable. (Without the lock each saw an empty file and wrote a
// header of its own, which readers then took for a damaged record.)
TEST(ConcurrentEvents, WritersStartingOneFileAtOnceWriteOneHeader) {
  constexpr int kWriters = 8, kRounds = 20;
  tessera::testing::ScopedTempDir dir;
  for (int round = 0; round < kRounds; ++round) {
    std::string path = dir.path("round" + llvm::Twine(round) + ".events");
    std::mutex m;
    std::condition_variable go;
    bool started = false;
    std::vector<std::thread> threads;
    std::atomic<int> failures{0};
    for (int w = 0; w < kWriters; ++w)
      threads.emplace_back([&, w] {
        {
          std::unique_lock<std::mutex> lock(m);
          go.wait(lock, [&] { return started; });
        }
        llvm::Expected<std::unique_ptr<EventWriter>> writer =
            EventWriter::open(path, EventWriter::Mode::Append);
        if (!writer) {
          llvm::consumeError(writer.takeError());
          ++failures;
          return;
        }
        TraceEvent event;
        event.set_type(TraceEvent::EXECUTE);
        event.set_module_name("writer" + std::to_string(w));
        if (llvm::Error err = (*writer)->write(event)) {
          llvm::consumeError(std::move(err));
          ++failures;
        }
      });
    {
      std::lock_guard<std::mutex> lock(m);
      started = true;
    }
    go.notify_all();
    for (std::thread &t : threads)
      t.join();
    ASSERT_EQ(failures.load(), 0);
    llvm::Expected<EventFileScan> scan = scanEventFile(
        path, [](TraceEvent &, uint64_t) { return llvm::Error::success(); });
    ASSERT_TRUE(bool(scan)) << llvm::toString(scan.takeError());
    EXPECT_FALSE(scan->damage.has_value()) << "round " << round;
    EXPECT_EQ(scan->records, size_t(kWriters)) << "round " << round;
  }
}

} // namespace
