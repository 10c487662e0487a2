//===- HloAsync.cpp - async start / update / done chains ------------------===//
//
// The checks follow XLA's parser (the async-start shape, an update or
// done whose operand is the previous link of the same wrapped opcode) and
// its verifier (the shapes of each link; send, receive and their dones).
// Messages say what XLA's say, located at the offending instruction.
//
//===----------------------------------------------------------------------===//

#include "HloAsync.h"
#include "HloAttrs.h"
#include "HloModuleChecks.h"
#include "HloOpcodeAttrs.h"
#include "HloShapeRules.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <optional>
#include <vector>

using namespace llvm;

namespace tessera::hlo {
namespace {

enum class Link { None, Start, Update, Done };
/// How a chain is written: async-start/-update/-done (Full), the wrapped
/// opcode's short form (Short), or an opcode pair of its own (Builtin).
enum class Form { Full, Short, Builtin };

struct AsyncOp {
  Link link = Link::None;
  Form form = Form::Full;
  /// The wrapped opcode (Short) or the synchronous opcode (Builtin).
  StringRef family;
};

AsyncOp classify(StringRef opcode) {
  AsyncOp op;
  StringRef wrapped, kind;
  if (opcode.consume_front("async-")) {
    op.link = StringSwitch<Link>(opcode)
                  .Case("start", Link::Start)
                  .Case("update", Link::Update)
                  .Case("done", Link::Done)
                  .Default(Link::None);
  } else if (isAsyncShortForm(opcode, wrapped, kind)) {
    op.form = Form::Short;
    op.family = wrapped;
    op.link = kind == "start"    ? Link::Start
              : kind == "update" ? Link::Update
                                 : Link::Done;
  } else {
    for (StringRef family :
         {"all-reduce", "all-gather", "collective-permute", "copy"}) {
      if (!opcode.starts_with(family))
        continue;
      StringRef rest = opcode.drop_front(family.size());
      if (rest != "-start" && rest != "-done")
        continue;
      op.form = Form::Builtin;
      op.family = opcode.take_front(family.size());
      op.link = rest == "-start" ? Link::Start : Link::Done;
    }
  }
  return op;
}

bool isTupleOf(const Shape &s, size_t atLeast) {
  return s.kind == Shape::Kind::Tuple && s.elements.size() >= atLeast;
}

class ChainChecker {
public:
  ChainChecker(const Module &module, const Computation &comp,
               const StringMap<size_t> &index, const Instruction &instr,
               DiagnosticSink &diags)
      : module(module), comp(comp), index(index), instr(instr), diags(diags) {}

  bool run();

private:
  bool fail(const Twine &why) {
    diags.error(instr.opcodeLoc, why);
    return false;
  }
  /// The instruction operand `i` names, or null when it is undefined (the
  /// emitter reports that).
  const Instruction *operand(size_t i) {
    auto it = index.find(instr.operands[i].name);
    return it == index.end() ? nullptr : &comp.instructions[it->second];
  }
  const Computation *computation(StringRef name) {
    for (const Computation &c : module.computations)
      if (c.name == name)
        return &c;
    return nullptr;
  }
  bool start(const AsyncOp &op);
  bool updateOrDone(const AsyncOp &op);
  bool builtin(const AsyncOp &op);
  bool sendOrRecv();
  /// The opcode an async-start runs: its short form's, or the root of
  /// its computation's; empty when unknown.
  StringRef wrappedOpcode(const Instruction &start);

