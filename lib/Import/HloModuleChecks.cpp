//===- HloModuleChecks.cpp - the module header's attributes ---------------===//
//
// XLA's parser takes a fixed set of header attributes and reads the
// aliasing ones against the entry computation:
//
//   input_output_alias={ {0}: (0, {}, may-alias), {1}: (2, {1}) }
//   buffer_donor={ (0, {}), (1, {}) }
//
// An output index or a parameter index that the entry's shapes do not
// have, a parameter that does not exist, an output aliased twice or an
// unknown alias kind is an error there (HloInputOutputAliasConfig), and
// XLA's verifier refuses an alias between buffers of different shapes.
// The importer keeps the text (tgraph.input_output_alias) and checks it
// the same way.
//
// Async chains are checked in HloAsync.cpp; the checks here that need
// every operand's shape are the custom call's options and the attributes
// an opcode needs depending on its operands (broadcast, conditional).
//
//===----------------------------------------------------------------------===//

#include "HloModuleChecks.h"
#include "HloAsync.h"
#include "HloAttrs.h"
#include "HloOpcodeAttrs.h"
#include "HloShapeRules.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <set>
#include <string>
#include <vector>

using namespace llvm;

namespace tessera::hlo {

bool sameShapeIgnoringLayout(const Shape &a, const Shape &b) {
  if (a.kind != b.kind || a.dtype != b.dtype || a.dims != b.dims ||
      a.elements.size() != b.elements.size())
    return false;
  for (size_t i = 0; i < a.elements.size(); ++i)
    if (!sameShapeIgnoringLayout(a.elements[i], b.elements[i]))
      return false;
  return true;
}

namespace {

using ShapeIndex = SmallVector<int64_t, 2>;

std::string indexText(ArrayRef<int64_t> index) {
  std::string out = "{";
  for (size_t i = 0; i < index.size(); ++i)
    out += (i ? "," : "") + std::to_string(index[i]);
  return out + "}";
}

/// The element of `shape` at `index` (a path through nested tuples), or
/// null when the shape has no such element.
const Shape *subshape(const Shape &shape, ArrayRef<int64_t> index) {
  const Shape *s = &shape;
  for (int64_t i : index) {
    if (s->kind != Shape::Kind::Tuple || i < 0 ||
        i >= static_cast<int64_t>(s->elements.size()))
      return nullptr;
    s = &s->elements[i];
  }
  return s;
}

bool sameArray(const Shape &a, const Shape &b) {
  return sameShapeIgnoringLayout(a, b);
}

/// The cursor's position past any space: where the next item starts.
size_t here(ValueCursor &c) {
  c.skipSpace();
  return c.position();
}

/// `{1, 0}`: a shape index.
bool parseShapeIndex(ValueCursor &c, ShapeIndex &out) {
  if (!c.expect('{'))
    return false;
  while (!c.consumeIf('}')) {
    int64_t i;
    if (!c.parseInt(i))
      return false;
    out.push_back(i);
    if (!c.consumeIf(',') && c.peek() != '}')
      return c.error("expected ',' or '}' in a shape index");
  }
  return true;
}

class HeaderChecker {
public:
  HeaderChecker(const Module &module, DiagnosticSink &diags) : diags(diags) {
    for (const Computation &comp : module.computations)
      if (comp.isEntry)
        entry = &comp;
  }

  bool alias(const Attr &attr);
  bool donor(const Attr &attr);

private:
  /// The entry parameter `number`'s shape; reports at `at` when absent.
  const Shape *param(ValueCursor &c, size_t at, int64_t number) {
    for (const Instruction &instr : entry->instructions)
      if (instr.parameterNumber == number && instr.opcode == "parameter")
        return &instr.shape;
    c.errorAt(at, "the entry computation '" + entry->name +
                      "' has no parameter " + Twine(number));
    return nullptr;
  }
  /// Reads `(N, {index}` and returns the parameter buffer's shape.
  const Shape *paramBuffer(ValueCursor &c, int64_t &number, ShapeIndex &index) {
    if (!c.expect('('))
      return nullptr;
    size_t at = here(c);
    if (!c.parseInt(number) || !c.expect(','))
      return nullptr;
    size_t indexAt = here(c);
    if (!parseShapeIndex(c, index))
      return nullptr;
    const Shape *p = param(c, at, number);
    if (!p)
      return nullptr;
    const Shape *s = subshape(*p, index);
    if (!s)
      c.errorAt(indexAt, "parameter " + Twine(number) + " has no element " +
                             indexText(index));
    return s;
  }

