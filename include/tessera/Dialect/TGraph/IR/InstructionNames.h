//===- InstructionNames.h - renaming the HLO instruction in a location -*- C++
//-*-===//
//
// An op imported from HLO carries its instruction's name as a NameLoc
// (fused with its metadata's file:line). Ops a rewrite adds beside it are
// named after it ("dot.1.row", "dot.1.result_reshape"), as XLA names the
// instructions its passes add, so reports still say whose they are.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_DIALECT_TGRAPH_IR_INSTRUCTIONNAMES_H
#define TESSERA_DIALECT_TGRAPH_IR_INSTRUCTIONNAMES_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace tessera::tgraph {

/// `loc` with each instruction name in it replaced by `rename(name)`;
/// the locations fused with it are kept. A location without a name is
/// returned as it is.
inline mlir::Location
renameInstruction(mlir::Location loc,
                  llvm::function_ref<std::string(llvm::StringRef)> rename) {
  mlir::MLIRContext *ctx = loc.getContext();
  if (auto fused = llvm::dyn_cast<mlir::FusedLoc>(loc)) {
    llvm::SmallVector<mlir::Location> parts;
    for (mlir::Location part : fused.getLocations())
      parts.push_back(renameInstruction(part, rename));
    return mlir::FusedLoc::get(ctx, parts, fused.getMetadata());
  }
  if (auto named = llvm::dyn_cast<mlir::NameLoc>(loc))
    return mlir::NameLoc::get(
        mlir::StringAttr::get(ctx, rename(named.getName().strref())),
        named.getChildLoc());
  return loc;
}

} // namespace tessera::tgraph

#endif // TESSERA_DIALECT_TGRAPH_IR_INSTRUCTIONNAMES_H
