// tile-vertex-graph draws compute sets -> vertices -> tiles; above
// max-vertices it keeps one node per compute set with its vertex count.
// RUN: tessera-opt %s --tile-vertex-graph -o /dev/null | FileCheck %s --check-prefix=FULL
// RUN: tessera-opt %s --tile-vertex-graph=max-vertices=5 -o /dev/null | FileCheck %s --check-prefix=SUMMARY

// FULL:      digraph "main.tile" {
// FULL-NEXT:   label="main.tile on core-8: 2 compute sets, 6 vertices";
// FULL:        "cs0" [shape=box, label="neg.1\nelementwise.negate x 2 on tiles [0, 1]"];
// FULL-NEXT:   "cs0.t0.v0" [label="elementwise.negate"];
// FULL-NEXT:   "cs0" -> "cs0.t0.v0";
// FULL-NEXT:   "cs0.t0.v0" -> "tile0";
// FULL:        "cs1" [shape=box, label="abs.2\nelementwise.abs x 4 on tiles [0, 1]"];
// FULL-NEXT:   "cs0" -> "cs1" [style=dashed];
// Two vertices per tile in abs.2.
// FULL:        "cs1.t1.v1" -> "tile1";
// FULL:        "tile0" [shape=circle, label="0"];
// FULL-NEXT:   "tile1" [shape=circle, label="1"];
// FULL-NEXT: }

// SUMMARY:      label="main.tile on core-8: 2 compute sets, 6 vertices (summarised)";
// SUMMARY:      "cs0" [shape=box, label="neg.1\nelementwise.negate x 2 on tiles [0, 1]"];
// SUMMARY-NEXT: "cs1" [shape=box, label="abs.2\nelementwise.abs x 4 on tiles [0, 1]"];
// SUMMARY-NEXT: "cs0" -> "cs1" [style=dashed];
// SUMMARY-NEXT: }

tile.program @main.tile target "core-8" tiles 8 {
  %x = tile.var "x" parameter mapping<[0, 1] x 32 from 0> : !tile.buffer<64xf32>
  %y = tile.var "y" output mapping<[0, 1] x 32 from 0> : !tile.buffer<64xf32>
  tile.compute_set "neg.1" kind "elementwise.negate" tiles [0, 1]
      ins(%x : !tile.buffer<64xf32>) outs(%y : !tile.buffer<64xf32>)
  tile.compute_set "abs.2" kind "elementwise.abs" tiles [0, 1]
      ins(%y : !tile.buffer<64xf32>) outs(%y : !tile.buffer<64xf32>)
      {vertices_per_tile = 2 : i64}
}
