//===- HloAst.h - in-memory form of an HLO text module ----------*- C++ -*-===//
//
// What the parser produces and the emitter consumes. All strings are views
// into the source buffer (which outlives both), so building the AST of a
// large dump copies no text. Attribute values are kept as raw text plus
// their location; the emitter interprets them per attribute name.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_LIB_IMPORT_HLOAST_H
#define TESSERA_LIB_IMPORT_HLOAST_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace tessera::hlo {

/// An HLO shape: an array `f32[8,<=16]{1,0:T(8,128)}`, `token[]`, or a
/// (possibly nested) tuple.
struct Shape {
  enum class Kind { Array, Tuple, Token };
  Kind kind = Kind::Array;
  llvm::SMLoc loc;
  /// Element type spelling (`f32`, `pred`, `bf16`, ...); arrays only.
  llvm::StringRef dtype;
  /// Dimension sizes; -1 for a dynamic dimension (`?` or `<=N`).
  llvm::SmallVector<int64_t, 4> dims;
  /// For each dimension: its bound (`<=N`), its size when static, -1 for
  /// an unbounded `?`. Empty unless some dimension is dynamic (rare: not
  /// kept inline, as every instruction holds a Shape).
  std::vector<int64_t> bounds;
  /// Layout text including braces (`{1,0:T(8,128)}`), empty if none given.
  llvm::StringRef layout;
  std::vector<Shape> elements; // tuples only

  bool isDynamic() const { return !bounds.empty(); }
};

/// `name=value` after an instruction, in the module header, or in a table.
struct Attr {
  llvm::StringRef name;
  llvm::SMLoc nameLoc;
  llvm::StringRef value; // raw text, e.g. `{1,0}`, `"abc"`, `%comp`
  llvm::SMLoc valueLoc() const {
    return llvm::SMLoc::getFromPointer(value.data());
  }
};

struct OperandRef {
  llvm::StringRef name;
  llvm::SMLoc loc;
  /// The long print form's `f32[4]{0} %x`: the shape written before the
  /// name, checked against the operand's definition; null in the short
  /// form. Out of line: held in place, it made an instruction 960 bytes,
  /// and a 100k-instruction module's instructions took 96 MB (190 MB
  /// while their vector grew).
  std::unique_ptr<Shape> shape;
};

struct Instruction {
  // Moved, never copied. SmallVector's move is not noexcept, so while an
  // instruction could be copied, a vector of them copied every one, deep,
  // each time it grew.
  Instruction() = default;
  Instruction(Instruction &&) = default;
  Instruction &operator=(Instruction &&) = default;
  Instruction(const Instruction &) = delete;
  Instruction &operator=(const Instruction &) = delete;

  llvm::StringRef name;
  llvm::SMLoc loc; // of the name
  bool isRoot = false;
  /// False when the text gives no result shape (`r = negate(x)`, as XLA's
  /// parser accepts); inferShapes fills `shape` in before emission.
  bool hasShape = true;
  Shape shape;
  llvm::StringRef opcode;
  llvm::SMLoc opcodeLoc;
  llvm::SmallVector<OperandRef, 3> operands;
  /// `parameter(N)`: N; otherwise -1.
  int64_t parameterNumber = -1;
  /// `constant(...)`: the text between the parentheses.
  llvm::StringRef literal;
  llvm::SmallVector<Attr, 2> attrs;

  const Attr *findAttr(llvm::StringRef attrName) const {
    for (const Attr &a : attrs)
      if (a.name == attrName)
        return &a;
    return nullptr;
  }
};

struct Computation {
  // Moved, never copied (see Instruction).
  Computation() = default;
  Computation(Computation &&) = default;
  Computation &operator=(Computation &&) = default;
  Computation(const Computation &) = delete;
  Computation &operator=(const Computation &) = delete;

  llvm::StringRef name;
  llvm::SMLoc loc;
  bool isEntry = false;
  /// The signature `(p: f32[4], ...) -> f32[4]` when the text has one; the
  /// emitter checks it against the parameters and the root.
  bool hasSignature = false;
  std::vector<Shape> signatureParams;
  Shape signatureResult;
  std::vector<Instruction> instructions;
  /// Index of the ROOT instruction (the last one when none is marked).
  int64_t rootIndex = -1;
};

/// The source-location tables recent XLA prints after the header
/// (`FileNames`, `FunctionNames`, `FileLocations`, `StackFrames`), with the
/// 1-based ids of the text.
struct FileLocation {
  int64_t fileNameId = 0, functionNameId = 0, line = 0, column = 0;
};
struct StackFrame {
  int64_t fileLocationId = 0;
  int64_t parentFrameId = 0; // as printed
  llvm::SMLoc loc;
};
struct StackFrameTables {
  std::vector<std::string> fileNames, functionNames;
  std::vector<FileLocation> fileLocations;
  std::vector<StackFrame> stackFrames;
  bool empty() const { return stackFrames.empty(); }
};

struct Module {
  llvm::StringRef name;
  llvm::SMLoc loc;
  llvm::SmallVector<Attr, 4> attrs;
  StackFrameTables frames;
  std::vector<Computation> computations;
  /// Names the parser made up (for instructions written nested in an
  /// operand list); every other name points into the source buffer.
  std::deque<std::string> madeUpNames;
};

} // namespace tessera::hlo

#endif // TESSERA_LIB_IMPORT_HLOAST_H
