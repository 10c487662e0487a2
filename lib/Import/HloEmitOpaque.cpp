//===- HloEmitOpaque.cpp - HLO custom calls and host communication --------===//
//
// custom-call (target, backend config and API version kept verbatim;
// cuBLAS / cuDNN library calls become their math, HloEmitLibraryCall.cpp),
// optimization barriers, and the token-ordered host transfers: after-all,
// infeed and outfeed.
//
//===----------------------------------------------------------------------===//

#include "HloEmitOps.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace tessera::hlo::detail {
namespace {

Emitted customCall(InstrEmit &e) {
  const Attr *target = required(e, "custom_call_target");
  std::string name, config;
  bool sideEffect = false;
  const Attr *configAttr = e.instr.findAttr("backend_config");
  if (!target || !parseStringValue(*target, e.diags(), name) ||
      !optionalString(e, "backend_config", config) ||
      !flag(e, "custom_call_has_side_effect", sideEffect))
    return failure();
  // cuBLAS and cuDNN calls in dumps taken after XLA:GPU's optimizations
  // are plain math: imported as such, they run wherever a dot or a
  // convolution does. What has no exact form stays a call, saying why.
  std::string whyNot;
  if (isLibraryCallTarget(name)) {
    Emitted math = emitLibraryCall(e, name, config, configAttr, whyNot);
    if (failed(math) || *math)
      return math;
    e.extraAttrs.set(tg::kNotImportedAttr, e.builder().getStringAttr(whyNot));
  }
  // An API version this importer does not know stays in
  // tgraph.hlo_attributes as text.
  IntegerAttr apiVersion;
  if (const Attr *a = e.instr.findAttr("api_version")) {
    std::optional<int32_t> version =
        llvm::StringSwitch<std::optional<int32_t>>(a->value)
            .Case("API_VERSION_UNSPECIFIED", 0)
            .Case("API_VERSION_ORIGINAL", 1)
            .Case("API_VERSION_STATUS_RETURNING", 2)
            .Case("API_VERSION_STATUS_RETURNING_UNIFIED", 3)
            .Case("API_VERSION_TYPED_FFI", 4)
            .Default(std::nullopt);
    if (version) {
      e.attrs.take("api_version");
      apiVersion = e.builder().getI32IntegerAttr(*version);
    }
  }
  return e.emit<tg::CustomCallOp>(name, e.operands, config, sideEffect,
                                  apiVersion);
}

Emitted infeed(InstrEmit &e) {
  std::string config;
  if (!arity(e, 1) || !optionalString(e, "infeed_config", config))
    return failure();
  return e.emit<tg::InfeedOp>(e.operands[0], config);
}

Emitted outfeed(InstrEmit &e) {
  std::string config;
  if (!arity(e, 2) || !optionalString(e, "outfeed_config", config))
    return failure();
  return e.emit<tg::OutfeedOp>(e.operands[0], e.operands[1], config);
}

} // namespace

Emitted emitOpaque(Op kind, InstrEmit &e) {
  switch (kind) {
  case Op::CustomCall:
    return customCall(e);
  case Op::OptimizationBarrier:
    return unaryOp<tg::OptimizationBarrierOp>(e);
  case Op::AfterAll: {
    // XLA's parser takes after-all of any operands; only tokens order
    // anything (a value is ordered by its uses already), so the others are
    // left out, counted in tgraph.non_token_operands.
    llvm::SmallVector<Value, 4> tokens;
    for (Value v : e.operands)
      if (isa<tg::TokenType>(v.getType()))
        tokens.push_back(v);
    if (tokens.size() != e.operands.size())
      e.extraAttrs.set(
          "tgraph.non_token_operands",
          e.builder().getI64IntegerAttr(e.operands.size() - tokens.size()));
    return e.emit<tg::AfterAllOp>(tokens);
  }
  case Op::Infeed:
    return infeed(e);
  case Op::Outfeed:
    return outfeed(e);
  default:
    llvm_unreachable("not a custom-call or host transfer opcode");
  }
}

} // namespace tessera::hlo::detail
