//===- HloTypes.cpp - HLO's names of MLIR element types -------------------===//

#include "tessera/Dialect/TGraph/IR/HloTypes.h"

#include "mlir/IR/BuiltinTypes.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;

std::string tessera::hloDtypeName(Type t) {
  if (t.isInteger(1))
    return "pred";
  // The common widths as literals: the lowering and the compatibility
  // checker ask per op and per buffer (1.6% of the 10k-op graph's compile
  // went to building "f" + to_string(32)).
  if (auto i = dyn_cast<IntegerType>(t)) {
    bool u = i.isUnsigned();
    switch (i.getWidth()) {
    case 8:
      return u ? "u8" : "s8";
    case 16:
      return u ? "u16" : "s16";
    case 32:
      return u ? "u32" : "s32";
    case 64:
      return u ? "u64" : "s64";
    default:
      return (u ? "u" : "s") + std::to_string(i.getWidth());
    }
  }
  if (t.isBF16())
    return "bf16";
  if (t.isFloat8E4M3FN())
    return "f8e4m3fn";
  if (t.isFloat8E5M2())
    return "f8e5m2";
  if (auto f = dyn_cast<FloatType>(t)) {
    switch (f.getWidth()) {
    case 16:
      return "f16";
    case 32:
      return "f32";
    case 64:
      return "f64";
    default:
      return "f" + std::to_string(f.getWidth());
    }
  }
  if (auto c = dyn_cast<ComplexType>(t))
    return "c" + std::to_string(2 * c.getElementType().getIntOrFloatBitWidth());
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}
