//===- Common.cpp - shared fallback and entry point -----------------------===//
//
// What every family shares: which ops the import takes (isImportedOp), the
// quantized-type check, constants, tgraph.unknown for anything that cannot
// be imported, the verify-or-fall-back step, and the catch-all pattern that
// makes an op without a family unknown instead of failing the import.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "tessera/Conversion/TosaToTGraph.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::tosa_import;

namespace {

/// True for types of the quant dialect. Checked by dialect name so the pass
/// (and the plugin) need not link the quant library.
bool isQuantized(Type t) {
  if (auto shaped = dyn_cast<ShapedType>(t))
    t = shaped.getElementType();
  return t.getDialect().getNamespace() == "quant";
}

/// Why an op cannot be imported before any pattern looks at it, or "".
std::string quantizedReason(Operation *op) {
  SmallVector<Type> types(op->getOperandTypes());
  llvm::append_range(types, op->getResultTypes());
  for (Type t : types) {
    if (isQuantized(t)) {
      std::string s;
      llvm::raw_string_ostream os(s);
      os << "quantized type " << t
         << " is not imported (tgraph has no quantized element types); "
            "dequantize in the framework or run the model in float";
      return s;
    }
  }
  if (op->getAttr("quantization_info"))
    return "quantized TOSA op (quantization_info zero points) is not imported";
  return "";
}

/// Values tgraph ops can take: tensors, tuples, tokens. Scalars (the index
/// and element values of arith, tensor.extract, ...) are not among them.
bool isGraphValue(Value v) {
  return isa<RankedTensorType, TupleType, tg::TokenType>(v.getType());
}

/// The graph values a run-time scalar is computed from, found through the
/// scalar ops before it (tensor.extract of a tensor, arith on scalars).
void collectTensorRoots(Value scalar, SmallVectorImpl<Value> &roots) {
  SmallVector<Value> work{scalar};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (isGraphValue(v)) {
      if (!llvm::is_contained(roots, v))
        roots.push_back(v);
      continue;
    }
    if (Operation *def = v.getDefiningOp())
      llvm::append_range(work, def->getOperands());
  }
}

} // namespace

/// tgraph.unknown keeps the op: name, operands, result type, attributes as
/// strings plus the reason. Ops with several or no results get a tuple
/// result (tgraph.unknown has exactly one) and get_tuple_element users.
/// tgraph.unknown takes graph values only: a scalar operand is recorded as
/// an attribute `operand_<i>` (its value, or which op computes it at run
/// time), and the tensors a run-time scalar is computed from become inputs,
/// so the unknown still depends on what it reads.

void tosa_import::replaceWithUnknown(Operation *op, ValueRange operands,
                                     PatternRewriter &rw, StringRef reason) {
  MLIRContext *ctx = op->getContext();
  SmallVector<NamedAttribute> attrs;
  auto addText = [&](StringRef name,
                     llvm::function_ref<void(raw_ostream &)> print) {
    std::string text;
    llvm::raw_string_ostream os(text);
    print(os);
    // A large literal would swamp the report; its type says enough.
    if (text.size() > 256)
      text = text.substr(0, 253) + "...";
    attrs.emplace_back(StringAttr::get(ctx, name), StringAttr::get(ctx, text));
  };
  for (NamedAttribute attr : op->getAttrDictionary())
    addText(attr.getName(),
            [&](raw_ostream &os) { attr.getValue().print(os); });
  SmallVector<Value> inputs, roots;
  for (auto [i, operand] : llvm::enumerate(operands)) {
    // A structured binding cannot be captured in C++17.
    Value v = operand;
    if (isGraphValue(v)) {
      inputs.push_back(v);
      continue;
    }
    addText(("operand_" + Twine(i)).str(), [&](raw_ostream &os) {
      if (TypedAttr value = scalarConstant(v)) {
        value.print(os);
      } else if (Operation *def = v.getDefiningOp()) {
        os << v.getType() << " computed at run time by " << def->getName();
        collectTensorRoots(v, roots);
      } else {
        os << v.getType() << " argument";
      }
    });
  }
  for (Value root : roots)
    if (!llvm::is_contained(inputs, root))
      inputs.push_back(root);
  attrs.emplace_back(StringAttr::get(ctx, "reason"),
                     StringAttr::get(ctx, reason));
  auto dict = DictionaryAttr::get(ctx, attrs);
  StringRef opcode = op->getName().getStringRef();
  if (op->getNumResults() == 1) {
    rw.replaceOpWithNewOp<tg::UnknownOp>(op, op->getResult(0).getType(), opcode,
                                         inputs, dict);
    return;
  }
  auto tuple = TupleType::get(ctx, op->getResultTypes());
  auto unknown =
      rw.create<tg::UnknownOp>(op->getLoc(), tuple, opcode, inputs, dict);
  SmallVector<Value> results;
  for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
    results.push_back(rw.create<tg::GetTupleElementOp>(
        op->getLoc(), type, unknown, static_cast<uint64_t>(i)));
  rw.replaceOp(op, results);
}

