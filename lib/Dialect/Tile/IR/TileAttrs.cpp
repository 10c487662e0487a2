//===- TileAttrs.cpp - tile attributes: registration, #tile.mapping -------===//

#include "tessera/Dialect/Tile/IR/MappingTiles.h"
#include "tessera/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>

using namespace mlir;
using namespace tessera::tile;

#define GET_ATTRDEF_CLASSES
#include "tessera/Dialect/Tile/IR/TileAttrs.cpp.inc"

void TileDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tessera/Dialect/Tile/IR/TileAttrs.cpp.inc"
      >();
}

// `[first, last] x perTile from firstElement`, comma separated. The tile range
// is inclusive in the syntax (brackets must balance inside `#tile.mapping<>`)
// and half-open in storage.
Attribute MappingAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> runs;
  if (parser.parseLess())
    return {};
  if (succeeded(parser.parseOptionalGreater()))
    return MappingAttr::get(parser.getContext(), runs);
  do {
    int64_t first, last, perTile, start;
    if (parser.parseLSquare() || parser.parseInteger(first) ||
        parser.parseComma() || parser.parseInteger(last) ||
        parser.parseRSquare() || parser.parseKeyword("x") ||
        parser.parseInteger(perTile) || parser.parseKeyword("from") ||
        parser.parseInteger(start))
      return {};
    runs.append({first, last + 1, perTile, start});
  } while (succeeded(parser.parseOptionalComma()));
  if (parser.parseGreater())
    return {};
  return MappingAttr::getChecked(
      [&] { return parser.emitError(parser.getCurrentLocation()); },
      parser.getContext(), runs);
}

void MappingAttr::print(AsmPrinter &printer) const {
  printer << '<';
  for (size_t i = 0, e = getNumRuns(); i < e; ++i) {
    Run r = getRun(i);
    printer << (i ? ", " : "") << '[' << r.firstTile << ", " << r.endTile - 1
            << "] x " << r.perTile << " from " << r.firstElement;
  }
  printer << '>';
}

LogicalResult
MappingAttr::verify(llvm::function_ref<InFlightDiagnostic()> emitError,
                    llvm::ArrayRef<int64_t> runs) {
  if (runs.size() % 4 != 0)
    return emitError() << "mapping runs come in fours, got " << runs.size()
                       << " integers";
  for (size_t i = 0; i < runs.size(); i += 4) {
    int64_t first = runs[i], end = runs[i + 1], per = runs[i + 2],
            start = runs[i + 3];
    if (first < 0 || end <= first || per <= 0 || start < 0)
      return emitError() << "mapping run " << i / 4 << " [" << first << ", "
                         << end - 1 << "] x " << per << " from " << start
                         << " is empty or negative";
  }
  return success();
}

int64_t MappingAttr::getNumMappedElements() const {
  int64_t n = 0;
  for (size_t i = 0, e = getNumRuns(); i < e; ++i)
    n += getRun(i).numElements();
  return n;
}

void MappingAttr::forEachInterval(
    llvm::function_ref<void(int64_t, int64_t, int64_t)> fn) const {
  for (size_t i = 0, e = getNumRuns(); i < e; ++i) {
    Run r = getRun(i);
    for (int64_t t = 0; t < r.numTiles(); ++t) {
      int64_t begin = r.firstElement + t * r.perTile;
      fn(r.firstTile + t, begin, begin + r.perTile);
    }
  }
}

llvm::SmallVector<int64_t>
MappingAttr::elementsPerTile(int64_t numTiles) const {
  llvm::SmallVector<int64_t> counts(numTiles, 0);
  for (size_t i = 0, e = getNumRuns(); i < e; ++i) {
    Run r = getRun(i);
    for (int64_t t = r.firstTile; t < std::min(r.endTile, numTiles); ++t)
      counts[t] += r.perTile;
  }
  return counts;
}

bool MappingAttr::holds(int64_t tile, int64_t begin, int64_t end) const {
  // Intervals of one tile may be adjacent across runs; walk them in element
  // order and require [begin, end) to be covered without a gap.
  llvm::SmallVector<std::pair<int64_t, int64_t>> mine;
  for (size_t i = 0, e = getNumRuns(); i < e; ++i) {
    Run r = getRun(i);
    if (tile < r.firstTile || tile >= r.endTile)
      continue;
    int64_t b = r.firstElement + (tile - r.firstTile) * r.perTile;
    mine.push_back({b, b + r.perTile});
  }
  std::sort(mine.begin(), mine.end());
  int64_t covered = begin;
  for (auto [b, e] : mine) {
    if (b > covered)
      break;
    covered = std::max(covered, e);
    if (covered >= end)
      return true;
  }
  return begin >= end;
}

