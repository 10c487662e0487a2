//===- ExchangeTrafficTest.cpp - an exchange's bytes per tile and chip ----===//
//
// The box walk over a view (broadcast dims folded, contiguous dims merged,
// the innermost dim stepped a source interval at a time) must count
// exactly what reading every dest element one by one counts: random views
// (transposes, broadcasts, reversals, slices) between random mappings are
// checked against that brute force.
//
//===----------------------------------------------------------------------===//

#include "tessera/Memory/ExchangeTraffic.h"

#include "tessera/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <random>

using namespace mlir;
using namespace tessera;
using namespace tessera::memory;

namespace {

constexpr int64_t kTilesPerChip = 4;
constexpr int64_t kTiles = 16;
constexpr int64_t kElementBytes = 4;

class ExchangeTrafficTest : public ::testing::Test {
protected:
  ExchangeTrafficTest() : builder(&context) {
    context.loadDialect<tile::TileDialect>();
    module = ModuleOp::create(builder.getUnknownLoc());
    builder.setInsertionPointToEnd(module->getBody());
  }

  /// Random runs over [0, n): consecutive element ranges on random tiles.
  std::vector<int64_t> randomRuns(int64_t n) {
    std::vector<int64_t> runs;
    for (int64_t at = 0; at < n;) {
      int64_t perTile = std::min<int64_t>(n - at, 1 + rng() % 5);
      int64_t tiles = std::min<int64_t>((n - at) / perTile, 1 + rng() % 3);
      int64_t first = rng() % (kTiles - tiles + 1);
      runs.insert(runs.end(), {first, first + tiles, perTile, at});
      at += tiles * perTile;
    }
    return runs;
  }

  Value var(ArrayRef<int64_t> shape, ArrayRef<int64_t> runs) {
    auto type = tile::BufferType::get(&context, shape, builder.getF32Type());
    return builder.create<tile::VarOp>(
        builder.getUnknownLoc(), type, builder.getStringAttr("v"),
        tile::CategoryAttr::get(&context, tile::Category::Temporary),
        tile::MappingAttr::get(&context, runs));
  }

  tile::ExchangeOp view(Value source, Value dest, ArrayRef<int64_t> strides,
                        int64_t offset) {
    return builder.create<tile::ExchangeOp>(
        builder.getUnknownLoc(), builder.getStringAttr("x"), source, dest,
        DenseI64ArrayAttr(), DenseI64ArrayAttr(),
        builder.getDenseI64ArrayAttr(strides),
        builder.getI64IntegerAttr(offset));
  }

  /// Reads every dest element one by one.
  static ExchangeTraffic bruteForce(ArrayRef<int64_t> shape,
                                    ArrayRef<int64_t> strides, int64_t offset,
                                    tile::MappingAttr src,
                                    tile::MappingAttr dst) {
    std::vector<int64_t> tileOf;
    src.forEachInterval([&](int64_t tile, int64_t begin, int64_t end) {
      if (static_cast<int64_t>(tileOf.size()) < end)
        tileOf.resize(end);
      for (int64_t e = begin; e < end; ++e)
        tileOf[e] = tile;
    });
    ExchangeTraffic t;
    dst.forEachInterval([&](int64_t tile, int64_t begin, int64_t end) {
      for (int64_t e = begin; e < end; ++e) {
        int64_t element = offset;
        for (int64_t d = shape.size() - 1, rest = e; d >= 0; --d) {
          element += (rest % shape[d]) * strides[d];
          rest /= shape[d];
        }
        int64_t from = tileOf[element];
        t.sent[from] += kElementBytes;
        t.received[tile] += kElementBytes;
        t.bytesMoved += kElementBytes;
        if (from / kTilesPerChip != tile / kTilesPerChip)
          t.chipBytes[{from / kTilesPerChip, tile / kTilesPerChip}] +=
              kElementBytes;
      }
    });
    return t;
  }

  static void expectSame(const ExchangeTraffic &a, const ExchangeTraffic &b) {
    EXPECT_TRUE(a.complete);
    EXPECT_EQ(a.bytesMoved, b.bytesMoved);
    EXPECT_EQ(a.chipBytes, b.chipBytes);
    for (int64_t t = 0; t < kTiles; ++t) {
      EXPECT_EQ(a.sent.lookup(t), b.sent.lookup(t)) << "sent, tile " << t;
      EXPECT_EQ(a.received.lookup(t), b.received.lookup(t))
          << "received, tile " << t;
    }
  }

