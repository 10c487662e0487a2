//===- TGraphDialect.cpp - tgraph dialect registration --------------------===//

#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tessera::tgraph;

#include "tessera/Dialect/TGraph/IR/TGraphOpsDialect.cpp.inc"

#include "tessera/Dialect/TGraph/IR/TGraphEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tessera/Dialect/TGraph/IR/TGraphOpsTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tessera/Dialect/TGraph/IR/TGraphAttrs.cpp.inc"

void TGraphDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tessera/Dialect/TGraph/IR/TGraphOps.cpp.inc"
      >();
  registerTypes();
  registerAttributes();
}

void TGraphDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tessera/Dialect/TGraph/IR/TGraphOpsTypes.cpp.inc"
      >();
}

void TGraphDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tessera/Dialect/TGraph/IR/TGraphAttrs.cpp.inc"
      >();
}
