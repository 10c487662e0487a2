// Bad IR is an error at file:line:col, a non-zero exit (not a crash: `not`
// fails on a signal) and no output file.
// RUN: rm -f %t.out
// RUN: not tessera-opt %s -o %t.out 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: not test -e %t.out
// Parse errors and symbol errors are located the same way.
// RUN: not tessera-opt %S/Inputs/parse-error.mlir 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: not tessera-opt %S/Inputs/undefined-call.mlir 2>&1 | FileCheck %s --check-prefix=SYMBOL

// CHECK: errors.mlir:[[# @LINE + 2]]:8: error: 'tgraph.transpose' op result shape 'tensor<4x8xf32>' does not match the expected [8, 4]
func.func @transpose(%x: tensor<4x8xf32>) {
  %0 = tgraph.transpose %x, permutation = [1, 0] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// PARSE: parse-error.mlir:4:23: error: custom op 'tgraph.compare' expected comparison direction (EQ, NE, GE, GT, LE, LT), got 'BIGGER'
// SYMBOL: undefined-call.mlir:3:8: error: 'tgraph.call' op references undefined computation @nowhere
