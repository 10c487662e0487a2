//===- Target.cpp - TargetDescription helpers -----------------------------===//

#include "tessera/Target/Target.h"

#include "tessera/Target/Layout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace tessera;
using llvm::StringRef;

bool ChipLink::operator==(const ChipLink &o) const {
  return chipA == o.chipA && chipB == o.chipB &&
         bandwidthBytesPerSecond == o.bandwidthBytesPerSecond &&
         latencyCycles == o.latencyCycles;
}

bool ReservedBytes::operator==(const ReservedBytes &o) const {
  return code == o.code && stack == o.stack;
}

bool MatrixUnit::operator==(const MatrixUnit &o) const {
  return m == o.m && n == o.n && k == o.k && dtypes == o.dtypes;
}

bool LayoutTile::operator==(const LayoutTile &o) const {
  return rows == o.rows && cols == o.cols;
}

bool ExchangeSpec::operator==(const ExchangeSpec &o) const {
  return bandwidthBytesPerCycle == o.bandwidthBytesPerCycle &&
         latencyCycles == o.latencyCycles;
}

bool HostLink::operator==(const HostLink &o) const {
  return bandwidthBytesPerSecond == o.bandwidthBytesPerSecond &&
         latencyCycles == o.latencyCycles;
}

bool ProgramOverheads::operator==(const ProgramOverheads &o) const {
  return vertexCodeBytes == o.vertexCodeBytes &&
         vertexStateBytes == o.vertexStateBytes &&
         exchangeCodeBytes == o.exchangeCodeBytes &&
         exchangeStateBytes == o.exchangeStateBytes;
}

std::optional<int64_t> OpConstraint::limit(StringRef key) const {
  auto it = limits.find(key.str());
  if (it == limits.end())
    return std::nullopt;
  return it->second;
}

bool OpConstraint::allows(StringRef key) const {
  auto it = flags.find(key.str());
  return it == flags.end() || it->second;
}

bool OpConstraint::allowsDtype(StringRef dtype) const {
  return dtypes.empty() || llvm::is_contained(dtypes, dtype);
}

bool OpConstraint::allowsName(StringRef key, StringRef name) const {
  auto it = nameLists.find(key.str());
  return it == nameLists.end() || llvm::is_contained(it->second, name);
}

bool OpConstraint::operator==(const OpConstraint &o) const {
  return op == o.op && dtypes == o.dtypes && limits == o.limits &&
         flags == o.flags && nameLists == o.nameLists && note == o.note;
}

double PaddedSize::usefulFraction() const {
  if (paddedElements == 0)
    return 1.0;
  return static_cast<double>(usefulElements) /
         static_cast<double>(paddedElements);
}

int64_t TargetDescription::usableBytesPerTile() const {
  // The parser rejects reservations that do not fit; clamp anyway so a
  // hand-built description cannot yield negative capacity.
  return std::max<int64_t>(0, sramBytesPerTile - reservedBytesPerTile.code -
                                  reservedBytesPerTile.stack);
}

PaddedSize TargetDescription::paddedSize(llvm::ArrayRef<int64_t> shape,
                                         int64_t dtypeBytes) const {
  PaddedSize size;
  size.usefulElements = 1;
  for (int64_t d : shape)
    size.usefulElements *= std::max<int64_t>(d, 0);
  size.paddedElements = layoutViewOf(shape, layoutTile).paddedElements;
  size.usefulBytes = size.usefulElements * dtypeBytes;
  size.paddedBytes = size.paddedElements * dtypeBytes;
  return size;
}

bool TargetDescription::supportsDtype(StringRef dtype) const {
  return llvm::is_contained(dtypes, dtype);
}

const OpConstraint *TargetDescription::opConstraint(StringRef op) const {
  for (const OpConstraint &c : ops)
    if (c.op == op)
      return &c;
  return nullptr;
}

bool TargetDescription::runtimeImplements(StringRef vertexKind) const {
  return llvm::is_contained(runtimeOps, vertexKind);
}

int64_t TargetDescription::vectorWidthFor(StringRef dtype) const {
  auto it = vectorWidth.find(dtype.str());
  return it == vectorWidth.end() ? 0 : it->second;
}

// toJson keeps the text of recent descriptions and finds them with these
// operators, so one that left a field out would hand back another target's
// text. A new field changes the struct's size: compare it below, then
// update the size (on libstdc++ for x86-64, where Tessera is built).
#if defined(__x86_64__) && defined(__GLIBCXX__)
static_assert(sizeof(TargetDescription) == 400,
              "a field was added: compare it in TargetDescription::operator==");
static_assert(sizeof(OpConstraint) == 232,
              "a field was added: compare it in OpConstraint::operator==");
#endif

bool TargetDescription::operator==(const TargetDescription &o) const {
  return name == o.name && description == o.description && chips == o.chips &&
         chipLinks == o.chipLinks && tilesPerChip == o.tilesPerChip &&
         sramBytesPerTile == o.sramBytesPerTile &&
         reservedBytesPerTile == o.reservedBytesPerTile &&
         clockHz == o.clockHz && vectorWidth == o.vectorWidth &&
         matrixUnit == o.matrixUnit && layoutTile == o.layoutTile &&
         alignmentBytes == o.alignmentBytes && exchange == o.exchange &&
         syncCycles == o.syncCycles && hostLink == o.hostLink &&
         overheads == o.overheads && dtypes == o.dtypes && ops == o.ops &&
         runtimeOps == o.runtimeOps;
}

std::string tessera::DimFit::describe() const {
  if (exact())
    return "exact fit";
  return "padded " + std::to_string(size) + "→" + std::to_string(padded);
}

double tessera::MatmulFit::utilization() const {
  int64_t padded = paddedMacs();
  return padded == 0 ? 1.0 : static_cast<double>(usefulMacs()) / padded;
}

MatmulFit tessera::matmulFit(int64_t batch, int64_t m, int64_t n, int64_t k,
                             const MatrixUnit &unit) {
  auto fit = [](int64_t size, int64_t unitSize) {
    DimFit d;
    d.size = size;
    d.padded =
        unitSize > 0 ? (size + unitSize - 1) / unitSize * unitSize : size;
    return d;
  };
  MatmulFit f;
  f.batch = batch;
  f.m = fit(m, unit.m);
  f.n = fit(n, unit.n);
  f.k = fit(k, unit.k);
  return f;
}

