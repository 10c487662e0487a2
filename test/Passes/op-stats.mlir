// tgraph-op-stats: exact FLOPs and bytes, counted as documented in
// passes/Passes.td (XLA's conventions). The JSON goes to stdout; -o /dev/null
// drops the (unchanged) IR so only the JSON is checked.
// RUN: tessera-opt %s --tgraph-op-stats -o /dev/null | FileCheck %s
// RUN: tessera-opt %s --tgraph-op-stats=per-op=false -o /dev/null | FileCheck %s --check-prefix=TOTALS
// RUN: tessera-opt %s --tgraph-op-stats=format=text -o /dev/null | FileCheck %s --check-prefix=TEXT
// RUN: tessera-opt %s --tgraph-op-stats="format=text output=%t.txt" -o /dev/null
// RUN: FileCheck %s --check-prefix=TEXT --input-file=%t.txt
// RUN: not tessera-opt %s --tgraph-op-stats=format=xml -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADFMT
// The pass leaves the IR as it was.
// RUN: tessera-opt %s --tgraph-op-stats | FileCheck %s --check-prefix=IR

// The table lists opcodes by FLOPs, largest first.
// TEXT:      opcode                       ops           FLOPs           bytes
// TEXT-NEXT: dot_general                    1          524288          114688
// TEXT-NEXT: convolution                    1           10368            2752
// TEXT-NEXT: add                            1             512            6144
// TEXT-NEXT: reduce_window                  1             256            1284
// TEXT-NEXT: reduce                         1              32             148
// TEXT-NEXT: total                          5          535456          125016
// BADFMT: for the --format option: Cannot find option named 'xml'!

// dot.1: batch 8, M 16, N 32, K 64: 2 * (8*16*32) * 64 = 524288 FLOPs;
//   bytes (8*16*64 + 8*64*32 + 8*16*32) * 4 = 114688.
// convolution.2: VALID 3x3 over 8x8 -> 6x6, 8 output features, 2 feature
//   groups, so the kernel has Cin/groups = 2 input features:
//   2 * (6*6*8) * 9 * 2 = 10368 FLOPs; bytes (256 + 144 + 288) * 4 = 2752.
// add.3: one per element, 16*32 = 512; bytes 3 * 512 * 4 = 6144.
// reduce.4: one per input element, 4*8 = 32; bytes (32 + 1 + 4) * 4 = 148.
// reduce-window.5: output 1x4x4x4 = 64 elements x window 2*2 = 256;
//   bytes (256 + 1 + 64) * 4 = 1284.
// The add and maximum inside the reducer regions are not counted again.

// CHECK:      "ops": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "name": "dot.1",
// CHECK-NEXT:     "opcode": "dot_general",
// CHECK-NEXT:     "flops": 524288,
// CHECK-NEXT:     "bytes": 114688
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "name": "convolution.2",
// CHECK-NEXT:     "opcode": "convolution",
// CHECK-NEXT:     "flops": 10368,
// CHECK-NEXT:     "bytes": 2752
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "name": "add.3",
// CHECK-NEXT:     "opcode": "add",
// CHECK-NEXT:     "flops": 512,
// CHECK-NEXT:     "bytes": 6144
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "name": "reduce.4",
// CHECK-NEXT:     "opcode": "reduce",
// CHECK-NEXT:     "flops": 32,
// CHECK-NEXT:     "bytes": 148
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "name": "reduce-window.5",
// CHECK-NEXT:     "opcode": "reduce_window",
// CHECK-NEXT:     "flops": 256,
// CHECK-NEXT:     "bytes": 1284
// CHECK-NEXT:   }
// CHECK-NEXT: ],
// CHECK-NEXT: "opcodes": {
// CHECK-NEXT:   "add": {
// CHECK-NEXT:     "count": 1,
// CHECK-NEXT:     "flops": 512,
// CHECK-NEXT:     "bytes": 6144
// CHECK-NEXT:   },
// CHECK-NEXT:   "convolution": {
// CHECK:        "dot_general": {
// CHECK-NOT:    "maximum"
// CHECK:        "reduce": {
// CHECK:        "reduce_window": {
// CHECK-NEXT:     "count": 1,
// CHECK-NEXT:     "flops": 256,
// CHECK-NEXT:     "bytes": 1284
// CHECK-NEXT:   }
// CHECK-NEXT: },
// CHECK-NEXT: "total": {
// CHECK-NEXT:   "count": 5,
// CHECK-NEXT:   "flops": 535456,
// CHECK-NEXT:   "bytes": 125016
// CHECK-NEXT: }

// TOTALS-NOT:  "ops"
// TOTALS-NOT:  "name"
// TOTALS:      "opcodes": {
// TOTALS:      "total": {
// TOTALS-NEXT:   "count": 5,
// TOTALS-NEXT:   "flops": 535456,
// TOTALS-NEXT:   "bytes": 125016
// TOTALS-NEXT: }

// IR:      "total"
// IR:      func.func @main
// IR:      %dot.1 = tgraph.dot_general
// IR:      tgraph.reduce_window
// IR:      return %add.3 : tensor<16x32xf32>
func.func @main(%a: tensor<8x16x64xf32>, %b: tensor<8x64x32xf32>,
                %x: tensor<1x8x8x4xf32>, %w: tensor<3x3x2x8xf32>,
                %e: tensor<16x32xf32>, %r: tensor<4x8xf32>, %z: tensor<f32>,
                %img: tensor<1x8x8x4xf32>) -> tensor<16x32xf32> {
  %dot = tgraph.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x16x64xf32>, tensor<8x64x32xf32>) -> tensor<8x16x32xf32> loc("dot.1")
  %conv = tgraph.convolution %x, %w, dim_labels = "b01f_01io->b01f" {feature_group_count = 2 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x2x8xf32>) -> tensor<1x6x6x8xf32> loc("convolution.2")
  %add = tgraph.add %e, %e : tensor<16x32xf32> loc("add.3")
  %sum = tgraph.reduce(%r) init(%z) dims = [1] {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %t = tgraph.add %p, %q : tensor<f32>
    tgraph.return %t : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> loc("reduce.4")
  %pool = tgraph.reduce_window(%img) init(%z) {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %t = tgraph.maximum %p, %q : tensor<f32>
    tgraph.return %t : tensor<f32>
  } {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32> loc("reduce-window.5")
  return %add : tensor<16x32xf32>
}
