// RUN: %stock_mlir_opt --load-dialect-plugin=%tessera_lib/libTesseraPlugin.so %s --cse --canonicalize | FileCheck %s
//
// The tile ops declare their memory effects, so upstream mlir-opt's CSE and
// canonicalizer (our dialect loaded as a plugin) get them right: two vars with the same attributes are two buffers (a var
// allocates; CSE must not merge them), an unused var is dead, and a step
// that only writes a buffer nobody reads stays (it has an effect).

// CHECK-LABEL: tile.program @effects
tile.program @effects target "t" tiles 2 {
  // CHECK: %[[X:.*]] = tile.var "x" parameter
  %x = tile.var "x" parameter mapping<[0, 1] x 4 from 0> : !tile.buffer<8xf32>
  // CHECK-NEXT: %[[Y:.*]] = tile.var "y" temporary
  // CHECK-NEXT: %[[Z:.*]] = tile.var "y" temporary
  %y = tile.var "y" temporary mapping<[0, 1] x 4 from 0> : !tile.buffer<8xf32>
  %z = tile.var "y" temporary mapping<[0, 1] x 4 from 0> : !tile.buffer<8xf32>
  // CHECK-NOT: "unused"
  %unused = tile.var "unused" temporary mapping<[0, 1] x 4 from 0> : !tile.buffer<8xf32>
  // CHECK: tile.host_copy infeed %[[X]]
  tile.host_copy infeed %x : !tile.buffer<8xf32>
  // CHECK-NEXT: tile.compute_set "neg" kind "elementwise.negate" tiles [0, 1] ins(%[[X]] : {{.*}}) outs(%[[Y]] :
  tile.compute_set "neg" kind "elementwise.negate" tiles [0, 1]
      ins(%x : !tile.buffer<8xf32>) outs(%y : !tile.buffer<8xf32>)
  // CHECK-NEXT: tile.exchange "copy" %[[Y]] -> %[[Z]]
  tile.exchange "copy" %y -> %z copies [0, 0, 2, 4, 0, 4, 0, 4] : !tile.buffer<8xf32>, !tile.buffer<8xf32>
}
