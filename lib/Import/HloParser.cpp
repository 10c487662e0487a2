//===- HloParser.cpp - HLO text to an in-memory module --------------------===//

#include "HloParser.h"
#include "HloAttrs.h"
#include "HloLexer.h"
#include "HloOpcodeAttrs.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace tessera::hlo;
using llvm::SMLoc;
using llvm::StringRef;
using llvm::Twine;

bool tessera::hlo::isKnownElementType(StringRef dtype) {
  return llvm::StringSwitch<bool>(dtype)
      .Cases("pred", "s2", "s4", "s8", "s16", "s32", "s64", true)
      .Cases("u2", "u4", "u8", "u16", "u32", "u64", true)
      .Cases("f16", "bf16", "f32", "f64", "c64", "c128", true)
      .Cases("f8e5m2", "f8e4m3", "f8e4m3fn", "f8e4m3b11fnuz", true)
      .Cases("f8e5m2fnuz", "f8e4m3fnuz", "f8e3m4", "f4e2m1fn", "f8e8m0fnu",
             true)
      .Case("opaque", true)
      .Default(false);
}

namespace {

/// Describes a token for "expected X, got Y" messages.
std::string describe(const Token &tok) {
  switch (tok.kind) {
  case TokKind::Eof:
    return "end of file";
  case TokKind::String:
    return "string " + tok.text.str();
  default:
    return "'" + tok.text.str() + "'";
  }
}

bool isNameToken(const Token &tok) {
  return tok.is(TokKind::Name) || tok.is(TokKind::Identifier);
}

class Parser {
public:
  Parser(StringRef buffer, DiagnosticSink &diags)
      : lexer(buffer), diags(diags) {
    tok = lexer.lex();
  }

  bool parseModule(Module &module);
  static constexpr unsigned kMaxTupleDepth = 64;
  bool parseShape(Shape &shape, unsigned depth = 0);
  bool atEof() const { return tok.is(TokKind::Eof); }
  bool error(SMLoc loc, const Twine &message) {
    diags.error(loc, message);
    return false;
  }
  bool errorHere(const Twine &message) {
    if (tok.is(TokKind::Error)) {
      if (tok.text == "\"")
        return error(tok.loc(), "unterminated string literal");
      // A byte outside ASCII (names are ASCII in HLO) is named by its value:
      // printed alone it is not a character.
      unsigned char c = tok.text.empty() ? 0 : tok.text.front();
      if (c >= 0x80)
        return error(tok.loc(), "unexpected byte 0x" +
                                    llvm::utohexstr(c, /*LowerCase=*/true) +
                                    " (not ASCII)");
      return error(tok.loc(), "unexpected character '" + tok.text + "'");
    }
    return error(tok.loc(), message + ", got " + describe(tok));
  }

private:
  void consume() { tok = lexer.lex(); }
  bool expect(TokKind kind, const Twine &what) {
    if (!tok.is(kind))
      return errorHere("expected " + what);
    consume();
    return true;
  }
  /// Lexes the token after the current one without consuming anything.
  Token peek() const {
    Lexer copy = lexer;
    return copy.lex();
  }

  bool parseHeader(Module &module);
  bool parseAttrList(llvm::SmallVectorImpl<Attr> &attrs);
  bool parseAttr(Attr &attr);
  bool parseTables(StackFrameTables &tables);
  bool parseComputation(Computation &comp);
  bool parseInstruction(Instruction &instr);
  bool parseOperands(Instruction &instr);
  bool parseNestedOperand(Instruction &user, Shape shape, bool hasShape);
  bool parseDims(Shape &shape);
  bool checkMinorToMajor(const Shape &shape);
  bool checkLayoutTags(const Shape &shape);
  /// True if the current token starts a shape (`(`, `f32[`, `token[`).
  bool atShapeStart() const {
    return tok.is(TokKind::LParen) ||
           (tok.is(TokKind::Identifier) && lexer.nextCharIs('['));
  }

  Lexer lexer;
  DiagnosticSink &diags;
  Token tok;
  /// The module being parsed: it owns the names made up for nested
  /// operand instructions.
  Module *module = nullptr;
  /// Instructions written in the operand list of the one being parsed.
  std::vector<Instruction> nestedInstructions;
  static constexpr unsigned kMaxNestedOperands = 64;
  unsigned nestedDepth = 0;
};

} // namespace

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

