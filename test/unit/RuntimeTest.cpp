//===- RuntimeTest.cpp - executables and the model device -----------------===//
//
// The executable container rejects what it must (truncation, corruption,
// another version), and small tgraph programs lowered onto both presets run
// on the model device to the values a plain loop computes: elementwise ops
// in place, scalars replicated, broadcasts (fill), transposes (view
// exchanges), blocked matmuls (K split on tile-1472) and two-step
// reductions.
//
//===----------------------------------------------------------------------===//

#include "tessera/Compile/ExecutableWriter.h"
#include "tessera/InitAll.h"
#include "tessera/Passes.h"
#include "tessera/Runtime/Device.h"
#include "tessera/Target/Presets.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>

using namespace tessera;
using namespace tessera::runtime;

namespace {

std::string errorText(llvm::Error err) { return llvm::toString(std::move(err)); }

exe::Executable tinyExecutable() {
  exe::Executable e;
  e.set_format_version(kExecutableFormatVersion);
  e.set_module_name("tiny");
  return e;
}

TEST(RuntimeExecutableFile, RoundTrips) {
  llvm::Expected<std::string> bytes = encodeExecutable(tinyExecutable());
  ASSERT_TRUE(bool(bytes));
  llvm::Expected<exe::Executable> back = decodeExecutable(*bytes, "t.tessera");
  ASSERT_TRUE(bool(back)) << errorText(back.takeError());
  EXPECT_EQ(back->module_name(), "tiny");
}

TEST(RuntimeExecutableFile, RejectsBadFiles) {
  std::string good = *encodeExecutable(tinyExecutable());
  auto message = [](llvm::StringRef bytes) {
    llvm::Expected<exe::Executable> e = decodeExecutable(bytes, "f.tessera");
    EXPECT_FALSE(bool(e));
    return e ? std::string() : errorText(e.takeError());
  };
  EXPECT_EQ(message(good.substr(0, 10)),
            "f.tessera: truncated: 10 bytes, shorter than the 32-byte header");
  EXPECT_EQ(message(good.substr(0, good.size() - 1)),
            "f.tessera: truncated: the header declares " +
                std::to_string(good.size() - 32) + " payload bytes, " +
                std::to_string(good.size() - 33) + " present");
  EXPECT_EQ(message("HloModule m\n" + std::string(40, ' ')),
            "f.tessera: not a Tessera executable (bad magic)");
  std::string corrupt = good;
  corrupt.back() ^= 0x40;
  EXPECT_EQ(message(corrupt),
            "f.tessera: checksum mismatch: the file is corrupt");
  std::string version = good;
  version[8] = 99;
  EXPECT_EQ(message(version), "f.tessera: format version 99, but this runtime "
                              "reads version 4; recompile the model");
  // Version 1 had no strided runs, version 2 no shared copy lists, version
  // 3 no shared integer lists; their executables are recompiled, not
  // guessed at.
  for (char old : {1, 2, 3}) {
    version[8] = old;
    EXPECT_EQ(message(version), "f.tessera: format version " +
                                    std::to_string(old) +
                                    ", but this runtime reads version 4; "
                                    "recompile the model");
  }
  EXPECT_EQ(message(good + "x"),
            "f.tessera: 1 unexpected bytes after the payload");
}

/// Lowers `source` (a tgraph module) for `target` and loads its executable.
struct Compiled {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::unique_ptr<Program> program;
};

std::unique_ptr<Compiled> compile(llvm::StringRef source,
                                  llvm::StringRef targetName,
                                  exe::Executable *keep = nullptr) {
  auto c = std::make_unique<Compiled>();
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  c->context.appendDialectRegistry(registry);
  c->context.loadAllAvailableDialects();
  c->module = mlir::parseSourceString<mlir::ModuleOp>(source, &c->context);
  EXPECT_TRUE(c->module);
  if (!c->module)
    return nullptr;
  mlir::PassManager pm(&c->context);
  TGraphCheckCompatOptions compat;
  compat.targetName = targetName.str();
  pm.addPass(createTGraphCheckCompat(compat));
  TGraphToTileOptions lower;
  lower.targetName = targetName.str();
  pm.addPass(createTGraphToTile(lower));
  EXPECT_TRUE(mlir::succeeded(pm.run(*c->module)));
  tile::ProgramOp program;
  c->module->walk([&](tile::ProgramOp p) { program = p; });
  EXPECT_TRUE(program);
  llvm::Expected<TargetDescription> target = loadPreset(targetName);
  EXPECT_TRUE(bool(target));
  memory::MemoryAnalysis analysis = memory::analyzeMemory(program, *target);
  llvm::Expected<exe::Executable> executable =
      buildExecutable(*c->module, program, analysis, "test");
  EXPECT_TRUE(bool(executable)) << errorText(executable.takeError());
  // Through the file format, as tessera-run reads it.
  llvm::Expected<std::string> bytes = encodeExecutable(*executable);
  // The compiler writes the file piece by piece, step by step: the bytes
  // are those of the whole message serialized at once.
  llvm::Expected<std::string> written =
      writeExecutable(*c->module, program, analysis, "test", "");
  if (!written) {
    ADD_FAILURE() << errorText(written.takeError());
  } else if (bytes) {
    EXPECT_TRUE(*written == *bytes);
  }
  // tessera-compile's way: the graph module taken first, the analysis
  // handed over to be freed as it is read. The same bytes again, and again
  // with the module's bytecode cut into blocks of 7 bytes (a large
  // module's come in blocks of 1 MB).
  llvm::Expected<GraphModuleBytes> graph = writeGraphModule(*c->module);
  if (!graph) {
    ADD_FAILURE() << errorText(graph.takeError());
  } else {
    std::string whole;
    for (const std::string &block : graph->blocks)
      whole += block;
    EXPECT_EQ(whole.size(), graph->size);
    GraphModuleBytes cut;
    for (size_t at = 0; at < whole.size(); at += 7)
      cut.blocks.push_back(whole.substr(at, 7));
    cut.size = whole.size();
    for (GraphModuleBytes *given : {&*graph, &cut}) {
      llvm::Expected<std::string> handedOver =
          writeExecutable(*c->module, program, memory::MemoryAnalysis(analysis),
                          "test", "", std::move(*given));
      if (!handedOver) {
        ADD_FAILURE() << errorText(handedOver.takeError());
      } else if (bytes) {
        EXPECT_TRUE(*handedOver == *bytes);
      }
    }
  }
  llvm::Expected<exe::Executable> decoded = decodeExecutable(*bytes, "test");
  EXPECT_TRUE(bool(decoded));
  if (keep)
    *keep = *decoded;
  llvm::Expected<std::unique_ptr<Program>> loaded =
      Program::load(std::move(*decoded), "test");
  EXPECT_TRUE(bool(loaded)) << errorText(loaded.takeError());
  if (!loaded)
    return nullptr;
  c->program = std::move(*loaded);
  return c;
}

HostTensor randomTensor(DType dtype, std::vector<int64_t> shape,
                        unsigned seed) {
  HostTensor t(dtype, shape);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-1, 1);
  for (int64_t i = 0; i < t.numElements(); ++i)
    t.setDouble(i, dist(gen));
  return t;
}

