//===- ChipRoutes.cpp - routes between the chips of a system --------------===//

#include "tessera/Target/ChipRoutes.h"

#include <algorithm>
#include <cmath>
#include <deque>

using namespace tessera;

ChipRoutes::ChipRoutes(const TargetDescription &target)
    : target(target), adjacent(std::max<int64_t>(target.chips, 1)) {
  for (auto [i, link] : llvm::enumerate(target.chipLinks)) {
    adjacent[link.chipA].push_back({link.chipB, int64_t(i)});
    adjacent[link.chipB].push_back({link.chipA, int64_t(i)});
  }
  for (auto &links : adjacent)
    std::sort(links.begin(), links.end());
}

const std::vector<RouteHop> &ChipRoutes::route(int64_t from, int64_t to) const {
  auto [it, fresh] = cache.try_emplace(from);
  std::vector<std::vector<RouteHop>> &routes = it->second;
  if (fresh) {
    // Breadth-first from `from`; a chip's route is its parent's plus the
    // hop that reached it, found first from the lowest-numbered parent.
    routes.assign(adjacent.size(), {});
    std::vector<bool> seen(adjacent.size(), false);
    std::deque<int64_t> queue{from};
    seen[from] = true;
    while (!queue.empty()) {
      int64_t chip = queue.front();
      queue.pop_front();
      for (auto [next, link] : adjacent[chip]) {
        if (seen[next])
          continue;
        seen[next] = true;
        routes[next] = routes[chip];
        routes[next].push_back({link, chip, next});
        queue.push_back(next);
      }
    }
  }
  return routes[to];
}

double ChipRoutes::linkBytesPerCycle(int64_t link) const {
  double perSecond =
      static_cast<double>(target.chipLinks[link].bandwidthBytesPerSecond);
  return std::max(perSecond / std::max<int64_t>(target.clockHz, 1), 1e-9);
}

void ChipRoutes::addRouteBytes(int64_t from, int64_t to, int64_t bytes,
                               LinkBytes &links) const {
  for (const RouteHop &hop : route(from, to))
    links[{hop.link, hop.from}] += bytes;
}

int64_t ChipRoutes::interChipCycles(
    const std::map<std::pair<int64_t, int64_t>, int64_t> &chipBytes) const {
  if (chipBytes.empty())
    return 0;
  LinkBytes linkBytes;
  int64_t latency = 0;
  for (auto &[pair, bytes] : chipBytes) {
    addRouteBytes(pair.first, pair.second, bytes, linkBytes);
    int64_t routeLatency = 0;
    for (const RouteHop &hop : route(pair.first, pair.second))
      routeLatency += target.chipLinks[hop.link].latencyCycles;
    latency = std::max(latency, routeLatency);
  }
  double linkCycles = 0;
  for (auto &[key, bytes] : linkBytes)
    linkCycles = std::max(linkCycles, bytes / linkBytesPerCycle(key.first));
  return latency + static_cast<int64_t>(std::ceil(linkCycles));
}

int64_t ChipRoutes::ringCycles(llvm::ArrayRef<int64_t> ring, int64_t rounds,
                               int64_t blockBytes) const {
  int64_t slowest = 0;
  for (size_t i = 0; i < ring.size() && ring.size() > 1; ++i)
    slowest = std::max(
        slowest, copyCycles(ring[i], ring[(i + 1) % ring.size()], blockBytes));
  return rounds * slowest;
}

int64_t ChipRoutes::copyCycles(int64_t from, int64_t to, int64_t bytes) const {
  if (from == to)
    return 0;
  int64_t latency = 0;
  double slowest = 0;
  for (const RouteHop &hop : route(from, to)) {
    latency += target.chipLinks[hop.link].latencyCycles;
    double perCycle = linkBytesPerCycle(hop.link);
    slowest = slowest == 0 ? perCycle : std::min(slowest, perCycle);
  }
  if (slowest == 0)
    return latency;
  return latency + static_cast<int64_t>(std::ceil(bytes / slowest));
}
