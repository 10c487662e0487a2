//===- FlagsRegistryTest.cpp - Flag registry, help, validation ------------===//

#include "TraceTestUtil.h"

#include "tessera/Trace/Flags.h"

#include "llvm/ADT/StringSet.h"

#include "gtest/gtest.h"

using namespace tessera;

namespace {

std::string validationError(llvm::StringRef text) {
  auto flags = parseFlags(text);
  if (!flags) {
    ADD_FAILURE() << toString(flags.takeError());
    return "";
  }
  llvm::Error err = validateFlags(*flags);
  return err ? toString(std::move(err)) : "";
}

// Every flag issue 5 asks for, spelled as users type it, and the vertex
// graph size limit (issue 4), the runtime's out-of-memory switch, the
// run trace (issue 13), and the executable cache (issue 16).
const char *const kIssueFlags[] = {"dump_to",
                                   "dump_as_text",
                                   "dump_as_dot",
                                   "dump_as_proto",
                                   "dump_pass_re",
                                   "dump_module_re",
                                   "dump_include_timestamp",
                                   "dump_max_modules",
                                   "dump_large_constants",
                                   "use_model",
                                   "save_vertex_graph",
                                   "save_interval_report",
                                   "log_cycle_count",
                                   "show_progress_bar",
                                   "profiling",
                                   "enable_events",
                                   "report_format",
                                   "profile_execution",
                                   "report_every_nth_execution",
                                   "max_report_size",
                                   "tensor_map_format",
                                   "memory_report_tile_format",
                                   "memory_report_format",
                                   "report_directory",
                                   "serialized_graph",
                                   "compile_trace",
                                   "vertex_graph_max_vertices",
                                   "allow_out_of_memory",
                                   "trace_json",
                                   "executable_cache_dir",
                                   "executable_cache_max_bytes",
                                   "compile_threads",
                                   "reports_alongside",
                                   "verify_each"};

TEST(FlagsRegistry, HasEveryIssueFlagOnce) {
  llvm::StringSet<> seen;
  for (const FlagInfo &flag : getFlagRegistry()) {
    EXPECT_TRUE(seen.insert(flag.name).second)
        << "duplicate " << flag.name.str();
    EXPECT_FALSE(flag.help.empty()) << flag.name.str();
    EXPECT_EQ(findFlag(flag.name), &flag);
  }
  for (const char *name : kIssueFlags)
    EXPECT_TRUE(seen.contains(name)) << "missing flag " << name;
  EXPECT_EQ(seen.size(), std::size(kIssueFlags));
  EXPECT_EQ(findFlag("no_such_flag"), nullptr);
}

TEST(FlagsRegistry, DefaultsInTableMatchDefaultObject) {
  // The table's default text and TesseraFlags' initializers both come from
  // Flags.def; this catches a macro expanding one of them differently.
  TesseraFlags defaults;
  for (const FlagInfo &flag : getFlagRegistry())
    EXPECT_EQ(flagValueText(defaults, flag), flag.defaultValue.str())
        << flag.name.str();
  // And parsing each default back is a no-op that is accepted.
  for (const FlagInfo &flag : getFlagRegistry()) {
    if (flag.type == FlagType::String)
      continue;
    auto parsed =
        parseFlags("--" + flag.name.str() + "=" + flag.defaultValue.str());
    ASSERT_TRUE(static_cast<bool>(parsed)) << toString(parsed.takeError());
    EXPECT_EQ(flagValueText(*parsed, flag), flag.defaultValue.str());
  }
}

TEST(FlagsRegistry, HelpListsEveryFlagWithDefault) {
  std::string help;
  llvm::raw_string_ostream os(help);
  printFlagHelp(os);
  for (const FlagInfo &flag : getFlagRegistry())
    EXPECT_NE(help.find("--" + flag.name.str()), std::string::npos)
        << flag.name.str();
  EXPECT_NE(help.find("--max_report_size=BYTES (default: 268435456)"),
            std::string::npos)
      << help;
  EXPECT_NE(help.find("--report_format=json|cbor|text (default: \"json\")"),
            std::string::npos)
      << help;
  EXPECT_NE(help.find("--profiling (default: false)"), std::string::npos);
}

TEST(FlagsRegistry, DocsListEveryFlag) {
  std::string docs =
      tessera::testing::readWholeFile(TESSERA_SOURCE_DIR "/docs/flags.md");
  ASSERT_NE(docs, "<unreadable>");
  for (const FlagInfo &flag : getFlagRegistry())
    EXPECT_NE(docs.find("`--" + flag.name.str()), std::string::npos)
        << "docs/flags.md does not document --" << flag.name.str();
}

TEST(FlagsValidate, DefaultsAreValid) { EXPECT_EQ(validationError(""), ""); }

TEST(FlagsValidate, ProfilingAndEnableEventsAreMutuallyExclusive) {
  std::string error = validationError("--profiling --enable_events");
  EXPECT_NE(error.find("--profiling and --enable_events are mutually "
                       "exclusive"),
            std::string::npos)
      << error;
  EXPECT_EQ(validationError("--profiling --enable_events=false"), "");
  EXPECT_EQ(validationError("--enable_events"), "");
}

TEST(FlagsValidate, ProfileExecutionRequiresProfiling) {
  EXPECT_NE(validationError("--profile_execution=tile")
                .find("--profile_execution=tile requires --profiling"),
            std::string::npos);
  EXPECT_EQ(validationError("--profile_execution=tile --profiling"), "");
  EXPECT_EQ(validationError("--profile_execution=none"), "");
}

TEST(FlagsValidate, ReportOptionsRequireProfiling) {
  EXPECT_NE(validationError("--report_directory=r")
                .find("--report_directory requires --profiling"),
            std::string::npos);
  EXPECT_NE(validationError("--report_format=cbor")
                .find("--report_format requires --profiling"),
            std::string::npos);
  EXPECT_EQ(validationError("--report_format=cbor --report_directory=r "
                            "--profiling"),
            "");
  EXPECT_NE(validationError("--profiling --report_every_nth_execution=2")
                .find("requires --profile_execution"),
            std::string::npos);
  EXPECT_EQ(validationError("--profiling --profile_execution=device "
                            "--report_every_nth_execution=2"),
            "");
  EXPECT_NE(validationError("--serialized_graph").find("--serialized_graph"),
            std::string::npos);
  EXPECT_EQ(validationError("--serialized_graph --enable_events"), "");
}

TEST(FlagsValidate, RulesApplyToTheMergedFlags) {
  // --profile_execution alone in the environment is incomplete, but the
  // command line supplies --profiling: the merged flags are valid.
  auto env = parseFlags("--profile_execution=tile");
  auto cli = parseFlagArgs({"--profiling"});
  ASSERT_TRUE(static_cast<bool>(env) && static_cast<bool>(cli));
  llvm::Error envAlone = validateFlags(*env);
  EXPECT_TRUE(static_cast<bool>(envAlone));
  consumeError(std::move(envAlone));
  llvm::Error merged = validateFlags(mergeFlags(*env, *cli));
  EXPECT_FALSE(static_cast<bool>(merged)) << toString(std::move(merged));
  // And the command line can create a conflict the environment lacked.
  auto events = parseFlagArgs({"--enable_events"});
  ASSERT_TRUE(static_cast<bool>(events));
  TesseraFlags both = mergeFlags(mergeFlags(*env, *cli), *events);
  llvm::Error err = validateFlags(both);
  ASSERT_TRUE(static_cast<bool>(err));
  EXPECT_NE(toString(std::move(err)).find("mutually exclusive"),
            std::string::npos);
}

TEST(FlagsValidate, ReportsEveryBrokenRule) {
  std::string error =
      validationError("--profiling --enable_events --profile_execution=chip "
                      "--profiling=false");
  EXPECT_NE(error.find("--profile_execution=chip requires"), std::string::npos);
  EXPECT_EQ(error.find("mutually exclusive"), std::string::npos)
      << "profiling ended false, so no conflict: " << error;
}

} // namespace
