//===- ChipPlacementTest.cpp - which chip each op runs on -----------------===//
//
// The mixed placement's group (ChipPlacement.h): which ops it takes, how
// many chips its live estimate asks for, and where the other ops and the
// arguments go, on a small loss between two chains worked out by hand.
//
//===----------------------------------------------------------------------===//

#include "tessera/Conversion/TGraphToTile/ChipPlacement.h"
#include "tessera/Analysis/OpIdentity.h"
#include "tessera/Import/HloImporter.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

#include <map>

using namespace tessera;

namespace {

/// A [64,64] x [64,512] dot (logits, 128 KiB), a broadcast constant added
/// to them, their exponential less its rows' maxima, and a dot back to
/// [64,64], between two chains of two small ops each.
constexpr const char *kLoss = R"(HloModule loss
max {
  p = f32[] parameter(0)
  q = f32[] parameter(1)
  ROOT r = f32[] maximum(p, q)
}
ENTRY main {
  x = f32[64,64] parameter(0)
  w = f32[64,512] parameter(1)
  a = f32[64,64] negate(x)
  b = f32[64,64] tanh(a)
  logits = f32[64,512] dot(b, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  one = f32[] constant(1)
  ones = f32[64,512] broadcast(one), dimensions={}
  z = f32[64,512] add(logits, ones)
  e = f32[64,512] exponential(z)
  ninf = f32[] constant(-inf)
  m = f32[64] reduce(e, ninf), dimensions={1}, to_apply=max
  mb = f32[64,512] broadcast(m), dimensions={0}
  e2 = f32[64,512] subtract(e, mb)
  g = f32[64,64] dot(e2, w), lhs_contracting_dims={1}, rhs_contracting_dims={1}
  c = f32[64,64] negate(g)
  d = f32[64,64] tanh(c)
  ROOT r = (f32[64,64]) tuple(d)
}
)";

struct Placed {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  ChipPlacement placement;
  std::map<std::string, int64_t> chipOf; ///< by instruction name
};

std::unique_ptr<Placed> place(int64_t chips, int64_t chipBytes, bool mixed) {
  auto p = std::make_unique<Placed>();
  loadImportDialects(p->context);
  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(kLoss),
                             llvm::SMLoc());
  p->module = importHloText(sources, &p->context);
  EXPECT_TRUE(p->module);
  if (!p->module)
    return p;
  auto entry = p->module->lookupSymbol<mlir::func::FuncOp>("main");
  p->placement = placeOnChips(entry, chips, false, chipBytes, mixed);
  for (mlir::Operation &op : entry.getBody().front().without_terminator())
    p->chipOf[identifyOp(&op).instruction] = p->placement.chipOf(&op);
  return p;
}

// A chip of 1 MiB: an op is large when it touches over 256 KiB. The dots
// (16 + 128 + 128 KiB) and the two elementwise ops of three 128 KiB
// tensors are; the broadcast of a constant goes with its only user, the
// add; the exponential (256 KiB, not over), the maxima and their
// broadcast (128 KiB and a little) are fed by the group and lead back into
// it. The chains stay out, the last negate too (no group op reads it).
TEST(ChipPlacement, MixedGroupTakesTheLargeOpsAndWhatLiesBetween) {
  auto p = place(4, 1 << 20, true);
  ASSERT_TRUE(p->module);
  const ChipPlacement &pl = p->placement;
  EXPECT_EQ(pl.mode, "mixed");
  // Live at the add: the logits, the broadcast, the sum and w, 128 KiB
  // each (as at the subtract: e, mb, e2 and w); with half again, 768 KiB:
  // one chip, the last.
  EXPECT_EQ(pl.groupLiveBytes, 4 * 131072);
  EXPECT_EQ(pl.groupChips, 1);
  EXPECT_EQ(pl.groupFirst, 3);
  for (const char *name :
       {"logits", "one", "ones", "z", "e", "ninf", "m", "mb", "e2", "g"})
    EXPECT_EQ(p->chipOf[name], 3) << name;
  for (const char *name : {"a", "b", "c", "d"})
    EXPECT_LT(p->chipOf[name], 3) << name;
  // w's first user is the logits: it is the group's; x goes with 'a'.
  EXPECT_EQ(pl.argChip[1], 3);
  EXPECT_EQ(pl.argChip[0], p->chipOf["a"]);
  EXPECT_EQ(pl.tilesOn(3, 10), 10);
  EXPECT_EQ(pl.tilesOn(0, 10), 10);
}

// With a smaller chip the same group needs more of them, and is planned
// over all their tiles.
TEST(ChipPlacement, MixedGroupSizedByItsLiveEstimate) {
  auto p = place(4, 1 << 19, true);
  ASSERT_TRUE(p->module);
  const ChipPlacement &pl = p->placement;
  EXPECT_EQ(pl.mode, "mixed");
  // 1.5 x 512 KiB over 512 KiB chips: 2.
  EXPECT_EQ(pl.groupChips, 2);
  EXPECT_EQ(pl.groupFirst, 2);
  EXPECT_EQ(p->chipOf["z"], 2);
  EXPECT_EQ(pl.tilesOn(2, 10), 20);
  EXPECT_EQ(pl.tilesOn(1, 10), 10);
  EXPECT_LT(p->chipOf["d"], 2);
}

// Without an op over a quarter of a chip, or without asking, it is stages.
TEST(ChipPlacement, MixedNeedsALargeOp) {
  auto big = place(4, 1 << 24, true);
  ASSERT_TRUE(big->module);
  EXPECT_EQ(big->placement.mode, "stages");
  EXPECT_EQ(big->placement.groupChips, 0);
  auto asked = place(4, 1 << 20, false);
  ASSERT_TRUE(asked->module);
  EXPECT_EQ(asked->placement.mode, "stages");
}

} // namespace
