//===- Collectives.cpp - a collective step's result on one device ---------===//

#include "Collectives.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

#include <cmath>
#include <numeric>

using namespace tessera;
using namespace tessera::runtime;

static llvm::Error failure(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::vector<int64_t> runtime::collectiveMembers(const exe::Collective &c,
                                                int64_t device,
                                                int64_t devices) {
  if (c.kind() == "collective_permute") {
    std::vector<int64_t> all(devices);
    std::iota(all.begin(), all.end(), 0);
    return all;
  }
  int64_t n = std::max<int64_t>(c.group_size(), 1);
  for (int64_t g = 0; g + n <= c.groups_size(); g += n)
    for (int64_t k = 0; k < n; ++k)
      if (c.groups(g + k) == device)
        return std::vector<int64_t>(c.groups().begin() + g,
                                    c.groups().begin() + g + n);
  return {};
}

/// One binary reducer on doubles or integers.
static std::optional<double> reduceFloat(llvm::StringRef r, double a,
                                         double b) {
  if (r == "add")
    return a + b;
  if (r == "multiply")
    return a * b;
  if (r == "maximum")
    return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
  if (r == "minimum")
    return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b);
  return std::nullopt;
}
static std::optional<int64_t> reduceInt(llvm::StringRef r, int64_t a,
                                        int64_t b) {
  if (r == "add")
    return int64_t(uint64_t(a) + uint64_t(b));
  if (r == "multiply")
    return int64_t(uint64_t(a) * uint64_t(b));
  if (r == "maximum")
    return std::max(a, b);
  if (r == "minimum")
    return std::min(a, b);
  if (r == "and")
    return a & b;
  if (r == "or")
    return a | b;
  if (r == "xor")
    return a ^ b;
  return std::nullopt;
}

/// Copies between a block-shaped tensor and block `index` along `dim` of a
/// whole one: whole into part when `fromIsWhole`, else part into whole.
static void copyBlock(const HostTensor &from, HostTensor &to, int64_t dim,
                      int64_t index, bool fromIsWhole) {
  const HostTensor &part = fromIsWhole ? to : from;
  int64_t eb = dtypeBytes(part.dtype);
  int64_t inner = 1, outer = 1;
  for (int64_t d = dim + 1; d < part.rank(); ++d)
    inner *= part.shape[d];
  for (int64_t d = 0; d < dim; ++d)
    outer *= part.shape[d];
  int64_t each = part.shape.empty() ? 1 : part.shape[dim];
  const HostTensor &whole = fromIsWhole ? from : to;
  int64_t wholeDim = whole.shape.empty() ? 1 : whole.shape[dim];
  int64_t run = each * inner * eb;
  for (int64_t o = 0; o < outer; ++o) {
    int64_t partAt = o * run;
    int64_t wholeAt = (o * wholeDim + index * each) * inner * eb;
    if (fromIsWhole)
      std::memcpy(to.bytes.data() + partAt, from.bytes.data() + wholeAt, run);
    else
      std::memcpy(to.bytes.data() + wholeAt, from.bytes.data() + partAt, run);
  }
}

llvm::Expected<HostTensor> runtime::combineCollective(
    const exe::Collective &c, int64_t device, llvm::ArrayRef<int64_t> members,
    llvm::ArrayRef<HostTensor> values, const HostTensor &dest) {
  HostTensor out = dest;
  if (c.kind() == "collective_permute") {
    std::fill(out.bytes.begin(), out.bytes.end(), 0);
    for (int64_t i = 0; i + 1 < c.pairs_size(); i += 2)
      if (c.pairs(i + 1) == device && c.pairs(i) >= 0 &&
          c.pairs(i) < int64_t(values.size()))
        out.bytes = values[c.pairs(i)].bytes;
    return out;
  }
  auto self = llvm::find(members, device) - members.begin();
  if (c.kind() == "all_gather") {
    for (size_t m = 0; m < values.size(); ++m)
      copyBlock(values[m], out, c.dimension(), m, /*fromIsWhole=*/false);
    return out;
  }
  if (c.kind() == "all_to_all") {
    // Block m of the result is member m's block `self`, through a buffer
    // of one block's shape.
    int64_t n = values.size(), dim = c.dimension();
    if (out.shape.empty() || out.shape[dim] % n != 0)
      return failure("dimension " + llvm::Twine(dim) + " does not split into " +
                     llvm::Twine(n) + " blocks");
    std::vector<int64_t> blockShape = out.shape;
    blockShape[dim] /= n;
    HostTensor block(out.dtype, blockShape);
    for (int64_t m = 0; m < n; ++m) {
      copyBlock(values[m], block, dim, self, /*fromIsWhole=*/true);
      copyBlock(block, out, dim, m, /*fromIsWhole=*/false);
    }
    return out;
  }
  if (c.kind() != "all_reduce" && c.kind() != "reduce_scatter")
    return failure("unknown collective kind '" + c.kind() + "'");
  // Fold the members' values in group order.
  HostTensor acc = values[0];
  bool isFloatType = isFloat(acc.dtype);
  for (size_t m = 1; m < values.size(); ++m)
    for (int64_t k = 0, n = acc.numElements(); k < n; ++k) {
      if (isFloatType) {
        std::optional<double> r =
            reduceFloat(c.reducer(), acc.getDouble(k), values[m].getDouble(k));
        if (!r)
          return failure("reducer '" + c.reducer() + "' on floats");
        acc.setDouble(k, *r);
      } else {
        std::optional<int64_t> r =
            reduceInt(c.reducer(), acc.getInt(k), values[m].getInt(k));
        if (!r)
          return failure("reducer '" + c.reducer() + "' on integers");
        acc.setInt(k, *r);
      }
    }
  if (c.kind() == "all_reduce")
    return acc;
  copyBlock(acc, out, c.dimension(), self, /*fromIsWhole=*/true);
  return out;
}
