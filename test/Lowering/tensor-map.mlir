// tile-map-tensors prints where every tensor's elements live: one entry per
// buffer holding an HLO instruction's value (`result` attribute: its output
// index); helper buffers (partials, output copies) are left out; only
// non-empty tiles listed.
//
// RUN: tessera-opt %s --tgraph-check-compat=target=core-8 --tgraph-to-tile "--tile-map-tensors=pretty format=tiles" -o /dev/null | FileCheck %s
// By default each tensor's tiles are runs [first_tile, last_tile,
// elements_each]: on tile-1472, x's 200 elements are 2 a tile on tiles
// 0..99, one run where format=tiles lists 100 pairs (the constant goes to
// the least loaded tile then, 100).
// RUN: tessera-opt %s --tgraph-check-compat=target=tile-1472 --tgraph-to-tile --tile-map-tensors -o /dev/null | FileCheck %s --check-prefix=RUNS
// RUNS: {"tile_format":"runs","mappings":{"main":{{\[\[}}"x",0,[4,50],"f32",false,false,200,{{\[\[}}0,99,2]],"x"],["zero",0,[],"f32",true,false,1,{{\[\[}}100,100,1]],"zero"],
// RUN: tessera-opt %s --tgraph-check-compat=target=tile-1472 --tgraph-to-tile --tile-map-tensors=format=tiles -o /dev/null | FileCheck %s --check-prefix=TILES
// TILES: {"tile_format":"tiles","mappings":{"main":{{\[\[}}"x",0,[4,50],"f32",false,false,200,{{\[\[}}0,2],[1,2],[2,2],
// TILES-SAME: [98,2],[99,2]],"x"],["zero",0,[],"f32",true,false,1,{{\[\[}}100,1]],"zero"],
// RUN: not tessera-opt %s --tgraph-check-compat=target=core-8 --tgraph-to-tile --tile-map-tensors=format=pairs -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: tile-map-tensors: format must be runs or tiles, got 'pairs'
// The summary totals the same entries per tile (4 tensors, 405 elements:
// x and its reshape 256 on tile 0 and 144 on tile 1; the small constant and
// the reduce's result on the least loaded tiles then, 2 and 3).
// RUN: tessera-opt %s --tgraph-check-compat=target=core-8 --tgraph-to-tile --tile-map-tensors=summary -o /dev/null | FileCheck %s --check-prefix=SUMMARY
// SUMMARY:      tensor map of main.tile on core-8: 4 tensors, 405 elements
// SUMMARY-NEXT:   tiles used: 4 of 8
// SUMMARY-NEXT:   elements per used tile: min 1, mean 101.2, max 256 (tile 0)

func.func @main(%x: tensor<4x50xf32> loc("x")) -> (tensor<200xf32>, tensor<4xf32>) {
  %z = tgraph.constant dense<0.0> : tensor<f32> loc("zero")
  %r = tgraph.reshape %x : (tensor<4x50xf32>) -> tensor<200xf32> loc("reshape.1")
  %s = tgraph.reduce(%x) init(%z) dims = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = tgraph.add %a, %b : tensor<f32>
    tgraph.return %t : tensor<f32>
  } : (tensor<4x50xf32>, tensor<f32>) -> tensor<4xf32> loc("reduce.2")
  return %r, %s : tensor<200xf32>, tensor<4xf32>
}

// CHECK:      "tile_format": "tiles",
// CHECK-NEXT: "mappings": {
// CHECK-NEXT:   "main": [
// x: 200 f32 on core-8, grain halved to 128: 128 + 72 elements.
// CHECK-NEXT:     [
// CHECK-NEXT:       "x",
// CHECK-NEXT:       0,
// CHECK-NEXT:       [
// CHECK-NEXT:         4,
// CHECK-NEXT:         50
// CHECK-NEXT:       ],
// CHECK-NEXT:       "f32",
// CHECK-NEXT:       false,
// CHECK-NEXT:       false,
// CHECK-NEXT:       200,
// CHECK-NEXT:       [
// CHECK-NEXT:         [
// CHECK-NEXT:           0,
// CHECK-NEXT:           128
// CHECK-NEXT:         ],
// CHECK-NEXT:         [
// CHECK-NEXT:           1,
// CHECK-NEXT:           72
// CHECK-NEXT:         ]
// CHECK-NEXT:       ],
// CHECK-NEXT:       "x"
// CHECK-NEXT:     ],
// The constant: has_constant.
// CHECK:            "zero",
// CHECK-NEXT:       0,
// CHECK-NEXT:       [],
// CHECK-NEXT:       "f32",
// CHECK-NEXT:       true,
// CHECK-NEXT:       false,
// CHECK-NEXT:       1,
// The reshape: has_alias.
// CHECK:            "reshape.1",
// CHECK-NEXT:       0,
// CHECK:            "f32",
// CHECK-NEXT:       false,
// CHECK-NEXT:       true,
// CHECK-NEXT:       200,
// The reduce's result; its partials and the returned alias's output copy
// are helper buffers, not listed.
// CHECK:            "reduce.2",
// CHECK-NEXT:       0,
// CHECK:            "reduce.2"
// CHECK-NEXT:     ]
// CHECK-NEXT:   ]
// CHECK-NEXT: }
