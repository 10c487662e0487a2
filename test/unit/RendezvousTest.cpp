//===- RendezvousTest.cpp - replicas meeting at their collectives ---------===//

#include "tessera/Support/Rendezvous.h"

#include <gtest/gtest.h>

#include <thread>

using namespace tessera;

namespace {

HostTensor scalar(float v) {
  HostTensor t(DType::F32, {});
  t.setDouble(0, v);
  return t;
}

TEST(Rendezvous, EveryMemberGetsEveryValueAndTheLatestArrival) {
  Rendezvous r(3);
  std::vector<std::vector<float>> seen(3);
  std::vector<int64_t> latest(3, -1);
  std::vector<std::thread> threads;
  for (int64_t d = 0; d < 3; ++d)
    threads.emplace_back([&, d] {
      // Device d reaches the collective at cycle 100 * (d + 1).
      llvm::Expected<std::vector<HostTensor>> all = r.exchange(
          0, d, {0, 1, 2}, scalar(float(d) + 0.5f), 100 * (d + 1), &latest[d]);
      ASSERT_TRUE(bool(all)) << llvm::toString(all.takeError());
      for (const HostTensor &t : *all)
        seen[d].push_back(float(t.getDouble(0)));
    });
  for (std::thread &t : threads)
    t.join();
  for (int64_t d = 0; d < 3; ++d) {
    EXPECT_EQ(seen[d], (std::vector<float>{0.5f, 1.5f, 2.5f}));
    // The collective starts for everyone when the last one arrives.
    EXPECT_EQ(latest[d], 300);
  }
}

TEST(Rendezvous, DisjointGroupsMeetApart) {
  Rendezvous r(4);
  std::vector<int64_t> latest(4, -1);
  std::vector<float> sums(4);
  std::vector<std::thread> threads;
  for (int64_t d = 0; d < 4; ++d)
    threads.emplace_back([&, d] {
      std::vector<int64_t> group =
          d < 2 ? std::vector<int64_t>{0, 1} : std::vector<int64_t>{2, 3};
      llvm::Expected<std::vector<HostTensor>> all =
          r.exchange(0, d, group, scalar(float(d)), d * 10, &latest[d]);
      ASSERT_TRUE(bool(all)) << llvm::toString(all.takeError());
      for (const HostTensor &t : *all)
        sums[d] += float(t.getDouble(0));
    });
  for (std::thread &t : threads)
    t.join();
  EXPECT_EQ(sums, (std::vector<float>{1, 1, 5, 5}));
  EXPECT_EQ(latest, (std::vector<int64_t>{10, 10, 30, 30}));
}

TEST(Rendezvous, AbortWakesTheWaiting) {
  Rendezvous r(2);
  std::string error;
  std::thread waiting([&] {
    llvm::Expected<std::vector<HostTensor>> all =
        r.exchange(0, 0, {0, 1}, scalar(1));
    ASSERT_FALSE(bool(all));
    error = llvm::toString(all.takeError());
  });
  r.abort("replica 1 failed");
  waiting.join();
  EXPECT_EQ(error, "replica 1 failed");
}

} // namespace
