//===- CompileReport.h - The compilation report -----------------*- C++ -*-===//
//
// The COMPILE_END compilation report (graph.{json,cbor,txt}): module, target
// summary, graph summary (ops per opcode, FLOPs and bytes from OpCost) and
// the compatibility totals. Later issues add memory sections; the schema is
// in docs/compile.md.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_COMPILE_COMPILEREPORT_H
#define TESSERA_COMPILE_COMPILEREPORT_H

#include "tessera/Analysis/CompatReport.h"
#include "tessera/Target/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

namespace tessera {

/// Version of the report's schema, bumped when fields change meaning.
inline constexpr int kCompilationReportVersion = 1;

/// The report of `module` compiled for `target`; the compatibility totals
/// are `compat`'s (the same object the compat report is written from).
nlohmann::ordered_json buildCompilationReport(mlir::ModuleOp module,
                                              llvm::StringRef moduleName,
                                              int64_t moduleId,
                                              const TargetDescription &target,
                                              const CompatReport &compat);

/// The readable text form (report_format=text).
void writeCompilationReportText(const nlohmann::ordered_json &report,
                                llvm::raw_ostream &os);

} // namespace tessera

#endif // TESSERA_COMPILE_COMPILEREPORT_H
