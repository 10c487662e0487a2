//===- InterpreterTest.cpp - The reference interpreter's semantics --------===//
//
// The interpreter is the oracle of every correctness test, so its own
// semantics are pinned here against values worked out by hand from the HLO
// specification: integer edge cases, conversions, contractions, windows,
// indexing with out-of-range indices, sorting, control flow, and the errors
// for what has no defined meaning.
//
//===----------------------------------------------------------------------===//

#include "tessera/Interpreter/Interpreter.h"
#include "tessera/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace tessera;

namespace {

struct Module {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

std::unique_ptr<Module> parse(llvm::StringRef source) {
  auto m = std::make_unique<Module>();
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  m->context.appendDialectRegistry(registry);
  m->context.loadAllAvailableDialects();
  m->module = mlir::parseSourceString<mlir::ModuleOp>(source, &m->context);
  EXPECT_TRUE(m->module);
  return m;
}

HostTensor tensor(DType dtype, std::vector<int64_t> shape,
                  std::vector<double> values) {
  HostTensor t(dtype, shape);
  EXPECT_EQ(int64_t(values.size()), t.numElements());
  for (size_t i = 0; i < values.size(); ++i)
    t.setDouble(int64_t(i), values[i]);
  return t;
}

std::vector<double> values(const HostTensor &t) {
  std::vector<double> out;
  for (int64_t i = 0; i < t.numElements(); ++i)
    out.push_back(t.getDouble(i));
  return out;
}

/// Runs @main of `source` and returns its result leaves (or fails the test).
std::vector<HostTensor> run(llvm::StringRef source,
                            std::vector<HostTensor> args,
                            interp::Options options = {}) {
  std::unique_ptr<Module> m = parse(source);
  if (!m->module)
    return {};
  auto fn = m->module->lookupSymbol<mlir::func::FuncOp>("main");
  llvm::Expected<std::vector<HostTensor>> out =
      interp::interpretFunction(fn, args, options);
  if (!out) {
    ADD_FAILURE() << llvm::toString(out.takeError());
    return {};
  }
  return std::move(*out);
}

std::string runError(llvm::StringRef source, std::vector<HostTensor> args,
                     interp::Options options = {}) {
  std::unique_ptr<Module> m = parse(source);
  auto fn = m->module->lookupSymbol<mlir::func::FuncOp>("main");
  llvm::Expected<std::vector<HostTensor>> out =
      interp::interpretFunction(fn, args, options);
  if (out) {
    ADD_FAILURE() << "expected an error";
    return "";
  }
  return llvm::toString(out.takeError());
}

TEST(Interpreter, IntegerEdgeCases) {
  const char *src = R"mlir(
    func.func @main(%a: tensor<5xi32>, %b: tensor<5xi32>)
        -> (tensor<5xi32>, tensor<5xi32>, tensor<5xi32>, tensor<5xi32>) {
      %q = tgraph.divide %a, %b : tensor<5xi32>
      %r = tgraph.remainder %a, %b : tensor<5xi32>
      %l = tgraph.shift_left %a, %b : tensor<5xi32>
      %s = tgraph.shift_right_arithmetic %a, %b : tensor<5xi32>
      return %q, %r, %l, %s : tensor<5xi32>, tensor<5xi32>, tensor<5xi32>, tensor<5xi32>
    }
  )mlir";
  double min = -2147483648.0;
  auto out = run(src, {tensor(DType::S32, {5}, {7, -7, min, 5, -8}),
                       tensor(DType::S32, {5}, {0, 2, -1, 32, 1})});
  ASSERT_EQ(out.size(), 4u);
  // x / 0 = -1, INT_MIN / -1 = INT_MIN; C truncation otherwise.
  EXPECT_EQ(values(out[0]), (std::vector<double>{-1, -3, min, 0, -8}));
  // x % 0 = x, INT_MIN % -1 = 0.
  EXPECT_EQ(values(out[1]), (std::vector<double>{7, -1, 0, 5, 0}));
  // Shifting by the width or more gives 0 (or the sign for arithmetic).
  EXPECT_EQ(values(out[2]), (std::vector<double>{7, -28, 0, 0, -16}));
  EXPECT_EQ(values(out[3]), (std::vector<double>{7, -2, -1, 0, -4}));
}

TEST(Interpreter, ConvertSaturatesAndRounds) {
  const char *src = R"mlir(
    func.func @main(%a: tensor<5xf32>) -> (tensor<5xi8>, tensor<5xbf16>, tensor<5xi1>) {
      %i = tgraph.convert %a : tensor<5xf32> -> tensor<5xi8>
      %h = tgraph.convert %a : tensor<5xf32> -> tensor<5xbf16>
      %p = tgraph.convert %a : tensor<5xf32> -> tensor<5xi1>
      return %i, %h, %p : tensor<5xi8>, tensor<5xbf16>, tensor<5xi1>
    }
  )mlir";
  auto out = run(src, {tensor(DType::F32, {5}, {300, -300, NAN, -2.7, 1.00390625})});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(values(out[0]), (std::vector<double>{127, -128, 0, -2, 1}));
  // bf16 keeps 8 significant bits: 1 + 2^-8 rounds to even (1.0).
  EXPECT_EQ(out[1].getDouble(4), 1.0);
  EXPECT_EQ(out[1].getDouble(3), -2.703125);
  EXPECT_EQ(values(out[2]), (std::vector<double>{1, 1, 1, 1, 1}));
}

