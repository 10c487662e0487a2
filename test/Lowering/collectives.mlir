// Collectives on one chip, which runs one replica. Groups of one replica
// are the identity: the result is an alias of the operand's buffer (same
// mapping, no step). A collective over several replicas needs data this
// chip does not have: on a target without a chip per device it stays on
// the host, reason "multi-replica" (test/MultiChip/replicas.test lowers
// them on pods).
//
// RUN: tessera-opt %s --split-input-file --tgraph-check-compat=target=tile-1472 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,T1472
// RUN: tessera-opt %s --split-input-file --tgraph-check-compat=target=core-8 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,C8

// No replica_count in the module: one replica, so empty groups are too.
func.func @main(%x: tensor<64xf32> loc("x")) -> tensor<64xf32> {
  %a = tgraph.all_reduce(%x) {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = tgraph.add %p, %q : tensor<f32>
    tgraph.return %s : tensor<f32>
  } {replica_groups = [array<i64: 0>]} : (tensor<64xf32>) -> tensor<64xf32> loc("all-reduce.1")
  %g = tgraph.all_gather %a, dim = 0 {replica_groups = []} : (tensor<64xf32>) -> tensor<64xf32> loc("all-gather.2")
  %r = tgraph.reduce_scatter %g, dim = 0 {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = tgraph.add %p, %q : tensor<f32>
    tgraph.return %s : tensor<f32>
  } : (tensor<64xf32>) -> tensor<64xf32> loc("reduce-scatter.3")
  %c = tgraph.collective_permute %r, pairs = [0, 0] : tensor<64xf32> loc("collective-permute.4")
  %n = tgraph.negate %c : tensor<64xf32> loc("negate.5")
  return %n : tensor<64xf32>
}

// CHECK-LABEL: tile.program @main.tile
// T1472: %[[X:.*]] = tile.var "x" parameter mapping<[0, 31] x 2 from 0>
// C8: %[[X:.*]] = tile.var "x" parameter mapping<[0, 1] x 32 from 0>
// T1472: %[[A:.*]] = tile.var "all-reduce.1" temporary mapping<[0, 31] x 2 from 0> aliases %{{[0-9a-z_]+}} : !tile.buffer<{{[^>]*}}> {hlo = "all-reduce.1", result_leaf = 0 : i64, result_of = {{[0-9]+}} : i64, why = "in place: same layout as 'x' (a collective over one replica)"}
// C8: %[[A:.*]] = tile.var "all-reduce.1" temporary mapping<[0, 1] x 32 from 0> aliases %{{[0-9a-z_]+}} : !tile.buffer<{{[^>]*}}> {hlo = "all-reduce.1", result_leaf = 0 : i64, result_of = {{[0-9]+}} : i64, why = "in place: same layout as 'x' (a collective over one replica)"}
// CHECK-NEXT: tile.var "all-gather.2" temporary {{.*}} aliases %[[A]] :
// CHECK-NEXT: tile.var "reduce-scatter.3" temporary {{.*}} aliases %{{[0-9a-z_]+}}
// CHECK-NEXT: %[[P:.*]] = tile.var "collective-permute.4" temporary {{.*}} aliases %{{[0-9a-z_]+}}
// CHECK-NEXT: tile.var "negate.5"
// CHECK-NEXT: tile.sync
// CHECK-NEXT: tile.compute_set "negate.5" kind "elementwise.negate" {{.*}} ins(%[[P]] :
// CHECK-NOT: host_compute

// -----

// A pmap over 8 replicas (the JAX mnist dump's psum) and a permutation
// between replicas stay on the host; a module with replica_count = 1 keeps
// empty groups on the chip.
module attributes {tgraph.replica_count = 4 : i64} {
func.func @main(%x: tensor<64xf32> loc("x")) -> tensor<64xf32> {
  %a = tgraph.all_reduce(%x) {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = tgraph.add %p, %q : tensor<f32>
    tgraph.return %s : tensor<f32>
  } {replica_groups = [array<i64: 0, 1, 2, 3, 4, 5, 6, 7>]} : (tensor<64xf32>) -> tensor<64xf32> loc("all-reduce.1")
  %g = tgraph.all_gather %a, dim = 0 {replica_groups = []} : (tensor<64xf32>) -> tensor<256xf32> loc("all-gather.2")
  %c = tgraph.collective_permute %x, pairs = [0, 1, 1, 0] : tensor<64xf32> loc("collective-permute.3")
  %s = tgraph.slice %g, start = [0], limit = [64], strides = [1] : (tensor<256xf32>) -> tensor<64xf32> loc("slice.4")
  %r = tgraph.add %s, %c : tensor<64xf32> loc("add.5")
  return %r : tensor<64xf32>
}
}

// CHECK-LABEL: tile.program @main.tile
// CHECK: tile.host_compute "all-reduce.1" op "tgraph.all_reduce" reason "multi-replica" {{.*}} {detail = "groups of 8 devices; 4 devices of 1 chip need 4, target '{{.*}}' has 1", op_id = {{[0-9]+}} : i64}
// Empty groups: all 4 replicas of the module.
// CHECK: tile.host_compute "all-gather.2" op "tgraph.all_gather" reason "multi-replica" {{.*}} {detail = "groups of 4 devices; 4 devices of 1 chip need 4, target '{{.*}}' has 1", op_id = {{[0-9]+}} : i64}
// CHECK: tile.host_compute "collective-permute.3" op "tgraph.collective_permute" reason "multi-replica" {{.*}} {detail = "2 source-target pairs move data between devices; 4 devices of 1 chip need 4, target '{{.*}}' has 1", op_id = {{[0-9]+}} : i64}

// -----

// A cross-partition all_reduce (channel_id, no global ids) spans every
// partition of each replica group.
module attributes {tgraph.num_partitions = 2 : i64} {
func.func @main(%x: tensor<64xf32> loc("x")) -> tensor<64xf32> {
  %a = tgraph.all_reduce(%x) {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = tgraph.add %p, %q : tensor<f32>
    tgraph.return %s : tensor<f32>
  } {channel_id = 1 : i64, replica_groups = [array<i64: 0>]} : (tensor<64xf32>) -> tensor<64xf32> loc("all-reduce.1")
  return %a : tensor<64xf32>
}
}

// CHECK-LABEL: tile.program @main.tile
// CHECK: tile.host_compute "all-reduce.1" op "tgraph.all_reduce" reason "multi-replica" {{.*}} {detail = "groups of 2 devices; 2 devices of 1 chip need 2, target '{{.*}}' has 1", op_id = {{[0-9]+}} : i64}

// -----

// No source-target pairs: every replica receives zeros. Not modelled yet.
func.func @main(%x: tensor<64xf32> loc("x")) -> tensor<64xf32> {
  %c = tgraph.collective_permute %x, pairs = [] : tensor<64xf32> loc("collective-permute.1")
  return %c : tensor<64xf32>
}

// CHECK-LABEL: tile.program @main.tile
// CHECK: tile.host_compute "collective-permute.1" op "tgraph.collective_permute" reason "not-lowered" {{.*}} {detail = "no source-target pairs", op_id = {{[0-9]+}} : i64}
