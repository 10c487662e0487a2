//===- TargetSchema.h - vocabularies of the target format -------*- C++ -*-===//
//
// The closed vocabularies a target description is checked against: dtype
// names, tgraph op names, per-op constraint keys and tile-runtime vertex
// kinds. Keeping them as tables (rather than ad-hoc checks in the parser)
// lets the parser suggest close matches for typos, lets docs/targets.md and
// the compatibility checker share one list, and lets a unit test prove the
// op list matches the tgraph dialect.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TARGET_TARGETSCHEMA_H
#define TESSERA_TARGET_TARGETSCHEMA_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tessera {

/// An element type, named as HLO names it.
struct DtypeInfo {
  llvm::StringLiteral name;
  int64_t bytes; ///< storage size; sub-byte types round up to 1
};

/// Every dtype a target may list: pred, s8..s64, u8..u64, f8e4m3fn, f8e5m2,
/// f16, bf16, f32, f64, c64, c128.
llvm::ArrayRef<DtypeInfo> knownDtypes();
/// Bytes of one element of `dtype`, or nullopt for an unknown name.
std::optional<int64_t> dtypeBytes(llvm::StringRef dtype);

/// Every tgraph op name (the mnemonic without `tgraph.`), which are the keys
/// allowed under `ops`. Must list exactly the ops of the tgraph dialect; the
/// unit tests check it.
llvm::ArrayRef<llvm::StringLiteral> knownOpNames();
bool isKnownOpName(llvm::StringRef op);

/// How the value of a per-op constraint is read.
enum class ConstraintKind {
  Limit,    ///< `max_*`: a non-negative integer upper bound
  Flag,     ///< `allow_*`: a boolean, absent means allowed
  NameList, ///< a list of strings, absent means any name
};

/// One constraint key of the `ops.<op>` objects.
struct ConstraintKey {
  llvm::StringLiteral name;
  ConstraintKind kind;
  /// Comma-separated op names the key applies to, or "*" for every op.
  llvm::StringLiteral ops;
  /// What the checker compares against it; shown in docs and errors.
  llvm::StringLiteral meaning;

  bool appliesTo(llvm::StringRef op) const;
};

/// The constraint vocabulary (besides `dtypes` and `note`, which every op
/// object accepts).
llvm::ArrayRef<ConstraintKey> constraintKeys();
const ConstraintKey *findConstraintKey(llvm::StringRef name);

/// Vertex kinds a tile runtime can implement: the names allowed in
/// `runtime_ops`.
llvm::ArrayRef<llvm::StringLiteral> vertexKinds();
bool isVertexKind(llvm::StringRef kind);

/// The candidate closest to `word` by edit distance when it is close enough
/// to be a plausible typo, else nullopt. Used for "did you mean" hints.
std::optional<std::string>
closestMatch(llvm::StringRef word, llvm::ArrayRef<llvm::StringRef> candidates);

} // namespace tessera

#endif // TESSERA_TARGET_TARGETSCHEMA_H
