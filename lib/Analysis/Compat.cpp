//===- Compat.cpp - per-op compatibility rules ----------------------------===//
//
// Checks run in the order a user should fix things: placement, then whether
// the op exists on the target at all, then shapes, dtypes, attributes and
// finally size. The first failing check is the verdict.
//
//===----------------------------------------------------------------------===//

#include "tessera/Analysis/Compat.h"

#include "tessera/Analysis/DotBatchFold.h"
#include "tessera/Analysis/MixedOperands.h"
#include "tessera/Dialect/TGraph/Transforms/NormalizePrecision.h"

#include "tessera/Analysis/OpCost.h"
#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::tgraph;

llvm::StringRef tessera::statusName(CompatStatus status) {
  switch (status) {
  case CompatStatus::Ok:
    return "ok";
  case CompatStatus::Incompatible:
    return "incompatible";
  case CompatStatus::NotAssessed:
    return "not-assessed";
  }
  llvm_unreachable("unknown status");
}

bool tessera::isAssessedOp(Operation *op) {
  return isa_and_nonnull<TGraphDialect>(op->getDialect()) &&
         isa_and_nonnull<func::FuncOp>(op->getParentOp());
}

namespace {

CompatVerdict incompatible(llvm::StringRef reason, std::string detail,
                           std::string hint = "") {
  return {CompatStatus::Incompatible, reason.str(), std::move(detail),
          std::move(hint)};
}

/// Every tensor type among an op's operands and results (tuples flattened).
void collectTensorTypes(Type type,
                        llvm::SmallVectorImpl<RankedTensorType> &out) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    out.push_back(tensor);
  else if (auto tuple = dyn_cast<TupleType>(type))
    for (Type t : tuple.getTypes())
      collectTensorTypes(t, out);
}

llvm::SmallVector<RankedTensorType> tensorTypesOf(Operation *op) {
  llvm::SmallVector<RankedTensorType> types;
  for (Type t : op->getOperandTypes())
    collectTensorTypes(t, types);
  for (Type t : op->getResultTypes())
    collectTensorTypes(t, types);
  return types;
}

