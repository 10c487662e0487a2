// Bad input is a diagnostic, never a crash: no target recorded, no @main,
// a program already lowered.
// RUN: not tessera-opt %s --split-input-file --tgraph-to-tile 2>&1 | FileCheck %s --check-prefix=NOTARGET
// RUN: not tessera-opt %s --split-input-file --tgraph-to-tile=target=core-8 2>&1 | FileCheck %s --check-prefix=MAIN
// RUN: not tessera-opt %s --split-input-file --tgraph-to-tile=target=no-such-chip 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// NOTARGET: error: tgraph-to-tile: no target; run tgraph-check-compat first or pass target=NAME
// UNKNOWN: error: tgraph-to-tile: {{.*}}no-such-chip
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// MAIN: error: tgraph-to-tile: the module has no @main entry function with a body
func.func @other(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// MAIN: error: tgraph-to-tile: the module already has a tile.program @main.tile
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
tile.program @main.tile target "core-8" tiles 8 {
}
