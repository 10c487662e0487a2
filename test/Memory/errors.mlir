// Bad options and targets are located errors, not crashes.
//
// RUN: not tessera-opt %s --tile-memory-report=format=xml -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not tessera-opt %s --tile-liveness=print=yaml -o /dev/null 2>&1 | FileCheck %s --check-prefix=PRINT
// RUN: not tessera-opt %s --tile-print-allocation=target=core8 -o /dev/null 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not tessera-opt %s --tile-padding=target=core-8 -o /dev/null 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: not tessera-opt %s --tile-memory-report=tile=16 -o /dev/null 2>&1 | FileCheck %s --check-prefix=TILE

// An option with a fixed set of values is an enum option: llvm::cl
// rejects another value while the pipeline is parsed.
// FORMAT: for the --format option: Cannot find option named 'xml'!
// PRINT: for the --print option: Cannot find option named 'yaml'!
// TARGET: errors.mlir:[[@LINE+4]]:1: error: unknown target 'core8'; did you mean 'core-8'?
// The program needs 16 tiles; core-8 has 8.
// SMALL: errors.mlir:[[@LINE+2]]:1: error: program @p has 16 tiles but target 'core-8' has 8
// TILE: errors.mlir:[[@LINE+1]]:1: error: tile-memory-report: tile 16 is not a tile of the program (it has 16)
tile.program @p target "tile-1472" tiles 16 {
  %a = tile.var "a" temporary mapping<[0, 15] x 1 from 0> : !tile.buffer<16xf32>
  tile.compute_set "a" kind "fill" tiles [0, 15] outs(%a : !tile.buffer<16xf32>)
}
