// Bad input is a diagnostic, never a crash: no target recorded, no entry,
// a program already lowered. The modules are explicit so that the errors
// tgraph-to-tile reports at the module have a line to be expected at.
// RUN: tessera-opt %s --split-input-file --tgraph-to-tile=target=core-8 -verify-diagnostics -o /dev/null
// Without a target, and with an unknown one, every module fails alike: the
// options, not the input, are at fault.
// RUN: not tessera-opt %s --split-input-file --tgraph-to-tile 2>&1 | FileCheck %s --check-prefix=NOTARGET
// RUN: not tessera-opt %s --split-input-file --tgraph-to-tile=target=no-such-chip 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// NOTARGET: error: tgraph-to-tile: no target; run tgraph-check-compat first or pass target=NAME
// UNKNOWN: error: tgraph-to-tile: {{.*}}no-such-chip
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// Without @main the only public function is the entry; two are ambiguous.
// expected-error @+1 {{tgraph-to-tile: no entry function: the module has no @main with a body and 2 public functions (@forward, @backward)}}
module {
  func.func @forward(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
  func.func @backward(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

// -----

// expected-error @+1 {{tgraph-to-tile: no entry function: the module has no @main with a body and no public function with a body}}
module {
  func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

// -----

// expected-error @+1 {{tgraph-to-tile: the module already has a tile.program @main.tile}}
module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
  tile.program @main.tile target "core-8" tiles 8 {
  }
}
