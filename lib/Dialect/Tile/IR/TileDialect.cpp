//===- TileDialect.cpp - tile dialect registration and syntax -------------===//

#include "tessera/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tessera::tile;

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

/// `16x64xf32`: the buffer's static shape and element type.
static ParseResult parseShape(AsmParser &parser, SmallVector<int64_t> &shape,
                              Type &elementType) {
  if (parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType))
    return failure();
  return success();
}

static void printShape(AsmPrinter &printer, ArrayRef<int64_t> shape,
                       Type elementType) {
  for (int64_t d : shape)
    printer << d << 'x';
  printer << elementType;
}

/// Enum keywords printed bare: `parameter`, `infeed`.
template <typename EnumAttrT, typename EnumT>
static ParseResult
parseEnumKeyword(OpAsmParser &parser, EnumAttrT &attr,
                 std::optional<EnumT> (*symbolize)(llvm::StringRef),
                 llvm::StringRef what) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  llvm::StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<EnumT> value = symbolize(keyword);
  if (!value)
    return parser.emitError(loc)
           << "unknown " << what << " '" << keyword << "'";
  attr = EnumAttrT::get(parser.getContext(), *value);
  return success();
}

static ParseResult parseCategory(OpAsmParser &parser, CategoryAttr &attr) {
  return parseEnumKeyword<CategoryAttr, Category>(
      parser, attr, symbolizeCategory, "buffer category");
}
static void printCategory(OpAsmPrinter &printer, Operation *,
                          CategoryAttr attr) {
  printer << stringifyCategory(attr.getValue());
}

static ParseResult parseCollectiveKind(OpAsmParser &parser,
                                       CollectiveKindAttr &attr) {
  return parseEnumKeyword<CollectiveKindAttr, CollectiveKind>(
      parser, attr, symbolizeCollectiveKind, "collective kind");
}
static void printCollectiveKind(OpAsmPrinter &printer, Operation *,
                                CollectiveKindAttr attr) {
  printer << stringifyCollectiveKind(attr.getValue());
}

static ParseResult parseDirection(OpAsmParser &parser,
                                  HostDirectionAttr &attr) {
  return parseEnumKeyword<HostDirectionAttr, HostDirection>(
      parser, attr, symbolizeHostDirection, "host copy direction");
}
static void printDirection(OpAsmPrinter &printer, Operation *,
                           HostDirectionAttr attr) {
  printer << stringifyHostDirection(attr.getValue());
}

/// `[first, last]`: an inclusive tile range, stored as [first, end).
static ParseResult parseTileRange(OpAsmParser &parser, IntegerAttr &first,
                                  IntegerAttr &end) {
  int64_t a, b;
  if (parser.parseLSquare() || parser.parseInteger(a) || parser.parseComma() ||
      parser.parseInteger(b) || parser.parseRSquare())
    return failure();
  Builder builder(parser.getContext());
  first = builder.getI64IntegerAttr(a);
  end = builder.getI64IntegerAttr(b + 1);
  return success();
}
static void printTileRange(OpAsmPrinter &printer, Operation *,
                           IntegerAttr first, IntegerAttr end) {
  printer << '[' << first.getInt() << ", " << end.getInt() - 1 << ']';
}

/// `mapping<...>`: a full `#tile.mapping<...>` before the op's `: type`
/// would take that type as its own, so the op prints it stripped.
static ParseResult parseMapping(OpAsmParser &parser, MappingAttr &mapping) {
  if (parser.parseKeyword("mapping"))
    return failure();
  mapping =
      llvm::dyn_cast_or_null<MappingAttr>(MappingAttr::parse(parser, Type()));
  return success(mapping != nullptr);
}
static void printMapping(OpAsmPrinter &printer, Operation *,
                         MappingAttr mapping) {
  printer << "mapping";
  mapping.print(printer);
}

#include "tessera/Dialect/Tile/IR/TileEnums.cpp.inc"
#include "tessera/Dialect/Tile/IR/TileOpsDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tessera/Dialect/Tile/IR/TileOpsTypes.cpp.inc"

#define GET_OP_CLASSES
#include "tessera/Dialect/Tile/IR/TileOps.cpp.inc"

void TileDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tessera/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
  registerTypes();
  registerAttributes();
}

void TileDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tessera/Dialect/Tile/IR/TileOpsTypes.cpp.inc"
      >();
}
