// Bad input is a diagnostic, never a crash: no target recorded, no entry,
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

// Without @main the only public function is the entry; two are ambiguous.
// MAIN: error: tgraph-to-tile: no entry function: the module has no @main with a body and 2 public functions (@forward, @backward)
func.func @forward(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @backward(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// MAIN: error: tgraph-to-tile: no entry function: the module has no @main with a body and no public function with a body
func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// MAIN: error: tgraph-to-tile: the module already has a tile.program @main.tile
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
tile.program @main.tile target "core-8" tiles 8 {
}
