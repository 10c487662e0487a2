//===- FlagsParseTest.cpp - TESSERA_FLAGS parsing tests
//--------------------===//

#include "TraceTestUtil.h"

#include "tessera/Trace/Flags.h"

#include "llvm/Support/Errc.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <map>

using namespace tessera;
using tessera::testing::ScopedTempDir;

namespace {

TesseraFlags parseOk(llvm::StringRef text) {
  auto flags = parseFlags(text);
  EXPECT_TRUE(static_cast<bool>(flags))
      << "parsing '" << text.str() << "': " << toString(flags.takeError());
  return flags ? *flags : TesseraFlags();
}

std::string parseError(llvm::StringRef text, FlagFileReader reader = nullptr) {
  auto flags = parseFlags(text, "TESSERA_FLAGS", reader);
  if (flags) {
    ADD_FAILURE() << "'" << text.str() << "' parsed without error";
    return "";
  }
  return toString(flags.takeError());
}

/// An in-memory file system for flag files.
struct FakeFiles {
  std::map<std::string, std::string> files;
  llvm::Expected<std::string> operator()(llvm::StringRef path) const {
    auto it = files.find(path.str());
    if (it == files.end())
      return llvm::createStringError(llvm::errc::no_such_file_or_directory,
                                     "No such file or directory");
    return it->second;
  }
};

TEST(FlagsParse, EmptyTextGivesDefaults) {
  TesseraFlags flags = parseOk("   \n\t ");
  EXPECT_EQ(flags.dumpTo, "");
  EXPECT_EQ(flags.reportFormat, "json");
  EXPECT_EQ(flags.profileExecution, "none");
  EXPECT_EQ(flags.maxReportSize, 268435456);
  EXPECT_EQ(flags.dumpMaxModules, -1);
  EXPECT_FALSE(flags.profiling);
  EXPECT_TRUE(flags.explicitlySet.empty());
  EXPECT_TRUE(flags.dumpsText()) << "MLIR text is the default dump format";
}

TEST(FlagsParse, ValuesOfEveryType) {
  TesseraFlags flags =
      parseOk("--dump_to=/tmp/d --dump_max_modules=3 --report_format=cbor "
              "--profiling --profile_execution=tile -max_report_size=10");
  EXPECT_EQ(flags.dumpTo, "/tmp/d");
  EXPECT_EQ(flags.dumpMaxModules, 3);
  EXPECT_EQ(flags.reportFormat, "cbor");
  EXPECT_TRUE(flags.profiling);
  EXPECT_EQ(flags.profileExecution, "tile");
  EXPECT_EQ(flags.maxReportSize, 10);
  EXPECT_TRUE(flags.isSet("dump_to"));
  EXPECT_FALSE(flags.isSet("dump_as_dot"));
}

TEST(FlagsParse, BoolForms) {
  EXPECT_TRUE(parseOk("--dump_as_dot").dumpAsDot);
  EXPECT_TRUE(parseOk("--dump_as_dot=true").dumpAsDot);
  EXPECT_TRUE(parseOk("--dump_as_dot=TRUE").dumpAsDot);
  EXPECT_TRUE(parseOk("--dump_as_dot=1").dumpAsDot);
  EXPECT_FALSE(parseOk("--dump_as_dot=false").dumpAsDot);
  EXPECT_FALSE(parseOk("--dump_as_dot=0").dumpAsDot);
  // Last one wins, as in XLA_FLAGS.
  EXPECT_FALSE(parseOk("--dump_as_dot --dump_as_dot=0").dumpAsDot);
  // An explicit false still counts as set (it must override the env).
  EXPECT_TRUE(parseOk("--dump_as_dot=0").isSet("dump_as_dot"));
  // Dot alone turns the default text dump off.
  EXPECT_FALSE(parseOk("--dump_as_dot").dumpsText());

  std::string error = parseError("--dump_as_dot=yes");
  EXPECT_NE(error.find("--dump_as_dot: 'yes' is not a boolean"),
            std::string::npos)
      << error;
}

TEST(FlagsParse, Quotes) {
  TesseraFlags flags = parseOk(
      R"(--dump_to="my dumps/a b" '--dump_module_re=jit f.*' --compile_trace=x)");
  EXPECT_EQ(flags.dumpTo, "my dumps/a b");
  EXPECT_EQ(flags.dumpModuleRe, "jit f.*");
  EXPECT_EQ(flags.compileTrace, "x");
  // \" inside double quotes; backslashes elsewhere stay (regexes need them).
  EXPECT_EQ(parseOk(R"(--dump_to="say \"hi\"")").dumpTo, "say \"hi\"");
  EXPECT_EQ(parseOk(R"(--dump_pass_re=tile\.map)").dumpPassRe, R"(tile\.map)");
  EXPECT_EQ(parseOk(R"(--dump_pass_re='a\.b')").dumpPassRe, R"(a\.b)");
  // Quotes may also wrap only part of a token, as in a shell.
  EXPECT_EQ(parseOk(R"(--dump_to=a" "b)").dumpTo, "a b");
  EXPECT_EQ(parseOk(R"(--dump_to="")").dumpTo, "");

  std::string error = parseError(R"(--dump_to="unterminated)");
  EXPECT_NE(error.find("unterminated \" quote"), std::string::npos) << error;
}

TEST(FlagsParse, UnknownFlagNamesItAndSuggests) {
  std::string error = parseError("--dump_tooo=1");
  EXPECT_NE(error.find("unknown flag '--dump_tooo'"), std::string::npos)
      << error;
  EXPECT_NE(error.find("did you mean --dump_to"), std::string::npos) << error;

  error = parseError("--profilng");
  EXPECT_NE(error.find("did you mean --profiling"), std::string::npos) << error;

  error = parseError("--xyzzy_frobnicate");
  EXPECT_NE(error.find("unknown flag '--xyzzy_frobnicate'"), std::string::npos);
  EXPECT_NE(error.find("--help-flags lists every flag"), std::string::npos) << error;
}

TEST(FlagsParse, SuggestionsAreRankedByDistance) {
  std::vector<std::string> close = suggestFlags("dump_as_txt");
  ASSERT_FALSE(close.empty());
  EXPECT_EQ(close.front(), "dump_as_text");
  EXPECT_LE(close.size(), 3u);
}

TEST(FlagsParse, BadValuesNameTheFlag) {
  std::string error = parseError("--dump_max_modules=many");
  EXPECT_NE(error.find("--dump_max_modules: 'many' is not an integer"),
            std::string::npos)
      << error;
  error = parseError("--dump_max_modules=-2");
  EXPECT_NE(error.find("--dump_max_modules: -2 is below the minimum -1"),
            std::string::npos)
      << error;
  error = parseError("--max_report_size=12abc");
  EXPECT_NE(error.find("--max_report_size"), std::string::npos) << error;
  error = parseError("--report_format=xml");
  EXPECT_NE(error.find("--report_format: 'xml' is not one of json|cbor|text"),
            std::string::npos)
      << error;
  error = parseError("--dump_to");
  EXPECT_NE(error.find("--dump_to: needs a value: --dump_to=DIR"),
            std::string::npos)
      << error;
  error = parseError("--dump_pass_re=tile(");
  EXPECT_NE(error.find("--dump_pass_re: invalid regular expression 'tile('"),
            std::string::npos)
      << error;
  error = parseError("--");
  EXPECT_NE(error.find("has no flag name"), std::string::npos) << error;
}

TEST(FlagsParse, AllErrorsAreReportedTogether) {
  std::string error =
      parseError("--dump_tooo=1 --report_format=xml --dump_max_modules=x");
  EXPECT_NE(error.find("dump_tooo"), std::string::npos);
  EXPECT_NE(error.find("report_format"), std::string::npos);
  EXPECT_NE(error.find("dump_max_modules"), std::string::npos);
  EXPECT_EQ(std::count(error.begin(), error.end(), '\n'), 2) << error;
}

TEST(FlagsParse, FilesOfFlags) {
  FakeFiles files;
  files.files["base.flags"] = "# dump settings\n"
                              "--dump_to=from_file   # not a comment: kept\n"
                              "  # indented comment\n"
                              "--report_format=text more.flags\n";
  files.files["more.flags"] = "--dump_as_dot\n";
  auto flags = parseFlags("--profiling base.flags --dump_max_modules=2",
                          "TESSERA_FLAGS", files);
  // "#" only starts a comment at the beginning of a line, so the trailing
  // text above is a (bad) token: check the error, then parse without it.
  ASSERT_FALSE(static_cast<bool>(flags));
  std::string error = toString(flags.takeError());
  EXPECT_NE(error.find("flag file 'base.flags'"), std::string::npos) << error;

  files.files["base.flags"] = "# dump settings\n"
                              "--dump_to=from_file\n"
                              "  # indented comment\n"
                              "--report_format=text more.flags\n";
  auto good = parseFlags("--profiling base.flags --dump_max_modules=2",
                         "TESSERA_FLAGS", files);
  ASSERT_TRUE(static_cast<bool>(good)) << toString(good.takeError());
  EXPECT_TRUE(good->profiling);
  EXPECT_EQ(good->dumpTo, "from_file");
  EXPECT_EQ(good->reportFormat, "text");
  EXPECT_TRUE(good->dumpAsDot);
  EXPECT_EQ(good->dumpMaxModules, 2);
}

TEST(FlagsParse, FlagFileErrors) {
  FakeFiles files;
  files.files["self.flags"] = "--profiling self.flags";
  files.files["typo.flags"] = "--dump_tooo=1";
  std::string error = parseError("self.flags", files);
  EXPECT_NE(error.find("nested more than"), std::string::npos) << error;

  error = parseError("missing.flags", files);
  EXPECT_NE(error.find("'missing.flags' does not start with '-', so it is "
                       "read as a file of flags, but it cannot be read"),
            std::string::npos)
      << error;

  // Errors inside a file say which file.
  error = parseError("typo.flags", files);
  EXPECT_NE(error.find("TESSERA_FLAGS (flag file 'typo.flags'): unknown flag "
                       "'--dump_tooo'"),
            std::string::npos)
      << error;
}

TEST(FlagsParse, FlagFileOnDisk) {
  ScopedTempDir dir;
  std::string path = dir.path("tessera.flags");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << "--dump_to='with space'\n--use_model\n";
  }
  TesseraFlags flags = parseOk("'" + path + "'");
  EXPECT_EQ(flags.dumpTo, "with space");
  EXPECT_TRUE(flags.useModel);
}

