//===- HloParser.h - HLO text to an in-memory module ------------*- C++ -*-===//
//
// A recursive-descent parser for the HLO text XLA dumps:
//
//   module      := 'HloModule' name (',' attr)* table* computation*
//   table       := ('FileNames' | 'FunctionNames') (int string)*
//                | ('FileLocations' | 'StackFrames') (int '{' (id '=' int)*
//                '}')*
//   computation := ['ENTRY'] name [signature] '{' instruction+ '}' (',' attr)*
//   signature   := '(' [name ':' shape (',' name ':' shape)*] ')' '->' shape
//   instruction := ['ROOT'] name '=' [shape] opcode '(' operands ')' (','
//   attr)* operand     := [shape] name          (long form `f32[2]{0} %x`, or
//   `%x`)
//                | [shape] opcode '(' operands ')'   (nested instruction)
//   attr        := name '=' raw-value    (interpreted later, per name)
//
// Names may be written with or without `%`. The parser checks what it can
// see locally (syntax, element types, duplicate names, two ROOTs, ENTRY);
// operand resolution and attribute meaning are the emitter's job.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_LIB_IMPORT_HLOPARSER_H
#define TESSERA_LIB_IMPORT_HLOPARSER_H

#include "HloAst.h"

#include "llvm/ADT/Twine.h"

namespace tessera::hlo {

/// Receives located error messages; the importer turns them into MLIR
/// diagnostics at file:line:col.
class DiagnosticSink {
public:
  virtual ~DiagnosticSink() = default;
  virtual void error(llvm::SMLoc loc, const llvm::Twine &message) = 0;
};

/// Parses `buffer` into `module`. Reports the first error to `diags` and
/// returns false on failure.
bool parseModule(llvm::StringRef buffer, DiagnosticSink &diags, Module &module);

/// True if `dtype` is an HLO element type spelling (`f32`, `pred`, ...).
bool isKnownElementType(llvm::StringRef dtype);

/// Bytes of one element of `dtype` (1 for pred and the sub-byte types).
int64_t elementByteSize(llvm::StringRef dtype);

/// As XLA's shape validation: false when the byte size of array `shape`
/// (its element count times the element size; bounds for dynamic
/// dimensions) does not fit in int64.
bool fitsInInt64Bytes(const Shape &shape);

/// Parses a shape from `text` (used for shapes inside attribute values,
/// e.g. `outfeed_shape=`). Returns false and reports on error.
bool parseShapeText(llvm::StringRef text, DiagnosticSink &diags, Shape &shape);

} // namespace tessera::hlo

#endif // TESSERA_LIB_IMPORT_HLOPARSER_H