TEST(Interpreter, F32IsKeptInDoubleOnlyWhenAsked) {
  const char *src = R"mlir(
    func.func @main(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
      %s = tgraph.add %a, %b : tensor<f32>
      %d = tgraph.subtract %s, %a : tensor<f32>
      return %d : tensor<f32>
    }
  )mlir";
  std::vector<HostTensor> args = {tensor(DType::F32, {}, {1.0}),
                                  tensor(DType::F32, {}, {1e-8})};
  interp::Options f64;
  auto wide = run(src, args, f64);
  ASSERT_EQ(wide.size(), 1u);
  EXPECT_EQ(wide[0].dtype, DType::F64);
  EXPECT_NEAR(wide[0].getDouble(0), 1e-8, 1e-15);
  interp::Options f32;
  f32.computeInF64 = false;
  auto narrow = run(src, args, f32);
  ASSERT_EQ(narrow.size(), 1u);
  EXPECT_EQ(narrow[0].dtype, DType::F32);
  EXPECT_EQ(narrow[0].getDouble(0), 0.0); // 1 + 1e-8 rounds to 1 in f32
}

TEST(Interpreter, StochasticRoundingIsUnbiasedAndWithinOneUlp) {
  // 1 + 2^-9 lies a quarter of the way from 1 to the next bf16 (1 + 2^-7):
  // nearest rounding always gives 1; stochastic rounding gives 1 or
  // 1 + 2^-7, the latter a quarter of the time. Exact values never move.
  const char *src = R"mlir(
    func.func @main(%a: tensor<4096xbf16>, %b: tensor<4096xbf16>)
        -> tensor<4096xbf16> {
      %s = tgraph.add %a, %b : tensor<4096xbf16>
      return %s : tensor<4096xbf16>
    }
  )mlir";
  std::vector<double> ones(4096, 1.0), small(4096, std::ldexp(1.0, -9));
  small[0] = 0.5; // 1.5: exact
  std::vector<HostTensor> args = {tensor(DType::BF16, {4096}, ones),
                                  tensor(DType::BF16, {4096}, small)};
  auto nearest = run(src, args);
  ASSERT_EQ(nearest.size(), 1u);
  EXPECT_EQ(nearest[0].getDouble(1), 1.0);
  std::mt19937_64 gen(1);
  interp::Options options;
  options.stochasticRounding = &gen;
  auto rounded = run(src, args, options);
  ASSERT_EQ(rounded.size(), 1u);
  EXPECT_EQ(rounded[0].getDouble(0), 1.5);
  int64_t up = 0;
  for (int64_t i = 1; i < 4096; ++i) {
    double v = rounded[0].getDouble(i);
    EXPECT_TRUE(v == 1.0 || v == 1.0 + std::ldexp(1.0, -7)) << v;
    up += v > 1.0;
  }
  // 4095 draws of p = 1/4: mean 1024, standard deviation 28.
  EXPECT_GT(up, 1024 - 6 * 28);
  EXPECT_LT(up, 1024 + 6 * 28);
}