TEST(FlagsParse, HelpIsRequestedNotAnError) {
  EXPECT_TRUE(parseOk("--help").helpRequested);
  EXPECT_TRUE(parseOk("--dump_to=x --help").helpRequested);
}

TEST(FlagsParse, ArgsUseTheSameRules) {
  auto flags = parseFlagArgs({"--dump_to=a b", "--profiling"});
  ASSERT_TRUE(static_cast<bool>(flags));
  // Arguments are already split: spaces are part of the value.
  EXPECT_EQ(flags->dumpTo, "a b");
  auto bad = parseFlagArgs({"--dump_tooo"});
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_NE(toString(bad.takeError()).find("command line: unknown flag"),
            std::string::npos);
}

TEST(FlagsParse, CommandLineWinsOverEnvironment) {
  TesseraFlags env =
      parseOk("--dump_to=env_dir --profiling --dump_max_modules=5");
  auto cli = parseFlagArgs({"--dump_to=cli_dir", "--profiling=false"});
  ASSERT_TRUE(static_cast<bool>(cli));
  TesseraFlags merged = mergeFlags(env, *cli);
  EXPECT_EQ(merged.dumpTo, "cli_dir");
  EXPECT_FALSE(merged.profiling) << "an explicit false on the CLI wins";
  EXPECT_EQ(merged.dumpMaxModules, 5) << "env-only flags are kept";
  EXPECT_EQ(merged.reportFormat, "json") << "unset everywhere: default";
  EXPECT_TRUE(merged.isSet("dump_max_modules"));
  EXPECT_TRUE(merged.isSet("profiling"));
  EXPECT_FALSE(merged.isSet("report_format"));
}

