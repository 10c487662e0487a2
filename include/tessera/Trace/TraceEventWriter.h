//===- TraceEventWriter.h - Streaming Chrome Trace Event JSON ----*- C++ -*-===//
//
// Writes Chrome Trace Event JSON ({"traceEvents": [...]}) one event at a
// time to a stream, so a trace of any length costs constant memory. Every
// Tessera trace (--compile_trace, tessera-run's --trace_json) is written
// through it.
//
// Times are given in integer nanoseconds and written as the format's
// microseconds, on a grid of 1/1024 us (0.977 ns): every ts and dur is then
// a double with at most 10 fractional bits, written as its exact decimal,
// and all the arithmetic clients do on them (ts + dur; speedscope first
// subtracts the thread's earliest ts) is exact up to 2^43 us (101 days). In
// nanoseconds-as-decimals it is not: 0.1 + 0.2 > 0.3, and a child ending at
// its parent's end can end after it once parsed, which DevTools drops and
// speedscope mis-nests. On the grid, order in nanoseconds (nesting,
// siblings back to back) is order in the client; a positive duration stays
// positive.
//
// One thing the grid cannot fix: speedscope ends slices that end at the
// same time in file order, parent first, and warns. Writers keep a child's
// end strictly before its parent's (kMinGapNs) or put them on different
// threads.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TRACE_TRACEEVENTWRITER_H
#define TESSERA_TRACE_TRACEEVENTWRITER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace tessera {

/// One `args` entry. Strings are referenced, not copied: they must outlive
/// the call that writes them.
struct TraceArg {
  enum class Kind { Int, Double, String, Bool };
  llvm::StringRef key;
  Kind kind = Kind::Int;
  int64_t i = 0;
  double d = 0;
  llvm::StringRef s;

  TraceArg(llvm::StringRef key, int64_t v) : key(key), i(v) {}
  TraceArg(llvm::StringRef key, int v) : key(key), i(v) {}
  TraceArg(llvm::StringRef key, double v) : key(key), kind(Kind::Double), d(v) {}
  TraceArg(llvm::StringRef key, bool v) : key(key), kind(Kind::Bool), i(v) {}
  TraceArg(llvm::StringRef key, llvm::StringRef v)
      : key(key), kind(Kind::String), s(v) {}
  TraceArg(llvm::StringRef key, const char *v)
      : key(key), kind(Kind::String), s(v) {}
  TraceArg(llvm::StringRef key, const std::string &v)
      : key(key), kind(Kind::String), s(v) {}
};

/// `s` as a JSON string (quoted, escaped; invalid UTF-8 replaced), without
/// building a document: the one escaper of the streaming writers.
void writeJsonString(llvm::raw_ostream &os, llvm::StringRef s);
/// `d` as a JSON number: the shortest text that reads back as `d`; JSON has
/// no NaN or infinity, so those are null.
void writeJsonNumber(llvm::raw_ostream &os, double d);

class TraceEventWriter {
public:
  /// Writes the document's opening to `os`. A non-zero `originUnixNs` (the
  /// Unix time of ts 0) goes into `otherData.origin_unix_ns`, ahead of the
  /// events, so `tessera-prof merge` can align traces on the wall clock.
  explicit TraceEventWriter(llvm::raw_ostream &os, int64_t originUnixNs = 0);

  /// Metadata: a process's and a thread's name and sort position.
  void processName(int pid, llvm::StringRef name, int sortIndex);
  void threadName(int pid, int tid, llvm::StringRef name, int sortIndex);

  /// A complete event (ph "X") over [startNs, endNs]; endNs >= startNs.
  /// Clients mis-nest a zero-length slice that starts with another slice
  /// of its thread: write those as instants.
  void slice(int pid, int tid, llvm::StringRef name, llvm::StringRef category,
             int64_t startNs, int64_t endNs,
             llvm::ArrayRef<TraceArg> args = {});
  /// A thread-scoped instant event (ph "i").
  void instant(int pid, int tid, llvm::StringRef name,
               llvm::StringRef category, int64_t atNs,
               llvm::ArrayRef<TraceArg> args = {});
  /// A counter sample (ph "C"): each arg is one series.
  void counter(int pid, llvm::StringRef name, int64_t atNs,
               llvm::ArrayRef<TraceArg> series);

  /// An event serialized by the caller (one JSON object), as merging
  /// passes foreign events through.
  void raw(llvm::StringRef eventJson);

  /// Closes the document. No event may follow.
  void finish();
  /// Events written so far (metadata included).
  int64_t events() const { return count; }

  /// Nanoseconds that always separate two times on the grid: a child
  /// clamped to end this much before its parent ends strictly before it.
  static constexpr int64_t kMinGapNs = 2;
  /// The grid point of `ns` (1/1024 us units) and its exact decimal in us.
  static int64_t gridOf(int64_t ns);
  static std::string microsText(int64_t grid);

private:
  void begin(char phase, int pid, llvm::StringRef name);
  void micros(int64_t grid);
  void args(llvm::ArrayRef<TraceArg> args);

  llvm::raw_ostream &os;
  int64_t count = 0;
  bool finished = false;
};

} // namespace tessera

#endif // TESSERA_TRACE_TRACEEVENTWRITER_H
