//===- TraceEventWriter.cpp - Streaming Chrome Trace Event JSON -----------===//

#include "tessera/Trace/TraceEventWriter.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

#include <cassert>
#include <charconv>
#include <cmath>

using namespace llvm;

namespace tessera {

TraceEventWriter::TraceEventWriter(raw_ostream &os, int64_t originUnixNs)
    : os(os) {
  // displayTimeUnit: show nanoseconds; ts/dur stay microseconds.
  os << "{\"displayTimeUnit\":\"ns\",";
  if (originUnixNs)
    os << "\"otherData\":{\"producer\":\"tessera\",\"origin_unix_ns\":"
       << originUnixNs << "},";
  os << "\"traceEvents\":[";
}

void TraceEventWriter::raw(StringRef eventJson) {
  assert(!finished && "event after finish()");
  os << (count++ ? ",\n" : "\n") << eventJson;
}

void writeJsonString(raw_ostream &os, StringRef s) {
  // Names repeat in every event: most are ASCII, which is valid UTF-8 by
  // itself, so the validation runs only when a byte is not.
  std::string fixed;
  for (char c : s)
    if (static_cast<unsigned char>(c) >= 0x80) {
      if (!json::isUTF8(s)) {
        fixed = json::fixUTF8(s);
        s = fixed;
      }
      break;
    }
  os << '"';
  // Runs of characters that need no escape are written whole.
  size_t start = 0;
  for (size_t i = 0, e = s.size(); i < e; ++i) {
    unsigned char c = s[i];
    if (c >= 0x20 && c != '"' && c != '\\')
      continue;
    os.write(s.data() + start, i - start);
    start = i + 1;
    switch (c) {
    case '"':
      os << "\\\"";
      break;
    case '\\':
      os << "\\\\";
      break;
    case '\n':
      os << "\\n";
      break;
    case '\t':
      os << "\\t";
      break;
    default:
      os << format("\\u%04x", c);
    }
  }
  os.write(s.data() + start, s.size() - start);
  os << '"';
}

void writeJsonNumber(raw_ostream &os, double d) {
  if (!std::isfinite(d)) {
    os << "null";
    return;
  }
  char buf[64];
  std::to_chars_result r = std::to_chars(buf, buf + sizeof(buf), d);
  os << StringRef(buf, r.ptr - buf);
}

int64_t TraceEventWriter::gridOf(int64_t ns) {
  // round(ns * 1024 / 1000) = round(ns * 128 / 125), monotonic in ns; in
  // 64 bits while ns * 128 fits (two years), else in 128.
  if (ns >= 0 && ns < (INT64_MAX - 62) / 128)
    return (ns * 128 + 62) / 125;
  __int128 scaled = static_cast<__int128>(ns) * 128;
  __int128 q = scaled >= 0 ? (scaled + 62) / 125 : -((-scaled + 62) / 125);
  return static_cast<int64_t>(q);
}

/// Writes grid / 1024 as its exact decimal into `buf` (>= 40 bytes);
/// returns the length. By hand: this runs twice per event.
static size_t formatGrid(int64_t grid, char *buf) {
  char *p = buf;
  uint64_t magnitude = grid < 0 ? -static_cast<uint64_t>(grid) : grid;
  if (grid < 0)
    *p++ = '-';
  char digits[24];
  int n = 0;
  uint64_t whole = magnitude >> 10;
  do {
    digits[n++] = static_cast<char>('0' + whole % 10);
    whole /= 10;
  } while (whole);
  while (n)
    *p++ = digits[--n];
  // k / 1024 = k * 9765625 / 10^10: ten digits, trailing zeros dropped.
  uint64_t frac = (magnitude & 1023) * 9765625;
  if (frac) {
    *p++ = '.';
    char *f = p;
    for (uint64_t scale = 1000000000; scale; scale /= 10) {
      *p++ = static_cast<char>('0' + frac / scale);
      frac %= scale;
    }
    while (p > f && p[-1] == '0')
      --p;
  }
  return p - buf;
}

std::string TraceEventWriter::microsText(int64_t grid) {
  char buf[40];
  return std::string(buf, formatGrid(grid, buf));
}

void TraceEventWriter::micros(int64_t grid) {
  char buf[40];
  os.write(buf, formatGrid(grid, buf));
}

void TraceEventWriter::begin(char phase, int pid, StringRef name) {
  assert(!finished && "event after finish()");
  os << (count++ ? ",\n" : "\n") << "{\"ph\":\"" << phase
     << "\",\"pid\":" << pid << ",\"name\":";
  writeJsonString(os, name);
}

void TraceEventWriter::args(ArrayRef<TraceArg> list) {
  os << ",\"args\":{";
  bool first = true;
  for (const TraceArg &a : list) {
    if (!first)
      os << ',';
    first = false;
    // Keys are the writers' own identifiers: nothing to escape.
    assert(a.key.find_first_of("\"\\") == StringRef::npos && "bad key");
    os << '"' << a.key << "\":";
    switch (a.kind) {
    case TraceArg::Kind::Int:
      os << a.i;
      break;
    case TraceArg::Kind::Bool:
      os << (a.i ? "true" : "false");
      break;
    case TraceArg::Kind::String:
      writeJsonString(os, a.s);
      break;
    case TraceArg::Kind::Double:
      writeJsonNumber(os, a.d);
      break;
    }
  }
  os << '}';
}

void TraceEventWriter::processName(int pid, StringRef name, int sortIndex) {
  begin('M', pid, "process_name");
  args({{"name", name}});
  os << '}';
  begin('M', pid, "process_sort_index");
  args({{"sort_index", sortIndex}});
  os << '}';
}

void TraceEventWriter::threadName(int pid, int tid, StringRef name,
                                  int sortIndex) {
  begin('M', pid, "thread_name");
  os << ",\"tid\":" << tid;
  args({{"name", name}});
  os << '}';
  begin('M', pid, "thread_sort_index");
  os << ",\"tid\":" << tid;
  args({{"sort_index", sortIndex}});
  os << '}';
}

void TraceEventWriter::slice(int pid, int tid, StringRef name,
                             StringRef category, int64_t startNs,
                             int64_t endNs, ArrayRef<TraceArg> list) {
  begin('X', pid, name);
  os << ",\"tid\":" << tid << ",\"cat\":";
  writeJsonString(os, category);
  assert(endNs >= startNs && "a slice ends before it starts");
  int64_t start = gridOf(startNs);
  os << ",\"ts\":";
  micros(start);
  os << ",\"dur\":";
  micros(std::max<int64_t>(0, gridOf(endNs) - start));
  args(list);
  os << '}';
}

void TraceEventWriter::instant(int pid, int tid, StringRef name,
                               StringRef category, int64_t atNs,
                               ArrayRef<TraceArg> list) {
  begin('i', pid, name);
  os << ",\"tid\":" << tid << ",\"s\":\"t\",\"cat\":";
  writeJsonString(os, category);
  os << ",\"ts\":";
  micros(gridOf(atNs));
  args(list);
  os << '}';
}

void TraceEventWriter::counter(int pid, StringRef name, int64_t atNs,
                               ArrayRef<TraceArg> series) {
  begin('C', pid, name);
  os << ",\"tid\":0,\"ts\":";
  micros(gridOf(atNs));
  args(series);
  os << '}';
}

void TraceEventWriter::finish() {
  if (finished)
    return;
  finished = true;
  os << "\n]}\n";
}

} // namespace tessera