TEST(FlagsParse, EnvironmentIsParsedOncePerProcess) {
  ::setenv("TESSERA_FLAGS", "--dump_to=first", 1);
  const EnvFlags &first = getEnvFlags();
  ::setenv("TESSERA_FLAGS", "--dump_to=second", 1);
  const EnvFlags &second = getEnvFlags();
  EXPECT_EQ(&first, &second);
  EXPECT_EQ(second.flags.dumpTo, "first");
  EXPECT_TRUE(second.error.empty()) << second.error;
  ::unsetenv("TESSERA_FLAGS");
}

// resolveFlags returns what the tools print and exit on; it never exits.
// (TESSERA_FLAGS is read once per process, so these use command-line flags;
// the unit-test binary runs without TESSERA_FLAGS set.)
TEST(FlagsResolve, ErrorsNameTheirOriginAndHelpComesBack) {
  if (std::getenv("TESSERA_FLAGS"))
    GTEST_SKIP() << "TESSERA_FLAGS is set in this environment";
  auto bad = resolveFlags({"--profile_execution=tile"});
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_EQ(toString(bad.takeError()),
            "flags: --profile_execution=tile requires --profiling");
  auto unknown = resolveFlags({"--no_such_flag=1"});
  ASSERT_FALSE(static_cast<bool>(unknown));
  EXPECT_NE(toString(unknown.takeError()).find("'--no_such_flag'"),
            std::string::npos);
  auto help = resolveFlags({"--help"});
  ASSERT_TRUE(static_cast<bool>(help)) << toString(help.takeError());
  EXPECT_TRUE(help->helpRequested);
  auto ok = resolveFlags({"--profiling", "--profile_execution=tile"});
  ASSERT_TRUE(static_cast<bool>(ok)) << toString(ok.takeError());
  EXPECT_TRUE(ok->profiling);
}

} // namespace