TEST(RuntimeStridedExchange, RunsAndRejectsBadStrides) {
  // An embedding lookup core-8 reads where its table is: partial results
  // gathered onto the result's cores by strided runs (8 cores into one).
  const char *source = R"mlir(
    func.func @main(%t: tensor<8192x2xf32> loc("t"), %i: tensor<16xi32> loc("i"))
        -> tensor<16x2xf32> {
      %e = tgraph.gather %t, %i {offset_dims = array<i64: 1>,
             collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>,
             index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 2>}
           : (tensor<8192x2xf32>, tensor<16xi32>) -> tensor<16x2xf32> loc("lookup")
      return %e : tensor<16x2xf32>
    }
  )mlir";
  exe::Executable executable;
  std::unique_ptr<Compiled> c = compile(source, "core-8", &executable);
  ASSERT_TRUE(c);
  HostTensor table = randomTensor(DType::F32, {8192, 2}, 7);
  HostTensor ids(DType::S32, {16});
  for (int64_t k = 0; k < 16; ++k)
    ids.setDouble(k, (k * 997 + 5) % 8192);
  Device device(*c->program, {});
  RunRecord record;
  llvm::Expected<std::vector<HostTensor>> out =
      device.run({table, ids}, record);
  ASSERT_TRUE(bool(out)) << errorText(out.takeError());
  for (int64_t k = 0; k < 16; ++k)
    for (int64_t j = 0; j < 2; ++j)
      EXPECT_EQ((*out)[0].getDouble(k * 2 + j),
                table.getDouble(((k * 997 + 5) % 8192) * 2 + j));

  // The strided exchange's copy list (the exchange names it), and the
  // loader's answer to bad strides in it.
  auto stridedList = [](exe::Executable &e) -> exe::CopyList * {
    for (const exe::Step &step : e.steps()) {
      if (!step.has_exchange())
        continue;
      int32_t list = step.exchange().copy_list_plus_one() - 1;
      if (list >= 0 && e.copy_lists(list).strided_size() > 0)
        return e.mutable_copy_lists(list);
    }
    return nullptr;
  };
  ASSERT_TRUE(stridedList(executable));
  auto loadError = [&](auto mutate) {
    exe::Executable bad = executable;
    mutate(*stridedList(bad));
    llvm::Expected<std::unique_ptr<Program>> loaded =
        Program::load(std::move(bad), "f.tessera");
    return loaded ? std::string() : errorText(loaded.takeError());
  };
  EXPECT_NE(loadError([](exe::CopyList &x) {
              x.add_strided(1);
            }).find("strided is not five integers per copy run"),
            std::string::npos);
  EXPECT_NE(loadError([](exe::CopyList &x) {
              x.set_strided(0, 3);
            }).find("has chunks of 3 that do not divide its"),
            std::string::npos);
  EXPECT_NE(loadError([](exe::CopyList &x) {
              x.set_strided(3, 2);
            }).find("has bad tiles, tile steps or counts"),
            std::string::npos);
  // A run whose chunks start where their tile holds nothing, at either end.
  std::string reads = loadError([](exe::CopyList &x) {
    x.set_copies(4, x.copies(4) + (int64_t(1) << 20));
  });
  EXPECT_NE(reads.find("copy run 0 reads elements ["), std::string::npos)
      << reads;
  EXPECT_NE(reads.find(", which does not hold them"), std::string::npos);
  std::string writes = loadError([](exe::CopyList &x) {
    x.set_copies(6, x.copies(6) + (int64_t(1) << 20));
  });
  EXPECT_NE(writes.find("copy run 0 writes elements ["), std::string::npos)
      << writes;
  EXPECT_NE(writes.find(" on tile "), std::string::npos);
}

