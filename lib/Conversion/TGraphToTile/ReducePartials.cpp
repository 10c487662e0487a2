//===- ReducePartials.cpp - where a reduction's partials go ---------------===//

#include "tessera/Conversion/TGraphToTile/ReducePartials.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <array>

using namespace tessera;

std::optional<TileOutputs> tessera::partialOutputsPerTile(
    llvm::ArrayRef<int64_t> inRuns, llvm::ArrayRef<int64_t> inShape,
    llvm::ArrayRef<bool> reduced, llvm::ArrayRef<int64_t> outStrides,
    int64_t numTiles) {
  int64_t nIn = 1;
  for (int64_t size : inShape)
    nIn *= size;
  // The mapping's intervals within the input (begin, end, tile), which must
  // tile [0, nIn) without a gap or an overlap.
  llvm::SmallVector<std::array<int64_t, 3>> intervals;
  for (size_t r = 0; r + 3 < inRuns.size(); r += 4)
    for (int64_t t = inRuns[r]; t < inRuns[r + 1]; ++t) {
      int64_t b = inRuns[r + 3] + (t - inRuns[r]) * inRuns[r + 2];
      int64_t e = std::min(b + inRuns[r + 2], nIn);
      if (b < e)
        intervals.push_back({b, e, t});
    }
  if (!std::is_sorted(intervals.begin(), intervals.end()))
    std::sort(intervals.begin(), intervals.end());
  int64_t covered = 0;
  for (const auto &[b, e, t] : intervals) {
    if (b != covered || t < 0 || t >= numTiles)
      return std::nullopt;
    covered = e;
  }
  if (covered != nIn)
    return std::nullopt;
  // Each tile's intervals in element order: sorted by tile, stably. A
  // linear mapping's already are; a wrapped one is sorted, by comparison
  // when it has fewer intervals than the chip has tiles (a small tensor's
  // few), else by counting, which walks every tile.
  auto byTileLess = [](const std::array<int64_t, 3> &a,
                       const std::array<int64_t, 3> &b) { return a[2] < b[2]; };
  if (!std::is_sorted(intervals.begin(), intervals.end(), byTileLess)) {
    if (int64_t(intervals.size()) < numTiles) {
      std::stable_sort(intervals.begin(), intervals.end(), byTileLess);
    } else {
      llvm::SmallVector<size_t> next(numTiles + 1, 0);
      for (const auto &iv : intervals)
        ++next[iv[2] + 1];
      for (int64_t t = 0; t < numTiles; ++t)
        next[t + 1] += next[t];
      llvm::SmallVector<std::array<int64_t, 3>> sorted(intervals.size());
      for (const auto &iv : intervals)
        sorted[next[iv[2]]++] = iv;
      intervals = std::move(sorted);
    }
  }

  // The trailing reduced dimensions form blocks of `block` elements with
  // one output each; the leading `lead` dimensions number the blocks, and
  // each kept one steps the output by its stride.
  int64_t lead = inShape.size(), block = 1;
  while (lead > 0 && reduced[lead - 1])
    block *= inShape[--lead];
  llvm::SmallVector<int64_t> step(lead, 0);
  int64_t nOut = 1;
  for (int64_t d = 0, k = 0; d < lead; ++d)
    if (!reduced[d]) {
      step[d] = outStrides[k++];
      nOut += (inShape[d] - 1) * step[d];
    }

  TileOutputs outputsOfTile;
  std::vector<int64_t> &outputs = outputsOfTile.outputs;
  // The last tile that reached each output: tiles are walked in order, so
  // this says whether the current tile already has it.
  std::vector<int32_t> seenBy(nIn > 0 ? nOut : 0, -1);
  // With the innermost dimension kept (blocks of one element), the tile
  // that last took a whole row of it, by the row's first output: a tile
  // holding many rows of a reduction over the leading dimensions (a bias
  // gradient summed over the batch) reaches the same outputs row after
  // row, and a whole row already taken adds none. Such rows are skipped,
  // not walked element by element (most of bert's planning of partials).
  std::vector<int32_t> rowSeenBy(block == 1 && lead > 0 && nIn > 0 ? nOut : 0,
                                 -1);
  // Outputs takenBegin, takenBegin + inner, ... up to takenEnd (exclusive),
  // all reached by tile takenBy: a stretch of the kept innermost dimension
  // walked already (see below).
  int64_t takenBy = -1, takenBegin = 0, takenEnd = 0;
  llvm::SmallVector<int64_t> coords(lead);
  // Steps `coords` (and `output` with them) to the next index along
  // dimension `d`, carrying into the dimensions before it.
  int64_t output = 0;
  auto advance = [&](int64_t d) {
    for (; d >= 0; --d) {
      output += step[d];
      if (++coords[d] < inShape[d])
        break;
      output -= coords[d] * step[d];
      coords[d] = 0;
    }
  };
  for (size_t first = 0, last; first < intervals.size(); first = last) {
    int64_t t = intervals[first][2];
    for (last = first; last < intervals.size() && intervals[last][2] == t;)
      ++last;
    for (size_t v = first; v < last; ++v) {
      int64_t begin = intervals[v][0], end = intervals[v][1];
      int64_t q = begin / block;
      output = 0;
      for (int64_t d = lead - 1; d >= 0; --d) {
        coords[d] = q % inShape[d];
        q /= inShape[d];
        output += coords[d] * step[d];
      }
      if (!rowSeenBy.empty()) {
        int64_t width = inShape[lead - 1], inner = step[lead - 1];
        for (int64_t e = begin; e < end;) {
          int64_t k0 = coords[lead - 1];
          int64_t length = std::min(width - k0, end - e);
          int64_t rowFirst = output - k0 * inner;
          bool whole = k0 == 0 && length == width;
          if (!whole || rowSeenBy[rowFirst] != t) {
            // A piece of a row reaches outputs output + k·inner; within
            // the stretch this tile has taken whole, it adds none, and it
            // is skipped (a tile holding a column block of many rows
            // reaches the same outputs row after row: bert_small_train's
            // 8.4M-element bias gradient was walked element by element).
            int64_t segmentEnd = output + length * inner;
            // On the stretch's progression, from its start on.
            bool onStretch = inner > 0 && takenBy == t &&
                             output >= takenBegin &&
                             (output - takenBegin) % inner == 0;
            if (!onStretch || segmentEnd > takenEnd) {
              for (int64_t k = 0, o = output; k < length; ++k, o += inner)
                if (seenBy[o] != t) {
                  seenBy[o] = t;
                  outputs.push_back(o);
                }
              // The stretch grows when this piece continues it on the
              // same progression; otherwise it starts again here.
              if (onStretch && output <= takenEnd) {
                takenEnd = std::max(takenEnd, segmentEnd);
              } else {
                takenBy = t;
                takenBegin = output;
                takenEnd = segmentEnd;
              }
            }
            if (whole)
              rowSeenBy[rowFirst] = t;
          }
          e += length;
          // The next row's first element.
          output = rowFirst;
          coords[lead - 1] = 0;
          advance(lead - 2);
        }
        continue;
      }
      for (int64_t blockEnd = (begin / block + 1) * block;; blockEnd += block) {
        if (seenBy[output] != t) {
          seenBy[output] = t;
          outputs.push_back(output);
        }
        if (blockEnd >= end)
          break;
        advance(lead - 1);
      }
    }
    outputsOfTile.tiles.push_back(t);
    outputsOfTile.firstOf.push_back(outputs.size());
  }
  return outputsOfTile;
}