int64_t tessera::hlo::elementByteSize(StringRef dtype) {
  return llvm::StringSwitch<int64_t>(dtype)
      .Cases("s16", "u16", "f16", "bf16", 2)
      .Cases("s32", "u32", "f32", 4)
      .Cases("s64", "u64", "f64", "c64", 8)
      .Case("c128", 16)
      .Default(1);
}

bool tessera::hlo::fitsInInt64Bytes(const Shape &shape) {
  int64_t bytes = elementByteSize(shape.dtype);
  for (size_t i = 0; i < shape.dims.size(); ++i) {
    int64_t dim = shape.dims[i] >= 0
                      ? shape.dims[i]
                      : (shape.isDynamic() ? shape.bounds[i] : -1);
    if (dim >= 0 && llvm::MulOverflow(bytes, dim, bytes))
      return false;
  }
  return true;
}

bool Parser::parseShape(Shape &shape, unsigned depth) {
  shape.loc = tok.loc();
  if (tok.is(TokKind::LParen)) {
    // Real shapes nest a few levels; a bound keeps hostile input from
    // exhausting the stack.
    if (depth > kMaxTupleDepth)
      return error(tok.loc(), "tuple shapes nest deeper than " +
                                  Twine(kMaxTupleDepth) + " levels");
    shape.kind = Shape::Kind::Tuple;
    consume();
    if (tok.is(TokKind::RParen)) {
      consume();
      return true;
    }
    while (true) {
      shape.elements.emplace_back();
      if (!parseShape(shape.elements.back(), depth + 1))
        return false;
      if (tok.is(TokKind::Comma)) {
        consume();
        continue;
      }
      return expect(TokKind::RParen, "',' or ')' in tuple shape");
    }
  }
  if (!tok.is(TokKind::Identifier))
    return errorHere("expected a shape such as 'f32[2,3]' or '(s32[], f32[])'");
  StringRef dtype = tok.text;
  if (!lexer.nextCharIs('['))
    return error(tok.loc(), "expected '[' right after element type '" + dtype +
                                "' in a shape");
  if (dtype == "token") {
    shape.kind = Shape::Kind::Token;
  } else if (!isKnownElementType(dtype)) {
    return error(tok.loc(),
                 "unknown element type '" + dtype +
                     "' in shape (expected pred, s8..s64, u8..u64, f16, bf16, "
                     "f32, f64, c64, c128, f8 variants or token)");
  }
  shape.dtype = dtype;
  consume(); // dtype
  if (!parseDims(shape))
    return false;
  // As XLA's shape validation: the byte size (and so the element count)
  // fits in int64, which every later size computation assumes. A zero-size
  // dimension is legal, as in XLA.
  if (!fitsInInt64Bytes(shape))
    return error(shape.loc, "shape " + dtype +
                                "[...] is larger than 2^63 - 1 bytes "
                                "(its element count times " +
                                Twine(elementByteSize(dtype)) +
                                " bytes overflows)");
  // `tok` is the `]`; a layout follows with no space in between.
  if (lexer.nextCharIs('{')) {
    bool ok;
    shape.layout = lexer.scanRawValue(ok);
    if (!ok)
      return error(SMLoc::getFromPointer(shape.layout.data()),
                   "unterminated layout in shape");
    if (!checkMinorToMajor(shape) || !checkLayoutTags(shape))
      return false;
  }
  consume(); // ']' or the token after the layout
  return true;
}

bool Parser::checkMinorToMajor(const Shape &shape) {
  // As XLA's layout validation: `{1,0:T(8,128)}` lists each dimension
  // once, minor to major, before any ':' (an empty list is no layout).
  // The tiling and memory-space part after ':' is kept as text.
  StringRef body = shape.layout.drop_front();
  body = body.take_until([](char c) { return c == ':' || c == '}'; });
  size_t rank = shape.dims.size();
  llvm::SmallVector<StringRef, 4> parts;
  body.split(parts, ',', -1, /*KeepEmpty=*/true);
  if (parts.size() == 1 && parts[0].trim().empty())
    return true;
  llvm::SmallVector<bool, 4> seen(rank, false);
  for (StringRef part : parts) {
    int64_t d;
    SMLoc at = SMLoc::getFromPointer(part.data());
    if (part.trim().getAsInteger(10, d))
      return error(at, "expected a dimension number in layout " + shape.layout);
    if (d < 0 || d >= static_cast<int64_t>(rank) || seen[d])
      return error(at, "layout " + shape.layout + " of a rank-" + Twine(rank) +
                           " shape names dimension " + Twine(d) +
                           (d >= 0 && d < static_cast<int64_t>(rank)
                                ? " twice"
                                : ", which it does not have"));
    seen[d] = true;
  }
  if (parts.size() != rank)
    return error(SMLoc::getFromPointer(shape.layout.data()),
                 "layout " + shape.layout + " lists " + Twine(parts.size()) +
                     " dimensions of a rank-" + Twine(rank) + " shape");
  return true;
}