bool MappingAttr::hasElementsOn(int64_t tile) const {
  for (size_t i = 0, e = getNumRuns(); i < e; ++i) {
    Run r = getRun(i);
    if (tile >= r.firstTile && tile < r.endTile)
      return true;
  }
  return false;
}

std::string MappingAttr::checkCovers(int64_t numElements,
                                     int64_t numTiles) const {
  struct Span {
    int64_t begin, end;
    size_t run;
  };
  llvm::SmallVector<Span> spans;
  spans.reserve(getNumRuns());
  for (size_t i = 0, e = getNumRuns(); i < e; ++i) {
    Run r = getRun(i);
    if (r.endTile > numTiles)
      return "mapping run " + std::to_string(i) + " reaches tile " +
             std::to_string(r.endTile - 1) + " but the program has " +
             std::to_string(numTiles) + " tiles";
    spans.push_back({r.firstElement, r.firstElement + r.numElements(), i});
  }
  // Runs mostly come in element order: the verifier checks every var, and
  // sorting (and growing) the list of a matrix's 4096 column-block runs
  // each time was most of this check's cost.
  auto byBegin = [](const Span &a, const Span &b) { return a.begin < b.begin; };
  if (!llvm::is_sorted(spans, byBegin))
    llvm::sort(spans, byBegin);
  int64_t next = 0;
  for (const Span &s : spans) {
    if (s.begin < next)
      return "element " + std::to_string(s.begin) + " is mapped twice (run " +
             std::to_string(s.run) + ")";
    if (s.begin > next)
      return "elements [" + std::to_string(next) + ", " +
             std::to_string(s.begin) + ") are not mapped to any tile";
    next = s.end;
  }
  if (next < numElements)
    return "elements [" + std::to_string(next) + ", " +
           std::to_string(numElements) + ") are not mapped to any tile";
  if (next > numElements)
    return "mapping covers " + std::to_string(next) +
           " elements but the buffer has " + std::to_string(numElements);
  return "";
}

llvm::SmallVector<std::pair<int64_t, int64_t>>
tessera::tile::tilesWithElements(MappingAttr mapping, int64_t numTiles) {
  llvm::SmallVector<std::pair<int64_t, int64_t>> ranges;
  bool negative = false;
  for (size_t i = 0, e = mapping.getNumRuns(); i < e; ++i) {
    MappingAttr::Run r = mapping.getRun(i);
    negative = negative || r.perTile < 0;
    int64_t first = std::max<int64_t>(r.firstTile, 0),
            end = std::min(r.endTile, numTiles);
    if (r.perTile <= 0 || first >= end)
      continue;
    // A range meeting the last one joins it: the union is the same, and
    // a mapping split by columns lists the same tiles once per row (bert:
    // sorting those lists was a third of this function).
    if (!ranges.empty() && first <= ranges.back().second &&
        ranges.back().first <= end) {
      ranges.back().first = std::min(ranges.back().first, first);
      ranges.back().second = std::max(ranges.back().second, end);
    } else {
      ranges.push_back({first, end});
    }
  }
  if (negative) {
    // Counts that may cancel: add them up per tile.
    ranges.clear();
    llvm::SmallVector<int64_t> perTile = mapping.elementsPerTile(numTiles);
    for (int64_t t = 0; t < numTiles; ++t)
      if (perTile[t] > 0) {
        if (!ranges.empty() && ranges.back().second == t)
          ranges.back().second = t + 1;
        else
          ranges.push_back({t, t + 1});
      }
    return ranges;
  }
  // Runs usually come in tile order; join those that overlap or touch.
  if (!std::is_sorted(ranges.begin(), ranges.end()))
    std::sort(ranges.begin(), ranges.end());
  size_t out = 0;
  for (size_t i = 0; i < ranges.size(); ++i) {
    if (out > 0 && ranges[i].first <= ranges[out - 1].second)
      ranges[out - 1].second =
          std::max(ranges[out - 1].second, ranges[i].second);
    else
      ranges[out++] = ranges[i];
  }
  ranges.resize(out);
  return ranges;
}