llvm::ArrayRef<int64_t> TileOutputs::of(int64_t tile) const {
  auto it = llvm::lower_bound(tiles, tile);
  if (it == tiles.end() || *it != tile)
    return {};
  return ofListed(it - tiles.begin());
}

std::vector<GatheredSlot>
tessera::orderGatheredSlots(const TileOutputs &outputsOfTile,
                            llvm::ArrayRef<int64_t> ownerOf) {
  // Each output's (tile, partial) pairs, tiles ascending: a counting sort
  // by output of the tile-major partials.
  size_t nOut = ownerOf.size();
  std::vector<size_t> firstOfOutput(nOut + 1, 0);
  for (int64_t o : outputsOfTile.outputs)
    ++firstOfOutput[o + 1];
  for (size_t o = 0; o < nOut; ++o)
    firstOfOutput[o + 1] += firstOfOutput[o];
  std::vector<std::array<int64_t, 2>> byOutput(firstOfOutput[nOut]);
  std::vector<size_t> next(firstOfOutput.begin(), firstOfOutput.end() - 1);
  int64_t partial = 0;
  for (size_t k = 0; k < outputsOfTile.numListed(); ++k)
    for (int64_t o : outputsOfTile.ofListed(k))
      byOutput[next[o]++] = {outputsOfTile.tiles[k], partial++};
  // Outputs with partials by owner, ascending within an owner.
  int64_t owners = 0;
  for (size_t o = 0; o < nOut; ++o)
    if (firstOfOutput[o + 1] > firstOfOutput[o])
      owners = std::max(owners, ownerOf[o] + 1);
  std::vector<size_t> firstOfOwner(owners + 1, 0);
  for (size_t o = 0; o < nOut; ++o)
    if (firstOfOutput[o + 1] > firstOfOutput[o])
      ++firstOfOwner[ownerOf[o] + 1];
  for (int64_t w = 0; w < owners; ++w)
    firstOfOwner[w + 1] += firstOfOwner[w];
  std::vector<int64_t> byOwner(firstOfOwner[owners]);
  std::vector<size_t> nextOfOwner(firstOfOwner.begin(), firstOfOwner.end() - 1);
  for (size_t o = 0; o < nOut; ++o)
    if (firstOfOutput[o + 1] > firstOfOutput[o])
      byOwner[nextOfOwner[ownerOf[o]]++] = o;
  std::vector<GatheredSlot> slots;
  slots.reserve(byOutput.size());
  for (int64_t o : byOwner)
    for (size_t s = firstOfOutput[o]; s < firstOfOutput[o + 1]; ++s)
      slots.push_back({ownerOf[o], o, byOutput[s][0], byOutput[s][1]});
  return slots;
}
