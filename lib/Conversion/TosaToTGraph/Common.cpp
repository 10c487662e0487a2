//===- Common.cpp - shared fallback and entry point -----------------------===//
//
// What every family shares: the quantized-type check, tgraph.unknown for
// anything that cannot be imported, the verify-or-fall-back step, and the
// catch-all pattern that makes an op without a family unknown instead of
// failing the import.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "tessera/Conversion/TosaToTGraph.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
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

/// tgraph.unknown keeps the op: name, operands, result type, attributes as
/// strings plus the reason. Ops with several or no results get a tuple
/// result (tgraph.unknown has exactly one) and get_tuple_element users.
void replaceWithUnknown(Operation *op, ValueRange operands, PatternRewriter &rw,
                        StringRef reason) {
  MLIRContext *ctx = op->getContext();
  SmallVector<NamedAttribute> attrs;
  for (NamedAttribute attr : op->getAttrDictionary()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    attr.getValue().print(os);
    // A large literal would swamp the report; its type says enough.
    if (text.size() > 256)
      text = text.substr(0, 253) + "...";
    attrs.emplace_back(attr.getName(), StringAttr::get(ctx, text));
  }
  attrs.emplace_back(StringAttr::get(ctx, "reason"),
                     StringAttr::get(ctx, reason));
  auto dict = DictionaryAttr::get(ctx, attrs);
  StringRef opcode = op->getName().getStringRef();
  if (op->getNumResults() == 1) {
    rw.replaceOpWithNewOp<tg::UnknownOp>(op, op->getResult(0).getType(), opcode,
                                         operands, dict);
    return;
  }
  auto tuple = TupleType::get(ctx, op->getResultTypes());
  auto unknown =
      rw.create<tg::UnknownOp>(op->getLoc(), tuple, opcode, operands, dict);
  SmallVector<Value> results;
  for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
    results.push_back(rw.create<tg::GetTupleElementOp>(
        op->getLoc(), type, unknown, static_cast<uint64_t>(i)));
  rw.replaceOp(op, results);
}

} // namespace

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

/// Catch-all, tried after every family: any TOSA op left becomes
/// tgraph.unknown, so the conversion never fails on an op it does not know.
struct UnknownPattern : RewritePattern {
  UnknownPattern(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rw) const override {
    if (!isa<tosa::TosaDialect>(op->getDialect()))
      return failure();
    std::string reason = quantizedReason(op);
    replaceWithUnknown(op, op->getOperands(), rw,
                       reason.empty()
                           ? noPatternReason(op->getName().getStringRef())
                           : StringRef(reason));
    return success();
  }
};

} // namespace

void tessera::populateTosaToTGraphPatterns(RewritePatternSet &patterns) {
  populateElementwisePatterns(patterns);
  populateDataMovementPatterns(patterns);
  populateNnPatterns(patterns);
  populateResizePatterns(patterns);
  populateRescalePatterns(patterns);
  patterns.add<UnknownPattern>(patterns.getContext());
}
