// tosa.resize: the TOSA spec's sampling positions are computed at import
// per axis (they are separable), and each axis becomes the cheapest exact
// data movement: nothing, a strided slice, a repeat (broadcast_in_dim +
// reshape) or a gather with constant indices. Bilinear weights the four
// neighbours with constant per-row / per-column weights in the spec's
// order of operations. The converted graphs lower onto tiles.
// RUN: tessera-opt %s --split-input-file --convert-tosa-to-tgraph | FileCheck %s
// RUN: tessera-opt %s --split-input-file --convert-tosa-to-tgraph --tgraph-check-compat=target=core-8 --tgraph-to-tile | FileCheck %s --check-prefix=TILE
// RUN: tessera-opt %s --split-input-file --convert-tosa-to-tgraph --tgraph-check-compat=target=tile-1472 --tgraph-to-tile | FileCheck %s --check-prefix=TILE

// 2x nearest upsampling as the TFLite converter writes it (half-pixel
// offset -1, border 1): output row oy reads row oy / 2, one broadcast to
// [N, H, 2, W, 2, C] and a reshape.
// CHECK-LABEL: func.func @nearest_2x
// CHECK: %[[B:.*]] = tgraph.broadcast_in_dim %arg0, dims = [0, 1, 3, 5] : (tensor<1x4x4x3xf32>) -> tensor<1x4x2x4x2x3xf32>
// CHECK: %up = tgraph.reshape %[[B]] : (tensor<1x4x2x4x2x3xf32>) -> tensor<1x8x8x3xf32>
// CHECK-NEXT: return %up
// TILE: tile.program @nearest_2x.tile
func.func @nearest_2x(%x: tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32> {
  %0 = "tosa.resize"(%x) {border = array<i64: 1, 1>, mode = "NEAREST_NEIGHBOR", offset = array<i64: -1, -1>, scale = array<i64: 4, 2, 4, 2>} : (tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32> loc("up")
  return %0 : tensor<1x8x8x3xf32>
}

// -----

// Scale 2/1 without an offset rounds half up: rows 0,1,1,2,2,3,3,3 (the
// last clamped) is not a repeat, so H is a gather; W has scale 1/1: kept.
// CHECK-LABEL: func.func @nearest_round_half_up
// CHECK: %[[I:.*]] = tgraph.constant dense<{{\[}}[0], [1], [1], [2], [2], [3], [3], [3]]> : tensor<8x1xi32>
// CHECK: %[[G:.*]] = tgraph.gather %arg0, %[[I]] {collapsed_slice_dims = array<i64: 1>, index_vector_dim = 1 : i64, offset_dims = array<i64: 0, 2, 3>, slice_sizes = array<i64: 1, 1, 4, 3>, start_index_map = array<i64: 1>} : (tensor<1x4x4x3xf32>, tensor<8x1xi32>) -> tensor<1x8x4x3xf32>
// CHECK-NEXT: return %[[G]]
// TILE: tile.program @nearest_round_half_up.tile
// TILE: tile.compute_set {{.*}} kind "gather"
func.func @nearest_round_half_up(%x: tensor<1x4x4x3xf32>) -> tensor<1x8x4x3xf32> {
  %0 = "tosa.resize"(%x) {border = array<i64: 1, 0>, mode = "NEAREST_NEIGHBOR", offset = array<i64: 0, 0>, scale = array<i64: 2, 1, 1, 1>} : (tensor<1x4x4x3xf32>) -> tensor<1x8x4x3xf32>
  return %0 : tensor<1x8x4x3xf32>
}

// -----

// Non-integer scale 5/3 on both axes: y = 3 * oy, fractions 0, .6, .2,
// .8, .4, 0 pick rows 0,1,1,2,2,3; the same index constant serves both
// gathers.
// CHECK-LABEL: func.func @nearest_5_3
// CHECK: %[[I:.*]] = tgraph.constant dense<{{\[}}[0], [1], [1], [2], [2], [3]]> : tensor<6x1xi32>
// CHECK: %[[H:.*]] = tgraph.gather %arg0, %[[I]] {{.*}}start_index_map = array<i64: 1>} : (tensor<1x4x4x3xf32>, tensor<6x1xi32>) -> tensor<1x6x4x3xf32>
// CHECK-NOT: tgraph.constant
// CHECK: tgraph.gather %[[H]], %[[I]] {collapsed_slice_dims = array<i64: 2>, index_vector_dim = 1 : i64, offset_dims = array<i64: 0, 1, 3>, slice_sizes = array<i64: 1, 6, 1, 3>, start_index_map = array<i64: 2>} : (tensor<1x6x4x3xf32>, tensor<6x1xi32>) -> tensor<1x6x6x3xf32>
// TILE: tile.program @nearest_5_3.tile
func.func @nearest_5_3(%x: tensor<1x4x4x3xf32>) -> tensor<1x6x6x3xf32> {
  %0 = "tosa.resize"(%x) {border = array<i64: 0, 0>, mode = "NEAREST_NEIGHBOR", offset = array<i64: 0, 0>, scale = array<i64: 5, 3, 5, 3>} : (tensor<1x4x4x3xf32>) -> tensor<1x6x6x3xf32>
  return %0 : tensor<1x6x6x3xf32>
}

// -----

// 2x nearest downsampling: rows 0, 2, 4, 6 are a strided slice.
// CHECK-LABEL: func.func @nearest_down
// CHECK: tgraph.slice %arg0, start = [0, 0, 0, 0], limit = [1, 7, 8, 2], strides = [1, 2, 1, 1] : (tensor<1x8x8x2xf32>) -> tensor<1x4x8x2xf32>
// CHECK: tgraph.slice %{{.*}}, start = [0, 0, 0, 0], limit = [1, 4, 7, 2], strides = [1, 1, 2, 1] : (tensor<1x4x8x2xf32>) -> tensor<1x4x4x2xf32>
// TILE: tile.program @nearest_down.tile
func.func @nearest_down(%x: tensor<1x8x8x2xf32>) -> tensor<1x4x4x2xf32> {
  %0 = "tosa.resize"(%x) {border = array<i64: -1, -1>, mode = "NEAREST_NEIGHBOR", offset = array<i64: 0, 0>, scale = array<i64: 1, 2, 1, 2>} : (tensor<1x8x8x2xf32>) -> tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}

// -----

// Integer nearest is the same data movement (in_t == out_t); here x
// reads columns 0,0,0,1,1,1 (offset -1 centres the 3x repeat).
// CHECK-LABEL: func.func @nearest_i8
// CHECK: tgraph.broadcast_in_dim %arg0, dims = [0, 1, 2, 4] : (tensor<1x2x2x1xi8>) -> tensor<1x2x2x3x1xi8>
// CHECK: tgraph.reshape {{.*}} -> tensor<1x2x6x1xi8>
// TILE: tile.program @nearest_i8.tile
func.func @nearest_i8(%x: tensor<1x2x2x1xi8>) -> tensor<1x2x6x1xi8> {
  %0 = "tosa.resize"(%x) {border = array<i64: 0, 1>, mode = "NEAREST_NEIGHBOR", offset = array<i64: 0, -1>, scale = array<i64: 1, 1, 3, 1>} : (tensor<1x2x2x1xi8>) -> tensor<1x2x6x1xi8>
  return %0 : tensor<1x2x6x1xi8>
}

// -----

// Bilinear 2x (half-pixel): y = 2 * oy - 1, so rows lo = max(floor(y / 4),
// 0), hi = min(lo + 1, 3) with fraction dy = (y mod 4) / 4 = .75, .25, ...
// acc = v00*(1-dy)*(1-dx) + v01*(1-dy)*dx + v10*dy*(1-dx) + v11*dy*dx.
// CHECK-LABEL: func.func @bilinear_2x
// CHECK: %[[WY0C:.*]] = tgraph.constant dense<[2.500000e-01, 7.500000e-01, 2.500000e-01, 7.500000e-01, 2.500000e-01, 7.500000e-01, 2.500000e-01, 7.500000e-01]> : tensor<8xf32>
// CHECK: %[[WY0:.*]] = tgraph.broadcast_in_dim %[[WY0C]], dims = [1] : (tensor<8xf32>) -> tensor<1x8x8x3xf32>
// CHECK: %[[WY1C:.*]] = tgraph.constant dense<[7.500000e-01, 2.500000e-01, {{.*}}]> : tensor<8xf32>
// CHECK: %[[WY1:.*]] = tgraph.broadcast_in_dim %[[WY1C]], dims = [1]
// CHECK: %[[WX0:.*]] = tgraph.broadcast_in_dim %{{.*}}, dims = [2]
// CHECK: %[[WX1:.*]] = tgraph.broadcast_in_dim %{{.*}}, dims = [2]
// CHECK: %[[LO:.*]] = tgraph.constant dense<{{\[}}[0], [0], [0], [1], [1], [2], [2], [3]]> : tensor<8x1xi32>
// CHECK: %[[R0:.*]] = tgraph.gather %arg0, %[[LO]] {{.*}} -> tensor<1x8x4x3xf32>
// CHECK: %[[HI:.*]] = tgraph.constant dense<{{\[}}[0], [1], [1], [2], [2], [3], [3], [3]]> : tensor<8x1xi32>
// CHECK: %[[R1:.*]] = tgraph.gather %arg0, %[[HI]] {{.*}} -> tensor<1x8x4x3xf32>
// CHECK: %[[V00:.*]] = tgraph.gather %[[R0]], %[[LO]] {{.*}} -> tensor<1x8x8x3xf32>
// CHECK: %[[A:.*]] = tgraph.multiply %[[V00]], %[[WY0]]
// CHECK: %[[T00:.*]] = tgraph.multiply %[[A]], %[[WX0]]
// CHECK: %[[V01:.*]] = tgraph.gather %[[R0]], %[[HI]]
// CHECK: %[[B:.*]] = tgraph.multiply %[[V01]], %[[WY0]]
// CHECK: %[[T01:.*]] = tgraph.multiply %[[B]], %[[WX1]]
// CHECK: %[[S1:.*]] = tgraph.add %[[T00]], %[[T01]]
// CHECK: %[[V10:.*]] = tgraph.gather %[[R1]], %[[LO]]
// CHECK: %[[C:.*]] = tgraph.multiply %[[V10]], %[[WY1]]
// CHECK: %[[T10:.*]] = tgraph.multiply %[[C]], %[[WX0]]
// CHECK: %[[S2:.*]] = tgraph.add %[[S1]], %[[T10]]
// CHECK: %[[V11:.*]] = tgraph.gather %[[R1]], %[[HI]]
// CHECK: %[[D:.*]] = tgraph.multiply %[[V11]], %[[WY1]]
// CHECK: %[[T11:.*]] = tgraph.multiply %[[D]], %[[WX1]]
// CHECK: %bilinear = tgraph.add %[[S2]], %[[T11]] : tensor<1x8x8x3xf32>
// TILE: tile.program @bilinear_2x.tile
func.func @bilinear_2x(%x: tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32> {
  %0 = "tosa.resize"(%x) {border = array<i64: 1, 1>, mode = "BILINEAR", offset = array<i64: -1, -1>, scale = array<i64: 4, 2, 4, 2>} : (tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32> loc("bilinear")
  return %0 : tensor<1x8x8x3xf32>
}

// -----

// The fraction is computed in the element type, as the spec does: with
// scale 2047/1023, output row 1 has fraction 1023/2047. In bf16 both
// numbers round to 1024/2048 = 0.5, so NEAREST takes row 1 (the input
// unchanged); in f32 it stays below one half and takes row 0.
// CHECK-LABEL: func.func @nearest_fraction_in_element_type
// CHECK: %[[I:.*]] = tgraph.constant dense<0> : tensor<2x1xi32>
// CHECK: %[[G:.*]] = tgraph.gather %arg1, %[[I]]
// CHECK: return %arg0, %[[G]]
func.func @nearest_fraction_in_element_type(%x: tensor<1x2x2x1xbf16>, %y: tensor<1x2x2x1xf32>) -> (tensor<1x2x2x1xbf16>, tensor<1x2x2x1xf32>) {
  %0 = "tosa.resize"(%x) {border = array<i64: -1024, 0>, mode = "NEAREST_NEIGHBOR", offset = array<i64: 0, 0>, scale = array<i64: 2047, 1023, 1, 1>} : (tensor<1x2x2x1xbf16>) -> tensor<1x2x2x1xbf16>
  %1 = "tosa.resize"(%y) {border = array<i64: -1024, 0>, mode = "NEAREST_NEIGHBOR", offset = array<i64: 0, 0>, scale = array<i64: 2047, 1023, 1, 1>} : (tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  return %0, %1 : tensor<1x2x2x1xbf16>, tensor<1x2x2x1xf32>
}

// -----

// What resize cannot express stays tgraph.unknown with the parameter named.
// CHECK-LABEL: func.func @unsupported
func.func @unsupported(%x: tensor<1x4x4x3xi8>, %f: tensor<1x4x4x3xf32>, %d: tensor<?x4x4x3xf32>, %e: tensor<1x2x0x1xf32>) -> (tensor<1x8x8x3xi32>, tensor<1x8x8x3xf32>, tensor<1x9x8x3xf32>, tensor<?x8x8x3xf32>) {
  // CHECK: tgraph.unknown "tosa.resize"(%arg0) {{.*}}reason = "integer bilinear resize (accumulating in units of the scale numerators into a wider type) is not imported"
  %0 = "tosa.resize"(%x) {border = array<i64: 1, 1>, mode = "BILINEAR", offset = array<i64: -1, -1>, scale = array<i64: 4, 2, 4, 2>} : (tensor<1x4x4x3xi8>) -> tensor<1x8x8x3xi32>
  // CHECK: tgraph.unknown "tosa.resize"(%arg1) {{.*}}reason = "resize border y = 4 is outside TOSA's range [-16 * n, n)"
  %1 = "tosa.resize"(%f) {border = array<i64: 4, 1>, mode = "NEAREST_NEIGHBOR", offset = array<i64: 0, -1>, scale = array<i64: 4, 4, 4, 2>} : (tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32>
  // CHECK: tgraph.unknown "tosa.resize"(%arg1) {{.*}}reason = "resize output y size 9 does not follow from the scale, offset and border"
  %2 = "tosa.resize"(%f) {border = array<i64: 1, 1>, mode = "NEAREST_NEIGHBOR", offset = array<i64: -1, -1>, scale = array<i64: 4, 2, 4, 2>} : (tensor<1x4x4x3xf32>) -> tensor<1x9x8x3xf32>
  // CHECK: tgraph.unknown "tosa.resize"(%arg2) {{.*}}reason = "resize needs static shapes (the sampling positions are computed at import)"
  %3 = "tosa.resize"(%d) {border = array<i64: 1, 1>, mode = "NEAREST_NEIGHBOR", offset = array<i64: -1, -1>, scale = array<i64: 4, 2, 4, 2>} : (tensor<?x4x4x3xf32>) -> tensor<?x8x8x3xf32>
  // CHECK: tgraph.unknown "tosa.resize"(%arg1) {{.*}}reason = "resize scale x = 0/2 is not positive"
  %4 = "tosa.resize"(%f) {border = array<i64: 1, 1>, mode = "NEAREST_NEIGHBOR", offset = array<i64: -1, -1>, scale = array<i64: 4, 2, 0, 2>} : (tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32>
  // CHECK: tgraph.unknown "tosa.resize"(%arg3) {{.*}}reason = "resize of an empty x dimension"
  %5 = "tosa.resize"(%e) {border = array<i64: 0, 0>, mode = "NEAREST_NEIGHBOR", offset = array<i64: 0, -1>, scale = array<i64: 1, 1, 1, 1>} : (tensor<1x2x0x1xf32>) -> tensor<1x2x1x1xf32>
  return %0, %1, %2, %3 : tensor<1x8x8x3xi32>, tensor<1x8x8x3xf32>, tensor<1x9x8x3xf32>, tensor<?x8x8x3xf32>
}