TEST(Interpreter, BatchedDotGeneral) {
  const char *src = R"mlir(
    func.func @main(%a: tensor<2x3x4xf32>, %b: tensor<4x2x5xf32>) -> tensor<2x3x5xf32> {
      %d = tgraph.dot_general %a, %b, batching_dims = [0] x [1],
           contracting_dims = [2] x [0]
           : (tensor<2x3x4xf32>, tensor<4x2x5xf32>) -> tensor<2x3x5xf32>
      return %d : tensor<2x3x5xf32>
    }
  )mlir";
  std::vector<double> av(24), bv(40);
  for (int i = 0; i < 24; ++i)
    av[i] = i * 0.5 - 3;
  for (int i = 0; i < 40; ++i)
    bv[i] = (i % 7) - 2.5;
  auto out = run(src, {tensor(DType::F32, {2, 3, 4}, av),
                       tensor(DType::F32, {4, 2, 5}, bv)});
  ASSERT_EQ(out.size(), 1u);
  for (int b = 0; b < 2; ++b)
    for (int m = 0; m < 3; ++m)
      for (int n = 0; n < 5; ++n) {
        double acc = 0;
        for (int k = 0; k < 4; ++k)
          acc += av[(b * 3 + m) * 4 + k] * bv[(k * 2 + b) * 5 + n];
        EXPECT_DOUBLE_EQ(out[0].getDouble((b * 3 + m) * 5 + n), acc);
      }
}

TEST(Interpreter, ConvolutionWithPaddingStrideDilationAndGroups) {
  // 1-D, two feature groups, stride 2, padding (1, 2), rhs dilation 2.
  const char *src = R"mlir(
    func.func @main(%x: tensor<1x7x4xf32>, %w: tensor<2x2x6xf32>) -> tensor<1x4x6xf32> {
      %y = tgraph.convolution %x, %w, dim_labels = "b0f_0io->b0f"
           {window_strides = array<i64: 2>, padding = array<i64: 1, 2>,
            rhs_dilation = array<i64: 2>, feature_group_count = 2 : i64}
           : (tensor<1x7x4xf32>, tensor<2x2x6xf32>) -> tensor<1x4x6xf32>
      return %y : tensor<1x4x6xf32>
    }
  )mlir";
  std::vector<double> xv(28), wv(24);
  // Values exact in f32, so the loop below sees what the tensors hold.
  for (int i = 0; i < 28; ++i)
    xv[i] = float(std::sin(i + 1.0));
  for (int i = 0; i < 24; ++i)
    wv[i] = float(std::cos(i + 0.5));
  auto out = run(src, {tensor(DType::F32, {1, 7, 4}, xv),
                       tensor(DType::F32, {2, 2, 6}, wv)});
  ASSERT_EQ(out.size(), 1u);
  // Output feature o is in group o / 3 and reads input features
  // 2g, 2g + 1 (kernel input feature i).
  for (int y = 0; y < 4; ++y)
    for (int o = 0; o < 6; ++o) {
      int g = o / 3;
      double acc = 0;
      for (int k = 0; k < 2; ++k) {
        int pos = y * 2 - 1 + k * 2;
        if (pos < 0 || pos >= 7)
          continue;
        for (int i = 0; i < 2; ++i)
          acc += xv[pos * 4 + g * 2 + i] * wv[(k * 2 + i) * 6 + o];
      }
      EXPECT_NEAR(out[0].getDouble(y * 6 + o), acc, 1e-12) << y << "," << o;
    }
}

