//===- NormalizePrecision.h - compute a type the target lacks in another -*- C++
//-*-===//
//
// Precision normalization, in the spirit of XLA's float normalization: a
// module whose floats are of a type the target has no arithmetic for (bf16
// on tile-1472) is computed in a type it has (f32, or f16), instead of
// every op being reported incompatible. The entry function keeps its
// signature, so users feed and read the types they exported; converts at
// its boundary run on the host, where those values live anyway.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_DIALECT_TGRAPH_TRANSFORMS_NORMALIZEPRECISION_H
#define TESSERA_DIALECT_TGRAPH_TRANSFORMS_NORMALIZEPRECISION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace tessera {

/// What to compute a missing floating-point type in (docs/compat.md,
/// "Precision").
enum class PrecisionPolicy {
  /// Change nothing: ops on a type the target lacks are incompatible.
  Keep,
  /// bf16 becomes f32. A value the model itself rounds to bf16 (an
  /// explicit convert) is rounded with tgraph.reduce_precision; other
  /// intermediate values keep f32's precision, as XLA does by default
  /// (xla_allow_excess_precision).
  Bf16ToF32,
  /// As Bf16ToF32, and every op's bf16 result is rounded to bf16 as well:
  /// elementwise results match a bf16 computation bit for bit.
  Bf16ToF32Round,
  /// bf16 becomes f16 (2-4x the f32 rate on tile-1472): lossy, f16's range
  /// is 6.5e4 where bf16's is 3.4e38.
  Bf16ToF16,
};

/// The policy's flag value ("keep", "bf16-to-f32", ...).
llvm::StringRef precisionPolicyName(PrecisionPolicy policy);

/// Whether an op under `root` reads or writes a bf16 value (a tensor of
/// bf16 or a tuple holding one): only such a module can be normalized.
bool holdsBFloat16(mlir::Operation *root);

/// Attribute on the converts and roundings the normalization inserts
/// ("boundary", "opaque", "rounding"), so reports can tell them from the
/// model's own ops. Boundary and opaque converts also get
/// `tgraph.device = "host"`.
inline constexpr llvm::StringLiteral kNormalizationAttr =
    "tgraph.normalization";
/// The module attribute recording what was done (#tgraph.precision).
inline constexpr llvm::StringLiteral kPrecisionAttr = "tgraph.precision";

struct PrecisionCounts {
  int64_t ops = 0;
  int64_t converts = 0;
  int64_t roundings = 0;
  int64_t bytesAdded = 0;
};

/// Rewrites every function of `module` from the policy's source type to its
/// destination type, keeping `entry`'s signature, and records the counts
/// as the module's `tgraph.precision` attribute (when anything changed).
/// `hasSource` / `hasDestination`: whether the target supports each type;
/// nothing happens when it supports the source or lacks the destination.
PrecisionCounts normalizePrecision(mlir::ModuleOp module,
                                   mlir::func::FuncOp entry,
                                   PrecisionPolicy policy, bool hasSource,
                                   bool hasDestination);

} // namespace tessera

#endif // TESSERA_DIALECT_TGRAPH_TRANSFORMS_NORMALIZEPRECISION_H
