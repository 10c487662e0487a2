// The memory passes of one pipeline share the memory analysis of each
// program: the first computes it (the "(A)" line under it in the timing
// tree), the others reuse it, as they change no IR.
//
// RUN: tessera-opt %s --tile-liveness --tile-print-allocation --tile-padding \
// RUN:   --tile-memory-report --mlir-timing --mlir-timing-display=tree \
// RUN:   -o /dev/null 2>&1 >/dev/null | FileCheck %s

// CHECK: TileLiveness
// CHECK-NEXT: (A) tessera::memory::ProgramMemoryAnalysis
// CHECK-NOT: ProgramMemoryAnalysis
// CHECK: TileMemoryReport
// CHECK-NOT: ProgramMemoryAnalysis

tile.program @p target "core-8" tiles 8 {
  %a = tile.var "a" temporary mapping<[0, 0] x 64 from 0> : !tile.buffer<64xf32>
  tile.compute_set "fill" kind "fill" tiles [0, 0] outs(%a : !tile.buffer<64xf32>)
}
