//===- ChipRoutes.h - routes between the chips of a system -------*- C++
//-*-===//
//
// A system's chips talk over the links its target lists; two chips without
// a link between them relay through others. The cost model prices an
// inter-chip copy along its route and the collectives' ring along the
// chips' links, so both ask here: the fewest-hop route between two chips
// (breadth-first over the links, ties to the lower chip number so a
// compile is deterministic) and what moving bytes over it costs.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TARGET_CHIPROUTES_H
#define TESSERA_TARGET_CHIPROUTES_H

#include "tessera/Target/Target.h"

#include <cstdint>
#include <map>
#include <vector>

namespace tessera {

/// One link crossed in one direction: `link` indexes target.chipLinks.
struct RouteHop {
  int64_t link = 0;
  int64_t from = 0, to = 0;
};

class ChipRoutes {
public:
  explicit ChipRoutes(const TargetDescription &target);

  /// The hops from chip `from` to chip `to` (none when equal). Both must
  /// be chips of the target; the target parser guarantees every chip is
  /// reachable.
  const std::vector<RouteHop> &route(int64_t from, int64_t to) const;
  /// Cycles for `bytes` to go from `from` to `to`: each hop's latency plus
  /// the bytes over the slowest link on the way (links forward as they
  /// receive, so a long copy pays the bandwidth once).
  int64_t copyCycles(int64_t from, int64_t to, int64_t bytes) const;
  /// Bytes per cycle of link `link` in each direction (at least 1e-9).
  double linkBytesPerCycle(int64_t link) const;
  /// Bytes per link direction, keyed by (link, the chip it leaves).
  using LinkBytes = std::map<std::pair<int64_t, int64_t>, int64_t>;
  /// Adds `bytes` going from chip `from` to chip `to` to every link
  /// direction of its route.
  void addRouteBytes(int64_t from, int64_t to, int64_t bytes,
                     LinkBytes &links) const;
  /// One exchange step's copies between chips, as bytes per (from chip,
  /// to chip): each pair's bytes go along its route; the busiest link
  /// direction's bytes over its bandwidth, plus the longest route's
  /// latency, bound the step (0 when nothing crosses).
  int64_t interChipCycles(
      const std::map<std::pair<int64_t, int64_t>, int64_t> &chipBytes) const;
  /// A ring collective over `ring` (the members' chips, in group order):
  /// `rounds` steps, in each of which every member sends `blockBytes` to
  /// the next (the last to the first) at once, so the slowest hop bounds
  /// every round. An all-reduce of B bytes over n members is 2(n - 1)
  /// rounds of B / n; an all-gather or reduce-scatter n - 1 rounds.
  int64_t ringCycles(llvm::ArrayRef<int64_t> ring, int64_t rounds,
                     int64_t blockBytes) const;

private:
  const TargetDescription &target;
  /// Per chip, its links as (neighbour, link index), by neighbour.
  std::vector<std::vector<std::pair<int64_t, int64_t>>> adjacent;
  /// Routes from each source asked for so far: parent hop per chip.
  mutable std::map<int64_t, std::vector<std::vector<RouteHop>>> cache;
};

} // namespace tessera

#endif // TESSERA_TARGET_CHIPROUTES_H
