// libTesseraPlugin.so loads into the stock mlir-opt and runs a Tessera pass.
// mlir-opt ignores a plugin it cannot load ("Failed to load ... Request
// ignored.", exit 0), so the checks require output only the plugin's pass
// prints, and stderr is checked too.
// RUN: %stock_mlir_opt --load-dialect-plugin=%tessera_lib/libTesseraPlugin.so \
// RUN:   --load-pass-plugin=%tessera_lib/libTesseraPlugin.so \
// RUN:   --pass-pipeline='builtin.module(tgraph-op-stats{per-op=true})' %s 2>&1 \
// RUN:   | FileCheck %s
// Without the dialect plugin the stock tool cannot even parse tgraph.
// RUN: not %stock_mlir_opt %s 2>&1 | FileCheck %s --check-prefix=NOPLUGIN

// CHECK-NOT:  Failed to load
// CHECK:      "ops": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "name": "dot.1",
// CHECK-NEXT:     "opcode": "dot_general",
// CHECK-NEXT:     "flops": 65536,
// CHECK-NEXT:     "bytes": 14336
// CHECK-NEXT:   },
// CHECK:      "total": {
// CHECK-NEXT:   "count": 2,
// CHECK-NEXT:   "flops": 66048,
// The dialect's custom syntax prints too.
// CHECK:      tgraph.dot_general %{{.*}}, %{{.*}}, batching_dims = [] x [], contracting_dims = [1] x [0]
// CHECK-NOT:  Failed to load

// NOPLUGIN: Dialect `tgraph' not found

// 2 * 16 * 32 * 64 = 65536 FLOPs, (1024 + 2048 + 512) * 4 = 14336 bytes;
// the add is 512 more FLOPs.
func.func @main(%a: tensor<16x64xf32>, %b: tensor<64x32xf32>) -> tensor<16x32xf32> {
  %d = tgraph.dot_general %a, %b, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32> loc("dot.1")
  %s = tgraph.add %d, %d : tensor<16x32xf32> loc("add.2")
  return %s : tensor<16x32xf32>
}
