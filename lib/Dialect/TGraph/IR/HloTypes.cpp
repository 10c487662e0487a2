//===- HloTypes.cpp - HLO's names of MLIR element types -------------------===//

#include "tessera/Dialect/TGraph/IR/HloTypes.h"

#include "mlir/IR/BuiltinTypes.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;

std::string tessera::hloDtypeName(Type t) {
  if (t.isInteger(1))
    return "pred";
  if (auto i = dyn_cast<IntegerType>(t))
    return (i.isUnsigned() ? "u" : "s") + std::to_string(i.getWidth());
  if (t.isBF16())
    return "bf16";
  if (t.isFloat8E4M3FN())
    return "f8e4m3fn";
  if (t.isFloat8E5M2())
    return "f8e5m2";
  if (auto f = dyn_cast<FloatType>(t))
    return "f" + std::to_string(f.getWidth());
  if (auto c = dyn_cast<ComplexType>(t))
    return "c" + std::to_string(2 * c.getElementType().getIntOrFloatBitWidth());
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}
