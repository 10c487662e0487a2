// tessera-opt elides dense constants of more than 16 elements by default, so
// imported weights do not bury the graph; splats and small constants print
// in full. The elided form still parses (its data is gone: a file meant to
// be read back in full must be printed with a larger limit).
// RUN: tessera-opt %s | FileCheck %s --check-prefix=DEFAULT
// RUN: tessera-opt %s | tessera-opt | FileCheck %s --check-prefix=DEFAULT
// RUN: tessera-opt %s --mlir-print-op-generic | tessera-opt | FileCheck %s --check-prefix=DEFAULT
// An explicit limit replaces the default, in either spelling.
// RUN: tessera-opt %s --mlir-elide-elementsattrs-if-larger=1000 | FileCheck %s --check-prefix=FULL
// RUN: tessera-opt %s -mlir-elide-elementsattrs-if-larger 1000 | FileCheck %s --check-prefix=FULL
// RUN: tessera-opt %s --mlir-elide-elementsattrs-if-larger=1000 | tessera-opt --mlir-elide-elementsattrs-if-larger=1000 | FileCheck %s --check-prefix=FULL
// RUN: tessera-opt %s --mlir-elide-elementsattrs-if-larger=2 | FileCheck %s --check-prefix=TWO

// DEFAULT-LABEL: func.func @constants
// FULL-LABEL: func.func @constants
// TWO-LABEL: func.func @constants
func.func @constants() {
  // 17 elements: one over the default limit.
  // DEFAULT-NEXT: tgraph.constant dense_resource<__elided__> : tensor<17xf32>
  // FULL-NEXT: tgraph.constant dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00, 9.000000e+00, 1.000000e+01, 1.100000e+01, 1.200000e+01, 1.300000e+01, 1.400000e+01, 1.500000e+01, 1.600000e+01]> : tensor<17xf32>
  // TWO-NEXT: tgraph.constant dense_resource<__elided__> : tensor<17xf32>
  %big = tgraph.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0]> : tensor<17xf32>
  // 16 elements: at the limit, printed in full.
  // DEFAULT-NEXT: tgraph.constant dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]> : tensor<4x4xi32>
  // TWO-NEXT: tgraph.constant dense_resource<__elided__> : tensor<4x4xi32>
  %at = tgraph.constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]> : tensor<4x4xi32>
  // A splat is one value however large the tensor.
  // DEFAULT-NEXT: tgraph.constant dense<1.000000e+00> : tensor<1024x1024xf32>
  // TWO-NEXT: tgraph.constant dense<1.000000e+00> : tensor<1024x1024xf32>
  %splat = tgraph.constant dense<1.0> : tensor<1024x1024xf32>
  return
}
