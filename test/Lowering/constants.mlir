// Constants are always-live buffers spread over tiles: one of more than 16
// elements never sits on a single tile (on either preset); one of at most 16
// may. No step writes a constant. A returned constant gets its own output
// buffer, filled by an on-tile exchange. A constant that covers part of the
// chip starts on the least loaded tiles (the first on tile 0, the next after
// it).
//
// RUN: tessera-opt %s --tgraph-check-compat=target=tile-1472 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,T1472
// RUN: tessera-opt %s --tgraph-check-compat=target=core-8 --tgraph-to-tile | FileCheck %s --check-prefixes=CHECK,C8

func.func @main() -> (tensor<17xf32>, tensor<16xf32>, tensor<4096xf32>) {
  %a = tgraph.constant elided : tensor<17xf32> loc("constant.17")
  %b = tgraph.constant elided : tensor<16xf32> loc("constant.16")
  %c = tgraph.constant elided : tensor<4096xf32> loc("constant.big")
  return %a, %b, %c : tensor<17xf32>, tensor<16xf32>, tensor<4096xf32>
}

// CHECK-NOT: tile.compute_set
// T1472: %[[A:.*]] = tile.var "constant.17" constant mapping<[0, 7] x 2 from 0, [8, 8] x 1 from 16>
// C8: %[[A:.*]] = tile.var "constant.17" constant mapping<[0, 0] x 16 from 0, [1, 1] x 1 from 16>
// T1472: tile.var "constant.16" constant mapping<[9, 9] x 16 from 0> {{.*}}why = "linear:{{[^"]*}}"
// C8: tile.var "constant.16" constant mapping<[2, 2] x 16 from 0> {{.*}}why = "linear:{{[^"]*}}"
// T1472: tile.var "constant.big" constant mapping<[10, 1033] x 4 from 0> {{.*}}why = "linear:{{[^"]*}}"
// C8: tile.var "constant.big" constant mapping<[3, 6] x 1024 from 0> {{.*}}why = "linear:{{[^"]*}}"
// CHECK: %[[AO:.*]] = tile.var "constant.17.out" output mapping<
// CHECK-NEXT: tile.exchange "constant.17.out" %[[A]] -> %[[AO]]
// T1472-SAME: copies [0, 0, 8, 2, 0, 2, 0, 2, 8, 8, 1, 1, 16, 0, 16, 0]
// T1472: tile.exchange "constant.big.out" {{.*}} copies [10, 10, 1024, 4, 0, 4, 0, 4]
// C8: tile.exchange "constant.big.out" {{.*}} copies [3, 3, 4, 1024, 0, 1024, 0, 1024]
// CHECK-NEXT: tile.sync
// CHECK-NEXT: tile.host_copy outfeed %[[AO]]
