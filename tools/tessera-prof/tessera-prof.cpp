//===- tessera-prof.cpp - Read Tessera event files ------------------------===//
//
// tessera-prof EVENTS <command> [options], the form DESIGN.md gives for every
// reading tool: the data first, then what to do with it. Commands so far:
// `events` (list) and `extract` (pull a report out of an event). Later
// commands (summary, chrome trace, sql, html) plug into the same dispatch.
//
//===----------------------------------------------------------------------===//

#include "ProfCommands.h"
#include "ToolFlags.h"

#include "tessera/Trace/EventQuery.h"
#include "tessera/Trace/Flags.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

using namespace llvm;
using namespace tessera;

static void printUsage(raw_ostream &os) {
  os << "usage: tessera-prof EVENTS <command> [options]\n"
        "\n"
        "commands:\n"
        "  events                          list the events, one per line\n"
        "  summary [--module=M] [--json]   the compile's memory summary "
        "(Target,\n"
        "                                  Graph, Memory, histogram, fullest "
        "tiles)\n"
        "  overview [--module=M] [--top=N] [--json]\n"
        "                                  runs: job, step time, input-bound "
        "%,\n"
        "                                  idle, utilization, top ops, "
        "advice\n"
        "  memory [--tile=N] [--module=M] [--top=N] [--json]\n"
        "                                  peak, heap over program points, "
        "buffers\n"
        "  pod [--module=M] [--json]       multi-chip: per chip memory "
        "and cycles,\n"
        "                                  link bytes, collectives\n"
        "  tiles [--module=M] [--top=N] [--json]\n"
        "                                  histogram, most loaded tiles, "
        "their time\n"
        "  compat [--module=M] [--top=N] [--json]\n"
        "                                  compatible ops, by name scope\n"
        "  op-profile [--module=M] [--top=N] [--json]\n"
        "                                  ops by category with their "
        "padding fit\n"
        "  monitor [--follow [--count=N] [--idle-exit=S]] [--module=M] "
        "[--json]\n"
        "                                  a line per run, as a job appends "
        "them\n"
        "  tensor-map [--tensor=NAME | --tile=N] [--top=N] [--json]\n"
        "                                  where tensors live: totals, "
        "one tensor,\n"
        "                                  or one tile (streams the map)\n"
        "  html -o FILE [--module=M]       one self-contained page: "
        "memory, tiles,\n"
        "                                  op profile, run, compat, "
        "passes\n"
        "  extract KIND [--event=N] [-o FILE]\n"
        "                                  write one event's data to stdout "
        "or FILE\n"
        "        KIND: ";
  SmallVector<StringRef> kinds;
  for (ExtractKind kind : allExtractKinds())
    kinds.push_back(extractKindName(kind));
  os << join(kinds, " | ") << "\n"
     << "\n"
        "over one or more event files (tessera-prof A.events B.events ...):\n"
        "  export --sqlite=DB | --ndjson=FILE\n"
        "                                  the tables of docs/profiling.md\n"
        "  sql \"SELECT ...\"                one read-only query on those "
        "tables\n"
        "  diff [--module=M] [--top=N] [--all] [--json]\n"
        "                                  (two event files) memory, cycles "
        "per op,\n"
        "                                  buffers: what changed\n"
        "  trace [-o FILE]                 (one event file) its job as a "
        "Chrome trace\n"
        "over Chrome trace files (tessera-prof A.json B.json ...):\n"
        "  merge -o FILE                   one trace, a process per source "
        "process,\n"
        "                                  aligned on the wall clock\n"
        "\n"
        "any command:\n"
        "  --report-root=DIR               also read report files the event\n"
        "                                  file names under DIR (by default\n"
        "                                  only under the event file's "
        "folder)\n"
        "\n"
        "other forms:\n"
        "  tessera-prof --help             this message\n"
        "  tessera-prof --help-flags       every TESSERA_FLAGS flag\n"
        "  tessera-prof write-sample OUT [--modules=N] [--runs=N] "
        "[--truncate=BYTES]\n"
        "                                  write a sample event file (tests)\n";
}

static bool isCommand(StringRef name) {
  return name == "events" || name == "extract" || name == "overview" ||
         name == "op-profile" || name == "export" || name == "sql" ||
         name == "trace" || name == "merge" || name == "memory" ||
         name == "tiles" || name == "compat" || name == "diff" ||
         name == "summary" || name == "monitor" || name == "html" ||
         name == "tensor-map" || name == "pod";
}