LogicalResult tosa_import::convertOrUnknown(
    Operation *op, ValueRange operands, PatternRewriter &rw,
    function_ref<FailureOr<Value>(Emitter &)> convert) {
  std::string reason = quantizedReason(op);
  if (!reason.empty()) {
    replaceWithUnknown(op, operands, rw, reason);
    return success();
  }
  Emitter e{rw, op->getLoc(), {}, {}};
  FailureOr<Value> result = convert(e);
  if (succeeded(result) && result->getType() != op->getResult(0).getType())
    result = e.fail("tgraph result type differs from the TOSA result type");
  if (succeeded(result)) {
    // Capture verifier messages instead of printing them: a rejected
    // mapping is a reason on the unknown op, not an error of the import.
    std::string diag;
    {
      ScopedDiagnosticHandler handler(op->getContext(), [&](Diagnostic &d) {
        if (diag.empty())
          diag = d.str();
        return success();
      });
      for (Operation *created : e.created)
        if (failed(mlir::verify(created, /*verifyRecursively=*/true))) {
          result = failure();
          break;
        }
    }
    if (failed(result))
      e.reason = "tgraph form does not verify: " + diag;
  }
  if (succeeded(result)) {
    if (Operation *def = result->getDefiningOp();
        def && llvm::is_contained(e.created, def))
      def->setLoc(op->getLoc());
    rw.replaceOp(op, *result);
    return success();
  }
  for (Operation *created : llvm::reverse(e.created))
    rw.eraseOp(created);
  replaceWithUnknown(op, operands, rw, e.reason);
  return success();
}

TypedAttr tosa_import::scalarConstant(Value v) {
  Attribute value;
  if (!isa<IntegerType, IndexType, FloatType>(v.getType()) ||
      !matchPattern(v, m_Constant(&value)))
    return nullptr;
  return dyn_cast<TypedAttr>(value);
}

Value tosa_import::importConstant(Emitter &e, RankedTensorType type,
                                  ElementsAttr value) {
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    if (resource.getRawHandle().getKey() == "__elided__" ||
        !resource.getRawHandle().getBlob())
      return e.make<tg::ConstantOp>(type, ElementsAttr(), true);
  }
  return e.make<tg::ConstantOp>(type, value, false);
}

namespace {

/// Reasons for TOSA ops that have no family on purpose.
StringRef noPatternReason(StringRef name) {
  return llvm::StringSwitch<StringRef>(name)
      .Case("tosa.custom", "TOSA custom op: implementation is opaque")
      .Cases("tosa.cond_if", "tosa.while_loop",
             "TOSA control flow is not imported: its regions are dropped "
             "with it")
      .Default("no tgraph pattern for this TOSA op");
}

/// An op of the exported dialects that tgraph cannot express on purpose.
struct UnsupportedPattern : RewritePattern {
  UnsupportedPattern(MLIRContext *ctx, StringRef opName, StringRef why)
      : RewritePattern(opName, /*benefit=*/2, ctx),
        reason((opName + ": " + why).str()) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rw) const override {
    return convertOrUnknown(op, op->getOperands(), rw,
                            [&](Emitter &e) { return e.fail(reason); });
  }
  std::string reason;
};

/// Catch-all, tried after every family: any imported op left becomes
/// tgraph.unknown, so the conversion never fails on an op it does not know.
struct UnknownPattern : RewritePattern {
  UnknownPattern(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rw) const override {
    if (!isImportedOp(op))
      return failure();
    std::string reason = quantizedReason(op);
    if (reason.empty()) {
      StringRef name = op->getName().getStringRef();
      reason = isa<tosa::TosaDialect>(op->getDialect())
                   ? noPatternReason(name).str()
                   : (name + ": no tgraph pattern for this op").str();
    }
    replaceWithUnknown(op, op->getOperands(), rw, reason);
    return success();
  }
};

} // namespace

void tosa_import::addUnsupported(RewritePatternSet &patterns, StringRef opName,
                                 StringRef why) {
  patterns.add<UnsupportedPattern>(patterns.getContext(), opName, why);
}

bool tessera::isImportedOp(Operation *op) {
  Dialect *dialect = op->getDialect();
  if (isa_and_nonnull<tosa::TosaDialect>(dialect))
    return true;
  if (isa<func::CallOp>(op))
    return true;
  // math, arith and tensor ops on tensors; their scalar ops (index
  // arithmetic, a pad's yield) are read as constants where needed.
  if (!isa_and_nonnull<math::MathDialect, arith::ArithDialect,
                       tensor::TensorDialect>(dialect))
    return false;
  return llvm::any_of(op->getResultTypes(),
                      [](Type t) { return isa<TensorType>(t); });
}

void tessera::populateTosaToTGraphPatterns(RewritePatternSet &patterns) {
  populateElementwisePatterns(patterns);
  populateDataMovementPatterns(patterns);
  populateNnPatterns(patterns);
  populateResizePatterns(patterns);
  populateRescalePatterns(patterns);
  populateMathPatterns(patterns);
  populateArithPatterns(patterns);
  populateTensorPatterns(patterns);
  patterns.add<UnknownPattern>(patterns.getContext());
}
