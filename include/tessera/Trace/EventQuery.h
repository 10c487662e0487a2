//===- EventQuery.h - Listing events and extracting their reports -*- C++
//-*-===//
//
// The reading side of the event file, shared by tessera-prof and any later
// report tool: one-line descriptions of events, and extract helpers that
// return the compile report / tensor map / instruction info / execution
// report of an event (like the IPU's extract_* helpers), following the path
// when the report was written to a report directory.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TRACE_EVENTQUERY_H
#define TESSERA_TRACE_EVENTQUERY_H

#include "tessera_events.pb.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace tessera {

/// What an extract command pulls out of an event.
enum class ExtractKind {
  CompileReport,   // COMPILE_END compilation_report
  TensorMap,       // COMPILE_END tensor_map
  InstructionInfo, // COMPILE_END instruction_info
  CompatReport,    // COMPILE_END compatibility_report
  MemoryReport,    // COMPILE_END memory_report
  ExecuteReport,   // EXECUTE execution_report
  Program,         // COMPILE_END serialized_program
};

/// "compile-report", "tensor-map", ... (the tessera-prof spelling).
llvm::StringRef extractKindName(ExtractKind kind);
std::optional<ExtractKind> parseExtractKind(llvm::StringRef name);
/// All kinds, for usage messages.
llvm::ArrayRef<ExtractKind> allExtractKinds();

/// "COMPILE_BEGIN", ... ("UNKNOWN(7)" for values this build does not know).
std::string eventTypeName(const TraceEvent &event);

/// The key sizes of an event's payload as "key=value" words, e.g.
/// "report=1234B(json) tensor_map=88B passes=7".
std::string describePayload(const TraceEvent &event);

/// The report of `kind` carried by `event`, or null when it has none (wrong
/// event type, or the field is unset). Not used for Program.
const Report *findReport(const TraceEvent &event, ExtractKind kind);

/// Whether `event` carries something extractable of `kind`.
bool hasExtractable(const TraceEvent &event, ExtractKind kind);

/// Where a report stored by path lives (relative paths resolved against
/// `baseDir`, the event file's folder); nullopt when the report is carried
/// in the event itself. For readers that stream a large report from its
/// file. A path that leads (after "..", and symbolic links of files that
/// exist) outside `baseDir` and every trusted root is an error: event files
/// are data, and their paths are not followed anywhere.
llvm::Expected<std::optional<std::string>>
reportFilePath(const Report &report, llvm::StringRef baseDir);

/// Lets reportFilePath and extractBytes read reports under `dir` too
/// (tessera-prof --report-root=DIR: a --report_directory outside the event
/// file's folder).
void trustReportRoot(llvm::StringRef dir);

/// Bytes of `kind` from `event`. A report stored by path is read from that
/// file (relative paths are resolved against `baseDir`, the folder of the
/// event file). Fails, with a message saying why, when the event carries no
/// such data, the report was dropped, or the file cannot be read.
llvm::Expected<std::string> extractBytes(const TraceEvent &event,
                                         ExtractKind kind,
                                         llvm::StringRef baseDir);

/// One extracted item: the event index, its module and the bytes.
struct Extracted {
  size_t eventIndex;
  std::string moduleName;
  std::string bytes;
};

/// Every `kind` item of `events`, in order (events without one are skipped).
/// The first failure to read a referenced file is returned as an error.
llvm::Expected<std::vector<Extracted>>
extractAll(llvm::ArrayRef<TraceEvent> events, ExtractKind kind,
           llvm::StringRef baseDir);

} // namespace tessera

#endif // TESSERA_TRACE_EVENTQUERY_H