/// A folder given as the data stands for the event files in it (a job's
/// output folder: the events beside the executable, the reports in its
/// report directory), sorted by name. Merge reads traces, not events.
static bool expandFolders(std::vector<std::string> &files) {
  std::vector<std::string> out;
  for (const std::string &f : files) {
    if (!sys::fs::is_directory(f)) {
      out.push_back(f);
      continue;
    }
    std::vector<std::string> found;
    std::error_code ec;
    for (sys::fs::directory_iterator it(f, ec), end; it != end && !ec;
         it.increment(ec))
      if (StringRef(it->path()).ends_with(".events") &&
          sys::fs::is_regular_file(it->path()))
        found.push_back(it->path());
    if (ec) {
      errs() << "tessera-prof: error: cannot list '" << f
             << "': " << ec.message() << "\n";
      return false;
    }
    if (found.empty()) {
      errs() << "tessera-prof: error: '" << f
             << "' is a folder with no .events file in it\n";
      return false;
    }
    llvm::sort(found);
    out.insert(out.end(), found.begin(), found.end());
  }
  files = std::move(out);
  return true;
}

int main(int argc, char **argv) {
  InitLLVM initLLVM(argc, argv);
  // Every Tessera tool checks TESSERA_FLAGS up front, so a typo is reported
  // by whichever tool the user runs first.
  (void)resolveFlagsOrExit("tessera-prof", {});

  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    printUsage(errs());
    return 1;
  }
  if (args[0] == "--help" || args[0] == "-h") {
    printUsage(outs());
    return 0;
  }
  if (args[0] == "--help-flags") {
    printFlagHelp(outs());
    return 0;
  }
  if (args[0] == "write-sample")
    return prof::runWriteSampleCommand(ArrayRef(args).drop_front());

  // --report-root=DIR (anywhere, any number): report files an event file
  // names are read from its own folder, and from these.
  std::vector<std::string> kept;
  for (const std::string &a : args) {
    StringRef root(a);
    if (!root.consume_front("--report-root=")) {
      kept.push_back(a);
      continue;
    }
    if (!sys::fs::is_directory(root)) {
      errs() << "tessera-prof: error: --report-root='" << root
             << "' is not a folder\n";
      return 1;
    }
    trustReportRoot(root);
  }
  args = std::move(kept);

  // The data comes first: every argument before the command is an event
  // file (export and sql take several, the others one).
  size_t commandAt = 0;
  while (commandAt < args.size() && !isCommand(args[commandAt]))
    ++commandAt;
  if (commandAt == 0 || commandAt == args.size()) {
    if (commandAt == 0 && args.size() >= 2 && !isCommand(args[1])) {
      errs() << "tessera-prof: error: the events file comes first: try "
                "'tessera-prof "
             << args[1] << " " << args[0] << "'\n";
      return 1;
    }
    if (commandAt == args.size() && args.size() >= 2) {
      errs() << "tessera-prof: error: unknown command '" << args.back()
             << "'\n";
      printUsage(errs());
      return 1;
    }
    errs() << "tessera-prof: error: no command given for '" << args[0]
           << "'\n";
    printUsage(errs());
    return 1;
  }
  StringRef command = args[commandAt];
  std::vector<std::string> files(args.begin(), args.begin() + commandAt);
  if (command != "merge" && !expandFolders(files))
    return 1;
  ArrayRef<std::string> rest = ArrayRef(args).drop_front(commandAt + 1);
  if (command == "export")
    return prof::runExportCommand(files, rest);
  if (command == "sql")
    return prof::runSqlCommand(files, rest);
  if (command == "merge")
    return prof::runMergeCommand(files, rest);
  if (command == "diff")
    return prof::runDiffCommand(files, rest);
  if (files.size() > 1) {
    errs() << "tessera-prof: error: '" << command
           << "' reads one event file; got " << files.size() << ": "
           << join(files, ", ") << "\n";
    return 1;
  }
  StringRef eventsPath = files[0];
  if (command == "events")
    return prof::runEventsCommand(eventsPath, rest);
  if (command == "extract")
    return prof::runExtractCommand(eventsPath, rest);
  if (command == "overview")
    return prof::runOverviewCommand(eventsPath, rest);
  if (command == "op-profile")
    return prof::runOpProfileCommand(eventsPath, rest);
  if (command == "trace")
    return prof::runTraceCommand(eventsPath, rest);
  if (command == "memory")
    return prof::runMemoryCommand(eventsPath, rest);
  if (command == "tiles")
    return prof::runTilesCommand(eventsPath, rest);
  if (command == "pod")
    return prof::runPodCommand(eventsPath, rest);
  if (command == "compat")
    return prof::runCompatCommand(eventsPath, rest);
  if (command == "tensor-map")
    return prof::runTensorMapCommand(eventsPath, rest);
  if (command == "html")
    return prof::runHtmlCommand(eventsPath, rest);
  if (command == "monitor")
    return prof::runMonitorCommand(eventsPath, rest);
  if (command == "summary")
    return prof::runSummaryCommand(eventsPath, rest);
  return 1;
}
