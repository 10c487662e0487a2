//===- TileBase.td - tile dialect definition ---------------*- tablegen -*-===//
//
// The program a tile accelerator runs: buffers spread over tiles, and a
// sequence of bulk-synchronous steps (compute sets, exchanges, syncs, host
// copies). Per-tile work is described by ranges in attributes, never by one
// op per tile, so a 1,472-tile chip and a 10,000-op model stay small.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TILE_BASE
#define TESSERA_TILE_BASE

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let summary = "bulk-synchronous tile programs with per-buffer tile mappings";
  let description = [{
    A `tile.program` holds buffers (`tile.var`) whose elements are mapped to
    tiles, and steps that run in order: `tile.compute_set` (every listed tile
    runs one kind of vertex on its own part of the buffers), `tile.exchange`
    (element ranges copied between tiles), `tile.sync`, `tile.host_copy`
    (infeed/outfeed), `tile.host_compute` (an op the chip cannot run, done by
    the host), and `tile.repeat` / `tile.if` for control flow. See
    docs/tile-dialect.md.
  }];
  let cppNamespace = "::tessera::tile";
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def Tile_BufferType : TypeDef<Tile_Dialect, "Buffer"> {
  let mnemonic = "buffer";
  let summary = "a tensor whose elements live on tiles";
  let description = [{
    ```mlir
    !tile.buffer<16x64xf32>
    ```
    The shape and element type of the tgraph tensor it holds; where each
    element lives is the `mapping` of the `tile.var` that defines it.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType);
  let assemblyFormat = "`<` custom<Shape>($shape, $elementType) `>`";
  let extraClassDeclaration = [{
    int64_t getNumElements() const {
      int64_t n = 1;
      for (int64_t d : getShape())
        n *= d;
      return n;
    }
    int64_t getRank() const { return getShape().size(); }
  }];
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Tile_CatParameter : I32EnumAttrCase<"Parameter", 0, "parameter">;
def Tile_CatOutput : I32EnumAttrCase<"Output", 1, "output">;
def Tile_CatConstant : I32EnumAttrCase<"Constant", 2, "constant">;
def Tile_CatTemporary : I32EnumAttrCase<"Temporary", 3, "temporary">;
def Tile_CatPartials : I32EnumAttrCase<"Partials", 4, "partials">;
def Tile_Category : I32EnumAttr<"Category", "what a buffer holds",
    [Tile_CatParameter, Tile_CatOutput, Tile_CatConstant, Tile_CatTemporary,
     Tile_CatPartials]> {
  let cppNamespace = "::tessera::tile";
  let genSpecializedAttr = 0;
}
def Tile_CategoryAttr : EnumAttr<Tile_Dialect, Tile_Category, "category"> {
  let assemblyFormat = "`<` $value `>`";
}

def Tile_Infeed : I32EnumAttrCase<"Infeed", 0, "infeed">;
def Tile_Outfeed : I32EnumAttrCase<"Outfeed", 1, "outfeed">;
def Tile_HostDirection : I32EnumAttr<"HostDirection", "host copy direction",
    [Tile_Infeed, Tile_Outfeed]> {
  let cppNamespace = "::tessera::tile";
  let genSpecializedAttr = 0;
}
def Tile_HostDirectionAttr
    : EnumAttr<Tile_Dialect, Tile_HostDirection, "direction"> {
  let assemblyFormat = "`<` $value `>`";
}

def Tile_AllReduce : I32EnumAttrCase<"AllReduce", 0, "all_reduce">;
def Tile_AllGather : I32EnumAttrCase<"AllGather", 1, "all_gather">;
def Tile_ReduceScatter : I32EnumAttrCase<"ReduceScatter", 2, "reduce_scatter">;
def Tile_Permute : I32EnumAttrCase<"Permute", 3, "collective_permute">;
def Tile_AllToAll : I32EnumAttrCase<"AllToAll", 4, "all_to_all">;
def Tile_CollectiveKind : I32EnumAttr<"CollectiveKind",
    "what a collective computes from the replicas' buffers",
    [Tile_AllReduce, Tile_AllGather, Tile_ReduceScatter, Tile_Permute,
     Tile_AllToAll]> {
  let cppNamespace = "::tessera::tile";
  let genSpecializedAttr = 0;
}
def Tile_CollectiveKindAttr
    : EnumAttr<Tile_Dialect, Tile_CollectiveKind, "collective_kind"> {
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

def Tile_MappingAttr : AttrDef<Tile_Dialect, "Mapping"> {
  let mnemonic = "mapping";
  let summary = "which elements of a buffer each tile holds";
  let description = [{
    A list of runs. The run `[a, b] x n from s` puts n consecutive elements on
    each of the tiles a .. b (inclusive), starting at element s: tile a + i
    holds elements [s + i·n, s + (i+1)·n). A buffer of 1,000 f32 spread with
    grain 64 over tiles 0..15 is

    ```mlir
    #tile.mapping<[0, 14] x 64 from 0, [15, 15] x 40 from 960>
    ```

    Runs are stored flat as (first tile, end tile (exclusive), elements per
    tile, first element) so a mapping over thousands of tiles is a handful
    of integers.
    The `tile.var` verifier checks that the runs cover every element exactly
    once and stay within the program's tiles.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$runs);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    struct Run {
      int64_t firstTile, endTile, perTile, firstElement;
      int64_t numTiles() const { return endTile - firstTile; }
      int64_t numElements() const { return numTiles() * perTile; }
    };
    size_t getNumRuns() const { return getRuns().size() / 4; }
    Run getRun(size_t i) const {
      auto r = getRuns();
      return {r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]};
    }
    /// Elements mapped in all.
    int64_t getNumMappedElements() const;
    /// Calls fn(tile, begin, end) for every per-tile interval, run by run.
    void forEachInterval(
        llvm::function_ref<void(int64_t, int64_t, int64_t)> fn) const;
    /// Elements on each tile (size numTiles); tiles beyond are ignored.
    llvm::SmallVector<int64_t> elementsPerTile(int64_t numTiles) const;
    /// Whether every element in [begin, end) is on `tile`.
    bool holds(int64_t tile, int64_t begin, int64_t end) const;
    /// Whether `tile` holds any element.
    bool hasElementsOn(int64_t tile) const;
    /// Checks the runs cover [0, numElements) exactly once on tiles below
    /// numTiles; returns a message naming the problem, or "".
    std::string checkCovers(int64_t numElements, int64_t numTiles) const;
  }];
}

#endif // TESSERA_TILE_BASE
