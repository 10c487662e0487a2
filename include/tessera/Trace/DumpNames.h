//===- DumpNames.h - File names of the TESSERA_FLAGS dumps -------*- C++
//-*-===//
//
// Dump file names (docs/flags.md):
//   module_XXXX.<module>.before_optimizations.mlir
//   module_XXXX.YYYY.<TARGET>.after_<pass>.before_<next>.<ext>
//   module_XXXX.<module>.after_optimizations.mlir
//   module_XXXX.<module>.after_optimizations-memory-usage-report.txt
//   module_XXXX.<module>.after_optimizations-tensor-map-summary.txt
// XXXX is the process-unique module id, YYYY the dump step within the module,
// both zero-padded to at least 4 digits.
//
// Module, target and pass names come from user input (an HLO module can be
// called "../../etc/passwd"), so every name component goes through
// sanitizeFileComponent: the result is a single, non-hidden path component
// that can never leave the dump folder.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TRACE_DUMPNAMES_H
#define TESSERA_TRACE_DUMPNAMES_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace tessera {

/// Longest sanitized component, far below the usual 255-byte name limit so
/// that a whole dump file name (several components) still fits.
inline constexpr size_t kMaxFileComponentLength = 64;

/// Maps `name` to a safe file-name component: characters outside
/// [A-Za-z0-9_-] (including '.', '/', '\\', NUL and non-ASCII bytes) become
/// '_'; an empty name becomes "unnamed"; names longer than
/// kMaxFileComponentLength are cut and suffixed with a hash of the full name
/// so distinct long names stay distinct. Deterministic across runs.
std::string sanitizeFileComponent(llvm::StringRef name);

/// "module_0007" for id 7 (more digits when the id needs them).
std::string dumpModulePrefix(int64_t moduleId);

/// module_XXXX.<module>.before_optimizations.mlir
std::string dumpNameBeforeOptimizations(int64_t moduleId,
                                        llvm::StringRef moduleName);

/// module_XXXX.<module>.after_optimizations.mlir, or with `suffix` (such as
/// "-memory-usage-report.txt") in place of ".mlir" for the files written
/// beside the final dump.
std::string dumpNameAfterOptimizations(int64_t moduleId,
                                       llvm::StringRef moduleName,
                                       llvm::StringRef suffix = ".mlir");

/// module_XXXX.YYYY.<TARGET>.after_<pass>.before_<next>.<ext>; `ext` is
/// given without the dot ("mlir", "dot", "mlirbc").
std::string dumpNameForPass(int64_t moduleId, int64_t step,
                            llvm::StringRef target, llvm::StringRef afterPass,
                            llvm::StringRef beforePass, llvm::StringRef ext);

/// With --dump_include_timestamp: "<microseconds since the epoch>.<name>",
/// as XLA does, so the dumps of several runs into one folder sort by time.
std::string dumpNameWithTimestamp(int64_t unixMicros, llvm::StringRef fileName);

} // namespace tessera

#endif // TESSERA_TRACE_DUMPNAMES_H
