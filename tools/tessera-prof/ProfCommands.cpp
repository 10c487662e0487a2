//===- ProfCommands.cpp - tessera-prof events / extract -------------------===//

#include "ProfCommands.h"

#include "tessera/Trace/AtomicFile.h"
#include "tessera/Trace/EventFile.h"
#include "tessera/Trace/EventQuery.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tessera::prof {

int fail(const Twine &message) {
  errs() << "tessera-prof: error: " << message << "\n";
  return 1;
}

namespace {
/// Module names come from user input: keep the listing one line per event.
std::string printable(StringRef text) {
  if (text.empty())
    return "-";
  std::string out;
  raw_string_ostream os(out);
  printEscapedString(text, os);
  return out;
}
} // namespace

int runEventsCommand(StringRef eventsPath, ArrayRef<std::string> args) {
  if (!args.empty())
    return fail("'events' takes no arguments (got '" + args[0] + "')");
  // Streamed: a line per record as it is read. Columns are padded by hand:
  // formatv per line made 20M records take 22 s.
  raw_ostream &os = outs();
  auto line = [&](StringRef index, StringRef type, StringRef module,
                  StringRef time, StringRef bytes, StringRef details) {
    auto column = [&](StringRef text, size_t width) {
      os << text;
      os.indent(text.size() < width ? width - text.size() : 0) << ' ';
    };
    column(index, 6);
    column(type, 24);
    column(module, 20);
    column(time, 20);
    column(bytes, 8);
    os << details << '\n';
  };
  // The header once the file is known to be an event file.
  bool header = false;
  auto printHeader = [&] {
    if (!header)
      line("index", "type", "module", "timestamp_ns", "bytes", "details");
    header = true;
  };
  size_t index = 0;
  Expected<EventFileScan> scan =
      scanEventFile(eventsPath, [&](TraceEvent &event, uint64_t) {
        printHeader();
        line(utostr(index++), eventTypeName(event),
             printable(event.module_name()), itostr(event.timestamp_ns()),
             utostr(event.ByteSizeLong()), describePayload(event));
        return Error::success();
      });
  if (!scan)
    return fail(toString(scan.takeError()));
  printHeader();
  if (scan->damage)
    errs() << formatv("tessera-prof: warning: '{0}' is truncated or damaged: "
                      "{1}; read the {2} complete record(s) before it\n",
                      eventsPath, scan->damage->describe(), scan->records);
  return 0;
}

int runExtractCommand(StringRef eventsPath, ArrayRef<std::string> args) {
  if (args.empty())
    return fail("'extract' needs a KIND (compile-report, tensor-map, ...)");
  std::optional<ExtractKind> kind = parseExtractKind(args[0]);
  if (!kind)
    return fail("unknown extract kind '" + args[0] + "'");
  std::optional<size_t> eventIndex;
  std::string outPath = "-";
  for (size_t i = 1; i < args.size(); ++i) {
    StringRef arg = args[i];
    if (arg.consume_front("--event=")) {
      size_t value;
      if (arg.getAsInteger(10, value))
        return fail("--event needs an event index, got '" + arg + "'");
      eventIndex = value;
    } else if (arg == "-o" && i + 1 < args.size()) {
      outPath = args[++i];
    } else if (arg.consume_front("-o=") || arg.consume_front("--output=")) {
      outPath = arg.str();
    } else {
      return fail("unexpected argument '" + arg + "' to 'extract'");
    }
  }

  // Streamed: only the chosen event is kept (--event=N, or the first that
  // carries the data; the others are counted, to say they exist).
  std::optional<TraceEvent> chosen;
  std::vector<size_t> candidates;
  size_t index = 0;
  Expected<EventFileScan> scan =
      scanEventFile(eventsPath, [&](TraceEvent &event, uint64_t) {
        size_t at = index++;
        if (eventIndex ? at == *eventIndex : hasExtractable(event, *kind)) {
          candidates.push_back(at);
          if (!chosen)
            chosen = std::move(event);
        }
        return Error::success();
      });
  if (!scan)
    return fail(toString(scan.takeError()));
  if (scan->damage)
    errs() << formatv("tessera-prof: warning: '{0}' is truncated or damaged: "
                      "{1}; read the {2} complete record(s) before it\n",
                      eventsPath, scan->damage->describe(), scan->records);
  if (eventIndex && !chosen)
    return fail(formatv("event {0} does not exist ('{1}' has {2} events)",
                        *eventIndex, eventsPath, scan->records));
  if (!chosen)
    return fail(formatv("no event in '{0}' carries a {1}", eventsPath,
                        extractKindName(*kind)));
  if (!eventIndex && candidates.size() > 1)
    errs() << formatv(
        "tessera-prof: note: {0} events carry a {1} (indices "
        "{2}); extracting event {3}, choose with --event=N\n",
        candidates.size(), extractKindName(*kind),
        join(map_range(candidates, [](size_t i) { return utostr(i); }), ", "),
        candidates.front());

  StringRef baseDir = sys::path::parent_path(eventsPath);
  Expected<std::string> bytes = extractBytes(*chosen, *kind, baseDir);
  if (!bytes)
    return fail(toString(bytes.takeError()));
  if (Error err = writeFileAtomically(outPath, *bytes))
    return fail(toString(std::move(err)));
  return 0;
}

} // namespace tessera::prof
