//===- TileOps.td - tile operations ------------------------*- tablegen -*-===//

#ifndef TESSERA_TILE_OPS
#define TESSERA_TILE_OPS

include "tessera/Dialect/Tile/IR/TileBase.td"

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

def Tile_ProgramOp : Tile_Op<"program", [Symbol, SymbolTable,
    SingleBlockImplicitTerminator<"EndOp">, IsolatedFromAbove]> {
  let summary = "a program for one target: buffers and steps in order";
  let description = [{
    ```mlir
    tile.program @main target "tile-1472" tiles 1472 {
      %x = tile.var "x" parameter mapping<[0, 3] x 16 from 0> : !tile.buffer<64xf32>
      tile.host_copy infeed %x
      ...
    }
    ```
    `tiles` is the number of tiles the program spans: `chips` (default 1)
    chips of the target, tile t on chip t / tiles-per-chip. Every mapping
    and tile range inside must stay below it; an exchange whose copies
    join tiles of two chips crosses the links between them. A program is
    one replica's: with `replicas` > 1 each replica runs it on its own
    `chips` chips (replica r on chips r * chips and up), and
    `tile.collective` steps combine them. `placement` says how the
    lowering chose the chips (for the compile report).

    ```mlir
    tile.program @main.tile target "pod-4" tiles 2944
        attributes {chips = 2 : i64, replicas = 2 : i64} { ... }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrAttr:$target,
                       I64Attr:$tiles,
                       DefaultValuedAttr<I64Attr, "1">:$chips,
                       DefaultValuedAttr<I64Attr, "1">:$replicas,
                       OptionalAttr<StrAttr>:$placement);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name `target` $target `tiles` $tiles attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  // The exchanges' copies are checked against the mappings here, all at
  // once (TileOps.cpp, ProgramOp::verifyRegions).
  let hasRegionVerifier = 1;
}

def Tile_EndOp : Tile_Op<"end", [Terminator, HasParent<"ProgramOp">]> {
  let summary = "end of a program";
  let assemblyFormat = "attr-dict";
}

// Memory effects: a var allocates its buffer; compute sets, exchanges, host
// copies and host ops read and write the buffers they name, so MLIR's own
// analyses and transforms (dead-code elimination, CSE, effect queries)
// see which step depends on which. A sync names no buffer: its effects are
// unknown, so nothing moves across it.
def Tile_VarOp : Tile_Op<"var"> {
  let summary = "a buffer spread over tiles";
  let description = [{
    ```mlir
    %w = tile.var "dot.3.rhs" constant mapping<[0, 7] x 512 from 0>
         {hlo = "constant.2", why = "matmul rhs blocks along N"}
         : !tile.buffer<64x64xf32>
    ```
    `category` says what the buffer holds (parameter, output, constant,
    temporary, partials). `aliases %v` makes it a view of another var's
    storage (a reshape, a one-replica collective): the same elements, laid
    out the same way, no bytes of its own. The optional attributes, set by the lowering and
    read by the analyses, the reports and the executable writer:

    - `hlo`: the HLO instruction whose value it holds;
    - `why`: the mapping planner's reason for the layout;
    - `result_leaf`: on the buffers of a graph value (an op's result or an
      entry argument), which leaf of the value's flattened results it holds;
    - `result_of`: the `tile.op_id` of the op whose result it holds;
    - `returned`: the value is an output of the entry;
    - `value` / `op_id`: a constant's data, or for a constant the source
      elided, the `tile.op_id` of its `tgraph.constant`.
  }];
  let arguments = (ins StrAttr:$name, Tile_CategoryAttr:$category,
                       Tile_MappingAttr:$mapping,
                       Optional<Tile_BufferType>:$alias,
                       OptionalAttr<StrAttr>:$hlo,
                       OptionalAttr<StrAttr>:$why,
                       OptionalAttr<I64Attr>:$result_leaf,
                       OptionalAttr<I64Attr>:$result_of,
                       UnitAttr:$returned,
                       OptionalAttr<ElementsAttr>:$value,
                       OptionalAttr<I64Attr>:$op_id);
  let results = (outs Res<Tile_BufferType, "the buffer", [MemAlloc]>:$result);
  // The lowering declares a var, then sets what it learns about it.
  let builders = [
    OpBuilder<(ins "::mlir::Type":$type, "::mlir::StringAttr":$name,
                   "::tessera::tile::CategoryAttr":$category,
                   "::tessera::tile::MappingAttr":$mapping), [{
      build($_builder, $_state, type, name, category, mapping,
            /*alias=*/::mlir::Value(), {}, {}, {}, {}, {}, {}, {});
    }]>
  ];
  let assemblyFormat = [{
    $name custom<Category>($category) custom<Mapping>($mapping)
    (`aliases` $alias^ `:` qualified(type($alias)))? attr-dict `:`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tile_ComputeSetOp : Tile_Op<"compute_set", [AttrSizedOperandSegments]> {
  let summary = "every listed tile runs one vertex kind on its own data";
  let description = [{
    Tiles `[first, last]` (inclusive) each run `vertices_per_tile` vertices
    of `kind`
    (a vertex of the target's library: `matmul-partial`, `conv-partial`,
    `elementwise.add`, `reduce.add`, `copy`, ...). A vertex on tile t reads
    and writes only the elements of `ins` and `outs` mapped to t; the
    verifier checks that t holds some of each.

    ```mlir
    tile.compute_set "add.1" kind "elementwise.add" tiles [0, 3]
        ins(%a, %b : !tile.buffer<64xf32>, !tile.buffer<64xf32>)
        outs(%c : !tile.buffer<64xf32>) {flops = 64 : i64}
    ```
  }];
  let arguments = (ins StrAttr:$name, StrAttr:$kind, I64Attr:$first_tile,
                       I64Attr:$end_tile,
                       DefaultValuedAttr<I64Attr, "1">:$vertices_per_tile,
                       Arg<Variadic<Tile_BufferType>, "read", [MemRead]>:$ins,
                       Arg<Variadic<Tile_BufferType>, "written", [MemWrite]>:$outs);
  let assemblyFormat = [{
    $name `kind` $kind `tiles` custom<TileRange>($first_tile, $end_tile)
    (`ins` `(` $ins^ `:` qualified(type($ins)) `)`)? (`outs` `(` $outs^ `:` qualified(type($outs)) `)`)?
    attr-dict
  }];
  let hasVerifier = 1;
}

def Tile_ExchangeOp : Tile_Op<"exchange"> {
  let summary = "copy element ranges between tiles";
  let description = [{
    `copies` is a flat list of runs of eight integers: (src tile, dst tile,
    count, elements, src element, src stride, dst element, dst stride). For
    k in [0, count), tile `src tile + k` sends `elements` elements of
    `source`, starting at `src element + k * src stride`, to tile
    `dst tile + k`, which stores them in `dest` from
    `dst element + k * dst stride`. A regular exchange over a thousand tiles
    is one run. The verifier checks that each source tile holds what it
    sends and each destination tile holds where it writes (the enclosing
    `tile.program` checks this for all its exchanges at once, after each
    exchange's own runs are checked well formed).

    ```mlir
    // Tiles 0..3 each send their first 16 elements (grain 64) to the next
    // tile, into a buffer of grain 16.
    tile.exchange "halo" %a -> %halo copies [0, 1, 4, 16, 0, 64, 16, 16]
        : !tile.buffer<256xf32>, !tile.buffer<80xf32>
    ```

    Runs may be strided: the optional `strided` lists, per run, five more
    integers (chunk, src chunk stride, dst chunk stride, src tile step, dst
    tile step). Copy k then goes from tile `src tile + k * src tile step` to
    tile `dst tile + k * dst tile step`, and its `elements` move as
    `elements / chunk` contiguous chunks: chunk j is read from `src element
    + k * src stride + j * src chunk stride` and stored from `dst element +
    k * dst stride + j * dst chunk stride`. An ordinary run is (elements, 0,
    0, 1, 1). So a block of columns between one pair of tiles (a
    convolution's weight block split by input feature, an embedding table
    split by columns) is one run, and so are the copies from many tiles
    into one (tile step 0), which a diagonal fold cannot join.

    ```mlir
    // Tiles 0 and 1 each send two columns (a 2-element chunk from each of
    // their two 8-element rows) to tile 3, one after the other.
    tile.exchange "cols" %a -> %b copies [0, 3, 2, 4, 0, 16, 0, 4]
        strided [2, 8, 2, 1, 0] : !tile.buffer<32xf32>, !tile.buffer<8xf32>
    ```

    A re-layout whose copies are many but regular (a transpose or broadcast
    between two linear mappings over a thousand tiles needs a copy per tile
    pair and element group) is written as a *view* instead: every element
    of `dest`, at coordinates idx, is `source` element
    `offset + sum_d idx[d] * strides[d]`. The copies are implied by the view
    and the two mappings; `tessera::exchangeCopyRuns` lists them when a
    consumer (a cost model) needs them.

    ```mlir
    // dest = transpose(source, [1, 0]) for a 4x8 source.
    tile.exchange "t" %a -> %b view [1, 8] offset 0
        : !tile.buffer<4x8xf32>, !tile.buffer<8x4xf32>
    ```
  }];
  let arguments = (ins StrAttr:$name,
                       Arg<Tile_BufferType, "read", [MemRead]>:$source,
                       Arg<Tile_BufferType, "written", [MemWrite]>:$dest,
                       OptionalAttr<DenseI64ArrayAttr>:$copies,
                       OptionalAttr<DenseI64ArrayAttr>:$strided,
                       OptionalAttr<DenseI64ArrayAttr>:$view_strides,
                       OptionalAttr<I64Attr>:$view_offset);
  let assemblyFormat = [{
    $name $source `->` $dest (`copies` $copies^)? (`strided` $strided^)?
    (`view` $view_strides^ `offset` $view_offset)? attr-dict `:`
    qualified(type($source)) `,` qualified(type($dest))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    struct Run {
      int64_t srcTile, dstTile, count, elements, srcElement, srcStride,
          dstElement, dstStride;
      /// Contiguous elements per chunk (elements when not strided), the
      /// chunk strides within one copy, and the tile steps between copies.
      int64_t chunk, srcChunkStride, dstChunkStride, srcTileStep, dstTileStep;
      int64_t numChunks() const { return elements / chunk; }
      int64_t srcTileOf(int64_t k) const { return srcTile + k * srcTileStep; }
      int64_t dstTileOf(int64_t k) const { return dstTile + k * dstTileStep; }
    };
    static constexpr size_t kRunSize = 8;
    static constexpr size_t kStridedSize = 5;
    /// Whether the copies are implied by a view rather than listed.
    bool isView() { return getViewStrides().has_value(); }
    /// The listed copy runs (none for a view).
    llvm::ArrayRef<int64_t> getCopyRuns() {
      return getCopies() ? *getCopies() : llvm::ArrayRef<int64_t>();
    }
    size_t getNumRuns() { return getCopyRuns().size() / kRunSize; }
    /// Whether the runs are listed with strides (the op has `strided`).
    bool isStrided() { return getStrided().has_value(); }
    Run getRun(size_t i) {
      auto c = getCopyRuns().slice(kRunSize * i, kRunSize);
      Run r{c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[3], 0, 0, 1, 1};
      if (isStrided()) {
        auto h = getStrided()->slice(kStridedSize * i, kStridedSize);
        r.chunk = h[0];
        r.srcChunkStride = h[1];
        r.dstChunkStride = h[2];
        r.srcTileStep = h[3];
        r.dstTileStep = h[4];
      }
      return r;
    }
    /// Elements moved in all (each element counted once per copy; a view
    /// writes every dest element once).
    int64_t getElementsMoved();
  }];
}

def Tile_CollectiveOp : Tile_Op<"collective"> {
  let summary = "combine a buffer with the other replicas' copies of it";
  let description = [{
    In a program of several replicas (`tile.program`'s `replicas`), every
    replica runs this step at once: each hands in its `source` and writes
    `dest` from the values of its group. `groups` lists the devices
    (replica ids, each in exactly one group) in groups of `group_size`, in
    the order values combine:

    - `all_reduce`: `dest` = the `reducer` (add, multiply, maximum,
      minimum, and, or) over the group's sources;
    - `all_gather`: `dest` = the group's sources concatenated along
      `dimension`;
    - `reduce_scatter`: `dest` = this member's block along `dimension` of
      the reduction;
    - `collective_permute`: `dest` = the source of the device `pairs`
      (source, target, ...) sends to this one, zeros if none;
    - `all_to_all`: block m of `dest` along `dimension` = member m's block
      (this member's index) of its source.

    The data moves between the replicas' chips over their links, by the
    documented algorithm (`ring`: a group of n passes n - 1 blocks of 1/n
    of the buffer around the ring of its chips, twice for an all_reduce;
    docs/multichip.md), which the cost model prices.

    ```mlir
    tile.collective "all-reduce.3" all_reduce %g -> %s groups [0, 1, 2, 3]
        size 4 {reducer = "add"} : !tile.buffer<1024xf32>, !tile.buffer<1024xf32>
    ```
  }];
  let arguments = (ins StrAttr:$name,
                       Tile_CollectiveKindAttr:$kind,
                       Arg<Tile_BufferType, "read", [MemRead]>:$source,
                       Arg<Tile_BufferType, "written", [MemWrite]>:$dest,
                       DenseI64ArrayAttr:$groups, I64Attr:$group_size,
                       OptionalAttr<StrAttr>:$reducer,
                       DefaultValuedAttr<I64Attr, "0">:$dimension,
                       OptionalAttr<DenseI64ArrayAttr>:$pairs,
                       DefaultValuedAttr<StrAttr, "\"ring\"">:$algorithm);
  let assemblyFormat = [{
    $name custom<CollectiveKind>($kind) $source `->` $dest `groups` $groups
    `size` $group_size attr-dict `:` qualified(type($source)) `,`
    qualified(type($dest))
  }];
  let hasVerifier = 1;
}

def Tile_SyncOp : Tile_Op<"sync"> {
  let summary = "all tiles wait for each other";
  let description = "```mlir\ntile.sync\n```";
  let assemblyFormat = "attr-dict";
}

def Tile_HostCopyOp : Tile_Op<"host_copy",
    [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "move a buffer between host and tiles";
  let description = [{
    ```mlir
    tile.host_copy infeed %x : !tile.buffer<64xf32>
    ```
  }];
  let arguments = (ins Tile_HostDirectionAttr:$direction,
                       Tile_BufferType:$buffer);
  let assemblyFormat = [{
    custom<Direction>($direction) $buffer attr-dict `:` qualified(type($buffer))
  }];
}

def Tile_HostComputeOp : Tile_Op<"host_compute", [AttrSizedOperandSegments]> {
  let summary = "an op the target cannot run, computed by the host";
  let description = [{
    Left by the lowering for ops the compatibility checker marked
    incompatible; its inputs are outfed before it and its results infed
    after it, so a partially compatible model still compiles.

    ```mlir
    tile.host_compute "cholesky.4" op "tgraph.unknown" reason "unknown-op"
        ins(%a : !tile.buffer<4x4xf32>) outs(%l : !tile.buffer<4x4xf32>)
    ```
  }];
  let arguments = (ins StrAttr:$name, StrAttr:$op, StrAttr:$reason,
                       Arg<Variadic<Tile_BufferType>, "read", [MemRead]>:$ins,
                       Arg<Variadic<Tile_BufferType>, "written", [MemWrite]>:$outs);
  let assemblyFormat = [{
    $name `op` $op `reason` $reason
    (`ins` `(` $ins^ `:` qualified(type($ins)) `)`)? (`outs` `(` $outs^ `:` qualified(type($outs)) `)`)?
    attr-dict
  }];
}

def Tile_RepeatOp : Tile_Op<"repeat", [SingleBlockImplicitTerminator<"YieldOp">,
    RecursiveMemoryEffects]> {
  let summary = "run the body while the condition buffer holds";
  let description = [{
    The lowering of `tgraph.while`. Before each iteration, the first
    included, the control reads `condition` (a 1-element i1 buffer) and
    runs the body if it holds, else leaves the loop. The body is
    responsible for updating `condition`: the lowering ends it with the
    loop's condition steps (writing `condition`) and a `tile.sync`, and
    evaluates the condition once before the op, also followed by a sync,
    so the control never reads a value still being written. `trip_count`
    is the number of iterations when known statically (else -1), used by
    cost estimates.

    ```mlir
    tile.repeat "while.3" cond %c : !tile.buffer<i1> trip_count 10 {
      ...
    }
    ```
  }];
  let arguments = (ins StrAttr:$name, Tile_BufferType:$condition,
                       DefaultValuedAttr<I64Attr, "-1">:$trip_count,
                       OptionalAttr<I64Attr>:$op_id);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $name `cond` $condition `:` qualified(type($condition)) `trip_count` $trip_count
    $body attr-dict
  }];
  let hasVerifier = 1;
}

def Tile_IfOp : Tile_Op<"if", [SingleBlockImplicitTerminator<"YieldOp">,
    RecursiveMemoryEffects]> {
  let summary = "run one of two step sequences";
  let description = [{
    The control reads `predicate` (a 1-element i1 buffer, synced before
    the op) and runs the first region if it holds, else the second.

    ```mlir
    tile.if "conditional.2" %p : !tile.buffer<i1> { ... } else { ... }
    ```
  }];
  let arguments = (ins StrAttr:$name, Tile_BufferType:$predicate);
  let regions = (region SizedRegion<1>:$then_body, SizedRegion<1>:$else_body);
  let assemblyFormat = [{
    $name $predicate `:` qualified(type($predicate)) $then_body `else` $else_body attr-dict
  }];
  let hasVerifier = 1;
}

def Tile_YieldOp : Tile_Op<"yield", [Terminator,
    ParentOneOf<["RepeatOp", "IfOp"]>]> {
  let summary = "end of a repeat or if body";
  let assemblyFormat = "attr-dict";
}

#endif // TESSERA_TILE_OPS
