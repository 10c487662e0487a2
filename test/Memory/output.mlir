// output=FILE writes a printing pass's report to a file, atomically: the
// same bytes it prints to stdout, one file per pass covering every program,
// and no file at all when the pass fails.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: tessera-opt %s --tile-liveness --tile-print-allocation=print=summary \
// RUN:   --tile-padding --tile-memory-report=format=json -o /dev/null > %t/stdout
// RUN: tessera-opt %s --tile-liveness=output=%t/liveness \
// RUN:   --tile-print-allocation="print=summary output=%t/allocation" \
// RUN:   --tile-padding=output=%t/padding \
// RUN:   --tile-memory-report="format=json output=%t/report" -o /dev/null > %t/rest
// RUN: cat %t/liveness %t/allocation %t/padding %t/report | diff - %t/stdout
// RUN: test ! -s %t/rest
// RUN: FileCheck %s --input-file=%t/allocation
//
// RUN: not tessera-opt %s --tile-memory-report="tile=8 output=%t/failed" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FAILED
// RUN: test ! -e %t/failed
// RUN: not tessera-opt %s --tile-liveness=output=%t/no-such-folder/x -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNWRITABLE

// Both programs, in program order.
// CHECK: @p on core-8: peak/lower-bound
// CHECK-NEXT: @q on core-8: peak/lower-bound

// FAILED: error: tile-memory-report: tile 8 is not a tile of the program (it has 8)
// UNWRITABLE: error: tile-liveness: {{.*}}no-such-folder

tile.program @p target "core-8" tiles 8 {
  %a = tile.var "a" temporary mapping<[0, 0] x 64 from 0> : !tile.buffer<64xf32>
  tile.compute_set "fill" kind "fill" tiles [0, 0] outs(%a : !tile.buffer<64xf32>)
}
tile.program @q target "core-8" tiles 8 {
  %b = tile.var "b" temporary mapping<[0, 1] x 32 from 0> : !tile.buffer<64xf32>
  tile.compute_set "fill" kind "fill" tiles [0, 1] outs(%b : !tile.buffer<64xf32>)
}
