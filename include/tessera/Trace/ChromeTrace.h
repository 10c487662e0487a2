//===- ChromeTrace.h - Chrome Trace Event JSON of a compile -----*- C++ -*-===//
//
// --compile_trace=FILE: the passes of every module compiled by the process
// as Chrome Trace Event JSON (loads in Perfetto and chrome://tracing). One
// process ("tessera-compile"), one thread ("compiler"); per module a
// "COMPILE <module>" complete event (ph X) with its pass slices nested inside
// it (nested passes inside their parent). ts/dur are microseconds relative
// to the first compile's start: Perfetto converts through double, so epoch
// times would lose precision. tessera-run's --trace_json puts the same
// slices on its host process, read back from the compile's events.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TRACE_CHROMETRACE_H
#define TESSERA_TRACE_CHROMETRACE_H

#include "tessera/Trace/ReportSink.h"
#include "tessera/Trace/TraceEventWriter.h"

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
  /// Taken from the executable cache: the span is the lookup, no passes.
  bool cached = false;
  std::vector<PassTiming> passes;
};

/// Per span a "COMPILE <module>" slice on thread (pid, tid) with its passes
/// nested inside (by PassTiming::depth), each clamped into its parent so
/// nesting holds whatever the recorded times say. Phases of lane 1 (run
/// alongside the compile's thread) go on thread (pid, alongsideTid),
/// nested among themselves and clamped into the span. `offsetNs` is added
/// to every time.
void writeCompileSlices(TraceEventWriter &writer,
                        llvm::ArrayRef<CompileSpan> spans, int pid, int tid,
                        int64_t offsetNs, int alongsideTid);

/// Whether any span has phases of lane 1 (their thread needs a name).
bool hasAlongsidePhases(llvm::ArrayRef<CompileSpan> spans);

/// The --compile_trace document: one process, a "compiler" thread and,
/// when a phase ran beside it, a "compiler (alongside)" one; ts 0 is the
/// Unix time `originUnixNs` (0: unknown).
void writeCompileChromeTrace(llvm::raw_ostream &os,
                             llvm::ArrayRef<CompileSpan> spans,
                             llvm::StringRef processName,
                             int64_t originUnixNs = 0);

} // namespace tessera

#endif // TESSERA_TRACE_CHROMETRACE_H
