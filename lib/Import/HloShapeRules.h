//===- HloShapeRules.h - XLA's shape rules for windowed ops -----*- C++ -*-===//
//
// The rules of XLA's shape inference for the opcodes whose result shape
// follows from windows, dimension numbers or transform sizes (convolution,
// reduce-window, gather, fft, broadcast, topk, the linear-algebra ops).
// HloShapeInference dispatches to them; they are kept apart so each file
// stays readable.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_LIB_IMPORT_HLOSHAPERULES_H
#define TESSERA_LIB_IMPORT_HLOSHAPERULES_H

#include "HloAst.h"
#include "HloParser.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Twine.h"

#include <string>

namespace tessera::hlo {

/// `f32[2,?]` / `(f32[2], token[])`, as messages print shapes.
std::string shapeString(const Shape &s);
Shape arrayShape(llvm::StringRef dtype, llvm::ArrayRef<int64_t> dims,
                 llvm::SMLoc loc);

/// One instruction on its way to an inferred shape: its operands' shapes
/// and the reporting every rule shares. A rule that cannot infer reports
/// "cannot infer the shape of '<name>': <why>" at the opcode.
struct ShapeRule {
  const Instruction &instr;
  llvm::ArrayRef<const Shape *> ops;
  DiagnosticSink &diags;

  bool fail(const llvm::Twine &why) const;
  /// Whether there are `n` operands; reports the mismatch if not.
  bool needOperands(size_t n) const;
  /// Operand `i` when it is an array of static size; null after an error.
  const Shape *array(size_t i) const;
  /// The integer list attribute `name` (reported missing when absent).
  bool ints(llvm::StringRef name, llvm::SmallVectorImpl<int64_t> &out) const;
  /// The integer list attribute `name`, left empty when absent.
  bool optionalInts(llvm::StringRef name,
                    llvm::SmallVectorImpl<int64_t> &out) const;
};

bool inferBroadcast(const ShapeRule &r, Shape &out);
bool inferGather(const ShapeRule &r, Shape &out);
bool inferConvolution(const ShapeRule &r, Shape &out);
bool inferReduceWindow(const ShapeRule &r, Shape &out);
bool inferFft(const ShapeRule &r, Shape &out);
bool inferTopK(const ShapeRule &r, Shape &out);
bool inferCholesky(const ShapeRule &r, Shape &out);
bool inferTriangularSolve(const ShapeRule &r, Shape &out);
bool inferSetDimensionSize(const ShapeRule &r, Shape &out);

} // namespace tessera::hlo

#endif // TESSERA_LIB_IMPORT_HLOSHAPERULES_H
