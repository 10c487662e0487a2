//===- ChromeTrace.cpp - Chrome Trace Event JSON of a compile -------------===//

#include "tessera/Trace/ChromeTrace.h"

#include <algorithm>

namespace tessera {

void writeCompileSlices(TraceEventWriter &writer,
                        llvm::ArrayRef<CompileSpan> spans, int pid, int tid,
                        int64_t offsetNs) {
  for (const CompileSpan &span : spans) {
    int64_t spanStart = offsetNs + span.startNs;
    int64_t spanEnd = spanStart + std::max<int64_t>(0, span.durationNs);
    writer.slice(pid, tid, "COMPILE " + span.moduleName, "compile", spanStart,
                 spanEnd,
                 {{"module", span.moduleName},
                  {"module_id", span.moduleId},
                  {"target", span.target},
                  {"failed", span.failed},
                  {"cached", span.cached}});
    // Ends of the currently open ancestors, by depth: a child is clamped
    // into its parent, ending strictly before it (speedscope mis-nests
    // equal ends), so recorded times can never make slices overlap.
    std::vector<int64_t> openEnds = {spanEnd};
    for (const PassTiming &pass : span.passes) {
      openEnds.resize(std::min<size_t>(openEnds.size(), pass.depth + 1));
      int64_t limit =
          std::max(spanStart, openEnds.back() - TraceEventWriter::kMinGapNs);
      int64_t start = std::clamp(spanStart + pass.startNs, spanStart, limit);
      int64_t end =
          std::min(start + std::max<int64_t>(0, pass.durationNs), limit);
      TraceArg args[] = {{"ops_before", pass.opsBefore},
                         {"ops_after", pass.opsAfter},
                         {"failed", pass.failed}};
      // Clients mis-nest a zero-length slice that starts with another.
      if (end == start)
        writer.instant(pid, tid, pass.name, "pass", start, args);
      else
        writer.slice(pid, tid, pass.name, "pass", start, end, args);
      openEnds.push_back(end);
    }
  }
}

void writeCompileChromeTrace(llvm::raw_ostream &os,
                             llvm::ArrayRef<CompileSpan> spans,
                             llvm::StringRef processName,
                             int64_t originUnixNs) {
  constexpr int kPid = 1, kTid = 1;
  TraceEventWriter writer(os, originUnixNs);
  writer.processName(kPid, processName, 0);
  writer.threadName(kPid, kTid, "compiler", 0);
  writeCompileSlices(writer, spans, kPid, kTid);
  writer.finish();
}

} // namespace tessera
