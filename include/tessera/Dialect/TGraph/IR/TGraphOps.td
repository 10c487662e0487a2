//===- TGraphOps.td - tgraph operations --------------------*- tablegen -*-===//
//
// One op per HLO opcode family. Every op has exactly one result, as every
// HLO instruction has exactly one result shape (a tuple when it has several).
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TGRAPH_OPS
#define TESSERA_TGRAPH_OPS

include "tessera/Dialect/TGraph/IR/TGraphBase.td"

//===----------------------------------------------------------------------===//
// Constants, iota, rng
//===----------------------------------------------------------------------===//

def TGraph_ConstantOp : TGraph_Op<"constant", [Pure]> {
  let summary = "dense constant, possibly elided in the source dump";
  let description = [{
    A constant tensor. XLA dumps often elide large literals as
    `constant({...})`; such constants are imported with their type and the
    `elided` marker instead of a value, never with invented data.

    ```mlir
    %c = tgraph.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %w = tgraph.constant elided : tensor<1024x1024xbf16>
    ```
  }];
  let arguments = (ins OptionalAttr<ElementsAttr>:$value, UnitAttr:$elided);
  let results = (outs TGraph_Tensor:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def TGraph_IotaOp : TGraph_Op<"iota", [Pure]> {
  let summary = "indices along one dimension";
  let description = [{
    ```mlir
    %i = tgraph.iota dim = 1 : tensor<4x8xi32>
    ```
  }];
  let arguments = (ins I64Attr:$iota_dimension);
  let results = (outs TGraph_Tensor:$result);
  let assemblyFormat = "`dim` `=` $iota_dimension attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def TGraph_RngOp : TGraph_Op<"rng"> {
  let summary = "random numbers (HLO `rng`)";
  let description = [{
    Uniform in [a, b) or normal with mean a and deviation b. The
    distribution prints in its short form; the full
    `#tgraph.rng_distribution<UNIFORM>` parses too.

    ```mlir
    %r = tgraph.rng <UNIFORM>, %a, %b
         : (tensor<f32>, tensor<f32>) -> tensor<16xf32>
    ```
  }];
  let arguments = (ins TGraph_RngDistributionAttr:$distribution,
                       TGraph_Tensor:$a, TGraph_Tensor:$b);
  let results = (outs TGraph_Tensor:$result);
  let assemblyFormat = [{
    $distribution `,` $a `,` $b attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Elementwise families
//===----------------------------------------------------------------------===//

def TGraph_AbsOp : TGraph_UnaryElementwiseOp<"abs", "absolute value">;
def TGraph_NegOp : TGraph_UnaryElementwiseOp<"negate", "negation">;
def TGraph_ExpOp : TGraph_UnaryElementwiseOp<"exponential", "e^x">;
def TGraph_Expm1Op : TGraph_UnaryElementwiseOp<"exponential_minus_one",
                                              "e^x - 1">;
def TGraph_LogOp : TGraph_UnaryElementwiseOp<"log", "natural logarithm">;
def TGraph_Log1pOp : TGraph_UnaryElementwiseOp<"log_plus_one", "log(1 + x)">;
def TGraph_SqrtOp : TGraph_UnaryElementwiseOp<"sqrt", "square root">;
def TGraph_RsqrtOp : TGraph_UnaryElementwiseOp<"rsqrt",
                                              "reciprocal square root">;
def TGraph_CbrtOp : TGraph_UnaryElementwiseOp<"cbrt", "cube root">;
def TGraph_TanhOp : TGraph_UnaryElementwiseOp<"tanh", "hyperbolic tangent">;
def TGraph_LogisticOp : TGraph_UnaryElementwiseOp<"logistic", "sigmoid">;
def TGraph_SignOp : TGraph_UnaryElementwiseOp<"sign", "sign">;
def TGraph_FloorOp : TGraph_UnaryElementwiseOp<"floor", "floor">;
def TGraph_CeilOp : TGraph_UnaryElementwiseOp<"ceil", "ceiling">;
def TGraph_RoundOp : TGraph_UnaryElementwiseOp<"round_nearest_afz",
                                              "round half away from zero">;
def TGraph_RoundEvenOp : TGraph_UnaryElementwiseOp<"round_nearest_even",
                                                  "round half to even">;
def TGraph_CosOp : TGraph_UnaryElementwiseOp<"cosine", "cosine">;
def TGraph_SinOp : TGraph_UnaryElementwiseOp<"sine", "sine">;
def TGraph_TanOp : TGraph_UnaryElementwiseOp<"tan", "tangent">;
def TGraph_ErfOp : TGraph_UnaryElementwiseOp<"erf", "error function">;
def TGraph_NotOp : TGraph_UnaryElementwiseOp<"not", "logical/bitwise not">;
def TGraph_PopcntOp : TGraph_UnaryElementwiseOp<"popcnt", "population count">;
def TGraph_ClzOp : TGraph_UnaryElementwiseOp<"count_leading_zeros",
                                            "count leading zeros">;
def TGraph_CopyOp : TGraph_UnaryElementwiseOp<"copy", "copy">;
def TGraph_OptimizationBarrierOp
    : TGraph_UnaryElementwiseOp<"optimization_barrier",
                                "barrier against reordering"> {
  // The operand is usually a tuple.
  let arguments = (ins TGraph_Value:$operand);
  let results = (outs TGraph_Value:$result);
}

def TGraph_IsFiniteOp : TGraph_Op<"is_finite", [Pure, Elementwise]> {
  let summary = "true where x is neither infinite nor NaN";
  let description = [{
    ```mlir
    %p = tgraph.is_finite %x : (tensor<4xf32>) -> tensor<4xi1>
    ```
  }];
  let arguments = (ins TGraph_Tensor:$operand);
  let results = (outs TGraph_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def TGraph_AddOp : TGraph_BinaryElementwiseOp<"add", "addition">;
def TGraph_SubOp : TGraph_BinaryElementwiseOp<"subtract", "subtraction">;
def TGraph_MulOp : TGraph_BinaryElementwiseOp<"multiply", "multiplication">;
def TGraph_DivOp : TGraph_BinaryElementwiseOp<"divide", "division">;
def TGraph_RemOp : TGraph_BinaryElementwiseOp<"remainder", "remainder">;
def TGraph_PowOp : TGraph_BinaryElementwiseOp<"power", "power">;
def TGraph_MaxOp : TGraph_BinaryElementwiseOp<"maximum", "maximum">;
def TGraph_MinOp : TGraph_BinaryElementwiseOp<"minimum", "minimum">;
def TGraph_AndOp : TGraph_BinaryElementwiseOp<"and", "logical/bitwise and">;
def TGraph_OrOp : TGraph_BinaryElementwiseOp<"or", "logical/bitwise or">;
def TGraph_XorOp : TGraph_BinaryElementwiseOp<"xor", "logical/bitwise xor">;
def TGraph_ShlOp : TGraph_BinaryElementwiseOp<"shift_left", "shift left">;
def TGraph_ShrAOp : TGraph_BinaryElementwiseOp<"shift_right_arithmetic",
                                              "arithmetic shift right">;
def TGraph_ShrLOp : TGraph_BinaryElementwiseOp<"shift_right_logical",
                                              "logical shift right">;
def TGraph_Atan2Op : TGraph_BinaryElementwiseOp<"atan2", "atan2(y, x)">;

def TGraph_CompareOp : TGraph_Op<"compare", [Pure, Elementwise]> {
  let summary = "elementwise comparison to a predicate tensor";
  let description = [{
    ```mlir
    %p = tgraph.compare GT, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    ```
    `compare_type` (FLOAT, TOTALORDER, SIGNED, UNSIGNED) is kept when the
    HLO named it.
  }];
  let arguments = (ins TGraph_ComparisonDirectionAttr:$comparison_direction,
                       TGraph_Tensor:$lhs, TGraph_Tensor:$rhs,
                       OptionalAttr<StrAttr>:$compare_type);
  let results = (outs TGraph_Tensor:$result);
  let assemblyFormat = [{
    custom<Direction>($comparison_direction) `,` $lhs `,` $rhs attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TGraph_SelectOp : TGraph_Op<"select", [Pure,
    AllTypesMatch<["on_true", "on_false", "result"]>]> {
  let summary = "choose on_true where pred holds, else on_false";
  let description = [{
    `pred` has the result's shape, or is a scalar.

    ```mlir
    %r = tgraph.select %p, %a, %b : tensor<4xi1>, tensor<4xf32>
    ```
  }];
  let arguments = (ins TGraph_Tensor:$pred, TGraph_Value:$on_true,
                       TGraph_Value:$on_false);
  let results = (outs TGraph_Value:$result);
  let assemblyFormat = [{
    $pred `,` $on_true `,` $on_false attr-dict `:` type($pred) `,` type($result)
  }];
  let hasVerifier = 1;
}

def TGraph_ClampOp : TGraph_Op<"clamp", [Pure]> {
  let summary = "clamp(min, x, max)";
  let description = [{
    `min` and `max` have x's shape, or are scalars.

    ```mlir
    %r = tgraph.clamp %lo, %x, %hi : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins TGraph_Tensor:$min, TGraph_Tensor:$operand,
                       TGraph_Tensor:$max);
  let results = (outs TGraph_Tensor:$result);
  let assemblyFormat = [{
    $min `,` $operand `,` $max attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TGraph_ConvertOp : TGraph_Op<"convert", [Pure, Elementwise]> {
  let summary = "element type conversion";
  let description = [{
    ```mlir
    %r = tgraph.convert %x : tensor<4xf32> -> tensor<4xbf16>
    ```
  }];
  let arguments = (ins TGraph_Tensor:$operand);
  let results = (outs TGraph_Tensor:$result);
  // Elementwise already requires one shape; any element types convert.
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
}

def TGraph_BitcastConvertOp : TGraph_Op<"bitcast_convert", [Pure]> {
  let summary = "reinterpret the bits of each element";
  let description = [{
    ```mlir
    %r = tgraph.bitcast_convert %x : tensor<4xf32> -> tensor<4xi32>
    ```
  }];
  let arguments = (ins TGraph_Tensor:$operand);
  let results = (outs TGraph_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
}

def TGraph_BitcastOp : TGraph_Op<"bitcast", [Pure]> {
  let summary = "layout-level reinterpretation (HLO `bitcast`)";
  let description = [{
    ```mlir
    %r = tgraph.bitcast %x : tensor<4x8xf32> -> tensor<32xf32>
    ```
  }];
  let arguments = (ins TGraph_Tensor:$operand);
  let results = (outs TGraph_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
}

def TGraph_ReducePrecisionOp : TGraph_Op<"reduce_precision", [Pure,
    SameOperandsAndResultType]> {
  let summary = "round to a narrower float format, keeping the type";
  let description = [{
    ```mlir
    %r = tgraph.reduce_precision %x, exponent_bits = 8, mantissa_bits = 7 : tensor<4xf32>
    ```
  }];
  let arguments = (ins TGraph_Tensor:$operand, I32Attr:$exponent_bits,
                       I32Attr:$mantissa_bits);
  let results = (outs TGraph_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `exponent_bits` `=` $exponent_bits `,` `mantissa_bits` `=`
    $mantissa_bits attr-dict `:` type($result)
  }];
  // XLA's rule: at least one exponent bit, no negative mantissa width (as
  // 32-bit signed values). Widths past the operand type's own change
  // nothing.
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shape and data movement
//===----------------------------------------------------------------------===//

def TGraph_BroadcastInDimOp : TGraph_Op<"broadcast_in_dim", [Pure]> {
  let summary = "broadcast, mapping operand dims to result dims";
  let description = [{
    Operand dimension i becomes result dimension `dims[i]`; it must have
    size 1 or the result's size there.

    ```mlir
    %r = tgraph.broadcast_in_dim %x, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins TGraph_Tensor:$operand,
                       DenseI64ArrayAttr:$broadcast_dimensions);
  let results = (outs TGraph_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` $broadcast_dimensions attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TGraph_ReshapeOp : TGraph_Op<"reshape", [Pure]> {
  let summary = "reshape keeping the row-major element order";
  let description = [{
    ```mlir
    %r = tgraph.reshape %x : (tensor<4x8xf32>) -> tensor<32xf32>
    ```
  }];
  let arguments = (ins TGraph_Tensor:$operand);
  let results = (outs TGraph_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def TGraph_TransposeOp : TGraph_Op<"transpose", [Pure]> {
  let summary = "permute dimensions";
  let description = [{
    Result dimension i is operand dimension `permutation[i]`.

    ```mlir
    %r = tgraph.transpose %x, permutation = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
    ```
  }];
  let arguments = (ins TGraph_Tensor:$operand, DenseI64ArrayAttr:$permutation);
  let results = (outs TGraph_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `permutation` `=` $permutation attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TGraph_ReverseOp : TGraph_Op<"reverse", [Pure, SameOperandsAndResultType]> {
  let summary = "reverse along dimensions";
  let description = [{
    ```mlir
    %r = tgraph.reverse %x, dims = [0] : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins TGraph_Tensor:$operand, DenseI64ArrayAttr:$dimensions);
  let results = (outs TGraph_Tensor:$result);
  let assemblyFormat = "$operand `,` `dims` `=` $dimensions attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def TGraph_SliceOp : TGraph_Op<"slice", [Pure]> {
  let summary = "static strided slice";
  let description = [{
    Per dimension `[start:limit:stride]`, as HLO's `slice={[0:4:1], ...}`.

    ```mlir
    %r = tgraph.slice %x, start = [0, 2], limit = [4, 8], strides = [1, 2]
         : (tensor<4x8xf32>) -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins TGraph_Tensor:$operand,
                       DenseI64ArrayAttr:$start_indices,
                       DenseI64ArrayAttr:$limit_indices,
                       DenseI64ArrayAttr:$strides);
  let results = (outs TGraph_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `start` `=` $start_indices `,` `limit` `=` $limit_indices `,`
    `strides` `=` $strides attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TGraph_DynamicSliceOp : TGraph_Op<"dynamic_slice", [Pure]> {
  let summary = "slice at run-time start indices";
  let description = [{
    One scalar start index per operand dimension.

    ```mlir
    %r = tgraph.dynamic_slice %x[%i, %j], sizes = [1, 8]
         : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x8xf32>
    ```
  }];
  let arguments = (ins TGraph_Tensor:$operand,
                       Variadic<TGraph_Tensor>:$start_indices,
                       DenseI64ArrayAttr:$slice_sizes);
  let results = (outs TGraph_Tensor:$result);
  let assemblyFormat = [{
    $operand `[` $start_indices `]` `,` `sizes` `=` $slice_sizes attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TGraph_DynamicUpdateSliceOp : TGraph_Op<"dynamic_update_slice", [Pure]> {
  let summary = "overwrite a window at run-time start indices";
  let description = [{
    ```mlir
    %r = tgraph.dynamic_update_slice %x, %u[%i, %j]
         : (tensor<4x8xf32>, tensor<1x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins TGraph_Tensor:$operand, TGraph_Tensor:$update,
                       Variadic<TGraph_Tensor>:$start_indices);
  let results = (outs TGraph_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` $update `[` $start_indices `]` attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TGraph_ConcatenateOp : TGraph_Op<"concatenate", [Pure]> {
  let summary = "concatenate along one dimension";
  let description = [{
    ```mlir
    %r = tgraph.concatenate(%a, %b) dim = 0
         : (tensor<2x8xf32>, tensor<3x8xf32>) -> tensor<5x8xf32>
    ```
  }];
  let arguments = (ins Variadic<TGraph_Tensor>:$inputs, I64Attr:$dimension);
  let results = (outs TGraph_Tensor:$result);
  // Parenthesised like reduce and sort: after `%a, %b,` the parser could not
  // tell another operand from the `dim` keyword.
  let assemblyFormat = [{
    `(` $inputs `)` `dim` `=` $dimension attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TGraph_PadOp : TGraph_Op<"pad", [Pure]> {
  let summary = "edge and interior padding";
  let description = [{
    Low/high edge padding may be negative (cropping), as in HLO's
    `padding=1_2_0x0_0_1` (low_high_interior per dimension).

    ```mlir
    %r = tgraph.pad %x, %zero, low = [1, 0], high = [2, 0], interior = [0, 1]
         : (tensor<4x8xf32>, tensor<f32>) -> tensor<7x15xf32>
    ```
  }];
  let arguments = (ins TGraph_Tensor:$operand, TGraph_Tensor:$padding_value,
                       DenseI64ArrayAttr:$edge_padding_low,
                       DenseI64ArrayAttr:$edge_padding_high,
                       DenseI64ArrayAttr:$interior_padding);
  let results = (outs TGraph_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` $padding_value `,` `low` `=` $edge_padding_low `,` `high` `=`
    $edge_padding_high `,` `interior` `=` $interior_padding attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TGraph_GatherOp : TGraph_Op<"gather", [Pure]> {
  let summary = "gather slices at indices (HLO gather)";
  let description = [{
    Dimension numbers as in HLO: `offset_dims`, `collapsed_slice_dims`,
    `start_index_map`, `index_vector_dim`, plus `slice_sizes`.

    ```mlir
    %r = tgraph.gather %table, %ids {offset_dims = array<i64: 1>,
           collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>,
           index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 64>}
         : (tensor<1000x64xf32>, tensor<8x1xi32>) -> tensor<8x64xf32>
    ```
  }];
  let arguments = (ins TGraph_Tensor:$operand, TGraph_Tensor:$start_indices,
                       DenseI64ArrayAttr:$offset_dims,
                       DenseI64ArrayAttr:$collapsed_slice_dims,
                       DenseI64ArrayAttr:$start_index_map,
                       I64Attr:$index_vector_dim,
                       DenseI64ArrayAttr:$slice_sizes,
                       UnitAttr:$indices_are_sorted);
  let results = (outs TGraph_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` $start_indices attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

def TGraph_DotGeneralOp : TGraph_Op<"dot_general", [Pure]> {
  let summary = "generalized matrix product";
  let description = [{
    Result dimensions are the batch dimensions, then lhs free, then rhs free
    dimensions, as in HLO `dot`.

    ```mlir
    %r = tgraph.dot_general %a, %b, batching_dims = [] x [],
         contracting_dims = [1] x [0]
         : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
    ```
  }];
  let arguments = (ins TGraph_Tensor:$lhs, TGraph_Tensor:$rhs,
                       DenseI64ArrayAttr:$lhs_batching_dimensions,
                       DenseI64ArrayAttr:$rhs_batching_dimensions,
                       DenseI64ArrayAttr:$lhs_contracting_dimensions,
                       DenseI64ArrayAttr:$rhs_contracting_dimensions);
  let results = (outs TGraph_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` `batching_dims` `=` $lhs_batching_dimensions `x`
    $rhs_batching_dimensions `,` `contracting_dims` `=`
    $lhs_contracting_dimensions `x` $rhs_contracting_dimensions attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TGraph_ConvolutionOp : TGraph_Op<"convolution", [Pure]> {
  let summary = "N-d convolution with HLO window and dimension labels";
  let description = [{
    `dim_labels` is HLO's `b01f_01io->b01f` notation: for input, kernel and
    output, where the batch (`b`), feature (`f`), kernel input/output
    feature (`i`/`o`) and spatial (`0`, `1`, ...) dimensions are. The window
    attributes have one entry per spatial dimension; `padding` holds a
    (low, high) pair per spatial dimension.

    ```mlir
    %y = tgraph.convolution %x, %w, dim_labels = "b01f_01io->b01f"
         {window_strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>}
         : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32>
    ```
  }];
  let arguments = (ins TGraph_Tensor:$lhs, TGraph_Tensor:$rhs,
                       StrAttr:$dim_labels,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<DenseI64ArrayAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$lhs_dilation,
                       OptionalAttr<DenseI64ArrayAttr>:$rhs_dilation,
                       OptionalAttr<DenseBoolArrayAttr>:$window_reversal,
                       DefaultValuedAttr<I64Attr, "1">:$feature_group_count,
                       DefaultValuedAttr<I64Attr, "1">:$batch_group_count);
  let results = (outs TGraph_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` `dim_labels` `=` $dim_labels attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Window size per spatial dimension, from the kernel shape.
    llvm::SmallVector<int64_t> getWindowSizes();
  }];
}

//===----------------------------------------------------------------------===//
// Ops with reducer / comparator regions
//===----------------------------------------------------------------------===//

def TGraph_ReturnOp : TGraph_Op<"return", [Pure, Terminator, ReturnLike]> {
  let summary = "yield values from a reducer or comparator region";
  let description = [{
    ```mlir
    tgraph.return %sum : tensor<f32>
    ```
  }];
  let arguments = (ins Variadic<TGraph_Value>:$results);
  let assemblyFormat = "attr-dict ($results^ `:` type($results))?";
}

class TGraph_RegionOp<string mnemonic, list<Trait> traits = []>
    : TGraph_Op<mnemonic, !listconcat(traits, [RecursiveMemoryEffects])>;

def TGraph_ReduceOp : TGraph_RegionOp<"reduce", [AttrSizedOperandSegments]> {
  let summary = "reduce dimensions with a reducer region";
  let description = [{
    N inputs with N init values; the result is a tensor, or a tuple of N
    tensors when N > 1 (as in HLO). The region takes 2N scalar tensors
    (accumulators, then elements).

    ```mlir
    %s = tgraph.reduce(%x) init(%zero) dims = [1] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %t = tgraph.add %a, %b : tensor<f32>
      tgraph.return %t : tensor<f32>
    } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Variadic<TGraph_Tensor>:$inputs,
                       Variadic<TGraph_Tensor>:$init_values,
                       DenseI64ArrayAttr:$dimensions);
  let results = (outs TGraph_Value:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` `init` `(` $init_values `)` `dims` `=` $dimensions $body
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TGraph_ReduceWindowOp
    : TGraph_RegionOp<"reduce_window", [AttrSizedOperandSegments]> {
  let summary = "reduce over sliding windows (pooling)";
  let description = [{
    ```mlir
    %m = tgraph.reduce_window(%x) init(%ninf) {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %t = tgraph.maximum %a, %b : tensor<f32>
      tgraph.return %t : tensor<f32>
    } {window_dimensions = array<i64: 1, 2, 2, 1>,
        window_strides = array<i64: 1, 2, 2, 1>}
       : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
    ```
  }];
  let arguments = (ins Variadic<TGraph_Tensor>:$inputs,
                       Variadic<TGraph_Tensor>:$init_values,
                       DenseI64ArrayAttr:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<DenseI64ArrayAttr>:$base_dilations,
                       OptionalAttr<DenseI64ArrayAttr>:$window_dilations,
                       OptionalAttr<DenseI64ArrayAttr>:$padding);
  let results = (outs TGraph_Value:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` `init` `(` $init_values `)` $body attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TGraph_SelectAndScatterOp : TGraph_RegionOp<"select_and_scatter"> {
  let summary = "scatter source values to the window element select chose";
  let description = [{
    The gradient of max-pooling. `select` compares two elements; `scatter`
    combines values landing on one element.

    ```mlir
    %g = tgraph.select_and_scatter %x, %grad, %zero select {...} scatter {...}
         {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}
         : (tensor<1x8x8x4xf32>, tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x8x8x4xf32>
    ```
  }];
  let arguments = (ins TGraph_Tensor:$operand, TGraph_Tensor:$source,
                       TGraph_Tensor:$init_value,
                       OptionalAttr<DenseI64ArrayAttr>:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<DenseI64ArrayAttr>:$padding);
  let results = (outs TGraph_Tensor:$result);
  let regions = (region SizedRegion<1>:$select, SizedRegion<1>:$scatter);
  let assemblyFormat = [{
    $operand `,` $source `,` $init_value `select` $select `scatter` $scatter
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TGraph_ScatterOp : TGraph_RegionOp<"scatter", [AttrSizedOperandSegments]> {
  let summary = "combine updates into an operand at indices (HLO scatter)";
  let description = [{
    ```mlir
    %r = tgraph.scatter(%cache) indices(%pos) updates(%new) {...}
         {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>,
          scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64}
         : (tensor<128x64xf32>, tensor<1x1xi32>, tensor<1x64xf32>) -> tensor<128x64xf32>
    ```
  }];
  let arguments = (ins Variadic<TGraph_Tensor>:$inputs,
                       TGraph_Tensor:$scatter_indices,
                       Variadic<TGraph_Tensor>:$updates,
                       DenseI64ArrayAttr:$update_window_dims,
                       DenseI64ArrayAttr:$inserted_window_dims,
                       DenseI64ArrayAttr:$scatter_dims_to_operand_dims,
                       I64Attr:$index_vector_dim,
                       UnitAttr:$indices_are_sorted,
                       UnitAttr:$unique_indices);
  let results = (outs TGraph_Value:$result);
  let regions = (region SizedRegion<1>:$update_computation);
  let assemblyFormat = [{
    `(` $inputs `)` `indices` `(` $scatter_indices `)` `updates` `(` $updates
    `)` $update_computation attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TGraph_SortOp : TGraph_RegionOp<"sort"> {
  let summary = "sort along a dimension with a comparator region";
  let description = [{
    Several inputs are sorted together (keys first); the result is a tuple
    when there is more than one.

    ```mlir
    %s = tgraph.sort(%x) dim = 0 {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %lt = tgraph.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      tgraph.return %lt : tensor<i1>
    } : (tensor<16xf32>) -> tensor<16xf32>
    ```
  }];
  let arguments = (ins Variadic<TGraph_Tensor>:$inputs, I64Attr:$dimension,
                       UnitAttr:$is_stable);
  let results = (outs TGraph_Value:$result);
  let regions = (region SizedRegion<1>:$comparator);
  let assemblyFormat = [{
    `(` $inputs `)` `dim` `=` $dimension $comparator attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tuples, calls and control flow
//===----------------------------------------------------------------------===//

def TGraph_TupleOp : TGraph_Op<"tuple", [Pure]> {
  let summary = "build a tuple";
  let description = [{
    ```mlir
    %t = tgraph.tuple %a, %b : (tensor<4xf32>, tensor<i32>) -> tuple<tensor<4xf32>, tensor<i32>>
    ```
  }];
  let arguments = (ins Variadic<TGraph_Value>:$inputs);
  let results = (outs AnyTuple:$result);
  let assemblyFormat = "$inputs attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def TGraph_GetTupleElementOp : TGraph_Op<"get_tuple_element", [Pure]> {
  let summary = "extract one element of a tuple";
  let description = [{
    ```mlir
    %a = tgraph.get_tuple_element %t[0] : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins AnyTuple:$operand, I64Attr:$index);
  let results = (outs TGraph_Value:$result);
  let assemblyFormat = [{
    $operand `[` $index `]` attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TGraph_CallOp : TGraph_Op<"call",
    [DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "call another computation (HLO `call`)";
  let description = [{
    ```mlir
    %r = tgraph.call @helper(%x) : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<TGraph_Value>:$inputs);
  let results = (outs TGraph_Value:$result);
  let assemblyFormat = [{
    $callee `(` $inputs `)` attr-dict `:` functional-type($inputs, results)
  }];
}

def TGraph_FusionOp : TGraph_Op<"fusion",
    [DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a fused computation (HLO `fusion`)";
  let description = [{
    Scheduled HLO modules fuse instructions into computations; the fusion
    keeps its `kind` (kLoop, kInput, kOutput, kCustom) and calls the fused
    computation, which is imported as a private function.

    ```mlir
    %r = tgraph.fusion @fused_computation(%a, %b) {kind = "kLoop"}
         : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<TGraph_Value>:$inputs,
                       StrAttr:$kind);
  let results = (outs TGraph_Value:$result);
  let assemblyFormat = [{
    $callee `(` $inputs `)` attr-dict `:` functional-type($inputs, results)
  }];
}

def TGraph_WhileOp : TGraph_Op<"while",
    [DeclareOpInterfaceMethods<SymbolUserOpInterface>,
     AllTypesMatch<["operand", "result"]>]> {
  let summary = "loop: body runs while condition holds";
  let description = [{
    The condition maps the loop state to `tensor<i1>`; the body maps the
    state to the next state.

    ```mlir
    %r = tgraph.while %init cond @cond body @body : tuple<tensor<i32>, tensor<4xf32>>
    ```
  }];
  let arguments = (ins TGraph_Value:$operand, FlatSymbolRefAttr:$condition,
                       FlatSymbolRefAttr:$body);
  let results = (outs TGraph_Value:$result);
  let assemblyFormat = [{
    $operand `cond` $condition `body` $body attr-dict `:` type($result)
  }];
}

def TGraph_ConditionalOp : TGraph_Op<"conditional",
    [DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "run one branch computation chosen at run time";
  let description = [{
    `branch_index` is a `tensor<i1>` (true selects branch 0, as HLO's
    true_computation) or a `tensor<i32>` index; branch i receives
    `branch_operands[i]`.

    ```mlir
    %r = tgraph.conditional %p, [@then, @else](%a, %b)
         : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins TGraph_Tensor:$branch_index,
                       FlatSymbolRefArrayAttr:$branches,
                       Variadic<TGraph_Value>:$branch_operands);
  let results = (outs TGraph_Value:$result);
  let assemblyFormat = [{
    $branch_index `,` $branches `(` $branch_operands `)` attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

def TGraph_AllReduceOp : TGraph_RegionOp<"all_reduce"> {
  let summary = "reduce across replicas";
  let description = [{
    `replica_groups` is a list of groups of replica ids (empty: all).

    ```mlir
    %r = tgraph.all_reduce(%g) {...} {replica_groups = [array<i64: 0, 1>]}
         : (tensor<1024xf32>) -> tensor<1024xf32>
    ```
  }];
  let arguments = (ins Variadic<TGraph_Value>:$inputs,
                       OptionalAttr<ArrayAttr>:$replica_groups,
                       OptionalAttr<I64Attr>:$channel_id,
                       UnitAttr:$use_global_device_ids);
  let results = (outs TGraph_Value:$result);
  let regions = (region SizedRegion<1>:$computation);
  let assemblyFormat = [{
    `(` $inputs `)` $computation attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TGraph_AllGatherOp : TGraph_Op<"all_gather"> {
  let summary = "concatenate replicas' operands along a dimension";
  let description = [{
    ```mlir
    %r = tgraph.all_gather %x, dim = 0 : (tensor<4x8xf32>) -> tensor<16x8xf32>
    ```
  }];
  let arguments = (ins TGraph_Tensor:$operand, I64Attr:$all_gather_dim,
                       OptionalAttr<ArrayAttr>:$replica_groups,
                       OptionalAttr<I64Attr>:$channel_id,
                       UnitAttr:$use_global_device_ids);
  let results = (outs TGraph_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dim` `=` $all_gather_dim attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TGraph_ReduceScatterOp : TGraph_RegionOp<"reduce_scatter"> {
  let summary = "reduce across replicas, each keeping one shard";
  let description = [{
    ```mlir
    %r = tgraph.reduce_scatter %x, dim = 0 {...} : (tensor<16x8xf32>) -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins TGraph_Tensor:$operand, I64Attr:$scatter_dimension,
                       OptionalAttr<ArrayAttr>:$replica_groups,
                       OptionalAttr<I64Attr>:$channel_id,
                       UnitAttr:$use_global_device_ids);
  let results = (outs TGraph_Tensor:$result);
  let regions = (region SizedRegion<1>:$computation);
  let assemblyFormat = [{
    $operand `,` `dim` `=` $scatter_dimension $computation attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TGraph_AllToAllOp : TGraph_Op<"all_to_all", [SameOperandsAndResultType]> {
  let summary = "exchange blocks along a dimension between replicas";
  let description = [{
    HLO's array form (`dimensions={d}`): each replica splits its operand
    along `dimension` into one block per group member, sends block j to
    member j, and concatenates what it receives, in member order, along
    the same dimension.

    ```mlir
    %r = tgraph.all_to_all %x, dim = 0 {replica_groups = [array<i64: 0, 1>]}
         : tensor<4x6xf32>
    ```
  }];
  let arguments = (ins TGraph_Tensor:$operand, I64Attr:$dimension,
                       OptionalAttr<ArrayAttr>:$replica_groups,
                       OptionalAttr<I64Attr>:$channel_id);
  let results = (outs TGraph_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dim` `=` $dimension attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def TGraph_CollectivePermuteOp : TGraph_Op<"collective_permute",
    [SameOperandsAndResultType]> {
  let summary = "send to and receive from fixed replica pairs";
  let description = [{
    `source_target_pairs` is flattened (source, target) pairs.

    ```mlir
    %r = tgraph.collective_permute %x, pairs = [0, 1, 1, 0] : tensor<8xf32>
    ```
  }];
  let arguments = (ins TGraph_Tensor:$operand,
                       DenseI64ArrayAttr:$source_target_pairs,
                       OptionalAttr<I64Attr>:$channel_id);
  let results = (outs TGraph_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `pairs` `=` $source_target_pairs attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def TGraph_ReplicaIdOp : TGraph_Op<"replica_id", [Pure]> {
  let summary = "this replica's id";
  let description = "```mlir\n%id = tgraph.replica_id : tensor<ui32>\n```";
  let results = (outs TGraph_Tensor:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def TGraph_PartitionIdOp : TGraph_Op<"partition_id", [Pure]> {
  let summary = "this partition's id";
  let description = "```mlir\n%id = tgraph.partition_id : tensor<ui32>\n```";
  let results = (outs TGraph_Tensor:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Host communication
//===----------------------------------------------------------------------===//

def TGraph_AfterAllOp : TGraph_Op<"after_all"> {
  let summary = "join ordering tokens";
  let description = [{
    HLO `after-all()` often has no operands; the parentheses keep the next
    line's `%value =` from being read as an operand.

    ```mlir
    %t = tgraph.after_all(%a, %b)
    %fresh = tgraph.after_all()
    ```
  }];
  let arguments = (ins Variadic<TGraph_TokenType>:$inputs);
  let results = (outs TGraph_TokenType:$result);
  let assemblyFormat = "`(` $inputs `)` attr-dict";
}

def TGraph_InfeedOp : TGraph_Op<"infeed"> {
  let summary = "receive data from the host";
  let description = [{
    The result is a tuple of the data and a token.

    ```mlir
    %r = tgraph.infeed %tok : tuple<tuple<tensor<8xf32>>, !tgraph.token>
    ```
  }];
  let arguments = (ins TGraph_TokenType:$token,
                       DefaultValuedStrAttr<StrAttr, "">:$infeed_config);
  let results = (outs AnyTuple:$result);
  let assemblyFormat = "$token attr-dict `:` type($result)";
}

def TGraph_OutfeedOp : TGraph_Op<"outfeed"> {
  let summary = "send data to the host";
  let description = [{
    ```mlir
    %t = tgraph.outfeed %data, %tok : tensor<8xf32>
    ```
  }];
  let arguments = (ins TGraph_Value:$operand, TGraph_TokenType:$token,
                       DefaultValuedStrAttr<StrAttr, "">:$outfeed_config);
  let results = (outs TGraph_TokenType:$result);
  let assemblyFormat = "$operand `,` $token attr-dict `:` type($operand)";
}

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

class TGraph_BatchNormOp<string mnemonic, int numOperands, string desc>
    : TGraph_Op<mnemonic, [Pure]> {
  let summary = desc;
  let description = "HLO `" # mnemonic # "` with " # numOperands #
      " operands, normalizing over all dimensions but `feature_index`.\n\n"
      "```mlir\n%r = tgraph." # mnemonic # " %x, ... {epsilon = 1.0e-05 : f32,"
      " feature_index = 3 : i64} : (...) -> ...\n```";
  let arguments = (ins Variadic<TGraph_Tensor>:$inputs, F32Attr:$epsilon,
                       I64Attr:$feature_index);
  let results = (outs TGraph_Value:$result);
  let assemblyFormat = "$inputs attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}
def TGraph_BatchNormTrainingOp
    : TGraph_BatchNormOp<"batch_norm_training", 3, "batch norm, training">;
def TGraph_BatchNormInferenceOp
    : TGraph_BatchNormOp<"batch_norm_inference", 5, "batch norm, inference">;
def TGraph_BatchNormGradOp
    : TGraph_BatchNormOp<"batch_norm_grad", 5, "batch norm gradient">;

//===----------------------------------------------------------------------===//
// Opaque ops
//===----------------------------------------------------------------------===//

def TGraph_CustomCallOp : TGraph_Op<"custom_call"> {
  let summary = "call of a backend-specific routine";
  let description = [{
    Keeps the target name and the backend config verbatim.

    ```mlir
    %r = tgraph.custom_call "AwsNeuronTransferWithStaticRing"(%x)
         {backend_config = ""} : (tensor<5x10xf32>) -> tensor<5x10xf32>
    ```
  }];
  let arguments = (ins StrAttr:$call_target_name, Variadic<TGraph_Value>:$inputs,
                       DefaultValuedStrAttr<StrAttr, "">:$backend_config,
                       UnitAttr:$has_side_effect,
                       OptionalAttr<I32Attr>:$api_version);
  let results = (outs TGraph_Value:$result);
  let assemblyFormat = [{
    $call_target_name `(` $inputs `)` attr-dict `:` functional-type($inputs, results)
  }];
}

def TGraph_UnknownOp : TGraph_Op<"unknown"> {
  let summary = "an HLO instruction Tessera does not model";
  let description = [{
    The importer never fails on an opcode it does not know: it keeps the
    opcode, operands, result type and the HLO attributes (as strings) here,
    so the compatibility checker can report it.

    ```mlir
    %r = tgraph.unknown "cholesky"(%a) {hlo_attributes = {lower = "true"}}
         : (tensor<4x4xf32>) -> tensor<4x4xf32>
    ```
  }];
  let arguments = (ins StrAttr:$opcode, Variadic<TGraph_Value>:$inputs,
                       OptionalAttr<DictionaryAttr>:$hlo_attributes);
  let results = (outs TGraph_Value:$result);
  let assemblyFormat = [{
    $opcode `(` $inputs `)` attr-dict `:` functional-type($inputs, results)
  }];
}

#endif // TESSERA_TGRAPH_OPS
