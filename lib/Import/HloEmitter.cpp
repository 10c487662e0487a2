//===- HloEmitter.cpp - in-memory HLO module to tgraph MLIR ---------------===//
//
// Each computation becomes a `func.func` (ENTRY is the public `@main`);
// computations that reducers, comparators and scatter combiners use via
// `to_apply=` are emitted again *inside* the region of the op that uses
// them, while call/fusion/while/conditional refer to functions by symbol.
// Every op is located at NameLoc(instruction name, file:line:col), fused
// with the framework source location from `metadata=` when there is one.
//
//===----------------------------------------------------------------------===//

#include "HloAttrs.h"
#include "HloEmitterImpl.h"

#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace tessera::hlo;
using namespace tessera::hlo::detail;
using llvm::SMLoc;
using llvm::StringRef;
using llvm::Twine;

//===----------------------------------------------------------------------===//
// Locations
//===----------------------------------------------------------------------===//

std::optional<Location> Emitter::frameLoc(int64_t id, unsigned depth) {
  const StackFrameTables &t = module.frames;
  if (id < 1 || id > static_cast<int64_t>(t.stackFrames.size()))
    return std::nullopt;
  if (auto it = frameCache.find(id); it != frameCache.end())
    return it->second;
  const StackFrame &frame = t.stackFrames[id - 1];
  int64_t fl = frame.fileLocationId;
  if (fl < 1 || fl > static_cast<int64_t>(t.fileLocations.size())) {
    error(frame.loc, "stack frame " + Twine(id) + " names file location " +
                         Twine(fl) +
                         ", which is not in the FileLocations "
                         "table");
    return std::nullopt;
  }
  const FileLocation &location = t.fileLocations[fl - 1];
  int64_t fn = location.fileNameId;
  if (fn < 1 || fn > static_cast<int64_t>(t.fileNames.size())) {
    error(frame.loc, "file location " + Twine(fl) + " names file " + Twine(fn) +
                         ", which is not in the FileNames table");
    return std::nullopt;
  }
  Location loc = FileLineColLoc::get(ctx, t.fileNames[fn - 1], location.line,
                                     location.column);
  // XLA prints parent ids offset by one (0 in the proto means "none" and is
  // printed as 1); older dumps print them as-is. directParentIds tells
  // which convention this file follows. The depth cap also breaks cycles.
  int64_t parent =
      directParentIds ? frame.parentFrameId : frame.parentFrameId - 1;
  if (parent >= 1 && parent != id && depth < 32) {
    if (std::optional<Location> caller = frameLoc(parent, depth + 1))
      loc = CallSiteLoc::get(loc, *caller);
  }
  frameCache.try_emplace(id, loc);
  return loc;
}

