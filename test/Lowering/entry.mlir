// A module without @main (TOSA exports name their function @forward,
// @predict, ...) lowers its only public function; the program is named
// after it.
// RUN: tessera-opt %s --tgraph-check-compat=target=core-8 --tgraph-to-tile | FileCheck %s

// CHECK: tile.program @forward.tile target "core-8" tiles 8 attributes {entry = @forward} {
// CHECK:   tile.compute_set "{{.*}}" kind "elementwise.negate"
func.func @forward(%x: tensor<64xf32>) -> tensor<64xf32> {
  %0 = tgraph.negate %x : tensor<64xf32>
  return %0 : tensor<64xf32>
}
func.func private @unused(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