TEST(RuntimeSharedInts, ConvolutionsOfOneShapeShareTheirInputBoxes) {
  // Two convolutions of one shape: their compute sets take the same input
  // boxes, which the executable lists once (format version 4).
  const char *source = R"mlir(
    func.func @main(%x: tensor<1x16x16x8xf32> loc("x"),
                    %w: tensor<3x3x8x8xf32> loc("w"),
                    %v: tensor<3x3x8x8xf32> loc("v"))
        -> tensor<1x16x16x8xf32> {
      %a = tgraph.convolution %x, %w, dim_labels = "b01f_01io->b01f"
           {padding = array<i64: 1, 1, 1, 1>}
           : (tensor<1x16x16x8xf32>, tensor<3x3x8x8xf32>)
           -> tensor<1x16x16x8xf32> loc("a")
      %b = tgraph.convolution %a, %v, dim_labels = "b01f_01io->b01f"
           {padding = array<i64: 1, 1, 1, 1>}
           : (tensor<1x16x16x8xf32>, tensor<3x3x8x8xf32>)
           -> tensor<1x16x16x8xf32> loc("b")
      return %b : tensor<1x16x16x8xf32>
    }
  )mlir";
  exe::Executable executable;
  std::unique_ptr<Compiled> c = compile(source, "tile-1472", &executable);
  ASSERT_TRUE(c);
  int named = 0;
  std::set<int32_t> lists;
  for (const exe::Step &step : executable.steps()) {
    if (!step.has_compute_set())
      continue;
    for (const auto &[name, param] : step.compute_set().params()) {
      if (param.has_shared_ints()) {
        ++named;
        lists.insert(param.shared_ints());
      } else if (param.has_ints_value()) {
        // Short lists stay in place.
        EXPECT_LT(param.ints_value().values_size(), 64) << name;
      }
    }
  }
  ASSERT_GE(named, 2);
  EXPECT_EQ(static_cast<int>(lists.size()), executable.shared_ints_size());
  EXPECT_LT(executable.shared_ints_size(), named);

  // The two layers as a naive loop over f32 values.
  HostTensor x = randomTensor(DType::F32, {1, 16, 16, 8}, 3);
  HostTensor w = randomTensor(DType::F32, {3, 3, 8, 8}, 4);
  HostTensor v = randomTensor(DType::F32, {3, 3, 8, 8}, 5);
  auto conv = [](const std::vector<double> &in, const HostTensor &k) {
    std::vector<double> out(16 * 16 * 8, 0.0);
    for (int y = 0; y < 16; ++y)
      for (int xx = 0; xx < 16; ++xx)
        for (int o = 0; o < 8; ++o) {
          double acc = 0;
          for (int dy = 0; dy < 3; ++dy)
            for (int dx = 0; dx < 3; ++dx) {
              int iy = y + dy - 1, ix = xx + dx - 1;
              if (iy < 0 || iy >= 16 || ix < 0 || ix >= 16)
                continue;
              for (int i = 0; i < 8; ++i)
                acc += in[(iy * 16 + ix) * 8 + i] *
                       k.getDouble(((dy * 3 + dx) * 8 + i) * 8 + o);
            }
          out[(y * 16 + xx) * 8 + o] = acc;
        }
    return out;
  };
  std::vector<double> xs(16 * 16 * 8);
  for (size_t i = 0; i < xs.size(); ++i)
    xs[i] = x.getDouble(i);
  std::vector<double> want = conv(conv(xs, w), v);
  Device device(*c->program, {});
  RunRecord record;
  llvm::Expected<std::vector<HostTensor>> out = device.run({x, w, v}, record);
  ASSERT_TRUE(bool(out)) << errorText(out.takeError());
  for (size_t i = 0; i < want.size(); ++i)
    ASSERT_NEAR((*out)[0].getDouble(i), want[i], 1e-4 * (1 + std::abs(want[i])))
        << "element " << i;

  // The loader checks the name is in range.
  exe::Executable bad = executable;
  for (exe::Step &step : *bad.mutable_steps())
    if (step.has_compute_set()) {
      auto &params = *step.mutable_compute_set()->mutable_params();
      auto it = llvm::find_if(
          params, [](const auto &p) { return p.second.has_shared_ints(); });
      if (it == params.end())
        continue;
      it->second.set_shared_ints(bad.shared_ints_size());
      break;
    }
  llvm::Expected<std::unique_ptr<Program>> loaded =
      Program::load(std::move(bad), "f.tessera");
  ASSERT_FALSE(bool(loaded));
  EXPECT_NE(errorText(loaded.takeError())
                .find("names shared integer list " +
                      std::to_string(executable.shared_ints_size()) + " of " +
                      std::to_string(executable.shared_ints_size())),
            std::string::npos);
}