std::string typeString(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

bool placedOnHost(Operation *op, const CompatOptions &options,
                  std::string &why) {
  if (auto device = op->getAttrOfType<StringAttr>(kDeviceAttr);
      device && device.getValue() == "host") {
    // Converts the precision normalization put where a value keeps a type
    // the target lacks (docs/compat.md, "Precision").
    if (auto kind = op->getAttrOfType<StringAttr>(kNormalizationAttr))
      why = kind.getValue() == "boundary"
                ? "precision normalization: the entry's parameter or result "
                  "keeps its type; the host converts it"
                : "precision normalization: an opaque op keeps its type; "
                  "the host converts its operands and results";
    else
      why = "tgraph.device = \"host\"";
    return true;
  }
  // XLA's host offloading (JAX `compute_on("device_host")`) marks host
  // computations with this frontend attribute.
  if (auto frontend =
          op->getAttrOfType<DictionaryAttr>("tgraph.frontend_attributes")) {
    if (auto type = frontend.getAs<StringAttr>("_xla_compute_type");
        type && type.getValue() == "host") {
      why = "frontend attribute _xla_compute_type = \"host\"";
      return true;
    }
  }
  if (!options.hostOps)
    return false;
  for (llvm::StringRef name :
       {getInstructionName(op),
        op->getAttrOfType<StringAttr>(kOpNameAttr)
            ? op->getAttrOfType<StringAttr>(kOpNameAttr).getValue()
            : llvm::StringRef()}) {
    if (!name.empty() && options.hostOps->match(name)) {
      why = "--host-ops matches '" + name.str() + "'";
      return true;
    }
  }
  return false;
}

/// A hint for a dtype the target lacks: the nearest type it has.
std::string dtypeHint(llvm::StringRef dtype, const TargetDescription &target,
                      const OpConstraint &constraint) {
  auto usable = [&](llvm::StringRef d) {
    return target.supportsDtype(d) && constraint.allowsDtype(d);
  };
  llvm::SmallVector<llvm::StringRef> candidates;
  if (dtype == "f64" || dtype == "f16" || dtype == "bf16" ||
      dtype.starts_with("f8"))
    candidates = {"f32", "bf16", "f16"};
  else if (dtype == "c64" || dtype == "c128")
    return "split complex values into real and imaginary f32 tensors";
  else if (dtype.starts_with("s"))
    candidates = {"s32", "s16", "s8"};
  else if (dtype.starts_with("u"))
    candidates = {"u32", "s32"};
  else if (dtype == "pred")
    candidates = {"s8", "s32"};
  for (llvm::StringRef c : candidates)
    if (c != dtype && usable(c))
      return ("cast " + dtype + " to " + c).str();
  return "place on host";
}

/// Per-op attribute constraints: returns an incompatible verdict naming the
/// attribute and value, or nullopt.
std::optional<CompatVerdict> checkAttributes(Operation *op,
                                             const OpConstraint &c) {
  auto overLimit = [&](llvm::StringRef key, int64_t value,
                       llvm::StringRef what) -> std::optional<CompatVerdict> {
    std::optional<int64_t> limit = c.limit(key);
    if (limit && value > *limit)
      return incompatible(compat_reason::UnsupportedAttribute,
                          (what + " = " + llvm::Twine(value) + " exceeds " +
                           key + " = " + llvm::Twine(*limit))
                              .str(),
                          "place on host, or split the op");
    return std::nullopt;
  };
  auto notAllowed = [&](llvm::StringRef key, bool used,
                        std::string what) -> std::optional<CompatVerdict> {
    if (used && !c.allows(key))
      return incompatible(compat_reason::UnsupportedAttribute,
                          what + " (target sets " + key.str() + " = false)",
                          "place on host");
    return std::nullopt;
  };
  auto anyAbove1 = [](std::optional<llvm::ArrayRef<int64_t>> values) {
    return values && llvm::any_of(*values, [](int64_t v) { return v > 1; });
  };
  auto list = [](llvm::ArrayRef<int64_t> values) {
    return "[" +
           llvm::join(llvm::map_range(
                          values, [](int64_t v) { return std::to_string(v); }),
                      ", ") +
           "]";
  };

  int64_t maxRank = 0;
  for (RankedTensorType t : tensorTypesOf(op))
    maxRank = std::max(maxRank, t.getRank());
  if (auto v = overLimit("max_rank", maxRank, "rank"))
    return v;

  std::optional<CompatVerdict> verdict;
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](ConvolutionOp conv) {
        llvm::SmallVector<int64_t> window = conv.getWindowSizes();
        int64_t maxWindow = window.empty() ? 0 : *llvm::max_element(window);
        if ((verdict = overLimit("max_window", maxWindow, "window size")))
          return;
        if ((verdict = overLimit("max_spatial_dims", window.size(),
                                 "spatial dimensions")))
          return;
        if (anyAbove1(conv.getLhsDilation()) &&
            (verdict =
                 notAllowed("allow_lhs_dilation", true,
                            "lhs_dilation = " + list(*conv.getLhsDilation()))))
          return;
        if (anyAbove1(conv.getRhsDilation()) &&
            (verdict =
                 notAllowed("allow_rhs_dilation", true,
                            "rhs_dilation = " + list(*conv.getRhsDilation()))))
          return;
        if ((verdict = notAllowed(
                 "allow_feature_groups", conv.getFeatureGroupCount() > 1,
                 "feature_group_count = " +
                     std::to_string(conv.getFeatureGroupCount()))))
          return;
        if ((verdict =
                 notAllowed("allow_batch_groups", conv.getBatchGroupCount() > 1,
                            "batch_group_count = " +
                                std::to_string(conv.getBatchGroupCount()))))
          return;
        auto reversal = conv.getWindowReversal();
        verdict = notAllowed("allow_window_reversal",
                             reversal && llvm::is_contained(*reversal, true),
                             "window_reversal set");
      })
      .Case([&](ReduceWindowOp rw) {
        auto window = rw.getWindowDimensions();
        int64_t maxWindow = window.empty() ? 0 : *llvm::max_element(window);
        if ((verdict = overLimit("max_window", maxWindow, "window size")) ||
            (verdict =
                 overLimit("max_operands", rw.getInputs().size(), "operands")))
          return;
        if (anyAbove1(rw.getBaseDilations()) &&
            (verdict = notAllowed("allow_base_dilation", true,
                                  "base_dilations = " +
                                      list(*rw.getBaseDilations()))))
          return;
        if (anyAbove1(rw.getWindowDilations()))
          verdict = notAllowed("allow_window_dilation", true,
                               "window_dilations = " +
                                   list(*rw.getWindowDilations()));
      })
      .Case([&](SelectAndScatterOp ss) {
        if (auto window = ss.getWindowDimensions(); window && !window->empty())
          verdict = overLimit("max_window", *llvm::max_element(*window),
                              "window size");
      })
      .Case([&](DotGeneralOp dot) {
        if ((verdict = overLimit("max_batch_dims",
                                 dot.getLhsBatchingDimensions().size(),
                                 "batching dimensions"))) {
          // The verdict is for the graph as it is; when the compiler's own
          // exact rewrite fixes it, the hint says so (tessera-compile runs
          // it before the check, so its report shows the rewritten dot).
          if (planDotBatchFold(dot, c))
            verdict->hint = "run tgraph-legalize-for-target first (as "
                            "tessera-compile does): it collapses the "
                            "batching dimensions into one, exactly";
          return;
        }
        verdict = overLimit("max_contracting_dims",
                            dot.getLhsContractingDimensions().size(),
                            "contracting dimensions");
      })
      .Case([&](PadOp pad) {
        bool interior = llvm::any_of(pad.getInteriorPadding(),
                                     [](int64_t v) { return v > 0; });
        if ((verdict = notAllowed("allow_interior_padding", interior,
                                  "interior_padding = " +
                                      list(pad.getInteriorPadding()))))
          return;
        auto negative = [](int64_t v) { return v < 0; };
        bool cropping = llvm::any_of(pad.getEdgePaddingLow(), negative) ||
                        llvm::any_of(pad.getEdgePaddingHigh(), negative);
        verdict = notAllowed(
            "allow_negative_padding", cropping,
            "negative edge padding (low = " + list(pad.getEdgePaddingLow()) +
                ", high = " + list(pad.getEdgePaddingHigh()) + ")");
      })
      .Case([&](ScatterOp scatter) {
        if ((verdict = overLimit("max_operands", scatter.getInputs().size(),
                                 "operands")))
          return;
        verdict =
            notAllowed("allow_non_unique_indices", !scatter.getUniqueIndices(),
                       "scatter without unique_indices");
      })
      .Case([&](SortOp sort) {
        if ((verdict = overLimit("max_operands", sort.getInputs().size(),
                                 "operands")))
          return;
        if ((verdict = notAllowed("allow_stable", sort.getIsStable(),
                                  "is_stable = true")))
          return;
        auto type = cast<RankedTensorType>(sort.getInputs()[0].getType());
        verdict =
            overLimit("max_sort_size", type.getDimSize(sort.getDimension()),
                      "sorted dimension size");
      })
      .Case([&](ReduceOp reduce) {
        verdict =
            overLimit("max_operands", reduce.getInputs().size(), "operands");
      })
      .Case([&](AllReduceOp ar) {
        verdict = overLimit("max_operands", ar.getInputs().size(), "operands");
      })
      .Case([&](ConcatenateOp concat) {
        verdict =
            overLimit("max_operands", concat.getInputs().size(), "operands");
      });
  return verdict;
}

} // namespace

