//===- ChromeTrace.cpp - Chrome Trace Event JSON of a compile -------------===//

#include "tessera/Trace/ChromeTrace.h"

#include <algorithm>

namespace tessera {

void writeCompileSlices(TraceEventWriter &writer,
                        llvm::ArrayRef<CompileSpan> spans, int pid, int tid,
                        int64_t offsetNs, int alongsideTid) {
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
    // Per lane, the ends of the currently open ancestors, by depth: a child
    // is clamped into its parent, ending strictly before it (speedscope
    // mis-nests equal ends), so recorded times can never make slices
    // overlap. The compile's own lane nests in the COMPILE slice; the lane
    // alongside it has no slice of its own there, so its phases are
    // clamped into the span as if it had.
    std::vector<int64_t> openEnds[2] = {{spanEnd}, {spanEnd}};
    for (const PassTiming &pass : span.passes) {
      unsigned lane = std::min(pass.lane, 1u);
      std::vector<int64_t> &ends = openEnds[lane];
      ends.resize(std::min<size_t>(ends.size(), pass.depth + 1));
      int64_t limit =
          std::max(spanStart, ends.back() - TraceEventWriter::kMinGapNs);
      int64_t start = std::clamp(spanStart + pass.startNs, spanStart, limit);
      int64_t end =
          std::min(start + std::max<int64_t>(0, pass.durationNs), limit);
      TraceArg args[] = {{"ops_before", pass.opsBefore},
                         {"ops_after", pass.opsAfter},
                         {"failed", pass.failed}};
      int onTid = lane ? alongsideTid : tid;
      // Clients mis-nest a zero-length slice that starts with another.
      if (end == start)
        writer.instant(pid, onTid, pass.name, "pass", start, args);
      else
        writer.slice(pid, onTid, pass.name, "pass", start, end, args);
      ends.push_back(end);
    }
  }
}

bool hasAlongsidePhases(llvm::ArrayRef<CompileSpan> spans) {
  for (const CompileSpan &span : spans)
    for (const PassTiming &pass : span.passes)
      if (pass.lane > 0)
        return true;
  return false;
}

void writeCompileChromeTrace(llvm::raw_ostream &os,
                             llvm::ArrayRef<CompileSpan> spans,
                             llvm::StringRef processName,
                             int64_t originUnixNs) {
  constexpr int kPid = 1, kTid = 1, kAlongsideTid = 2;
  TraceEventWriter writer(os, originUnixNs);
  writer.processName(kPid, processName, 0);
  writer.threadName(kPid, kTid, "compiler", 0);
  if (hasAlongsidePhases(spans))
    writer.threadName(kPid, kAlongsideTid, "compiler (alongside)", 1);
  writeCompileSlices(writer, spans, kPid, kTid, 0, kAlongsideTid);
  writer.finish();
}

} // namespace tessera
