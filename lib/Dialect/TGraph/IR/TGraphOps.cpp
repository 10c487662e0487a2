//===- TGraphOps.cpp - tgraph op assembly and helpers ---------------------===//

#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace tessera::tgraph;

//===----------------------------------------------------------------------===//
// Helpers shared by all ops
//===----------------------------------------------------------------------===//

/// The first non-empty NameLoc in `loc`, inner locations in order: a
/// name's own child, a fused location's parts, a call site's callee.
static llvm::StringRef firstName(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc)) {
    if (!name.getName().empty())
      return name.getName().strref();
    return firstName(name.getChildLoc());
  }
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location inner : fused.getLocations())
      if (llvm::StringRef name = firstName(inner); !name.empty())
        return name;
    return {};
  }
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return firstName(callSite.getCallee());
  return {};
}

llvm::StringRef tessera::tgraph::getInstructionName(Operation *op) {
  return firstName(op->getLoc());
}

/// Results are printed under the HLO instruction name when there is one:
/// `%dot.3 = tgraph.dot_general ...` reads like the dump it came from.
static void nameResultAfterInstruction(Operation *op,
                                       OpAsmSetValueNameFn setNameFn) {
  llvm::StringRef name = getInstructionName(op);
  if (!name.empty() && op->getNumResults() == 1)
    setNameFn(op->getResult(0), name);
}

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

static ParseResult parseDirection(OpAsmParser &parser,
                                  ComparisonDirectionAttr &attr) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  llvm::StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<ComparisonDirection> dir =
      symbolizeComparisonDirection(keyword);
  if (!dir)
    return parser.emitError(loc, "expected comparison direction (EQ, NE, GE, "
                                 "GT, LE, LT), got '")
           << keyword << "'";
  attr = ComparisonDirectionAttr::get(parser.getContext(), *dir);
  return success();
}

static void printDirection(OpAsmPrinter &printer, Operation *,
                           ComparisonDirectionAttr attr) {
  printer << stringifyComparisonDirection(attr.getValue());
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

// `tgraph.constant dense<...> : tensor<..>` or `tgraph.constant elided :
// tensor<..>`; the value's type is the result type, so it is printed once.
ParseResult ConstantOp::parse(OpAsmParser &parser, OperationState &result) {
  if (succeeded(parser.parseOptionalKeyword("elided"))) {
    result.addAttribute(getElidedAttrName(result.name),
                        parser.getBuilder().getUnitAttr());
    Type type;
    if (parser.parseOptionalAttrDict(result.attributes) ||
        parser.parseColonType(type))
      return failure();
    result.addTypes(type);
    return success();
  }
  Attribute value;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseAttribute(value) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements)
    return parser.emitError(loc, "expected a typed elements attribute");
  result.addAttribute(getValueAttrName(result.name), elements);
  result.addTypes(elements.getType());
  return success();
}

void ConstantOp::print(OpAsmPrinter &printer) {
  if (getElided()) {
    printer << " elided";
    printer.printOptionalAttrDict((*this)->getAttrs(),
                                  {getElidedAttrName(), getValueAttrName()});
    printer << " : " << getType();
    return;
  }
  printer << ' ';
  printer.printAttribute(*getValue());
  printer.printOptionalAttrDict((*this)->getAttrs(), {getValueAttrName()});
}

//===----------------------------------------------------------------------===//
// Generated definitions
//===----------------------------------------------------------------------===//

#define GET_OP_CLASSES
#include "tessera/Dialect/TGraph/IR/TGraphOps.cpp.inc"