TEST(RuntimeCopyLists, IdenticalExchangesShareOneList) {
  // Two lookups of the same shapes: their exchanges copy by the same runs,
  // which the executable lists once (format version 3).
  const char *source = R"mlir(
    func.func @main(%t: tensor<8192x2xf32> loc("t"), %i: tensor<16xi32> loc("i"),
                    %u: tensor<8192x2xf32> loc("u"), %j: tensor<16xi32> loc("j"))
        -> (tensor<16x2xf32>, tensor<16x2xf32>) {
      %e = tgraph.gather %t, %i {offset_dims = array<i64: 1>,
             collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>,
             index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 2>}
           : (tensor<8192x2xf32>, tensor<16xi32>) -> tensor<16x2xf32> loc("e")
      %f = tgraph.gather %u, %j {offset_dims = array<i64: 1>,
             collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>,
             index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 2>}
           : (tensor<8192x2xf32>, tensor<16xi32>) -> tensor<16x2xf32> loc("f")
      return %e, %f : tensor<16x2xf32>, tensor<16x2xf32>
    }
  )mlir";
  exe::Executable executable;
  std::unique_ptr<Compiled> c = compile(source, "core-8", &executable);
  ASSERT_TRUE(c);
  int listed = 0;
  for (const exe::Step &step : executable.steps())
    if (step.has_exchange() && !step.exchange().is_view()) {
      ++listed;
      EXPECT_GT(step.exchange().copy_list_plus_one(), 0);
      EXPECT_EQ(step.exchange().copies_size(), 0);
    }
  ASSERT_GT(listed, 0);
  EXPECT_EQ(executable.copy_lists_size() * 2, listed);

  // Both lookups run by the shared lists.
  HostTensor t = randomTensor(DType::F32, {8192, 2}, 7);
  HostTensor u = randomTensor(DType::F32, {8192, 2}, 8);
  HostTensor ids(DType::S32, {16}), jds(DType::S32, {16});
  for (int64_t k = 0; k < 16; ++k) {
    ids.setDouble(k, (k * 997 + 5) % 8192);
    jds.setDouble(k, (k * 331 + 9) % 8192);
  }
  Device device(*c->program, {});
  RunRecord record;
  llvm::Expected<std::vector<HostTensor>> out =
      device.run({t, ids, u, jds}, record);
  ASSERT_TRUE(bool(out)) << errorText(out.takeError());
  for (int64_t k = 0; k < 16; ++k)
    for (int64_t d = 0; d < 2; ++d) {
      EXPECT_EQ((*out)[0].getDouble(k * 2 + d),
                t.getDouble(((k * 997 + 5) % 8192) * 2 + d));
      EXPECT_EQ((*out)[1].getDouble(k * 2 + d),
                u.getDouble(((k * 331 + 9) % 8192) * 2 + d));
    }

  // The loader checks the name: in range, and not beside copies of its own.
  auto loadError = [&](auto mutate) {
    exe::Executable bad = executable;
    for (exe::Step &step : *bad.mutable_steps())
      if (step.has_exchange() && step.exchange().copy_list_plus_one() > 0) {
        mutate(*step.mutable_exchange());
        break;
      }
    llvm::Expected<std::unique_ptr<Program>> loaded =
        Program::load(std::move(bad), "f.tessera");
    return loaded ? std::string() : errorText(loaded.takeError());
  };
  int lists = executable.copy_lists_size();
  EXPECT_NE(
      loadError([&](exe::Exchange &x) { x.set_copy_list_plus_one(lists + 1); })
          .find(": exchange names copy list " + std::to_string(lists) + " of " +
                std::to_string(lists)),
      std::string::npos);
  EXPECT_NE(loadError([](exe::Exchange &x) {
              x.set_copy_list_plus_one(-5);
            }).find(": exchange names copy list -6 of "),
            std::string::npos);
  EXPECT_NE(loadError([](exe::Exchange &x) {
              x.add_copies(0);
            }).find(": exchange lists copies and names copy list "),
            std::string::npos);
  EXPECT_NE(loadError([](exe::Exchange &x) {
              x.set_is_view(true);
            }).find("strides for a rank-"),
            std::string::npos);
}

