//===- Tile.h - tile dialect -------------------------------------*- C++
//-*-===//
//
// Bulk-synchronous tile programs: buffers mapped to tiles and the steps that
// compute on them and move them (docs/tile-dialect.md).
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_DIALECT_TILE_IR_TILE_H
#define TESSERA_DIALECT_TILE_IR_TILE_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tessera/Dialect/Tile/IR/TileEnums.h.inc"
#include "tessera/Dialect/Tile/IR/TileOpsDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tessera/Dialect/Tile/IR/TileOpsTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tessera/Dialect/Tile/IR/TileAttrs.h.inc"

#define GET_OP_CLASSES
#include "tessera/Dialect/Tile/IR/TileOps.h.inc"

#endif // TESSERA_DIALECT_TILE_IR_TILE_H
