//===- tessera-prof.cpp - Read Tessera event files ------------------------===//
//
// tessera-prof EVENTS <command> [options], the form DESIGN.md gives for every
// reading tool: the data first, then what to do with it. Commands so far:
// `events` (list) and `extract` (pull a report out of an event). Later
// commands (summary, chrome trace, sql, html) plug into the same dispatch.
//
//===----------------------------------------------------------------------===//

#include "ProfCommands.h"

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
        "  overview [--module=M] [--top=N] [--json]\n"
        "                                  runs: job, step time, input-bound "
        "%,\n"
        "                                  idle, utilization, top ops, "
        "advice\n"
        "  op-profile [--module=M] [--top=N] [--json]\n"
        "                                  ops by category with their "
        "padding fit\n"
        "  extract KIND [--event=N] [-o FILE]\n"
        "                                  write one event's data to stdout "
        "or FILE\n"
        "        KIND: ";
  SmallVector<StringRef> kinds;
  for (ExtractKind kind : allExtractKinds())
    kinds.push_back(extractKindName(kind));
  os << join(kinds, " | ") << "\n"
     << "\n"
        "other forms:\n"
        "  tessera-prof --help             this message\n"
        "  tessera-prof --help-flags       every TESSERA_FLAGS flag\n"
        "  tessera-prof write-sample OUT [--modules=N] [--truncate=BYTES]\n"
        "                                  write a sample event file (tests)\n";
}

static bool isCommand(StringRef name) {
  return name == "events" || name == "extract" || name == "overview" ||
         name == "op-profile";
}

int main(int argc, char **argv) {
  InitLLVM initLLVM(argc, argv);
  // Every Tessera tool checks TESSERA_FLAGS up front, so a typo is reported
  // by whichever tool the user runs first.
  (void)getTesseraFlagsOrExit("tessera-prof");

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

  StringRef eventsPath = args[0];
  if (args.size() < 2) {
    errs() << "tessera-prof: error: no command given for '" << eventsPath
           << "'\n";
    printUsage(errs());
    return 1;
  }
  StringRef command = args[1];
  ArrayRef<std::string> rest = ArrayRef(args).drop_front(2);
  if (command == "events")
    return prof::runEventsCommand(eventsPath, rest);
  if (command == "extract")
    return prof::runExtractCommand(eventsPath, rest);
  if (command == "overview")
    return prof::runOverviewCommand(eventsPath, rest);
  if (command == "op-profile")
    return prof::runOpProfileCommand(eventsPath, rest);

  // `tessera-prof events FILE` (the command first) is a natural slip; say
  // what was meant instead of "no such file: events".
  if (isCommand(eventsPath) && !sys::fs::exists(eventsPath)) {
    errs() << "tessera-prof: error: the events file comes first: try "
              "'tessera-prof "
           << command << " " << eventsPath << "'\n";
    return 1;
  }
  errs() << "tessera-prof: error: unknown command '" << command << "'\n";
  printUsage(errs());
  return 1;
}
