//===- TGraphToTile.cpp - tgraph-to-tile ----------------------------------===//
//
// Lowers the entry function of a checked module to a tile.program; the work
// is in lib/Conversion/TGraphToTile (TGraphToTile.cpp), so tools can call it directly.
//
//===----------------------------------------------------------------------===//

#include "tessera/Conversion/TGraphToTile/TGraphToTile.h"
#include "tessera/Conversion/TGraphToTile/ChipPlacement.h"
#include "tessera/Dialect/TGraph/IR/CollectiveGroups.h"
#include "tessera/Memory/MemoryAnalysis.h"
#include "tessera/Memory/ShareCache.h"
#include "tessera/Passes.h"
#include "tessera/Target/Presets.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "tessera/Dialect/Tile/IR/Tile.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace tessera {
#define GEN_PASS_DEF_TGRAPHTOTILE
#include "Passes.h.inc"
} // namespace tessera

using namespace mlir;
using namespace tessera;

namespace {

/// "3 chips (stages by bytes): <why>. chip 0: 'a'..'b', 12 ops, 1.2 MB; ..."
/// `asked`: the placement option, when it named a mode rather than auto.
std::string describePlacement(func::FuncOp entry, int64_t chips, bool spread,
                              const std::string &asked, const std::string &why,
                              int64_t chipBytes, bool mixed) {
  ChipPlacement placement =
      placeOnChips(entry, chips, spread, chipBytes, mixed);
  bool live = placement.cut == "live";
  bool isMixed = placement.mode == "mixed";
  // "chips 13-15", or "chip 3" for a group of one.
  std::string group =
      !isMixed ? ""
      : placement.groupChips == 1
          ? "chip " + std::to_string(placement.groupFirst)
          : "chips " + std::to_string(placement.groupFirst) + "-" +
                std::to_string(placement.groupFirst + placement.groupChips - 1);
  std::string text =
      std::to_string(chips) + (chips == 1 ? " chip" : " chips") + " (" +
      (placement.mode == "annotations" ? "sharding annotations"
       : placement.mode == "stages"
           ? std::string(live ? "pipeline stages by live bytes"
                              : "pipeline stages by bytes") +
                 (asked == "stages" ? ", as asked (placement=stages)"
                  : asked == "mixed"
                      ? ", as no op touches over a quarter of a chip "
                        "(placement=mixed)"
                      : "")
       : placement.spread()
           ? std::string("spread: every tensor split over the chips, ") +
                 (!asked.empty()
                      ? "as asked (placement=spread)"
                      : "as an op with its operands fills over half a chip")
       : isMixed ? "mixed: the ops that touch over a quarter of a chip " +
                       std::string(placement.groupChips == 1 ? "on "
                                                             : "spread over ") +
                       group + ", the rest in pipeline stages" +
                       (!asked.empty() ? ", as asked (placement=mixed)" : "")
                 : "one chip") +
      "): " + why + "." + (live ? " The " + placement.cutWhy + "." : "") +
      (isMixed ? " The group holds an estimated " +
                     std::to_string(placement.groupLiveBytes) +
                     " bytes live; it gets the chips that and half again "
                     "need."
               : "");
  if (chips > 1 && !placement.spread())
    for (const ChipStage &s : placement.stages) {
      if (isMixed && s.chip > placement.groupFirst)
        break;
      text += (isMixed && s.chip == placement.groupFirst
                   ? " " + group + " (the group)"
                   : " chip " + std::to_string(s.chip)) +
              ": " + std::to_string(s.ops) + " ops" +
              (s.ops ? " '" + s.firstOp + "'..'" + s.lastOp + "'" : "") + ", " +
              std::to_string(s.bytes) + " bytes" +
              (live ? ", " + std::to_string(s.liveBytes) + " live" : "") + ";";
    }
  for (const std::string &note : placement.notes)
    text += " " + note + ".";
  return text;
}

using KeepAnalysis =
    std::function<void(Operation *, memory::MemoryAnalysis &&)>;

struct TGraphToTilePass
    : public tessera::impl::TGraphToTileBase<TGraphToTilePass> {
  using TGraphToTileBase::TGraphToTileBase;
  TGraphToTilePass(TGraphToTileOptions options, KeepAnalysis keep,
                   memory::ShareCache *shares)
      : TGraphToTileBase(std::move(options)), keep(std::move(keep)),
        shares(shares) {}

  /// Takes the search's analysis of the program it kept, if any.
  KeepAnalysis keep;
  /// Works out the shares of the buffers the lowering makes meanwhile, for
  /// the analyses (the search's and the compiler's), if any.
  memory::ShareCache *shares = nullptr;

  /// Lowers with the chips asked for, or searches for the fewest that
  /// hold the program: each try is lowered and allocated, and a try with a
  /// tile out of memory is replaced by one on more chips (at least as many
  /// as its bytes need), up to a replica's share of the target.
  LogicalResult lowerOnChips(ModuleOp module, const TargetDescription &target,
                             TileLoweringStats &stats) {
    func::FuncOp entry = findEntryFunction(module);
    if (!entry)
      return failure();
    int64_t devices = tgraph::deviceCounts(module).devices();
    int64_t available = std::max<int64_t>(1, target.chips / devices);
    int64_t annotated = annotatedChips(entry);
    int64_t chipBytes = target.tilesPerChip * target.usableBytesPerTile();
    TileLoweringOptions options;
    options.chipBytes = chipBytes;
    if (shares)
      options.madeBuffer = [this](tile::BufferType type,
                                  tile::MappingAttr mapping, int64_t tiles) {
        shares->prefetch(type, mapping, tiles);
      };
    std::string why = "the target has one chip";
    if (chips > 0) {
      options.chips = chips;
      why = "asked for (chips=" + std::to_string(chips) + ")";
      if (annotated > chips)
        return module.emitError("tgraph-to-tile: the sharding annotations "
                                "place ops on device ")
               << annotated - 1 << ", but chips=" << std::to_string(chips);
    } else if (annotated > 0) {
      // Annotations for more devices than a replica has chips go to its
      // last chip, as a compile for a smaller system must.
      options.chips = std::min(annotated, available);
      why =
          "the highest device an op names is " + std::to_string(annotated - 1);
      if (annotated > available)
        why += "; a replica has " + std::to_string(available) +
               (available == 1 ? " chip" : " chips") + ", so devices from " +
               std::to_string(available - 1) + " up share the last";
    } else if (available == 1 && target.chips > 1) {
      why = std::to_string(devices) + " replicas share " +
            std::to_string(target.chips) + " chips";
    }
    if (options.chips > available && devices > 1)
      return module.emitError("tgraph-to-tile: ")
             << options.chips << " chips per replica, but target '"
             << target.name << "' has " << target.chips << " chips for "
             << devices << " replicas";
    // An op whose operands and result fill half a chip cannot be placed
    // whole on one: such models are spread, every tensor over all chips
    // (and, when no spread try fits, mixed or staged, below).
    // placement=stages|spread|mixed overrides the choice (to compare them).
    if (!isPlacementMode(placementMode))
      return module.emitError("tgraph-to-tile: placement=")
             << placementMode << " is not " << kPlacementModes;
    int64_t largest = largestOpBytes(entry);
    auto spreadFor = [&](int64_t k) {
      if (placementMode != "auto")
        return k > 1 && placementMode == "spread";
      return k > 1 && 2 * largest > chipBytes;
    };
    options.spread = spreadFor(options.chips);
    options.mixed = placementMode == "mixed";
    bool search = chips == 0 && annotated == 0 && available > 1;
    // Each try: its chips, the bytes its tiles need beyond their memory
    // (summed; a count of tiles would grow with the chips), and how many
    // tiles overflow. The best is kept.
    struct Try {
      int64_t chips, bytesOver, tilesOver;
      bool spread, mixed;
      /// The chip bytes the stage cut was given (0: cut by result bytes
      /// only), and what the other cut gave when both were tried.
      int64_t cutBytes = 0;
      std::string other;
    };
    std::vector<Try> tries;
    auto program = [&] {
      return cast<tile::ProgramOp>(
          module.lookupSymbol(tileProgramName(entry.getSymName())));
    };
    // The last try's analysis: the program's, when that try is kept.
    std::optional<memory::MemoryAnalysis> last;
    auto tryOnce = [&]() -> std::optional<Try> {
      options.chipBytes = chipBytes;
      stats = TileLoweringStats();
      if (failed(lowerEntryToTile(module, target, &stats, options)))
        return std::nullopt;
      if (!search)
        return Try{options.chips,    0, 0, options.spread, options.mixed,
                   options.chipBytes};
      auto allocate = [&] {
        memory::MemoryAnalysis &analysis =
            last.emplace(memory::analyzeMemory(program(), target, shares));
        Try t{options.chips,
              0,
              analysis.tilesOutOfMemory(),
              options.spread,
              options.mixed,
              options.chipBytes};
        for (const memory::TileAllocation &tile : analysis.tiles)
          t.bytesOver += tile.overBy();
        return t;
      };
      Try t = allocate();
      // The cut by live bytes is an estimate: it leaves out padding, code
      // and host-exchange buffers. When its try is still over, the cut by
      // result bytes gets a try too, and the one with fewer bytes over is
      // kept (on the GNMT-size step the latter is: docs/multichip.md).
      if (t.bytesOver > 0 && !options.spread && !options.mixed &&
          options.chips > 1 && options.chipBytes > 0 &&
          placeOnChips(entry, options.chips, false, options.chipBytes).cut ==
              "live") {
        std::optional<memory::MemoryAnalysis> liveAnalysis = std::move(last);
        last.reset();
        program().erase();
        options.chipBytes = 0;
        stats = TileLoweringStats();
        if (failed(lowerEntryToTile(module, target, &stats, options)))
          return std::nullopt;
        Try b = allocate();
        auto said = [](const Try &x, const char *cut) {
          return std::string("; cut by ") + cut + ": " +
                 (x.tilesOver == 0
                      ? std::string("fits")
                      : std::to_string(x.tilesOver) +
                            " tiles out of memory by " +
                            std::to_string(x.bytesOver) + " bytes");
        };
        if (b.bytesOver < t.bytesOver) {
          b.other = said(t, "live bytes");
          t = b;
        } else {
          // Keep the live cut's program: lower it again.
          t.other = said(b, "result bytes");
          last.reset();
          program().erase();
          options.chipBytes = chipBytes;
          stats = TileLoweringStats();
          if (failed(lowerEntryToTile(module, target, &stats, options)))
            return std::nullopt;
          last = std::move(liveAnalysis);
        }
      }
      tries.push_back(t);
      return t;
    };
    // The bytes on the tiles over one chip's memory: a lower bound on the
    // chips (stages are not perfectly balanced, so maybe more). (A tile's
    // overheads include the code and stack reserved on every tile, which
    // usableBytesPerTile already leaves out.)
    auto chipsNeeded = [&](const memory::MemoryAnalysis &analysis) {
      int64_t reserved = target.sramBytesPerTile - target.usableBytesPerTile();
      int64_t bytes = 0;
      for (const memory::TileAllocation &t : analysis.tiles)
        bytes += std::max<int64_t>(0, t.includingGaps() - reserved);
      return (bytes + chipBytes - 1) / std::max<int64_t>(chipBytes, 1);
    };
    while (true) {
      std::optional<Try> tried = tryOnce();
      if (!tried)
        return failure();
      if (!search)
        break;
      memory::MemoryAnalysis &analysis = *last;
      const Try &t = *tried;
      // More chips are worth a try only while they help: a tile that
      // overflows because one tensor crowds it stays full on any count.
      bool helped =
          tries.size() < 2 || t.bytesOver < tries[tries.size() - 2].bytesOver;
      if (t.bytesOver == 0 || options.chips >= available || !helped)
        break;
      int64_t needed = chipsNeeded(analysis);
      options.chips = std::min(available, std::max(options.chips + 1, needed));
      options.spread = spreadFor(options.chips);
      last.reset();
      program().erase();
    }
    // Spreading over more chips spreads every exchange over every tile
    // too, so each tile keeps the code of all of them; when no spread try
    // fits, all of a replica's chips get a mixed try (the large ops spread
    // over a group of them, the rest in stages, each chip keeping its own
    // exchanges' code) and, unless that fits, pipeline stages.
    bool spreadTried =
        llvm::any_of(tries, [](const Try &t) { return t.spread; });
    bool stagesTried = false;
    // The fewest chips a mixed placement was found to fit by bisection.
    int64_t fewestMixed = 0;
    // Whether the bytes of the mixed try need every chip (nothing to bisect).
    bool mixedNeedsAll = false;
    auto noneFits = [&] {
      return llvm::all_of(tries, [](const Try &t) { return t.bytesOver > 0; });
    };
    // Drops the last try's program and tries again on `k` chips.
    auto retry = [&](int64_t k, bool mixed) {
      last.reset();
      program().erase();
      options.chips = k;
      options.spread = false;
      options.mixed = mixed;
      return tryOnce();
    };
    if (search && placementMode == "auto" && spreadTried && noneFits()) {
      if (placeOnChips(entry, available, false, chipBytes, true).mode ==
          "mixed") {
        if (!retry(available, /*mixed=*/true))
          return failure();
        stagesTried = true;
        // It fits on all chips: look for the fewest that hold it mixed, by
        // bisection between the bytes' lower bound and all of them (the
        // GNMT-size step: 16 chips fit, and so do 11).
        if (tries.back().bytesOver == 0) {
          int64_t lo = std::max<int64_t>(2, chipsNeeded(*last));
          int64_t hi = available;
          mixedNeedsAll = lo >= hi;
          while (lo < hi) {
            int64_t mid = lo + (hi - lo) / 2;
            std::optional<Try> t = retry(mid, /*mixed=*/true);
            if (!t)
              return failure();
            if (t->bytesOver == 0)
              hi = mid;
            else
              lo = mid + 1;
          }
          if (!mixedNeedsAll)
            fewestMixed = hi;
        }
      }
      if (noneFits()) {
        if (!retry(available, /*mixed=*/false))
          return failure();
        stagesTried = true;
      }
    }
    if (search) {
      // The try with the fewest bytes over, then the fewest chips.
      auto best = std::min_element(
          tries.begin(), tries.end(), [](const Try &a, const Try &b) {
            return std::make_pair(a.bytesOver, a.chips) <
                   std::make_pair(b.bytesOver, b.chips);
          });
      std::vector<std::string> said;
      bool mixed = spreadTried && llvm::any_of(tries, [](const Try &t) {
                     return !t.spread && t.chips > 1;
                   });
      for (const Try &t : tries)
        said.push_back(
            std::to_string(t.chips) + (t.chips == 1 ? " chip" : " chips") +
            (mixed && t.chips > 1 ? (t.spread  ? " spread"
                                     : t.mixed ? " mixed"
                                               : " in stages")
                                  : "") +
            ": " +
            (t.tilesOver == 0
                 ? std::string("fits")
                 : std::to_string(t.tilesOver) + " tiles out of memory by " +
                       std::to_string(t.bytesOver) + " bytes") +
            t.other);
      // The stages and mixed tries are on every chip: fewer were not
      // tried.
      bool stagesKept = stagesTried && !best->spread && best->chips > 1;
      why = "tried " + llvm::join(said, "; ") + ". " +
            (best->bytesOver == 0 && stagesKept
                 ? "No spread try holds it, " +
                       std::string(best->mixed && fewestMixed
                                       ? "a mixed placement does: on all " +
                                             std::to_string(available) +
                                             " chips, and by bisection on "
                                             "as few as " +
                                             std::to_string(fewestMixed)
                                   : best->mixed
                                       ? "a mixed placement on all " +
                                             std::to_string(available) +
                                             (mixedNeedsAll
                                                  ? " chips does (its bytes "
                                                    "need all of them)"
                                                  : " chips does (fewer were "
                                                    "not tried)")
                                       : "pipeline stages on all " +
                                             std::to_string(available) +
                                             " chips do (fewer in stages were "
                                             "not tried)")
             : best->bytesOver == 0 ? "The fewest chips that hold it"
             : tries.back().chips >= available
                 ? "No count up to the " + std::to_string(available) +
                       " chips a replica has holds it; the fewest bytes over"
                 : "More chips did not help; the fewest bytes over");
      // The last try's program is the one its Try describes.
      int64_t lastCut = tries.back().cutBytes;
      if (best->chips != options.chips || best->spread != options.spread ||
          best->mixed != options.mixed || best->cutBytes != lastCut) {
        last.reset();
        program().erase();
        options.chips = best->chips;
        options.spread = best->spread;
        options.mixed = best->mixed;
        options.chipBytes = best->cutBytes;
        stats = TileLoweringStats();
        if (failed(lowerEntryToTile(module, target, &stats, options)))
          return failure();
      }
    }
    if (target.chips > 1)
      program().setPlacement(describePlacement(
          entry, options.chips, options.spread,
          placementMode == "auto" ? std::string() : std::string(placementMode),
          why, options.chipBytes, options.mixed));
    if (last && keep)
      keep(program(), std::move(*last));
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The target: the option, else the one tgraph-check-compat recorded (its
    // verdicts are only meaningful for that target).
    std::string name = targetName;
    if (name.empty())
      if (auto attr = module->getAttrOfType<StringAttr>("tgraph.target"))
        name = attr.getValue().str();
    if (name.empty()) {
      module.emitError("tgraph-to-tile: no target; run tgraph-check-compat "
                       "first or pass target=NAME");
      return signalPassFailure();
    }
    llvm::Expected<TargetDescription> target = resolveTarget(name);
    if (!target) {
      module.emitError("tgraph-to-tile: ")
          << llvm::toString(target.takeError());
      return signalPassFailure();
    }
    TileLoweringStats stats;
    if (failed(lowerOnChips(module, *target, stats)))
      return signalPassFailure();
    if (printStats) {
      llvm::raw_ostream &os = llvm::outs();
      os << "tgraph-to-tile on " << target->name << ": tiles used "
         << stats.tilesUsed << ", vars " << stats.vars << ", compute sets "
         << stats.computeSets << ", exchanges " << stats.exchanges << ", syncs "
         << stats.syncs << ", host copies " << stats.hostCopies
         << ", host_compute " << stats.hostComputes;
      for (const auto &[reason, count] : stats.hostReasons)
        os << " [" << reason << ": " << count << "]";
      os << "\n";
      if (!stats.notLowered.empty()) {
        os << "  not lowered:";
        for (const auto &[op, count] : stats.notLowered)
          os << " " << op << "=" << count;
        os << "\n";
      }
    }
  }
};

} // namespace

std::unique_ptr<Pass> tessera::createTGraphToTile(
    TGraphToTileOptions options,
    std::function<void(Operation *, memory::MemoryAnalysis &&)> keep,
    memory::ShareCache *shares) {
  return std::make_unique<TGraphToTilePass>(std::move(options), std::move(keep),
                                            shares);
}
