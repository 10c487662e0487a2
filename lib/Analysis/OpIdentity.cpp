//===- OpIdentity.cpp - how reports name an op ----------------------------===//

#include "tessera/Analysis/OpIdentity.h"

#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace tessera;

static std::string formatLoc(FileLineColLoc loc, bool withColumn) {
  std::string s = loc.getFilename().str() + ":" + std::to_string(loc.getLine());
  if (withColumn)
    s += ":" + std::to_string(loc.getColumn());
  return s;
}

/// The importer locates an op as NameLoc(instruction, <position in the
/// input>), fused with the user's source position when metadata has one; an
/// op parsed from MLIR text has just its position.
static void readLocation(Location loc, OpIdentity &id, bool inName,
                         llvm::SmallVectorImpl<FileLineColLoc> &outside) {
  if (auto name = dyn_cast<NameLoc>(loc)) {
    readLocation(name.getChildLoc(), id, /*inName=*/true, outside);
  } else if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location inner : fused.getLocations())
      readLocation(inner, id, inName, outside);
  } else if (auto file = dyn_cast<FileLineColLoc>(loc)) {
    if (!inName)
      outside.push_back(file);
    else if (id.location.empty())
      id.location = formatLoc(file, /*withColumn=*/true);
  } else if (auto callSite = dyn_cast<CallSiteLoc>(loc)) {
    readLocation(callSite.getCallee(), id, inName, outside);
  }
}

OpIdentity tessera::identifyOp(Operation *op) {
  OpIdentity id;
  id.instruction = tgraph::getInstructionName(op).str();
  llvm::SmallVector<FileLineColLoc, 2> outside;
  readLocation(op->getLoc(), id, /*inName=*/false, outside);
  auto *next = outside.begin();
  if (id.location.empty() && next != outside.end())
    id.location = formatLoc(*next++, /*withColumn=*/true);
  if (next != outside.end())
    id.source = formatLoc(*next, /*withColumn=*/false);
  if (auto s = op->getAttrOfType<StringAttr>(tgraph::kOpNameAttr))
    id.opName = s.getValue().str();
  if (auto s = op->getAttrOfType<StringAttr>(tgraph::kOpTypeAttr))
    id.opType = s.getValue().str();
  if (auto fn = op->getParentOfType<func::FuncOp>())
    id.function = fn.getSymName().str();
  return id;
}

llvm::StringRef tessera::opCategory(llvm::StringRef kind) {
  return llvm::StringSwitch<llvm::StringRef>(kind)
      .Case("convolution", "convolution")
      .Case("dot_general", "matmul")
      .Cases("reduce", "reduce_window", "select_and_scatter",
             "batch_norm_training", "batch_norm_inference", "batch_norm_grad",
             "reduction")
      .Cases("all_reduce", "all_gather", "all_to_all", "reduce_scatter",
             "collective_permute", "collective")
      .Cases("while", "conditional", "call", "fusion", "control")
      .Cases("broadcast_in_dim", "reshape", "transpose", "reverse", "slice",
             "dynamic_slice", "dynamic_update_slice", "concatenate", "pad",
             "data formatting")
      .Cases("gather", "scatter", "sort", "copy", "iota", "constant",
             "data formatting")
      .Cases("tuple", "get_tuple_element", "bitcast", "infeed", "outfeed",
             "data formatting")
      .Default("elementwise");
}
