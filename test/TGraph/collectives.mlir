// Round trip of the cross-replica ops.
// RUN: tessera-opt %s | tessera-opt | FileCheck %s
// RUN: tessera-opt %s --mlir-print-op-generic | tessera-opt | FileCheck %s

// CHECK-LABEL: func.func @collectives
func.func @collectives(%g: tensor<1024xf32>, %x: tensor<4x8xf32>, %big: tensor<16x8xf32>) {
  // CHECK-NEXT: tgraph.all_reduce(%arg0) {
  // CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
  // CHECK-NEXT:   %[[S:.*]] = tgraph.add %[[A]], %[[B]] : tensor<f32>
  // CHECK-NEXT:   tgraph.return %[[S]] : tensor<f32>
  // CHECK-NEXT: } {channel_id = 1 : i64, replica_groups = [array<i64: 0, 1>, array<i64: 2, 3>], use_global_device_ids} : (tensor<1024xf32>) -> tensor<1024xf32>
  %ar = tgraph.all_reduce(%g) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } {replica_groups = [array<i64: 0, 1>, array<i64: 2, 3>], channel_id = 1 : i64, use_global_device_ids} : (tensor<1024xf32>) -> tensor<1024xf32>
  // Several operands reduce separately with one two-scalar reducer.
  // CHECK-NEXT: tgraph.all_reduce(%arg0, %arg0) {
  // CHECK:      } : (tensor<1024xf32>, tensor<1024xf32>) -> tuple<tensor<1024xf32>, tensor<1024xf32>>
  %ar2 = tgraph.all_reduce(%g, %g) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } : (tensor<1024xf32>, tensor<1024xf32>) -> tuple<tensor<1024xf32>, tensor<1024xf32>>
  // CHECK-NEXT: tgraph.all_gather %arg1, dim = 0 {replica_groups = [array<i64: 0, 1, 2, 3>]} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %ag = tgraph.all_gather %x, dim = 0 {replica_groups = [array<i64: 0, 1, 2, 3>]} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  // CHECK-NEXT: tgraph.reduce_scatter %arg2, dim = 0 {
  // CHECK:      } : (tensor<16x8xf32>) -> tensor<4x8xf32>
  %rs = tgraph.reduce_scatter %big, dim = 0 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = tgraph.add %a, %b : tensor<f32>
    tgraph.return %s : tensor<f32>
  } : (tensor<16x8xf32>) -> tensor<4x8xf32>
  // CHECK-NEXT: tgraph.collective_permute %arg1, pairs = [0, 1, 1, 2, 2, 3, 3, 0] {channel_id = 2 : i64} : tensor<4x8xf32>
  %cp = tgraph.collective_permute %x, pairs = [0, 1, 1, 2, 2, 3, 3, 0] {channel_id = 2 : i64} : tensor<4x8xf32>
  // CHECK-NEXT: tgraph.all_to_all %arg1, dim = 1 {replica_groups = [array<i64: 0, 1>]} : tensor<4x8xf32>
  %a2a = tgraph.all_to_all %x, dim = 1 {replica_groups = [array<i64: 0, 1>]} : tensor<4x8xf32>
  // CHECK-NEXT: tgraph.replica_id : tensor<ui32>
  %rid = tgraph.replica_id : tensor<ui32>
  // CHECK-NEXT: tgraph.partition_id : tensor<ui32>
  %pid = tgraph.partition_id : tensor<ui32>
  return
}