  const Module &module;
  const Computation &comp;
  const StringMap<size_t> &index;
  const Instruction &instr;
  DiagnosticSink &diags;
};

StringRef ChainChecker::wrappedOpcode(const Instruction &start) {
  AsyncOp op = classify(start.opcode);
  if (op.form == Form::Short)
    return op.family;
  StringRef callee;
  SMLoc loc;
  const Attr *calls = start.findAttr("calls");
  if (!calls || !parseComputationRef(*calls, diags, callee, loc))
    return StringRef();
  const Computation *c = computation(callee);
  return c && c->rootIndex >= 0 ? c->instructions[c->rootIndex].opcode
                                : StringRef();
}

bool ChainChecker::start(const AsyncOp &op) {
  // XLA: ((async operands), async outputs, state...).
  const Shape &s = instr.shape;
  if (!isTupleOf(s, 2) || s.elements[0].kind != Shape::Kind::Tuple)
    return fail("'" + instr.opcode +
                "' needs the shape ((operands), outputs, state...), as XLA "
                "does");
  const std::vector<Shape> &operandShapes = s.elements[0].elements;
  if (operandShapes.size() != instr.operands.size())
    return fail("'" + instr.opcode + "' has " + Twine(instr.operands.size()) +
                " operands, its shape lists " + Twine(operandShapes.size()));
  for (size_t i = 0; i < instr.operands.size(); ++i)
    if (const Instruction *def = operand(i))
      if (!sameShapeIgnoringLayout(def->shape, operandShapes[i]))
        return fail("operand " + Twine(i) + " of '" + instr.opcode +
                    "' does not have the shape its result lists for it");
  if (op.form == Form::Short)
    return true;
  const Attr *calls = instr.findAttr("calls");
  StringRef callee;
  SMLoc calleeLoc;
  if (!calls || !parseComputationRef(*calls, diags, callee, calleeLoc))
    return false;
  const Computation *called = computation(callee);
  if (!called) {
    diags.error(calleeLoc, "unknown computation '" + callee + "'");
    return false;
  }
  const Shape &result = called->instructions[called->rootIndex].shape;
  if (!sameShapeIgnoringLayout(result, s.elements[1]))
    return fail("'async-start' lists its outputs with another shape than "
                "the root of '" +
                callee + "'");
  return true;
}

bool ChainChecker::updateOrDone(const AsyncOp &op) {
  // The op before it in the chain: a start or an update (of any form).
  const Instruction *prev = instr.operands.size() == 1 ? operand(0) : nullptr;
  AsyncOp prevOp = prev ? classify(prev->opcode) : AsyncOp();
  if (!prev || prevOp.form == Form::Builtin ||
      (prevOp.link != Link::Start && prevOp.link != Link::Update))
    return fail("'" + instr.opcode +
                "' needs a single async-start or async-update operand, as "
                "XLA does");
  const Instruction *start = prev;
  // Each step goes to the operand of an update; a chain longer than the
  // computation is a cycle, which the emitter reports.
  for (size_t steps = 0; classify(start->opcode).link == Link::Update &&
                         steps <= comp.instructions.size();
       ++steps) {
    auto it = start->operands.size() == 1 ? index.find(start->operands[0].name)
                                          : index.end();
    if (it == index.end())
      return true; // reported at that update
    start = &comp.instructions[it->second];
  }
  if (classify(start->opcode).link != Link::Start)
    return true; // reported at that update
  if (op.form == Form::Short) {
    StringRef started = wrappedOpcode(*start);
    if (!started.empty() && started != op.family)
      return fail("expects async wrapped opcode to be '" + started +
                  "', but got '" + op.family + "'");
  }
  if (const Attr *calls = instr.findAttr("calls")) {
    StringRef callee, started;
    SMLoc calleeLoc, loc;
    if (!parseComputationRef(*calls, diags, callee, calleeLoc))
      return false;
    const Attr *startCalls = start->findAttr("calls");
    if (startCalls && parseComputationRef(*startCalls, diags, started, loc) &&
        started != callee) {
      diags.error(calleeLoc, "calls='" + callee +
                                 "' but the async-start runs '" + started +
                                 "'");
      return false;
    }
  }
  const Shape &startShape = start->shape;
  if (!isTupleOf(startShape, 2))
    return true; // reported at the start
  if (op.link == Link::Update &&
      !sameShapeIgnoringLayout(instr.shape, prev->shape))
    return fail("'" + instr.opcode +
                "' needs the shape of its operand, as XLA does");
  if (op.link == Link::Done &&
      !sameShapeIgnoringLayout(instr.shape, startShape.elements[1]))
    return fail("'" + instr.opcode +
                "' has another shape than the outputs its async-start lists");
  return true;
}

bool ChainChecker::builtin(const AsyncOp &op) {
  const Shape &s = instr.shape;
  bool copy = op.family == "copy", allReduce = op.family == "all-reduce";
  if (op.link == Link::Start) {
    // all-reduce-start has all-reduce's shape; the others list the
    // operand, the output and (copy, collective-permute) their contexts.
    if (copy && (!isTupleOf(s, 3) || s.elements.size() != 3))
      return fail("'copy-start' needs the shape (destination, source, "
                  "context), as XLA does");
    if (!allReduce && !isTupleOf(s, 2))
      return fail("'" + instr.opcode +
                  "' needs the shape (operand, output, ...), as XLA does");
    return true;
  }
  const Instruction *start = instr.operands.size() == 1 ? operand(0) : nullptr;
  std::string startOpcode = (op.family + "-start").str();
  if (!start || start->opcode != startOpcode)
    return fail("'" + instr.opcode + "' needs a single '" + startOpcode +
                "' operand, as XLA does");
  const Shape *want = &start->shape;
  if (!allReduce) {
    if (!isTupleOf(start->shape, 2))
      return true; // reported at the start
    want = &start->shape.elements[copy ? 0 : 1];
  }
  if (!sameShapeIgnoringLayout(s, *want))
    return fail("'" + instr.opcode + "' has the shape " + shapeString(s) +
                ", its start gives " + shapeString(*want));
  return true;
}

bool ChainChecker::sendOrRecv() {
  StringRef opcode = instr.opcode;
  bool isDone = opcode.ends_with("-done");
  bool isSend = opcode.starts_with("send");
  size_t operands = !isDone && isSend ? 2 : 1;
  if (instr.operands.size() != operands)
    return fail("'" + opcode + "' takes " + Twine(operands) + " operand" +
                (operands == 1 ? "" : "s") + ", got " +
                Twine(instr.operands.size()));
  const Shape &s = instr.shape;
  auto isToken = [](const Shape &t) { return t.kind == Shape::Kind::Token; };
  auto isContext = [](const Shape &t) {
    return t.kind == Shape::Kind::Array && t.dtype == "u32" && t.dims.empty();
  };
  if (!isDone) {
    // (data, u32[] context, token[]); a send's data is its first operand.
    const Instruction *data = isSend ? operand(0) : nullptr;
    if (!isTupleOf(s, 3) || s.elements.size() != 3 ||
        !isContext(s.elements[1]) || !isToken(s.elements[2]) ||
        (data && !sameShapeIgnoringLayout(data->shape, s.elements[0])))
      return fail("'" + opcode + "' needs the shape (" +
                  (data ? shapeString(data->shape) : std::string("data")) +
                  ", u32[], token[]), as XLA does");
    return true;
  }
  StringRef from = isSend ? "send" : "recv";
  const Instruction *start = operand(0);
  if (!start || start->opcode != from)
    return fail("'" + opcode + "' needs a single '" + from +
                "' operand, as XLA does");
  // XLA's parser compares the channel ids, absent ones included.
  const Attr *mine = instr.findAttr("channel_id");
  const Attr *theirs = start->findAttr("channel_id");
  int64_t a = -1, b = -1;
  if ((mine && !parseIntValue(*mine, diags, a)) ||
      (theirs && !parseIntValue(*theirs, diags, b)))
    return false;
  if (a != b)
    return fail("'" + opcode + "' has another channel_id than its '" + from +
                "'");
  if (!isTupleOf(start->shape, 1))
    return true; // reported there
  bool good = isSend ? isToken(s)
                     : isTupleOf(s, 2) && s.elements.size() == 2 &&
                           isToken(s.elements[1]) &&
                           sameShapeIgnoringLayout(s.elements[0],
                                                   start->shape.elements[0]);
  if (!good)
    return fail(
        "'" + opcode + "' needs the shape " +
        (isSend ? std::string("token[]")
                : "(" + shapeString(start->shape.elements[0]) + ", token[])") +
        ", as XLA does");
  return true;
}

bool ChainChecker::run() {
  StringRef opcode = instr.opcode;
  if (opcode == "send" || opcode == "recv" || opcode == "send-done" ||
      opcode == "recv-done")
    return sendOrRecv();
  AsyncOp op = classify(opcode);
  switch (op.link) {
  case Link::None:
    return true;
  case Link::Start:
    return op.form == Form::Builtin ? builtin(op) : start(op);
  case Link::Update:
  case Link::Done:
    return op.form == Form::Builtin ? builtin(op) : updateOrDone(op);
  }
  return true;
}

} // namespace

bool checkAsyncChain(const Module &module, const Computation &comp,
                     const StringMap<size_t> &index, const Instruction &instr,
                     DiagnosticSink &diags) {
  return ChainChecker(module, comp, index, instr, diags).run();
}

void fuseAsyncPairs(Module &module) {
  for (Computation &comp : module.computations) {
    StringMap<size_t> index;
    for (auto [i, instr] : llvm::enumerate(comp.instructions))
      index.try_emplace(instr.name, i);
    // Who uses each instruction (an instruction naming it twice counts
    // twice, so it is never taken for a chain's single user).
    std::vector<SmallVector<size_t, 1>> users(comp.instructions.size());
    for (auto [i, instr] : llvm::enumerate(comp.instructions))
      for (const OperandRef &ref : instr.operands) {
        auto it = index.find(ref.name);
        if (it != index.end())
          users[it->second].push_back(i);
      }
    DenseSet<size_t> dropped;
    StringMap<StringRef> renamed; // done -> start
    for (size_t s = 0; s < comp.instructions.size(); ++s) {
      AsyncOp op = classify(comp.instructions[s].opcode);
      if (op.link != Link::Start)
        continue;
      // Follow the single user of each link to the done.
      SmallVector<size_t, 4> links;
      size_t at = s;
      std::optional<size_t> done;
      while (users[at].size() == 1 && !comp.instructions[at].isRoot &&
             static_cast<int64_t>(at) != comp.rootIndex) {
        size_t next = users[at][0];
        AsyncOp nextOp = classify(comp.instructions[next].opcode);
        bool sameForm =
            (op.form == Form::Builtin) == (nextOp.form == Form::Builtin);
        if (!sameForm || nextOp.link == Link::None ||
            nextOp.link == Link::Start || dropped.contains(next))
          break;
        links.push_back(next);
        if (nextOp.link == Link::Done) {
          done = next;
          break;
        }
        at = next;
      }
      if (!done)
        continue;
      Instruction &start = comp.instructions[s];
      Instruction &last = comp.instructions[*done];
      if (op.form == Form::Full) {
        start.opcode = "call";
        for (Attr &a : start.attrs)
          if (a.name == "calls")
            a.name = "to_apply";
      } else {
        start.opcode = op.family;
      }
      start.shape = last.shape;
      start.hasShape = true;
      start.isRoot = last.isRoot;
      renamed[last.name] = start.name;
      dropped.insert(links.begin(), links.end());
    }
    if (dropped.empty())
      continue;
    StringRef rootName = comp.rootIndex >= 0
                             ? comp.instructions[comp.rootIndex].name
                             : StringRef();
    if (auto it = renamed.find(rootName); it != renamed.end())
      rootName = it->second;
    std::vector<Instruction> kept;
    kept.reserve(comp.instructions.size() - dropped.size());
    for (size_t i = 0; i < comp.instructions.size(); ++i)
      if (!dropped.contains(i))
        kept.push_back(std::move(comp.instructions[i]));
    comp.instructions = std::move(kept);
    for (auto [i, instr] : llvm::enumerate(comp.instructions)) {
      for (OperandRef &ref : instr.operands)
        if (auto it = renamed.find(ref.name); it != renamed.end())
          ref.name = it->second;
      if (instr.name == rootName)
        comp.rootIndex = i;
    }
  }
}

} // namespace tessera::hlo