TEST(Interpreter, ReduceWithTwoOperandsAndWindows) {
  // argmax over a row (values, indices) and a padded 3-wide max pool.
  const char *src = R"mlir(
    func.func @main(%v: tensor<2x4xf32>, %i: tensor<2x4xi32>) -> (tuple<tensor<2xf32>, tensor<2xi32>>, tensor<2x2xf32>) {
      %ninf = tgraph.constant dense<0xFF800000> : tensor<f32>
      %zero = tgraph.constant dense<0> : tensor<i32>
      %r = tgraph.reduce(%v, %i) init(%ninf, %zero) dims = [1] {
      ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
        %gt = tgraph.compare GT, %bv, %av : (tensor<f32>, tensor<f32>) -> tensor<i1>
        %mv = tgraph.select %gt, %bv, %av : tensor<i1>, tensor<f32>
        %mi = tgraph.select %gt, %bi, %ai : tensor<i1>, tensor<i32>
        tgraph.return %mv, %mi : tensor<f32>, tensor<i32>
      } : (tensor<2x4xf32>, tensor<2x4xi32>, tensor<f32>, tensor<i32>) -> tuple<tensor<2xf32>, tensor<2xi32>>
      %p = tgraph.reduce_window(%v) init(%ninf) {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = tgraph.maximum %a, %b : tensor<f32>
        tgraph.return %m : tensor<f32>
      } {window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 2>,
         padding = array<i64: 0, 0, 1, 0>}
        : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x2xf32>
      return %r, %p : tuple<tensor<2xf32>, tensor<2xi32>>, tensor<2x2xf32>
    }
  )mlir";
  auto out = run(src, {tensor(DType::F32, {2, 4}, {1, 5, 2, 5, -1, -3, -2, -4}),
                       tensor(DType::S32, {2, 4}, {0, 1, 2, 3, 0, 1, 2, 3})});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(values(out[0]), (std::vector<double>{5, -1}));
  EXPECT_EQ(values(out[1]), (std::vector<double>{1, 0})); // first maximum wins
  // Windows over padded columns [-1..1] and [1..3].
  EXPECT_EQ(values(out[2]), (std::vector<double>{5, 5, -1, -2}));
}

TEST(Interpreter, GatherClampsAndScatterSkipsOutOfRange) {
  const char *src = R"mlir(
    func.func @main(%t: tensor<5x2xf32>, %ids: tensor<3x1xi32>, %u: tensor<3x2xf32>)
        -> (tensor<3x2xf32>, tensor<5x2xf32>) {
      %g = tgraph.gather %t, %ids {offset_dims = array<i64: 1>,
             collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>,
             index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 2>}
           : (tensor<5x2xf32>, tensor<3x1xi32>) -> tensor<3x2xf32>
      %s = tgraph.scatter(%t) indices(%ids) updates(%u) {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %sum = tgraph.add %a, %b : tensor<f32>
        tgraph.return %sum : tensor<f32>
      } {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>,
          scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64}
         : (tensor<5x2xf32>, tensor<3x1xi32>, tensor<3x2xf32>) -> tensor<5x2xf32>
      return %g, %s : tensor<3x2xf32>, tensor<5x2xf32>
    }
  )mlir";
  auto out = run(src, {tensor(DType::F32, {5, 2}, {0, 1, 10, 11, 20, 21, 30, 31, 40, 41}),
                       tensor(DType::S32, {3, 1}, {1, 9, -4}),
                       tensor(DType::F32, {3, 2}, {100, 200, 300, 400, 500, 600})});
  ASSERT_EQ(out.size(), 2u);
  // 9 clamps to row 4, -4 to row 0.
  EXPECT_EQ(values(out[0]), (std::vector<double>{10, 11, 40, 41, 0, 1}));
  // Rows 9 and -4 do not exist: those updates are skipped.
  EXPECT_EQ(values(out[1]),
            (std::vector<double>{0, 1, 110, 211, 20, 21, 30, 31, 40, 41}));
}