bool Parser::checkLayoutTags(const Shape &shape) {
  // After ':' XLA's layout has tagged groups: D(dim level types),
  // T(tile)(tile)..., L(tail padding), #(index type), *(pointer type),
  // E(element bits), S(memory space), SC(split configs), P(physical
  // shape), M(metadata bytes). Their contents are kept as text.
  StringRef body = shape.layout.drop_front().drop_back();
  size_t colon = body.find(':');
  if (colon == StringRef::npos)
    return true;
  StringRef tags = body.drop_front(colon + 1);
  size_t pos = 0;
  while (pos < tags.size()) {
    size_t start = pos;
    while (pos < tags.size() && tags[pos] != '(')
      ++pos;
    StringRef tag = tags.slice(start, pos).trim();
    bool known = tag == "D" || tag == "T" || tag == "L" || tag == "#" ||
                 tag == "*" || tag == "E" || tag == "S" || tag == "SC" ||
                 tag == "P" || tag == "M";
    if (!known || pos == tags.size())
      return error(SMLoc::getFromPointer(tags.data() + start),
                   "unknown layout tag '" + tag + "' in " + shape.layout +
                       " (XLA's are D, T, L, #, *, E, S, SC, P and M)");
    // The tag's groups: `T(8,128)(2,1)` has two.
    while (pos < tags.size() && tags[pos] == '(') {
      int depth = 0;
      do {
        if (tags[pos] == '(')
          ++depth;
        else if (tags[pos] == ')')
          --depth;
        ++pos;
      } while (pos < tags.size() && depth > 0);
    }
  }
  return true;
}

