//===- PodReport.h - a multi-chip program, chip by chip ----------*- C++
//-*-===//
//
// The pod view of a compile (docs/multichip.md), computed once from the
// memory analysis and formatted by the memory report (its `pod` section)
// and `tessera-prof pod`: per chip of a replica, its memory (tiles used,
// bytes, fullest tile, tiles out of memory, a histogram) and its step
// cycles by kind (compute, exchange, inter-chip, collective, sync, host:
// every step counted once, on each chip it involves); per link of the
// system, the bytes each direction carries in one run (copies between a
// replica's chips, and the collectives' ring between replicas) and how
// long that keeps it busy; per collective, its bytes and estimated time.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_MEMORY_PODREPORT_H
#define TESSERA_MEMORY_PODREPORT_H

#include "tessera/Memory/MemoryAnalysis.h"

#include <map>
#include <string>
#include <vector>

namespace tessera::memory {

struct PodChip {
  int64_t chip = 0;
  int64_t tilesUsed = 0, bytes = 0, maxTile = 0, maxTileBytes = 0;
  int64_t tilesOutOfMemory = 0;
  /// Tiles per 64 KiB of bytes (including gaps), as the memory summary's.
  std::vector<int64_t> histogram;
  /// Cycles by kind: compute, exchange, inter_chip, collective, sync, host.
  std::map<std::string, int64_t> cycles;
};

struct PodLink {
  int64_t link = 0, chipA = 0, chipB = 0;
  int64_t bytesAToB = 0, bytesBToA = 0;
  /// The busier direction's bytes over the link bandwidth.
  int64_t busyCycles = 0;
};

struct PodCollective {
  std::string step, kind;
  int64_t groupSize = 0, bytes = 0, cycles = 0;
};

struct PodReport {
  std::string target;
  int64_t systemChips = 1, chips = 1, replicas = 1, tilesPerChip = 0;
  std::string placement;
  std::vector<PodChip> perChip;
  std::vector<PodLink> links;
  std::vector<PodCollective> collectives;
};

/// The pod view of `analysis` (its program must still exist).
PodReport buildPodReport(const MemoryAnalysis &analysis);

} // namespace tessera::memory

#endif // TESSERA_MEMORY_PODREPORT_H
