//===- Compat.h - will this op run on the target? ---------------*- C++ -*-===//
//
// The per-op rules of the compatibility checker. A verdict is computed from
// the op and the target description alone, recorded on the op as the
// `tgraph.compat` attribute, and read back by the report builders
// (CompatReport.h), so the pass, the reports and the lowering (which keeps
// incompatible ops on the host) agree on one answer.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_ANALYSIS_COMPAT_H
#define TESSERA_ANALYSIS_COMPAT_H

#include "tessera/Dialect/TGraph/IR/HloTypes.h"
#include "tessera/Dialect/TGraph/IR/TGraph.h"
#include "tessera/Target/Target.h"

#include "mlir/IR/Operation.h"
#include "llvm/Support/Regex.h"

#include <optional>
#include <string>

namespace tessera {

/// Ok: the target can run it; Incompatible: it cannot, `reason` says why;
/// NotAssessed: the user placed it on the host. (The enum of the typed
/// `#tgraph.compat` attribute.)
using CompatStatus = tgraph::CompatStatus;

/// Reason codes of incompatible verdicts (docs/compat.md).
namespace compat_reason {
inline constexpr llvm::StringLiteral UnsupportedOp = "unsupported-op";
inline constexpr llvm::StringLiteral UnsupportedDtype = "unsupported-dtype";
inline constexpr llvm::StringLiteral DynamicShape = "dynamic-shape";
inline constexpr llvm::StringLiteral UnsupportedAttribute =
    "unsupported-attribute";
inline constexpr llvm::StringLiteral ExceedsMemory = "exceeds-memory";
inline constexpr llvm::StringLiteral UnknownOp = "unknown-op";
/// Not a reason for incompatibility: the reason of an `ok` verdict whose
/// op fits only after an exact rewrite the compiler makes (the detail says
/// which).
inline constexpr llvm::StringLiteral Rewritten = "rewritten";
} // namespace compat_reason

struct CompatVerdict {
  CompatStatus status = CompatStatus::Ok;
  std::string reason; ///< a compat_reason code, or why it is not assessed
  std::string detail; ///< what exactly is in the way
  std::string hint;   ///< how to fix it, when there is a known way
};

/// The attribute holding an op's verdict (a #tgraph.compat).
inline constexpr llvm::StringLiteral kCompatAttr = "tgraph.compat";
/// A user's manual placement: `tgraph.device = "host"`.
inline constexpr llvm::StringLiteral kDeviceAttr = "tgraph.device";

struct CompatOptions {
  /// Ops whose framework op name or HLO instruction name matches are placed
  /// on the host (not assessed). Null: none.
  const llvm::Regex *hostOps = nullptr;
};

/// Whether the checker assesses `op` at all: tgraph ops directly in a
/// function body. Ops inside reducer/comparator regions belong to their op.
bool isAssessedOp(mlir::Operation *op);

/// The verdict for one op on `target`.
CompatVerdict checkOp(mlir::Operation *op, const TargetDescription &target,
                      const CompatOptions &options);

/// Records / reads the verdict attribute.
void setVerdict(mlir::Operation *op, const CompatVerdict &verdict);
std::optional<CompatVerdict> getVerdict(mlir::Operation *op);

llvm::StringRef statusName(CompatStatus status);

} // namespace tessera

#endif // TESSERA_ANALYSIS_COMPAT_H