  DiagnosticSink &diags;
  const Computation *entry = nullptr;
};

bool HeaderChecker::alias(const Attr &attr) {
  ValueCursor c(attr.value, diags, "attribute 'input_output_alias'");
  const Shape &result = entry->instructions[entry->rootIndex].shape;
  std::set<ShapeIndex> outputs;
  if (!c.expect('{'))
    return false;
  while (!c.consumeIf('}')) {
    ShapeIndex out, index;
    int64_t number;
    size_t outAt = here(c);
    if (!parseShapeIndex(c, out))
      return false;
    const Shape *output = subshape(result, out);
    if (!output)
      return c.errorAt(outAt,
                       "the entry's result has no element " + indexText(out));
    if (!outputs.insert(out).second)
      return c.errorAt(outAt, "output " + indexText(out) +
                                  " is aliased with more than one parameter");
    if (!c.expect(':'))
      return false;
    const Shape *input = paramBuffer(c, number, index);
    if (!input)
      return false;
    if (c.consumeIf(',')) {
      size_t kindAt = here(c);
      StringRef kind;
      if (!c.parseWord(kind))
        return false;
      if (kind != "may-alias" && kind != "must-alias")
        return c.errorAt(kindAt, "unknown alias kind '" + kind +
                                     "' (expected may-alias or must-alias)");
    }
    if (!c.expect(')'))
      return false;
    if (!sameArray(*output, *input))
      return c.errorAt(outAt, "output " + indexText(out) + " and parameter " +
                                  Twine(number) + " " + indexText(index) +
                                  " have different shapes");
    if (!c.consumeIf(',') && c.peek() != '}')
      return c.error("expected ',' or '}' after an alias");
  }
  return c.atEnd() || c.error("unexpected text after the aliases");
}

bool HeaderChecker::donor(const Attr &attr) {
  ValueCursor c(attr.value, diags, "attribute 'buffer_donor'");
  if (!c.expect('{'))
    return false;
  while (!c.consumeIf('}')) {
    ShapeIndex index;
    int64_t number;
    if (!paramBuffer(c, number, index) || !c.expect(')'))
      return false;
    if (!c.consumeIf(',') && c.peek() != '}')
      return c.error("expected ',' or '}' after a buffer donor");
  }
  return c.atEnd() || c.error("unexpected text after the buffer donors");
}

/// The top-level items of `{a, (b, c), d}` (commas inside brackets or
/// strings do not split).
SmallVector<StringRef, 4> splitList(StringRef text) {
  SmallVector<StringRef, 4> items;
  text = text.trim();
  if (!text.consume_front("{") || !text.consume_back("}"))
    return items;
  int depth = 0;
  bool quoted = false;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        quoted = false;
    } else if (c == '"') {
      quoted = true;
    } else if (c == '(' || c == '{' || c == '[') {
      ++depth;
    } else if (c == ')' || c == '}' || c == ']') {
      --depth;
    } else if (c == ',' && depth == 0) {
      items.push_back(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (!text.slice(start, text.size()).trim().empty())
    items.push_back(text.slice(start, text.size()).trim());
  return items;
}

/// XLA's parser's checks of a custom call's options: a known API version
/// and schedule, not both to_apply= and called_computations=, and layout
/// constraints (one per operand, with layouts, of the operands' shapes)
/// only on a result with a layout.
bool checkCustomCall(const Computation &comp, const StringMap<size_t> &index,
                     const Instruction &instr, DiagnosticSink &diags) {
  auto failAt = [&](SMLoc loc, const Twine &why) {
    diags.error(loc, why);
    return false;
  };
  if (const Attr *a = instr.findAttr("api_version")) {
    // Current XLA refuses API_VERSION_UNSPECIFIED too, but the XLA of
    // real dumps (torch-neuron's) wrote it: it is kept.
    bool known = a->value == "API_VERSION_UNSPECIFIED" ||
                 a->value == "API_VERSION_ORIGINAL" ||
                 a->value == "API_VERSION_STATUS_RETURNING" ||
                 a->value == "API_VERSION_STATUS_RETURNING_UNIFIED" ||
                 a->value == "API_VERSION_TYPED_FFI";
    if (!known)
      return failAt(a->valueLoc(),
                    "invalid custom-call API version '" + a->value +
                        "' (API_VERSION_UNSPECIFIED, API_VERSION_ORIGINAL, "
                        "API_VERSION_STATUS_RETURNING, "
                        "API_VERSION_STATUS_RETURNING_UNIFIED or "
                        "API_VERSION_TYPED_FFI)");
  }
  if (const Attr *a = instr.findAttr("schedule"))
    if (a->value != "SCHEDULE_NONE" && a->value != "SCHEDULE_LATEST" &&
        a->value != "SCHEDULE_EARLIEST")
      return failAt(a->valueLoc(),
                    "unknown custom-call schedule '" + a->value + "'");
  if (instr.findAttr("to_apply") && instr.findAttr("called_computations"))
    return failAt(instr.opcodeLoc, "a custom call takes to_apply= or "
                                   "called_computations=, not both");
  const Attr *constraints = instr.findAttr("operand_layout_constraints");
  if (!constraints)
    return true;
  if (instr.shape.kind == Shape::Kind::Array && instr.shape.layout.empty())
    return failAt(instr.shape.loc, "a layout-constrained custom call needs "
                                   "a layout on its result");
  SmallVector<StringRef, 4> items = splitList(constraints->value);
  if (items.size() != instr.operands.size())
    return failAt(constraints->valueLoc(), "expected " +
                                               Twine(instr.operands.size()) +
                                               " operand layout constraints, " +
                                               Twine(items.size()) + " given");
  for (auto [i, text] : llvm::enumerate(items)) {
    Shape shape;
    if (!parseShapeText(text, diags, shape))
      return false;
    SMLoc loc = SMLoc::getFromPointer(text.data());
    if (shape.kind == Shape::Kind::Array && shape.layout.empty())
      return failAt(loc,
                    "operand layout constraint " + Twine(i) + " has no layout");
    auto it = index.find(instr.operands[i].name);
    if (it != index.end() &&
        !sameArray(shape, comp.instructions[it->second].shape))
      return failAt(loc, "operand layout constraint " + Twine(i) +
                             " is not the shape of operand '" +
                             instr.operands[i].name + "'");
  }
  return true;
}

/// The attributes XLA's parser needs depending on the operands: a
/// broadcast's dimensions= unless its operand is a scalar; a
/// conditional's true_computation= and false_computation= for a pred
/// index, branch_computations= for an s32 one (and not the others).
bool checkOperandDependentAttributes(const Computation &comp,
                                     const StringMap<size_t> &index,
                                     const Instruction &instr,
                                     DiagnosticSink &diags) {
  if ((instr.opcode != "broadcast" && instr.opcode != "conditional") ||
      instr.operands.empty())
    return true;
  auto it = index.find(instr.operands[0].name);
  if (it == index.end())
    return true; // reported by the emitter
  const Shape &first = comp.instructions[it->second].shape;
  bool scalar = first.kind == Shape::Kind::Array && first.dims.empty();
  if (instr.opcode == "broadcast") {
    if (!scalar && !instr.findAttr("dimensions"))
      return missingAttribute(instr, "dimensions", diags);
    return true;
  }
  if (!scalar || (first.dtype != "pred" && first.dtype != "s32")) {
    diags.error(instr.operands[0].loc,
                "the first operand of 'conditional' must be a scalar of "
                "pred or s32, not " +
                    shapeString(first));
    return false;
  }
  bool byPred = first.dtype == "pred";
  for (StringRef name :
       {"true_computation", "false_computation", "branch_computations"}) {
    bool wanted = byPred != (name == "branch_computations");
    const Attr *a = instr.findAttr(name);
    if (wanted && !a)
      return missingAttribute(instr, name, diags);
    if (!wanted && a) {
      diags.error(a->nameLoc, "unexpected attribute \"" + name +
                                  "\" for 'conditional' on a" +
                                  (byPred ? " pred" : "n s32") + " index");
      return false;
    }
  }
  return true;
}

} // namespace

bool checkInstructions(const Module &module, DiagnosticSink &diags) {
  for (const Computation &comp : module.computations) {
    StringMap<size_t> index;
    for (auto [i, instr] : llvm::enumerate(comp.instructions))
      index.try_emplace(instr.name, i);
    for (const Instruction &instr : comp.instructions) {
      if (!checkAsyncChain(module, comp, index, instr, diags) ||
          !checkOperandDependentAttributes(comp, index, instr, diags))
        return false;
      if (instr.opcode == "custom-call" &&
          !checkCustomCall(comp, index, instr, diags))
        return false;
    }
  }
  return true;
}

bool checkModuleHeader(const Module &module, DiagnosticSink &diags) {
  static constexpr StringLiteral kHeaderAttrs[] = {
      "is_scheduled",
      "replica_count",
      "num_partitions",
      "input_output_alias",
      "buffer_donor",
      "alias_passthrough_params",
      "entry_computation_layout",
      "frontend_attributes",
      "allow_spmd_sharding_propagation_to_parameters",
      "allow_spmd_sharding_propagation_to_output"};
  HeaderChecker checker(module, diags);
  for (const Attr &attr : module.attrs) {
    if (!llvm::is_contained(kHeaderAttrs, attr.name)) {
      diags.error(attr.nameLoc,
                  "unexpected attribute \"" + attr.name + "\" for 'HloModule'");
      return false;
    }
    if (attr.name == "input_output_alias" && !checker.alias(attr))
      return false;
    if (attr.name == "buffer_donor" && !checker.donor(attr))
      return false;
  }
  return true;
}

} // namespace tessera::hlo