TEST(Interpreter, SortIsStableOverSeveralOperands) {
  const char *src = R"mlir(
    func.func @main(%k: tensor<6xf32>, %v: tensor<6xi32>) -> tuple<tensor<6xf32>, tensor<6xi32>> {
      %s = tgraph.sort(%k, %v) dim = 0 {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
        %lt = tgraph.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
        tgraph.return %lt : tensor<i1>
      } {is_stable} : (tensor<6xf32>, tensor<6xi32>) -> tuple<tensor<6xf32>, tensor<6xi32>>
      return %s : tuple<tensor<6xf32>, tensor<6xi32>>
    }
  )mlir";
  auto out = run(src, {tensor(DType::F32, {6}, {3, 1, 2, 1, 3, 0}),
                       tensor(DType::S32, {6}, {0, 1, 2, 3, 4, 5})});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(values(out[0]), (std::vector<double>{0, 1, 1, 2, 3, 3}));
  EXPECT_EQ(values(out[1]), (std::vector<double>{5, 1, 3, 2, 0, 4}));
}

TEST(Interpreter, WhileRunsADataDependentNumberOfTimes) {
  const char *src = R"mlir(
    func.func private @cond(%s: tuple<tensor<i32>, tensor<f32>>) -> tensor<i1> {
      %i = tgraph.get_tuple_element %s[0] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<i32>
      %n = tgraph.constant dense<0> : tensor<i32>
      %c = tgraph.compare GT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      return %c : tensor<i1>
    }
    func.func private @body(%s: tuple<tensor<i32>, tensor<f32>>) -> tuple<tensor<i32>, tensor<f32>> {
      %i = tgraph.get_tuple_element %s[0] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<i32>
      %x = tgraph.get_tuple_element %s[1] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<f32>
      %one = tgraph.constant dense<1> : tensor<i32>
      %j = tgraph.subtract %i, %one : tensor<i32>
      %y = tgraph.add %x, %x : tensor<f32>
      %t = tgraph.tuple %j, %y : (tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<f32>>
      return %t : tuple<tensor<i32>, tensor<f32>>
    }
    func.func @main(%n: tensor<i32>, %x: tensor<f32>) -> tuple<tensor<i32>, tensor<f32>> {
      %t = tgraph.tuple %n, %x : (tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<f32>>
      %r = tgraph.while %t cond @cond body @body : tuple<tensor<i32>, tensor<f32>>
      return %r : tuple<tensor<i32>, tensor<f32>>
    }
  )mlir";
  auto out = run(src, {tensor(DType::S32, {}, {5}), tensor(DType::F32, {}, {1.5})});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].getDouble(0), 0);
  EXPECT_EQ(out[1].getDouble(0), 1.5 * 32);
}

TEST(Interpreter, UndefinedOpsAreErrorsWithTheirLocation) {
  const char *custom = R"mlir(
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
      %y = tgraph.custom_call "MyKernel"(%x) : (tensor<4xf32>) -> tensor<4xf32> loc("model.hlo":7:3)
      return %y : tensor<4xf32>
    }
  )mlir";
  EXPECT_EQ(runError(custom, {tensor(DType::F32, {4}, {1, 2, 3, 4})}),
            "model.hlo:7:3: 'tgraph.custom_call': custom call target "
            "'MyKernel' has no defined semantics");
  const char *elided = R"mlir(
    func.func @main() -> tensor<4xf32> {
      %w = tgraph.constant elided : tensor<4xf32> loc("w.hlo":2:1)
      return %w : tensor<4xf32>
    }
  )mlir";
  EXPECT_EQ(runError(elided, {}),
            "w.hlo:2:1: 'tgraph.constant': the constant is elided in the "
            "source (constant({...})) and no data was given for it");
  // Arguments are checked against the function's types.
  EXPECT_EQ(runError(custom, {tensor(DType::F32, {3}, {1, 2, 3})}),
            "-:2:5: 'func.func': value 0 is f32[3], expected f32[4]");
}

} // namespace