class RuntimeDevice : public ::testing::TestWithParam<const char *> {};

TEST_P(RuntimeDevice, ElementwiseBroadcastTransposeMatmulReduce) {
  // y = relu(transpose(x) . w + b), s = reduce_max(y, dims=[0]).
  const char *source = R"mlir(
    func.func @main(%x: tensor<64x48xf32> loc("x"), %w: tensor<64x40xf32> loc("w"),
                    %b: tensor<40xf32> loc("b")) -> (tensor<48x40xf32>, tensor<40xf32>) {
      %xt = tgraph.transpose %x, permutation = [1, 0] : (tensor<64x48xf32>) -> tensor<48x64xf32> loc("xt")
      %d = tgraph.dot_general %xt, %w, batching_dims = [] x [], contracting_dims = [1] x [0]
             : (tensor<48x64xf32>, tensor<64x40xf32>) -> tensor<48x40xf32> loc("dot")
      %bb = tgraph.broadcast_in_dim %b, dims = [1] : (tensor<40xf32>) -> tensor<48x40xf32> loc("bb")
      %a = tgraph.add %d, %bb : tensor<48x40xf32> loc("add")
      %z = tgraph.constant dense<0.0> : tensor<f32> loc("zero")
      %zb = tgraph.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<48x40xf32> loc("zb")
      %y = tgraph.maximum %a, %zb : tensor<48x40xf32> loc("relu")
      %ninf = tgraph.constant dense<0xFF800000> : tensor<f32> loc("ninf")
      %s = tgraph.reduce(%y) init(%ninf) dims = [0] {
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %m = tgraph.maximum %p, %q : tensor<f32>
        tgraph.return %m : tensor<f32>
      } : (tensor<48x40xf32>, tensor<f32>) -> tensor<40xf32> loc("smax")
      return %y, %s : tensor<48x40xf32>, tensor<40xf32>
    }
  )mlir";
  std::unique_ptr<Compiled> c = compile(source, GetParam());
  ASSERT_TRUE(c);
  HostTensor x = randomTensor(DType::F32, {64, 48}, 1);
  HostTensor w = randomTensor(DType::F32, {64, 40}, 2);
  HostTensor b = randomTensor(DType::F32, {40}, 3);
  Device device(*c->program, {});
  RunRecord record;
  llvm::Expected<std::vector<HostTensor>> out = device.run({x, w, b}, record);
  ASSERT_TRUE(bool(out)) << errorText(out.takeError());
  ASSERT_EQ(out->size(), 2u);
  EXPECT_EQ(record.toDevice.size(), 3u);
  EXPECT_EQ(record.toHost.size(), 2u);
  double worst = 0;
  for (int64_t i = 0; i < 48; ++i) {
    for (int64_t j = 0; j < 40; ++j) {
      double acc = b.getDouble(j);
      for (int64_t k = 0; k < 64; ++k)
        acc += x.getDouble(k * 48 + i) * w.getDouble(k * 40 + j);
      double expect = std::max(acc, 0.0);
      worst = std::max(worst, std::fabs((*out)[0].getDouble(i * 40 + j) - expect));
    }
  }
  EXPECT_LT(worst, 1e-5);
  for (int64_t j = 0; j < 40; ++j) {
    double m = -INFINITY;
    for (int64_t i = 0; i < 48; ++i)
      m = std::max(m, (*out)[0].getDouble(i * 40 + j));
    EXPECT_EQ((*out)[1].getDouble(j), m) << "column " << j;
  }
}

