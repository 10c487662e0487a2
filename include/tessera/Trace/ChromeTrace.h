//===- ChromeTrace.h - Chrome Trace Event JSON of a compile -----*- C++ -*-===//
//
// --compile_trace=FILE: the passes of every module compiled by the process
// as Chrome Trace Event JSON (loads in Perfetto and chrome://tracing). One
// process ("tessera-compile"), one thread ("compiler"); per module a
// "COMPILE <module>" complete event (ph X) with its pass slices nested inside
// it (nested passes inside their parent). ts/dur are microseconds relative
// to the first compile's start: Perfetto converts through double, so epoch
// times would lose precision.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TRACE_CHROMETRACE_H
#define TESSERA_TRACE_CHROMETRACE_H

#include "tessera/Trace/ReportSink.h"

#include <nlohmann/json.hpp>

namespace tessera {

/// One module's compile, with pass times relative to its start.
struct CompileSpan {
  std::string moduleName;
  std::string target;
  int64_t moduleId = 0;
  /// Relative to the trace origin (the first compile's start).
  int64_t startNs = 0;
  int64_t durationNs = 0;
  bool failed = false;
  std::vector<PassTiming> passes;
};

/// The trace document ({"traceEvents": [...], "displayTimeUnit": "ns"}).
/// Slices are clamped into their parent so nesting holds exactly.
nlohmann::ordered_json
buildCompileChromeTrace(llvm::ArrayRef<CompileSpan> spans,
                        llvm::StringRef processName);

} // namespace tessera

#endif // TESSERA_TRACE_CHROMETRACE_H