CompatVerdict tessera::checkOp(Operation *op, const TargetDescription &target,
                               const CompatOptions &options) {
  std::string hostWhy;
  if (placedOnHost(op, options, hostWhy))
    return {CompatStatus::NotAssessed, "placed-on-host", hostWhy, ""};

  if (auto unknown = dyn_cast<UnknownOp>(op))
    return incompatible(
        compat_reason::UnknownOp,
        ("HLO opcode '" + unknown.getOpcode() + "' has no tgraph equivalent")
            .str(),
        "place on host");
  llvm::StringRef opName = op->getName().stripDialect();
  const OpConstraint *constraint = target.opConstraint(opName);
  if (auto call = dyn_cast<CustomCallOp>(op)) {
    if (!constraint ||
        !constraint->allowsName("targets", call.getCallTargetName())) {
      std::string detail = ("custom call target '" + call.getCallTargetName() +
                            "' is not implemented by " + target.name)
                               .str();
      // A cuBLAS / cuDNN call the importer could not express as tgraph
      // math says why, so the user knows what to change in the model.
      if (auto why = op->getAttrOfType<StringAttr>(kNotImportedAttr))
        detail += "; kept as a call because " + why.getValue().str();
      return incompatible(compat_reason::UnknownOp, detail, "place on host");
    }
  } else if (!constraint) {
    return incompatible(
        compat_reason::UnsupportedOp,
        ("tgraph." + opName + " is not supported by " + target.name).str(),
        "place on host");
  }

  llvm::SmallVector<RankedTensorType> tensors = tensorTypesOf(op);
  for (RankedTensorType t : tensors)
    if (!t.hasStaticShape())
      return incompatible(compat_reason::DynamicShape,
                          "dynamic shape " + typeString(t),
                          "pad to the static bound (HLO <=N dimensions)");

  for (RankedTensorType t : tensors) {
    std::string dtype = hloDtypeName(t.getElementType());
    if (!target.supportsDtype(dtype))
      return incompatible(compat_reason::UnsupportedDtype,
                          dtype + " is not supported by " + target.name,
                          dtypeHint(dtype, target, *constraint));
    if (!constraint->allowsDtype(dtype))
      return incompatible(compat_reason::UnsupportedDtype,
                          dtype + " is not supported by tgraph." +
                              opName.str() + " on " + target.name,
                          dtypeHint(dtype, target, *constraint));
  }

  if (FloatType common = mixedOperandType(op))
    return incompatible(
        compat_reason::UnsupportedDtype,
        "operands of " + hloDtypeName(getElementTypeOrSelf(op->getOperand(0))) +
            " and " + hloDtypeName(getElementTypeOrSelf(op->getOperand(1))) +
            ": the matrix unit takes both in one type",
        "run tgraph-legalize-for-target first (as tessera-compile does): it "
        "converts the narrower to " +
            hloDtypeName(common) + ", exactly");

  if (std::optional<CompatVerdict> v = checkAttributes(op, *constraint))
    return *v;

  // Even spread over every tile, the operands and result must fit at once.
  int64_t workingSet = opBytes(op);
  if (workingSet > target.usableBytesTotal())
    return incompatible(compat_reason::ExceedsMemory,
                        "working set of " + std::to_string(workingSet) +
                            " bytes exceeds the " +
                            std::to_string(target.usableBytesTotal()) +
                            " usable bytes of all tiles",
                        "split the op, or use a target with more memory");
  // Compatible; the note says when it took a rewrite to get there.
  if (auto done = op->getAttrOfType<StringAttr>(kRewrittenAttr))
    return {CompatStatus::Ok, compat_reason::Rewritten.str(),
            done.getValue().str(), ""};
  return {};
}

void tessera::setVerdict(Operation *op, const CompatVerdict &verdict) {
  op->setAttr(kCompatAttr,
              tgraph::CompatAttr::get(op->getContext(), verdict.status,
                                      verdict.reason, verdict.detail,
                                      verdict.hint));
}

std::optional<CompatVerdict> tessera::getVerdict(Operation *op) {
  auto attr = op->getAttrOfType<tgraph::CompatAttr>(kCompatAttr);
  if (!attr)
    return std::nullopt;
  CompatVerdict v;
  v.status = attr.getStatus();
  v.reason = attr.getReason().str();
  v.detail = attr.getDetail().str();
  v.hint = attr.getHint().str();
  return v;
}