  MLIRContext context;
  OpBuilder builder;
  OwningOpRef<ModuleOp> module;
  std::mt19937_64 rng{20261126};
};

TEST_F(ExchangeTrafficTest, RandomViewsMatchAnElementWalk) {
  for (int trial = 0; trial < 400; ++trial) {
    int64_t rank = 1 + rng() % 4;
    SmallVector<int64_t> shape, strides;
    int64_t lo = 0, hi = 0;
    for (int64_t d = 0; d < rank; ++d) {
      shape.push_back(1 + rng() % 5);
      // Broadcasts (0), reversals (< 0) and gaps (slices) among them.
      strides.push_back(static_cast<int64_t>(rng() % 13) - 4);
      (strides.back() < 0 ? lo : hi) += (shape.back() - 1) * strides.back();
    }
    int64_t offset = -lo + rng() % 3;
    int64_t sourceSize = offset + hi + 1 + rng() % 3;
    int64_t destSize = 1;
    for (int64_t s : shape)
      destSize *= s;
    std::vector<int64_t> srcRuns = randomRuns(sourceSize),
                         dstRuns = randomRuns(destSize);
    Value src = var({sourceSize}, srcRuns), dst = var(shape, dstRuns);
    tile::ExchangeOp x = view(src, dst, strides, offset);
    SCOPED_TRACE(::testing::Message() << "trial " << trial);
    expectSame(exchangeTraffic(x, kElementBytes, kTilesPerChip),
               bruteForce(shape, strides, offset,
                          tile::MappingAttr::get(&context, srcRuns),
                          tile::MappingAttr::get(&context, dstRuns)));
  }
}

TEST_F(ExchangeTrafficTest, TransposeBetweenChips) {
  // dest = transpose of a 4 x 8 source: source rows 0-1 on tile 0 (chip 0),
  // rows 2-3 on tile 4 (chip 1); dest rows 0-3 on tile 1, 4-7 on tile 2
  // (both chip 0).
  Value src = var({4, 8}, {0, 1, 16, 0, 4, 5, 16, 16});
  Value dst = var({8, 4}, {1, 3, 16, 0});
  ExchangeTraffic t =
      exchangeTraffic(view(src, dst, {1, 8}, 0), kElementBytes, kTilesPerChip);
  ASSERT_TRUE(t.complete);
  EXPECT_EQ(t.sent.lookup(0), 64);
  EXPECT_EQ(t.sent.lookup(4), 64);
  EXPECT_EQ(t.received.lookup(1), 64);
  EXPECT_EQ(t.received.lookup(2), 64);
  // Half of every dest row comes from chip 1's tile 4.
  ASSERT_EQ(t.chipBytes.size(), 1u);
  EXPECT_EQ((t.chipBytes.at({1, 0})), 64);
}

TEST_F(ExchangeTrafficTest, BroadcastIsOneStepPerSourceInterval) {
  // A [1000, 1000] broadcast of a 1000-vector held on one tile: the
  // broadcast dim folds into a multiplier and the rows merge, so a budget
  // of a few steps per dest interval is enough.
  Value src = var({1000}, {3, 4, 1000, 0});
  Value dst = var({1000, 1000}, {0, 10, 100000, 0});
  ExchangeTraffic t = exchangeTraffic(view(src, dst, {0, 1}, 0), kElementBytes,
                                      kTilesPerChip, /*maxSteps=*/10);
  ASSERT_TRUE(t.complete);
  EXPECT_EQ(t.sent.lookup(3), 4000000);
  EXPECT_EQ(t.bytesMoved, 4000000);
}

TEST_F(ExchangeTrafficTest, TransposeIsCountedPerSourceInterval) {
  // A 64 x 64 transpose reads every source element once: each source
  // tile sends what it holds, in closed form, with no walk at all.
  Value src = var({64, 64}, {0, 8, 512, 0});
  Value dst = var({64, 64}, {8, 16, 512, 0});
  // One chip of 16 tiles, so no chip walk either.
  ExchangeTraffic t = exchangeTraffic(view(src, dst, {1, 64}, 0), kElementBytes,
                                      /*tilesPerChip=*/16,
                                      /*maxSteps=*/0);
  ASSERT_TRUE(t.complete);
  for (int64_t tile = 0; tile < 8; ++tile)
    EXPECT_EQ(t.sent.lookup(tile), 2048) << "tile " << tile;
  EXPECT_TRUE(t.chipBytes.empty());
}

TEST_F(ExchangeTrafficTest, OverBudgetKeepsWhatTilesReceive) {
  // Every other row of a 16 x 8 source: the two dims do not merge, so the
  // walk steps once a row, 8 steps > 3.
  Value src = var({128}, {0, 16, 8, 0});
  Value dst = var({8, 8}, {0, 2, 32, 0});
  ExchangeTraffic t =
      exchangeTraffic(view(src, dst, {16, 1}, 0), kElementBytes, kTilesPerChip,
                      /*maxSteps=*/3);
  EXPECT_FALSE(t.complete);
  EXPECT_TRUE(t.sent.empty());
  EXPECT_TRUE(t.chipBytes.empty());
  EXPECT_EQ(t.received.lookup(0), 128);
  EXPECT_EQ(t.received.lookup(1), 128);
  EXPECT_EQ(t.bytesMoved, 256);
}

} // namespace