bool Parser::parseDims(Shape &shape) {
  if (!tok.is(TokKind::LSquare))
    return errorHere("expected '[' in shape");
  consume();
  if (tok.is(TokKind::RSquare))
    return true; // scalar; caller consumes ']'
  bool anyDynamic = false;
  llvm::SmallVector<int64_t, 4> bounds;
  while (true) {
    int64_t size = -1, bound = -1;
    if (tok.is(TokKind::Question)) {
      anyDynamic = true;
      consume();
    } else {
      bool bounded = tok.is(TokKind::LessEqual);
      if (bounded)
        consume();
      if (!tok.is(TokKind::Integer) || tok.text.getAsInteger(10, bound) ||
          bound < 0)
        return errorHere(bounded ? "expected a dimension bound after '<='"
                                 : "expected a dimension size, '<=N' or '?'");
      consume();
      if (bounded)
        anyDynamic = true;
      else
        size = bound;
    }
    shape.dims.push_back(size);
    bounds.push_back(bound);
    if (tok.is(TokKind::Comma)) {
      consume();
      continue;
    }
    if (!tok.is(TokKind::RSquare))
      return errorHere("expected ',' or ']' in shape dimensions");
    break;
  }
  if (anyDynamic)
    shape.bounds.assign(bounds.begin(), bounds.end());
  return true;
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

bool Parser::parseAttr(Attr &attr) {
  if (!isNameToken(tok) || tok.is(TokKind::Name))
    return errorHere("expected an attribute name");
  attr.name = tok.text;
  attr.nameLoc = tok.loc();
  consume();
  if (!tok.is(TokKind::Equal))
    return errorHere("expected '=' after attribute '" + attr.name + "'");
  // The lexer stands right after '='; take the value as raw text (a
  // custom call's `literal=` is a shape, a space and the literal).
  bool ok;
  attr.value = attr.name == "literal" ? lexer.scanShapedLiteral(ok)
                                      : lexer.scanRawValue(ok);
  if (!ok)
    return error(attr.valueLoc(), "unterminated value of attribute '" +
                                      attr.name +
                                      "' (unbalanced brackets or quotes)");
  if (attr.value.empty())
    return error(attr.valueLoc(),
                 "expected a value for attribute '" + attr.name + "'");
  consume();
  return true;
}

bool Parser::parseAttrList(llvm::SmallVectorImpl<Attr> &attrs) {
  while (tok.is(TokKind::Comma)) {
    consume();
    attrs.emplace_back();
    if (!parseAttr(attrs.back()))
      return false;
    // Attribute lists are short; a linear scan keeps this cheap.
    const Attr &added = attrs.back();
    for (size_t i = 0, e = attrs.size() - 1; i < e; ++i)
      if (attrs[i].name == added.name)
        return error(added.nameLoc, "duplicate attribute '" + added.name + "'");
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Module header and location tables
//===----------------------------------------------------------------------===//

bool Parser::parseHeader(Module &module) {
  // XLA's parser also takes a file of computations with no header; the
  // module is then named after its entry (parseModule).
  if (!tok.isIdent("HloModule")) {
    module.loc = tok.loc();
    return true;
  }
  consume();
  if (!isNameToken(tok))
    return errorHere("expected the module name after 'HloModule'");
  module.name = tok.text;
  module.loc = tok.loc();
  consume();
  // `HloModule name:` (older dumps) ends the name with a colon.
  if (tok.is(TokKind::Colon))
    consume();
  return parseAttrList(module.attrs);
}

static bool isTableName(StringRef s) {
  return s == "FileNames" || s == "FunctionNames" || s == "FileLocations" ||
         s == "StackFrames";
}

bool Parser::parseTables(StackFrameTables &tables) {
  while (tok.is(TokKind::Identifier) && isTableName(tok.text)) {
    Token next = peek();
    if (next.is(TokKind::LParen) || next.is(TokKind::LBrace))
      return true; // a computation that happens to have this name
    StringRef table = tok.text;
    consume();
    int64_t expectedId = 1;
    while (tok.is(TokKind::Integer)) {
      int64_t id;
      SMLoc idLoc = tok.loc();
      if (tok.text.getAsInteger(10, id) || id != expectedId)
        return error(idLoc, "expected entry " + Twine(expectedId) + " in the " +
                                table + " table, got '" + tok.text + "'");
      ++expectedId;
      consume();
      if (table == "FileNames" || table == "FunctionNames") {
        if (!tok.is(TokKind::String))
          return errorHere("expected a quoted name in the " + table + " table");
        std::string text;
        if (!unescapeString(tok.text, text))
          return error(tok.loc(), "bad escape sequence in string");
        (table == "FileNames" ? tables.fileNames : tables.functionNames)
            .push_back(std::move(text));
        consume();
        continue;
      }
      if (!expect(TokKind::LBrace, "'{' in the " + table + " table"))
        return false;
      FileLocation location;
      StackFrame frame;
      frame.loc = idLoc;
      while (tok.is(TokKind::Identifier)) {
        StringRef key = tok.text;
        SMLoc keyLoc = tok.loc();
        consume();
        if (!expect(TokKind::Equal, "'=' after '" + key + "'"))
          return false;
        int64_t value;
        if (!tok.is(TokKind::Integer) || tok.text.getAsInteger(10, value))
          return errorHere("expected an integer value for '" + key + "'");
        consume();
        if (table == "FileLocations") {
          if (key == "file_name_id")
            location.fileNameId = value;
          else if (key == "function_name_id")
            location.functionNameId = value;
          else if (key == "line")
            location.line = value;
          else if (key == "column")
            location.column = value;
          else if (key != "end_line" && key != "end_column")
            return error(keyLoc, "unknown field '" + key +
                                     "' in the FileLocations table");
        } else {
          if (key == "file_location_id")
            frame.fileLocationId = value;
          else if (key == "parent_frame_id")
            frame.parentFrameId = value;
          else
            return error(keyLoc, "unknown field '" + key +
                                     "' in the StackFrames table");
        }
      }
      if (!expect(TokKind::RBrace, "'}' closing a " + table + " entry"))
        return false;
      if (table == "FileLocations")
        tables.fileLocations.push_back(location);
      else
        tables.stackFrames.push_back(frame);
    }
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Computations and instructions
//===----------------------------------------------------------------------===//

bool Parser::parseOperands(Instruction &instr) {
  // `tok` is '('.
  if (instr.opcode == "constant") {
    // The lexer stands right after '('; the literal is raw text.
    bool ok;
    instr.literal = lexer.scanBalancedUntilClose(ok);
    if (!ok)
      return error(SMLoc::getFromPointer(instr.literal.data()),
                   "unterminated constant literal (missing ')')");
    consume(); // now at ')'
    return expect(TokKind::RParen, "')' after the constant literal");
  }
  consume();
  if (instr.opcode == "parameter") {
    if (!tok.is(TokKind::Integer) ||
        tok.text.getAsInteger(10, instr.parameterNumber) ||
        instr.parameterNumber < 0)
      return errorHere("expected the parameter number in 'parameter(N)'");
    consume();
    return expect(TokKind::RParen, "')' after the parameter number");
  }
  if (tok.is(TokKind::RParen)) {
    consume();
    return true;
  }
  while (true) {
    Shape shape;
    bool hasShape = atShapeStart();
    // Long form: the operand's shape precedes its name; the emitter takes
    // types from the defining instruction, so it is only checked for
    // syntax here.
    if (hasShape && !parseShape(shape))
      return false;
    if (!isNameToken(tok))
      return errorHere("expected an operand name");
    if (tok.is(TokKind::Identifier) && peek().is(TokKind::LParen)) {
      if (!parseNestedOperand(instr, std::move(shape), hasShape))
        return false;
    } else {
      OperandRef &ref = instr.operands.emplace_back();
      ref.name = tok.text;
      ref.loc = tok.loc();
      if (hasShape)
        ref.shape = std::make_unique<Shape>(std::move(shape));
      consume();
    }
    if (tok.is(TokKind::Comma)) {
      consume();
      continue;
    }
    return expect(TokKind::RParen, "',' or ')' in the operand list");
  }
}

bool Parser::parseNestedOperand(Instruction &user, Shape shape, bool hasShape) {
  // XLA's parser takes an instruction written in place of an operand,
  // `add(f32[] sqrt(x), y)` or, its shape inferred, `add(sqrt(x), y)`: it
  // becomes an instruction of its own, named after its user and position,
  // placed before the user.
  if (nestedDepth >= kMaxNestedOperands)
    return errorHere("instructions nested in operand lists more than " +
                     Twine(kMaxNestedOperands) + " deep");
  Instruction nested;
  nested.hasShape = hasShape;
  nested.shape = std::move(shape);
  nested.opcode = tok.text;
  nested.opcodeLoc = nested.loc = tok.loc();
  nested.name = module->madeUpNames.emplace_back(
      (user.name + "." + Twine(user.operands.size()) + "." + tok.text).str());
  consume(); // now at '('
  ++nestedDepth;
  bool ok = parseOperands(nested);
  --nestedDepth;
  // XLA parses it without attributes: an opcode that needs one (compare's
  // direction=) cannot be written nested.
  if (!ok || !checkOpcodeAttributes(nested, diags))
    return false;
  OperandRef &ref = user.operands.emplace_back();
  ref.name = nested.name;
  ref.loc = nested.loc;
  nestedInstructions.push_back(std::move(nested));
  return true;
}

bool Parser::parseInstruction(Instruction &instr) {
  if (tok.isIdent("ROOT")) {
    instr.isRoot = true;
    consume();
  }
  if (!isNameToken(tok))
    return errorHere("expected an instruction name");
  instr.name = tok.text;
  instr.loc = tok.loc();
  consume();
  if (!expect(TokKind::Equal,
              "'=' after instruction name '" + instr.name.str() + "'"))
    return false;
  // XLA's parser infers the result shape of many opcodes when the text
  // leaves it out (`r = negate(x)`); an opcode is a word right before '('.
  instr.hasShape = atShapeStart();
  if (instr.hasShape && !parseShape(instr.shape))
    return false;
  if (!tok.is(TokKind::Identifier))
    return errorHere(instr.hasShape
                         ? "expected an opcode after the shape of '" +
                               instr.name.str() + "'"
                         : "expected a shape or an opcode after '" +
                               instr.name.str() + " ='");
  instr.opcode = tok.text;
  instr.opcodeLoc = tok.loc();
  consume();
  if (!tok.is(TokKind::LParen))
    return errorHere("expected '(' after opcode '" + instr.opcode.str() + "'");
  if (!parseOperands(instr))
    return false;
  return parseAttrList(instr.attrs) && checkOpcodeAttributes(instr, diags);
}

bool Parser::parseComputation(Computation &comp) {
  if (tok.isIdent("ENTRY")) {
    comp.isEntry = true;
    consume();
  }
  if (!isNameToken(tok))
    return errorHere("expected a computation name");
  comp.name = tok.text;
  comp.loc = tok.loc();
  consume();
  if (tok.is(TokKind::LParen)) {
    // The signature repeats what the parameter instructions and the root
    // say (without layouts); the emitter checks that it agrees.
    comp.hasSignature = true;
    consume();
    while (!tok.is(TokKind::RParen)) {
      if (!isNameToken(tok))
        return errorHere("expected a parameter name in the signature of '" +
                         comp.name.str() + "'");
      consume();
      if (!expect(TokKind::Colon, "':' after a parameter name"))
        return false;
      if (!parseShape(comp.signatureParams.emplace_back()))
        return false;
      if (tok.is(TokKind::Comma))
        consume();
      else if (!tok.is(TokKind::RParen))
        return errorHere("expected ',' or ')' in the computation signature");
    }
    consume();
    if (!expect(TokKind::Arrow, "'->' and the result shape"))
      return false;
    if (!parseShape(comp.signatureResult))
      return false;
  }
  if (!expect(TokKind::LBrace,
              "'{' to open computation '" + comp.name.str() + "'"))
    return false;
  llvm::StringMap<size_t> names;
  while (!tok.is(TokKind::RBrace)) {
    if (tok.is(TokKind::Eof))
      return error(tok.loc(), "unexpected end of file: computation '" +
                                  comp.name + "' is not closed with '}'");
    Instruction parsed;
    if (!parseInstruction(parsed))
      return false;
    // Instructions written nested in its operand list come first, so the
    // instruction itself stays last (the root when none is marked).
    for (Instruction &nested : nestedInstructions) {
      if (!names.try_emplace(nested.name, comp.instructions.size()).second)
        return error(nested.loc, "duplicate instruction name '" + nested.name +
                                     "' in computation '" + comp.name + "'");
      comp.instructions.push_back(std::move(nested));
    }
    nestedInstructions.clear();
    comp.instructions.push_back(std::move(parsed));
    Instruction &instr = comp.instructions.back();
    auto [it, inserted] =
        names.try_emplace(instr.name, comp.instructions.size() - 1);
    if (!inserted)
      return error(instr.loc, "duplicate instruction name '" + instr.name +
                                  "' in computation '" + comp.name + "'");
    if (instr.isRoot) {
      if (comp.rootIndex >= 0)
        return error(instr.loc, "computation '" + comp.name +
                                    "' has a second ROOT instruction '" +
                                    instr.name + "' (the first is '" +
                                    comp.instructions[comp.rootIndex].name +
                                    "')");
      comp.rootIndex = comp.instructions.size() - 1;
    }
  }
  if (comp.instructions.empty())
    return error(tok.loc(), "computation '" + comp.name + "' is empty");
  consume(); // '}'
  if (comp.rootIndex < 0)
    comp.rootIndex = comp.instructions.size() - 1;
  // Newer XLA may print `, execution_thread="..."` after the body.
  llvm::SmallVector<Attr, 1> ignored;
  return parseAttrList(ignored);
}

bool Parser::parseModule(Module &module) {
  this->module = &module;
  if (!parseHeader(module) || !parseTables(module.frames))
    return false;
  llvm::StringMap<size_t> names;
  int64_t entry = -1; // index, as the vector grows
  while (!tok.is(TokKind::Eof)) {
    module.computations.emplace_back();
    Computation &comp = module.computations.back();
    if (!parseComputation(comp))
      return false;
    if (!names.try_emplace(comp.name, module.computations.size() - 1).second)
      return error(comp.loc, "duplicate computation name '" + comp.name + "'");
    if (comp.isEntry) {
      if (entry >= 0)
        return error(comp.loc, "second ENTRY computation '" + comp.name +
                                   "' (the first is '" +
                                   module.computations[entry].name + "')");
      entry = module.computations.size() - 1;
    }
  }
  if (module.computations.empty())
    return error(tok.loc(), module.name.empty()
                                ? Twine("expected 'HloModule' or a computation")
                                : "unexpected end of file: module '" +
                                      module.name + "' has no computations");
  // Without an ENTRY mark the last computation is the entry, as in XLA.
  if (entry < 0) {
    entry = module.computations.size() - 1;
    module.computations[entry].isEntry = true;
  }
  if (module.name.empty())
    module.name = module.computations[entry].name;
  return true;
}

bool tessera::hlo::parseModule(StringRef buffer, DiagnosticSink &diags,
                               Module &module) {
  Parser parser(buffer, diags);
  return parser.parseModule(module);
}

bool tessera::hlo::parseShapeText(StringRef text, DiagnosticSink &diags,
                                  Shape &shape) {
  Parser parser(text, diags);
  if (!parser.parseShape(shape))
    return false;
  if (!parser.atEof())
    return parser.errorHere("unexpected text after shape");
  return true;
}
