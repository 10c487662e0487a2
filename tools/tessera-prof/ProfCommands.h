//===- ProfCommands.h - tessera-prof's commands ------------------*- C++
//-*-===//
//
// Each command gets the already-split arguments after the command name and
// returns the process exit code (0 success, 1 failure; see docs/events.md).
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TOOLS_PROF_PROFCOMMANDS_H
#define TESSERA_TOOLS_PROF_PROFCOMMANDS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace tessera::prof {

/// `tessera-prof EVENTS events`: one line per event.
int runEventsCommand(llvm::StringRef eventsPath,
                     llvm::ArrayRef<std::string> args);

/// `tessera-prof EVENTS extract KIND [--event=N] [-o FILE]`.
int runExtractCommand(llvm::StringRef eventsPath,
                      llvm::ArrayRef<std::string> args);

/// `tessera-prof EVENTS overview [--module=M] [--top=N] [--json]`: the
/// job, step time, input-bound %, idle, utilization, top ops and
/// recommendations of each module's runs (docs/profiling.md).
int runOverviewCommand(llvm::StringRef eventsPath,
                       llvm::ArrayRef<std::string> args);

/// `tessera-prof EVENTS op-profile [--module=M] [--top=N] [--json]`: ops
/// by category, each category's top N ops with their padding fit.
int runOpProfileCommand(llvm::StringRef eventsPath,
                        llvm::ArrayRef<std::string> args);

/// `tessera-prof EVENTS... export --sqlite=DB | --ndjson=FILE`: the
/// tables of docs/profiling.md from every event file.
int runExportCommand(llvm::ArrayRef<std::string> eventFiles,
                     llvm::ArrayRef<std::string> args);

/// `tessera-prof EVENTS... sql "SELECT ..."`: one read-only query on those
/// tables, printed as a table.
int runSqlCommand(llvm::ArrayRef<std::string> eventFiles,
                  llvm::ArrayRef<std::string> args);

/// `tessera-prof EVENTS trace [-o FILE]`: the event file's compiles, loads,
/// runs and transfers as Chrome Trace Event JSON.
int runTraceCommand(llvm::StringRef eventsPath,
                    llvm::ArrayRef<std::string> args);

/// `tessera-prof A.json B.json ... merge -o FILE`: Chrome traces merged,
/// a process per source process, aligned on the wall clock.
int runMergeCommand(llvm::ArrayRef<std::string> files,
                    llvm::ArrayRef<std::string> args);

/// `tessera-prof EVENTS memory [--tile=N] [--top=N] [--module=M] [--json]`:
/// the memory viewer of the last compile (peak, heap sparkline, buffers at
/// the peak with their cards), for the chip or one tile.
int runMemoryCommand(llvm::StringRef eventsPath,
                     llvm::ArrayRef<std::string> args);

/// The memory report of the last compile (of `module`, when given) in
/// `eventsPath`; `moduleName` gets the module it is of.
llvm::Expected<nlohmann::json> lastMemoryReport(llvm::StringRef eventsPath,
                                                llvm::StringRef module,
                                                std::string &moduleName);

/// `tessera-prof EVENTS pod [--module=M] [--json]`: the last compile's pod
/// view on a multi-chip target (per chip memory and cycles, links,
/// collectives).
int runPodCommand(llvm::StringRef eventsPath, llvm::ArrayRef<std::string> args);

/// `tessera-prof EVENTS tiles [--top=N] [--module=M] [--json]`: the tile
/// memory histogram, the most loaded tiles and their time breakdown.
int runTilesCommand(llvm::StringRef eventsPath,
                    llvm::ArrayRef<std::string> args);

/// `tessera-prof EVENTS tensor-map [--tensor=NAME | --tile=N] [--top=N]
/// [--module=M] [--json]`: the last compile's tensor map, read with a SAX
/// parser: per computation totals and the largest tensors, one tensor's
/// tiles, or the tensors on one tile.
int runTensorMapCommand(llvm::StringRef eventsPath,
                        llvm::ArrayRef<std::string> args);

/// `tessera-prof EVENTS html -o FILE [--module=M]`: one self-contained
/// HTML page of a module's compile and last profiled run.
int runHtmlCommand(llvm::StringRef eventsPath,
                   llvm::ArrayRef<std::string> args);

/// `tessera-prof EVENTS monitor [--follow [--count=N] [--idle-exit=S]]
/// [--module=M] [--json]`: one line per run (wall and device time,
/// utilization, idle, input-bound), following the file as a job appends.
int runMonitorCommand(llvm::StringRef eventsPath,
                      llvm::ArrayRef<std::string> args);

/// `tessera-prof EVENTS summary [--module=M] [--json]`: the last compile's
/// memory summary, the compiler's own text (Target / Graph / Memory Usage /
/// histogram / most-loaded tiles).
int runSummaryCommand(llvm::StringRef eventsPath,
                      llvm::ArrayRef<std::string> args);

/// `tessera-prof EVENTS compat [--top=N] [--module=M] [--json]`: the
/// compatibility summary and the per-name-scope table.
int runCompatCommand(llvm::StringRef eventsPath,
                     llvm::ArrayRef<std::string> args);

/// `tessera-prof A.events B.events diff [--module=M] [--top=N] [--all]
/// [--json]`: memory, cycles per op, buffers and op mappings of two
/// compiles and runs, side by side (the differences; --all every row).
int runDiffCommand(llvm::ArrayRef<std::string> files,
                   llvm::ArrayRef<std::string> args);

/// `tessera-prof write-sample OUT [--modules=N] [--truncate=BYTES]`: a test
/// helper writing deterministic events through EventWriter.
int runWriteSampleCommand(llvm::ArrayRef<std::string> args);

/// Prints "tessera-prof: error: MESSAGE" to stderr and returns 1.
int fail(const llvm::Twine &message);

} // namespace tessera::prof

#endif // TESSERA_TOOLS_PROF_PROFCOMMANDS_H
