//===- ChipRoutesTest.cpp - routes between the chips of a system ----------===//

#include "tessera/Target/ChipRoutes.h"
#include "tessera/Target/Presets.h"

#include "gtest/gtest.h"

using namespace tessera;

namespace {

TEST(ChipRoutes, RingTakesTheShorterWay) {
  llvm::Expected<TargetDescription> pod = loadPreset("pod-4");
  ASSERT_TRUE(bool(pod)) << llvm::toString(pod.takeError());
  ChipRoutes routes(*pod);
  EXPECT_TRUE(routes.route(2, 2).empty());
  // 0 -> 3 is one hop over the wrap-around link, not three.
  ASSERT_EQ(routes.route(0, 3).size(), 1u);
  EXPECT_EQ(routes.route(0, 3)[0].from, 0);
  EXPECT_EQ(routes.route(0, 3)[0].to, 3);
  // 0 -> 2 is two hops; ties go through the lower-numbered neighbour.
  const std::vector<RouteHop> &two = routes.route(0, 2);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].to, 1);
  EXPECT_EQ(two[1].to, 2);
}

TEST(ChipRoutes, TorusRoutesAreShortest) {
  llvm::Expected<TargetDescription> pod = loadPreset("pod-16");
  ASSERT_TRUE(bool(pod)) << llvm::toString(pod.takeError());
  ChipRoutes routes(*pod);
  // On a 4x4 torus no chip is more than 2 + 2 hops away.
  for (int64_t a = 0; a < 16; ++a)
    for (int64_t b = 0; b < 16; ++b) {
      int64_t dr = std::abs(a / 4 - b / 4), dc = std::abs(a % 4 - b % 4);
      int64_t hops = std::min(dr, 4 - dr) + std::min(dc, 4 - dc);
      EXPECT_EQ(int64_t(routes.route(a, b).size()), hops) << a << "->" << b;
    }
}

TEST(ChipRoutes, CopyCyclesAreLatencyPlusBandwidth) {
  llvm::Expected<TargetDescription> pod = loadPreset("pod-4");
  ASSERT_TRUE(bool(pod)) << llvm::toString(pod.takeError());
  ChipRoutes routes(*pod);
  // 64 GB/s at 1.33 GHz: 48.12 bytes a cycle; 2,000 cycles a hop.
  EXPECT_EQ(routes.copyCycles(1, 1, 1 << 20), 0);
  EXPECT_EQ(routes.copyCycles(0, 1, 0), 2000);
  int64_t oneMiB = routes.copyCycles(0, 1, 1 << 20);
  EXPECT_EQ(oneMiB, 2000 + 21791); // ceil(1048576 / 48.1203)
  // Two hops pay the latency twice and the bandwidth once.
  EXPECT_EQ(routes.copyCycles(0, 2, 1 << 20), 4000 + 21791);
}

} // namespace