TEST_P(RuntimeDevice, IntegerAndPredicateOps) {
  const char *source = R"mlir(
    func.func @main(%a: tensor<100xi32> loc("a"), %b: tensor<100xi32> loc("b"))
        -> (tensor<100xi32>, tensor<100xi32>) {
      %q = tgraph.divide %a, %b : tensor<100xi32> loc("q")
      %p = tgraph.compare GT, %a, %b : (tensor<100xi32>, tensor<100xi32>) -> tensor<100xi1> loc("gt")
      %s = tgraph.select %p, %a, %b : tensor<100xi1>, tensor<100xi32> loc("sel")
      return %q, %s : tensor<100xi32>, tensor<100xi32>
    }
  )mlir";
  std::unique_ptr<Compiled> c = compile(source, GetParam());
  ASSERT_TRUE(c);
  HostTensor a(DType::S32, {100}), b(DType::S32, {100});
  for (int64_t i = 0; i < 100; ++i) {
    a.setInt(i, i * 7 - 300);
    b.setInt(i, (i % 10) - 5); // includes zeros: HLO gives -1
  }
  a.setInt(3, INT32_MIN);
  b.setInt(3, -1); // INT_MIN / -1 = INT_MIN
  Device device(*c->program, {});
  RunRecord record;
  llvm::Expected<std::vector<HostTensor>> out = device.run({a, b}, record);
  ASSERT_TRUE(bool(out)) << errorText(out.takeError());
  for (int64_t i = 0; i < 100; ++i) {
    int64_t x = a.getInt(i), y = b.getInt(i);
    int64_t q = y == 0 ? -1 : (x == INT32_MIN && y == -1) ? x : x / y;
    EXPECT_EQ((*out)[0].getInt(i), q) << i;
    EXPECT_EQ((*out)[1].getInt(i), std::max(x, y)) << i;
  }
}

TEST_P(RuntimeDevice, RejectsInputsOfTheWrongType) {
  const char *source = R"mlir(
    func.func @main(%a: tensor<8xf32> loc("a")) -> tensor<8xf32> {
      %n = tgraph.negate %a : tensor<8xf32> loc("n")
      return %n : tensor<8xf32>
    }
  )mlir";
  std::unique_ptr<Compiled> c = compile(source, GetParam());
  ASSERT_TRUE(c);
  Device device(*c->program, {});
  RunRecord record;
  llvm::Expected<std::vector<HostTensor>> out =
      device.run({HostTensor(DType::F32, {9})}, record);
  ASSERT_FALSE(bool(out));
  EXPECT_EQ(errorText(out.takeError()),
            "test: input 0 ('a') is f32[9], expected f32[8]");
}

INSTANTIATE_TEST_SUITE_P(Presets, RuntimeDevice,
                         ::testing::Values("tile-1472", "core-8"));

} // namespace
