// One op per reason code, checked against core-8 (no f64, no sort, no
// dilated kernels, 8 x 15 MiB usable) and tile-1472.
// RUN: tessera-opt %s --tgraph-check-compat=target=core-8 | FileCheck %s --check-prefix=CORE
// RUN: tessera-opt %s --tgraph-check-compat=target=tile-1472 | FileCheck %s --check-prefix=TILE

// CORE: module attributes {tgraph.target = "core-8"}
// TILE: module attributes {tgraph.target = "tile-1472"}

func.func @main(%f64: tensor<4xf64>, %dyn: tensor<?x4xf32>,
                %x: tensor<1x16x16x8xf32>, %w: tensor<3x3x8x8xf32>,
                %keys: tensor<64xf32>, %big: tensor<40000x1000xf32>,
                %m: tensor<4x4xf32>) {
  // CORE: tgraph.add {{.*}}tgraph.compat = #tgraph.compat<status = incompatible, reason = "unsupported-dtype", detail = "f64 is not supported by core-8", hint = "cast f64 to f32">
  // TILE: tgraph.add {{.*}}detail = "f64 is not supported by tile-1472", hint = "cast f64 to f32"
  %0 = tgraph.add %f64, %f64 : tensor<4xf64>
  // CORE: tgraph.abs {{.*}}reason = "dynamic-shape", detail = "dynamic shape tensor<?x4xf32>"
  %1 = tgraph.abs %dyn : tensor<?x4xf32>
  // CORE: tgraph.convolution {{.*}}reason = "unsupported-attribute", detail = "rhs_dilation = [2, 2] (target sets allow_rhs_dilation = false)"
  // TILE: tgraph.convolution {{.*}}tgraph.compat = #tgraph.compat<status = ok>
  %2 = tgraph.convolution %x, %w, dim_labels = "b01f_01io->b01f"
       {rhs_dilation = array<i64: 2, 2>}
       : (tensor<1x16x16x8xf32>, tensor<3x3x8x8xf32>) -> tensor<1x12x12x8xf32>
  // Ops inside the comparator region are not assessed on their own.
  // CORE: tgraph.sort
  // CORE-NEXT: ^bb0
  // CORE-NEXT: tgraph.compare LT, %{{.*}} : (tensor<f32>, tensor<f32>) -> tensor<i1>{{$}}
  // CORE-NEXT: tgraph.return
  // CORE-NEXT: } {tgraph.compat = #tgraph.compat<status = incompatible, reason = "unsupported-op", detail = "tgraph.sort is not supported by core-8", hint = "place on host">}
  // TILE: tgraph.sort
  // TILE: } {tgraph.compat = #tgraph.compat<status = ok>}
  %3 = tgraph.sort(%keys) dim = 0 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = tgraph.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    tgraph.return %lt : tensor<i1>
  } : (tensor<64xf32>) -> tensor<64xf32>
  // 2 x 160 MB does not fit in 8 x 15 MiB, but fits in 1472 x 580 KiB.
  // CORE: tgraph.negate {{.*}}reason = "exceeds-memory", detail = "working set of 320000000 bytes exceeds the 125304832 usable bytes of all tiles"
  // TILE: tgraph.negate {{.*}}tgraph.compat = #tgraph.compat<status = ok>
  %4 = tgraph.negate %big : tensor<40000x1000xf32>
  // CORE: tgraph.unknown {{.*}}reason = "unknown-op", detail = "HLO opcode 'cholesky' has no tgraph equivalent", hint = "place on host"
  %5 = tgraph.unknown "cholesky"(%m) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  // CORE: tgraph.custom_call {{.*}}reason = "unknown-op", detail = "custom call target 'MyKernel' is not implemented by core-8"
  // TILE: tgraph.custom_call {{.*}}detail = "custom call target 'MyKernel' is not implemented by tile-1472"
  %6 = tgraph.custom_call "MyKernel"(%m) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  // CORE: tgraph.maximum {{.*}}tgraph.compat = #tgraph.compat<status = ok>
  %7 = tgraph.maximum %m, %m : tensor<4x4xf32>
  return
}