Location Emitter::instrLoc(const Instruction &instr, const Metadata &md) {
  Location loc =
      NameLoc::get(StringAttr::get(ctx, instr.name), fileLoc(instr.loc));
  std::optional<Location> source;
  if (!md.sourceFile.empty())
    source = FileLineColLoc::get(ctx, md.sourceFile,
                                 md.sourceLine < 0 ? 0 : md.sourceLine, 0);
  else if (md.stackFrameId > 0)
    source = frameLoc(md.stackFrameId);
  if (source)
    loc = FusedLoc::get(ctx, {loc, *source});
  return loc;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// The type a getter of the context makes, as a Type (for the switch
/// below, whose cases are such functions).
template <auto Get> static Type made(MLIRContext *ctx) { return Get(ctx); }
template <unsigned Width,
          IntegerType::SignednessSemantics Signedness = IntegerType::Signless>
static Type integer(MLIRContext *ctx) {
  return IntegerType::get(ctx, Width, Signedness);
}
template <auto Get> static Type complexOf(MLIRContext *ctx) {
  return ComplexType::get(Get(ctx));
}

Type Emitter::convertElementType(const Shape &shape) {
  StringRef d = shape.dtype;
  // The matching case's type alone is made: a StringSwitch of types made
  // all 25 on every call, eight integer and two complex types through the
  // context's uniquer (a million lookups importing a 100k-op graph).
  constexpr auto kUnsigned = IntegerType::Unsigned;
  using Make = Type (*)(MLIRContext *);
  Make make = llvm::StringSwitch<Make>(d)
                  .Case("pred", integer<1>)
                  .Case("s2", integer<2>)
                  .Case("s4", integer<4>)
                  .Case("s8", integer<8>)
                  .Case("s16", integer<16>)
                  .Case("s32", integer<32>)
                  .Case("s64", integer<64>)
                  .Case("u2", integer<2, kUnsigned>)
                  .Case("u4", integer<4, kUnsigned>)
                  .Case("u8", integer<8, kUnsigned>)
                  .Case("u16", integer<16, kUnsigned>)
                  .Case("u32", integer<32, kUnsigned>)
                  .Case("u64", integer<64, kUnsigned>)
                  .Case("f16", made<FloatType::getF16>)
                  .Case("bf16", made<FloatType::getBF16>)
                  .Case("f32", made<FloatType::getF32>)
                  .Case("f64", made<FloatType::getF64>)
                  .Case("c64", complexOf<FloatType::getF32>)
                  .Case("c128", complexOf<FloatType::getF64>)
                  .Case("f8e5m2", made<FloatType::getFloat8E5M2>)
                  .Case("f8e4m3", made<FloatType::getFloat8E4M3>)
                  .Case("f8e4m3fn", made<FloatType::getFloat8E4M3FN>)
                  .Case("f8e4m3b11fnuz", made<FloatType::getFloat8E4M3B11FNUZ>)
                  .Case("f8e5m2fnuz", made<FloatType::getFloat8E5M2FNUZ>)
                  .Case("f8e4m3fnuz", made<FloatType::getFloat8E4M3FNUZ>)
                  .Default(nullptr);
  Type type = make ? make(ctx) : Type();
  if (!type)
    error(shape.loc, "element type '" + d +
                         "' has no MLIR 19 equivalent and cannot be imported");
  return type;
}

Type Emitter::convertShape(const Shape &shape) {
  switch (shape.kind) {
  case Shape::Kind::Token:
    return tessera::tgraph::TokenType::get(ctx);
  case Shape::Kind::Tuple: {
    llvm::SmallVector<Type, 4> types;
    types.reserve(shape.elements.size());
    for (const Shape &element : shape.elements) {
      Type t = convertShape(element);
      if (!t)
        return Type();
      types.push_back(t);
    }
    return TupleType::get(ctx, types);
  }
  case Shape::Kind::Array:
    break;
  }
  Type element = convertElementType(shape);
  if (!element)
    return Type();
  llvm::SmallVector<int64_t, 4> dims;
  for (int64_t d : shape.dims)
    dims.push_back(d < 0 ? ShapedType::kDynamic : d);
  return RankedTensorType::get(dims, element);
}

/// True if `layout` (with braces) is XLA's default: minor-to-major
/// n-1,...,0 with no tiling or memory space.
static bool isDefaultLayout(StringRef layout, size_t rank) {
  if (layout.empty())
    return true;
  StringRef body = layout.drop_front().drop_back();
  if (body.contains(':'))
    return false;
  llvm::SmallVector<StringRef, 4> parts;
  body.split(parts, ',', -1, /*KeepEmpty=*/false);
  if (parts.size() != rank)
    return false;
  for (size_t i = 0; i < rank; ++i) {
    int64_t v;
    if (parts[i].trim().getAsInteger(10, v) ||
        v != static_cast<int64_t>(rank - 1 - i))
      return false;
  }
  return true;
}

/// A dump taken from a pmap (jax) often has no `replica_count` in its
/// header: the runtime option is not part of the text. Its cross-replica
/// collectives still name the replicas (`replica_groups={{0,...,7}}`), so
/// the module is given the count they imply, and
/// `tgraph.replica_count_inferred` says where it came from
/// (docs/hlo-import.md).
static void inferReplicaCount(ModuleOp module) {
  if (module->hasAttr("tgraph.replica_count"))
    return;
  int64_t highest = -1;
  module.walk([&](Operation *op) {
    if (!isa<tessera::tgraph::AllReduceOp, tessera::tgraph::AllGatherOp,
             tessera::tgraph::AllToAllOp, tessera::tgraph::ReduceScatterOp,
             tessera::tgraph::CollectivePermuteOp>(op) ||
        op->hasAttr("channel_id") || op->hasAttr("use_global_device_ids"))
      return;
    if (auto groups = op->getAttrOfType<ArrayAttr>("replica_groups"))
      for (Attribute g : groups)
        if (auto ids = dyn_cast<DenseI64ArrayAttr>(g))
          for (int64_t id : ids.asArrayRef())
            highest = std::max(highest, id);
    if (auto cp = dyn_cast<tessera::tgraph::CollectivePermuteOp>(op))
      for (int64_t id : cp.getSourceTargetPairs())
        highest = std::max(highest, id);
  });
  if (highest < 1 || highest >= (int64_t(1) << 16))
    return;
  Builder b(module.getContext());
  module->setAttr("tgraph.replica_count", b.getI64IntegerAttr(highest + 1));
  module->setAttr("tgraph.replica_count_inferred", b.getBoolAttr(true));
}

/// The layout to keep as `tgraph.layout`: the array's layout text, or for
/// tuples `(l0, l1, ...)` of the leaves; false when all are default.
bool tessera::hlo::detail::nonDefaultLayout(const Shape &shape,
                                            std::string &out) {
  switch (shape.kind) {
  case Shape::Kind::Token:
    out = "token";
    return false;
  case Shape::Kind::Array:
    if (!shape.layout.empty()) {
      out = shape.layout.str();
      return !isDefaultLayout(shape.layout, shape.dims.size());
    }
    // No layout printed means the default one; spell it out so a tuple's
    // layout string lists every element.
    out = "{";
    for (size_t i = 0, rank = shape.dims.size(); i < rank; ++i)
      out += (i ? "," : "") + std::to_string(rank - 1 - i);
    out += "}";
    return false;
  case Shape::Kind::Tuple: {
    bool any = false;
    out = "(";
    for (size_t i = 0; i < shape.elements.size(); ++i) {
      std::string inner;
      any |= nonDefaultLayout(shape.elements[i], inner);
      if (i)
        out += ", ";
      out += inner;
    }
    out += ")";
    return any;
  }
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Module structure
//===----------------------------------------------------------------------===//

bool Emitter::lookupComputation(StringRef name, SMLoc loc, unsigned &compIdx) {
  auto it = compByName.find(name);
  if (it == compByName.end())
    return error(loc, "unknown computation '" + name + "'");
  compIdx = it->second;
  return true;
}

/// Makes a readable, valid symbol of an HLO name: [A-Za-z0-9_.$] kept,
/// everything else (`-`, ...) becomes `_`.
static std::string sanitizeSymbol(StringRef name) {
  std::string out;
  out.reserve(name.size() + 1);
  if (name.empty() || (name[0] >= '0' && name[0] <= '9'))
    out.push_back('_');
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$';
    out.push_back(ok ? c : '_');
  }
  return out;
}

/// Finds a computation that reaches itself through the computations it
/// names (`edges[i]`: (callee, where it is named)), iteratively: a call
/// chain may be tens of thousands deep. Returns the reference that closes
/// the cycle and the cycle's computations, or nothing.
static std::optional<std::pair<SMLoc, std::vector<unsigned>>>
findRecursion(ArrayRef<std::vector<std::pair<unsigned, SMLoc>>> edges) {
  enum State : uint8_t { Unseen, Open, Done };
  std::vector<State> state(edges.size(), Unseen);
  for (unsigned start = 0; start < edges.size(); ++start) {
    if (state[start] != Unseen)
      continue;
    // (computation, next edge to follow)
    std::vector<std::pair<unsigned, size_t>> stack{{start, 0}};
    state[start] = Open;
    while (!stack.empty()) {
      auto &[node, next] = stack.back();
      if (next == edges[node].size()) {
        state[node] = Done;
        stack.pop_back();
        continue;
      }
      auto [callee, loc] = edges[node][next++];
      if (state[callee] == Open) {
        std::vector<unsigned> cycle;
        for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
          cycle.push_back(it->first);
          if (it->first == callee)
            break;
        }
        std::reverse(cycle.begin(), cycle.end());
        return std::make_pair(loc, std::move(cycle));
      }
      if (state[callee] == Unseen) {
        state[callee] = Open;
        stack.push_back({callee, 0});
      }
    }
  }
  return std::nullopt;
}

bool Emitter::collectComputations() {
  comps.resize(module.computations.size());
  for (auto [i, comp] : llvm::enumerate(module.computations))
    compByName[comp.name] = i;
  std::vector<std::vector<std::pair<unsigned, SMLoc>>> calls(
      module.computations.size());

  // Who uses each computation, and how.
  for (auto [caller, comp] : llvm::enumerate(module.computations)) {
    for (const Instruction &instr : comp.instructions) {
      Op op = classify(instr.opcode);
      for (const Attr &attr : instr.attrs) {
        bool region = false;
        if (attr.name == "to_apply")
          region = usesRegionForToApply(op);
        else if (op == Op::SelectAndScatter &&
                 (attr.name == "select" || attr.name == "scatter"))
          region = true;
        else if (!isSymbolComputationAttr(attr.name))
          continue;
        // Ops kept as tgraph.unknown (and custom calls) keep these
        // attributes as text; what they name need not be a computation, so
        // only known references are followed and nothing is an error.
        bool lenient = op == Op::Unknown || op == Op::CustomCall;
        if (lenient) {
          StringRef text = attr.value;
          text.consume_front("{");
          text.consume_back("}");
          llvm::SmallVector<StringRef, 2> parts;
          text.split(parts, ',');
          for (StringRef part : parts) {
            part = part.trim();
            part.consume_front("%");
            auto it = compByName.find(part);
            if (it != compByName.end())
              comps[it->second].symbolUsed = true;
          }
          continue;
        }
        llvm::SmallVector<std::pair<StringRef, SMLoc>, 2> names;
        if (attr.value.starts_with("{")) {
          if (!parseComputationList(attr, diags, names))
            return false;
        } else {
          StringRef name;
          SMLoc loc;
          if (!parseComputationRef(attr, diags, name, loc))
            return false;
          names.push_back({name, loc});
        }
        for (auto [name, loc] : names) {
          unsigned idx;
          if (!lookupComputation(name, loc, idx))
            return false;
          (region ? comps[idx].regionUsed : comps[idx].symbolUsed) = true;
          calls[caller].push_back({idx, loc});
        }
      }
    }
  }
  // HLO has no recursion: XLA rejects a computation that calls itself,
  // directly or through others (its call graph must be a DAG).
  if (auto recursion = findRecursion(calls)) {
    std::string first =
                    module.computations[recursion->second.front()].name.str(),
                path;
    for (unsigned c : recursion->second)
      path += "'" + module.computations[c].name.str() + "' -> ";
    path += "'" + first + "'";
    return error(recursion->first,
                 "computation '" + first + "' calls itself (" + path +
                     "): HLO computations may not be recursive");
  }

  // Symbols: ENTRY is @main; others keep their (sanitized) HLO names.
  llvm::StringSet<> taken;
  for (auto [i, comp] : llvm::enumerate(module.computations))
    if (comp.isEntry) {
      comps[i].symbol = "main";
      comps[i].symbolUsed = true;
      taken.insert("main");
    }
  for (auto [i, comp] : llvm::enumerate(module.computations)) {
    CompInfo &info = comps[i];
    if (comp.isEntry)
      continue;
    // Computations nobody references are still imported, as functions.
    if (!info.regionUsed)
      info.symbolUsed = true;
    std::string base = sanitizeSymbol(comp.name), symbol = base;
    for (unsigned n = 1; !taken.insert(symbol).second; ++n)
      symbol = base + "_" + std::to_string(n);
    info.symbol = std::move(symbol);
  }
  return true;
}

/// A shape as HLO prints it, without its layout (for messages).
static std::string shapeText(const Shape &shape) {
  if (shape.kind == Shape::Kind::Token)
    return "token[]";
  if (shape.kind == Shape::Kind::Tuple) {
    std::string out = "(";
    for (auto [i, e] : llvm::enumerate(shape.elements))
      out += (i ? ", " : "") + shapeText(e);
    return out + ")";
  }
  std::string out = shape.dtype.str() + "[";
  for (auto [i, d] : llvm::enumerate(shape.dims))
    out += (i ? "," : "") + (d < 0 ? std::string("?") : std::to_string(d));
  return out + "]";
}

/// Same element type, dimensions and tuple structure; layouts may differ.
static bool sameShape(const Shape &a, const Shape &b) {
  if (a.kind != b.kind || a.elements.size() != b.elements.size())
    return false;
  if (a.kind == Shape::Kind::Array && (a.dtype != b.dtype || a.dims != b.dims))
    return false;
  for (auto [x, y] : llvm::zip_equal(a.elements, b.elements))
    if (!sameShape(x, y))
      return false;
  return true;
}

bool Emitter::checkDeclaredSignature(unsigned compIdx) {
  const Computation &comp = module.computations[compIdx];
  const CompInfo &info = comps[compIdx];
  if (!comp.hasSignature)
    return true;
  if (comp.signatureParams.size() != info.params.size())
    return error(comp.loc, "the signature of '" + comp.name + "' declares " +
                               Twine(comp.signatureParams.size()) +
                               " parameters, its body has " +
                               Twine(info.params.size()));
  for (auto [n, declared] : llvm::enumerate(comp.signatureParams)) {
    const Instruction &param = comp.instructions[info.params[n]];
    if (!sameShape(declared, param.shape))
      return error(declared.loc,
                   "the signature of '" + comp.name + "' declares parameter " +
                       Twine(n) + " as " + shapeText(declared) + ", but '" +
                       param.name + "' is " + shapeText(param.shape));
  }
  const Instruction &root = comp.instructions[comp.rootIndex];
  if (!sameShape(comp.signatureResult, root.shape))
    return error(comp.signatureResult.loc,
                 "the signature of '" + comp.name + "' declares the result " +
                     shapeText(comp.signatureResult) + ", but its root '" +
                     root.name + "' is " + shapeText(root.shape));
  return true;
}

bool Emitter::computeSignature(unsigned compIdx) {
  const Computation &comp = module.computations[compIdx];
  CompInfo &info = comps[compIdx];
  for (auto [i, instr] : llvm::enumerate(comp.instructions)) {
    info.index[instr.name] = i;
    if (instr.parameterNumber < 0)
      continue;
    int64_t n = instr.parameterNumber;
    if (n > static_cast<int64_t>(comp.instructions.size()))
      return error(instr.opcodeLoc, "parameter number " + Twine(n) +
                                        " is larger than the computation");
    if (static_cast<int64_t>(info.params.size()) <= n)
      info.params.resize(n + 1, -1);
    if (info.params[n] >= 0)
      return error(instr.opcodeLoc,
                   "parameter " + Twine(n) + " is defined twice in '" +
                       comp.name + "' (also by '" +
                       comp.instructions[info.params[n]].name + "')");
    info.params[n] = i;
  }
  for (auto [n, idx] : llvm::enumerate(info.params))
    if (idx < 0)
      return error(comp.loc, "computation '" + comp.name +
                                 "' has no parameter " + Twine(n) +
                                 " (parameters must be numbered "
                                 "0..N-1)");
  return checkDeclaredSignature(compIdx);
}

bool Emitter::emitFunction(unsigned compIdx) {
  const Computation &comp = module.computations[compIdx];
  CompInfo &info = comps[compIdx];
  func::FuncOp fn = info.func;
  Block *block = fn.addEntryBlock();
  // Set at once: setArgAttrs(n, ...) builds the array of every argument's
  // attributes again for each argument, and every one of those arrays
  // stays in the context (quadratic: 97 MB for the 30k-op synthetic
  // graph's entry).
  SmallVector<DictionaryAttr> allArgAttrs(info.params.size());
  bool anyArgAttrs = false;
  for (auto [n, idx] : llvm::enumerate(info.params)) {
    const Instruction &param = comp.instructions[idx];
    BlockArgument arg = block->getArgument(n);
    Metadata md;
    AttrTable attrs(param);
    if (const Attr *a = attrs.take("metadata"))
      if (!parseMetadata(*a, diags, md))
        return false;
    NamedAttrList argAttrs;
    if (!addCommonAttrs(attrs, param, md, argAttrs))
      return false;
    arg.setLoc(instrLoc(param, md));
    allArgAttrs[n] = argAttrs.getDictionary(fn.getContext());
    anyArgAttrs |= !argAttrs.empty();
  }
  if (anyArgAttrs)
    fn.setAllArgAttrs(allArgAttrs);
  return emitBody(compIdx, block, /*isRegion=*/false);
}

bool Emitter::buildRegion(Region &region, const Attr *attr,
                          const Instruction &instr, StringRef what) {
  if (!attr)
    return error(instr.opcodeLoc,
                 "'" + instr.opcode + "' needs a " + what + "= computation");
  StringRef name;
  SMLoc loc;
  unsigned idx;
  if (!parseComputationRef(*attr, diags, name, loc) ||
      !lookupComputation(name, loc, idx))
    return false;
  CompInfo &info = comps[idx];
  // Reducers of reducers are legal but never deep; bound the recursion.
  if (regionDepth >= kMaxRegionDepth)
    return error(loc, "computations nest more than " + Twine(kMaxRegionDepth) +
                          " regions deep");
  if (info.inProgress)
    return error(loc, "computation '" + name +
                          "' uses itself (recursion is not allowed in HLO)");
  const Computation &comp = module.computations[idx];
  Block *block = new Block();
  region.push_back(block);
  for (int64_t p : info.params) {
    const Instruction &param = comp.instructions[p];
    Type type = convertShape(param.shape);
    if (!type)
      return false;
    block->addArgument(type, instrLoc(param, Metadata()));
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(block);
  info.inProgress = true;
  ++regionDepth;
  bool ok = emitBody(idx, block, /*isRegion=*/true);
  --regionDepth;
  info.inProgress = false;
  return ok;
}

bool Emitter::emitBody(unsigned compIdx, Block *block, bool isRegion) {
  const Computation &comp = module.computations[compIdx];
  const CompInfo &info = comps[compIdx];
  size_t n = comp.instructions.size();
  std::vector<Value> values(n);
  for (auto [num, idx] : llvm::enumerate(info.params))
    values[idx] = block->getArgument(num);

  // Emit in dependency order: HLO dumps define before use, but a depth-
  // first walk (explicit stack: graphs can have 100k instructions) also
  // accepts forward references and reports cycles.
  enum : uint8_t { kNew, kActive, kDone };
  std::vector<uint8_t> state(n, kNew);
  // A reducer's ROOT tuple becomes the operands of tgraph.return; the tuple
  // op itself is not emitted unless something else uses it.
  const Instruction &root = comp.instructions[comp.rootIndex];
  bool rootIsReturnTuple = isRegion && root.opcode == "tuple";
  for (size_t i = 0; rootIsReturnTuple && i < n; ++i)
    for (const OperandRef &ref : comp.instructions[i].operands)
      if (ref.name == root.name)
        rootIsReturnTuple = false;
  if (rootIsReturnTuple)
    state[comp.rootIndex] = kDone;
  struct Frame {
    unsigned idx;
    unsigned nextOperand;
  };
  std::vector<Frame> stack;
  llvm::SmallVector<Value, 8> operands;
  builder.setInsertionPointToEnd(block);
  for (unsigned start = 0; start < n; ++start) {
    if (state[start] != kNew)
      continue;
    stack.push_back({start, 0});
    state[start] = kActive;
    while (!stack.empty()) {
      Frame &top = stack.back();
      const Instruction &instr = comp.instructions[top.idx];
      if (top.nextOperand < instr.operands.size()) {
        const OperandRef &ref = instr.operands[top.nextOperand++];
        auto it = info.index.find(ref.name);
        if (it == info.index.end())
          return error(ref.loc, "use of undefined value '" + ref.name +
                                    "' in computation '" + comp.name + "'");
        unsigned dep = it->second;
        const Shape &defined = comp.instructions[dep].shape;
        if (ref.shape && !sameShape(*ref.shape, defined))
          return error(ref.shape->loc,
                       "operand '" + ref.name + "' of '" + instr.name +
                           "' is written as " + shapeText(*ref.shape) +
                           ", but '" + ref.name + "' is " + shapeText(defined));
        if (state[dep] == kActive)
          return error(ref.loc, "instruction '" + instr.name +
                                    "' depends on itself through '" + ref.name +
                                    "' (cycle)");
        if (state[dep] == kNew) {
          state[dep] = kActive;
          stack.push_back({dep, 0});
        }
        continue;
      }
      unsigned idx = top.idx;
      stack.pop_back();
      state[idx] = kDone;
      if (instr.parameterNumber >= 0) {
        if (instr.opcode != "parameter")
          return error(instr.opcodeLoc, "unexpected parameter number");
        continue;
      }
      operands.clear();
      for (const OperandRef &ref : instr.operands)
        operands.push_back(values[info.index.find(ref.name)->second]);
      Value v = emitInstruction(instr, operands);
      if (!v)
        return false;
      values[idx] = v;
    }
  }

  Location loc =
      NameLoc::get(StringAttr::get(ctx, root.name), fileLoc(root.loc));
  if (!isRegion) {
    builder.create<func::ReturnOp>(loc, values[comp.rootIndex]);
    return true;
  }
  // A reducer over N inputs returns N scalars: HLO writes them as a tuple,
  // the region returns them directly.
  llvm::SmallVector<Value, 4> results;
  if (rootIsReturnTuple) {
    for (const OperandRef &ref : root.operands) {
      auto it = info.index.find(ref.name);
      if (it == info.index.end())
        return error(ref.loc, "use of undefined value '" + ref.name +
                                  "' in computation '" + comp.name + "'");
      results.push_back(values[it->second]);
    }
  } else {
    results.push_back(values[comp.rootIndex]);
  }
  builder.create<tessera::tgraph::ReturnOp>(loc, results);
  return true;
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> Emitter::run() {
  const StackFrameTables &t = module.frames;
  for (const StackFrame &f : t.stackFrames)
    if (f.parentFrameId == 0)
      directParentIds = true;

  Location moduleLoc =
      NameLoc::get(StringAttr::get(ctx, module.name), fileLoc(module.loc));
  OwningOpRef<ModuleOp> result = ModuleOp::create(moduleLoc);
  mlirModule = *result;
  mlirModule->setAttr("tgraph.module_name", builder.getStringAttr(module.name));
  for (const Attr &a : module.attrs) {
    std::string name = ("tgraph." + a.name).str();
    if (a.value == "true" || a.value == "false") {
      mlirModule->setAttr(name, builder.getBoolAttr(a.value == "true"));
      continue;
    }
    int64_t v;
    if (!a.value.getAsInteger(10, v)) {
      mlirModule->setAttr(name, builder.getI64IntegerAttr(v));
      continue;
    }
    if (a.name == "frontend_attributes") {
      llvm::SmallVector<std::pair<std::string, std::string>, 4> entries;
      if (!parseStringDict(a, diags, entries))
        return nullptr;
      NamedAttrList dict;
      for (auto &[k, val] : entries)
        dict.set(k, builder.getStringAttr(val));
      mlirModule->setAttr(name, dict.getDictionary(ctx));
      continue;
    }
    std::string value;
    if (!parseStringValue(a, diags, value))
      return nullptr;
    mlirModule->setAttr(name, builder.getStringAttr(value));
  }

  if (!collectComputations())
    return nullptr;
  for (unsigned i = 0; i < module.computations.size(); ++i)
    if (!computeSignature(i))
      return nullptr;

  // Create every function first so symbol references resolve regardless
  // of the order of computations in the file.
  builder.setInsertionPointToEnd(mlirModule.getBody());
  for (auto [i, comp] : llvm::enumerate(module.computations)) {
    CompInfo &info = comps[i];
    if (!info.symbolUsed)
      continue;
    llvm::SmallVector<Type, 4> inputs;
    for (int64_t p : info.params) {
      Type type = convertShape(comp.instructions[p].shape);
      if (!type)
        return nullptr;
      inputs.push_back(type);
    }
    Type resultType = convertShape(comp.instructions[comp.rootIndex].shape);
    if (!resultType)
      return nullptr;
    auto fn = builder.create<func::FuncOp>(
        NameLoc::get(StringAttr::get(ctx, comp.name), fileLoc(comp.loc)),
        info.symbol, builder.getFunctionType(inputs, resultType));
    if (!comp.isEntry)
      fn.setPrivate();
    if (info.symbol != comp.name)
      fn->setAttr("tgraph.hlo_name", builder.getStringAttr(comp.name));
    info.func = fn;
  }
  for (unsigned i = 0; i < module.computations.size(); ++i)
    if (comps[i].symbolUsed && !emitFunction(i))
      return nullptr;

  foldLibraryTuples();
  inferReplicaCount(mlirModule);
  if (failed(verify(mlirModule)))
    return nullptr;
  return result;
}

void Emitter::foldLibraryTuples() {
  for (Operation *tuple : libraryTuples) {
    for (Operation *user : llvm::make_early_inc_range(tuple->getUsers()))
      if (auto get = dyn_cast<tessera::tgraph::GetTupleElementOp>(user)) {
        // An index past the tuple (a read that gives its own shape is not
        // checked by shape inference) stays for the verifier, which
        // reports it at the read.
        if (get.getIndex() >= tuple->getNumOperands())
          continue;
        get.replaceAllUsesWith(tuple->getOperand(get.getIndex()));
        get.erase();
      }
    if (!tuple->use_empty())
      continue;
    // The workspace constant is the tuple's alone.
    Operation *workspace = tuple->getOperand(1).getDefiningOp();
    tuple->erase();
    if (workspace && workspace->use_empty())
      workspace->erase();
  }
}

OwningOpRef<ModuleOp> tessera::hlo::emitModule(const Module &module,
                                               llvm::SourceMgr &sourceMgr,
                                               unsigned bufferId,
                                               MLIRContext *context,
                                               DiagnosticSink &diags) {
  Emitter emitter(module, sourceMgr, bufferId, context, diags);
  return emitter.run();
}
