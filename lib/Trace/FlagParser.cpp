//===- FlagParser.cpp - Parsing TESSERA_FLAGS-style flag text -------------===//
//
// Tokenizing, flag files, and typed values. Every problem is collected so a
// user with three typos sees all three at once.
//
//===----------------------------------------------------------------------===//

#include "tessera/Trace/Flags.h"
#include "tessera/Trace/InputFile.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

#include "llvm/Support/Errc.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"

using namespace llvm;

namespace tessera {

namespace {
/// Flag files may name further flag files; this bounds the nesting so a file
/// that names itself is an error rather than endless recursion.
constexpr unsigned kMaxFlagFileDepth = 8;
/// And this bounds the fan-out: ten files that each name the ten would be
/// read 10^8 times within the depth limit.
constexpr unsigned kMaxFlagFiles = 256;
/// Past this many errors the rest are not collected (nor printed).
constexpr size_t kMaxFlagErrors = 20;

/// Splits flag text at unquoted whitespace. absl::StrSplit cannot honour
/// quotes, and llvm::cl's GNU tokenizer treats '\' as an escape everywhere,
/// which mangles regexes such as --dump_pass_re=tile\.map; so: quotes group
/// ('...' verbatim, "..." with \" and \\ escapes), a backslash outside quotes
/// is an ordinary character.
bool tokenize(StringRef text, std::vector<std::string> &tokens,
              std::string &error) {
  std::string current;
  bool inToken = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (absl::ascii_isspace(static_cast<unsigned char>(c))) {
      if (inToken)
        tokens.push_back(std::move(current));
      current.clear();
      inToken = false;
      continue;
    }
    inToken = true;
    if (c != '"' && c != '\'') {
      current.push_back(c);
      continue;
    }
    char quote = c;
    size_t open = i;
    for (++i; i < text.size() && text[i] != quote; ++i) {
      if (quote == '"' && text[i] == '\\' && i + 1 < text.size() &&
          (text[i + 1] == '"' || text[i + 1] == '\\'))
        ++i;
      current.push_back(text[i]);
    }
    if (i >= text.size()) {
      error = formatv("unterminated {0} quote starting at character {1}", quote,
                      open)
                  .str();
      return false;
    }
  }
  if (inToken)
    tokens.push_back(std::move(current));
  return true;
}

/// Flag files allow '#' comment lines; drop them before tokenizing.
std::string stripCommentLines(StringRef content) {
  std::vector<absl::string_view> kept;
  for (absl::string_view line :
       absl::StrSplit(absl::string_view(content.data(), content.size()), '\n'))
    if (!absl::StartsWith(absl::StripLeadingAsciiWhitespace(line), "#"))
      kept.push_back(line);
  return absl::StrJoin(kept, "\n");
}

Expected<std::string> readFileFromDisk(StringRef path) {
  Expected<std::unique_ptr<MemoryBuffer>> buffer =
      readInputFile(path, kMaxFlagFileBytes, "flag file");
  if (!buffer)
    return buffer.takeError();
  return (*buffer)->getBuffer().str();
}

class Parser {
public:
  Parser(TesseraFlags &flags, FlagFileReader readFile)
      : flags(flags), readFile(readFile) {}

  void parseText(StringRef text, StringRef origin, unsigned depth) {
    std::vector<std::string> tokens;
    std::string error;
    if (!tokenize(text, tokens, error)) {
      errors.push_back(origin.str() + ": " + error);
      return;
    }
    parseTokens(tokens, origin, depth);
  }

  void parseTokens(ArrayRef<std::string> tokens, StringRef origin,
                   unsigned depth) {
    for (const std::string &token : tokens) {
      if (errors.size() >= kMaxFlagErrors)
        return;
      if (!StringRef(token).starts_with("-"))
        parseFile(token, origin, depth);
      else
        parseFlag(token, origin);
    }
  }

  std::vector<std::string> errors;

private:
  unsigned filesRead = 0;

  void parseFile(StringRef path, StringRef origin, unsigned depth) {
    if (++filesRead > kMaxFlagFiles) {
      if (filesRead == kMaxFlagFiles + 1)
        errors.push_back(formatv("{0}: flag file '{1}' would be the {2}th "
                                 "flag file read; the limit is {3} (do flag "
                                 "files name each other?)",
                                 origin, path, filesRead, kMaxFlagFiles));
      return;
    }
    if (depth >= kMaxFlagFileDepth) {
      errors.push_back(formatv("{0}: flag file '{1}' is nested more than {2} "
                               "files deep (does a file name itself?)",
                               origin, path, kMaxFlagFileDepth));
      return;
    }
    Expected<std::string> content =
        readFile ? readFile(path) : readFileFromDisk(path);
    if (!content) {
      errors.push_back(formatv("{0}: '{1}' does not start with '-', so it is "
                               "read as a file of flags, but it cannot be "
                               "read: {2}",
                               origin, path, toString(content.takeError())));
      return;
    }
    parseText(stripCommentLines(*content),
              formatv("{0} (flag file '{1}')", origin, path).str(), depth + 1);
  }

  void parseFlag(StringRef token, StringRef origin) {
    absl::string_view body(token.data(), token.size());
    // Both --name and -name, as absl and XLA accept.
    if (!absl::ConsumePrefix(&body, "--"))
      absl::ConsumePrefix(&body, "-");
    std::vector<absl::string_view> parts =
        absl::StrSplit(body, absl::MaxSplits('=', 1));
    StringRef name(parts[0].data(), parts[0].size());
    std::optional<StringRef> value;
    if (parts.size() == 2)
      value = StringRef(parts[1].data(), parts[1].size());

    if (name.empty()) {
      errors.push_back(formatv("{0}: '{1}' has no flag name", origin, token));
      return;
    }
    if (name == "help") {
      flags.helpRequested = true;
      return;
    }
    const FlagInfo *flag = findFlag(name);
    if (!flag) {
      std::string message =
          formatv("{0}: unknown flag '--{1}'", origin, name).str();
      std::vector<std::string> close = suggestFlags(name);
      if (!close.empty())
        message += "; did you mean --" + absl::StrJoin(close, ", --") + "?";
      else
        message += " (--help-flags lists every flag)";
      errors.push_back(message);
      return;
    }
    if (Error err = setValue(*flag, value))
      errors.push_back(formatv("{0}: {1}", origin, toString(std::move(err))));
    else
      flags.explicitlySet.insert(flag->name.str());
  }

  Error setValue(const FlagInfo &flag, std::optional<StringRef> value) {
    auto bad = [&](const Twine &why) {
      return createStringError(errc::invalid_argument, "--%s: %s",
                               flag.name.str().c_str(), why.str().c_str());
    };
    if (flag.type == FlagType::Bool) {
      bool *field = flag.boolField(flags);
      if (!value) {
        *field = true;
        return Error::success();
      }
      std::string lower = absl::AsciiStrToLower(value->str());
      if (lower == "true" || lower == "1")
        *field = true;
      else if (lower == "false" || lower == "0")
        *field = false;
      else
        return bad("'" + *value +
                   "' is not a boolean (use true, false, 1 or 0)");
      return Error::success();
    }
    if (!value)
      return bad(
          formatv("needs a value: --{0}={1}", flag.name, flag.metavar).str());
    if (flag.type == FlagType::Int) {
      int64_t number = 0;
      if (!absl::SimpleAtoi(absl::string_view(value->data(), value->size()),
                            &number))
        return bad("'" + *value + "' is not an integer");
      if (number < flag.minValue)
        return bad(
            formatv("{0} is below the minimum {1}", number, flag.minValue)
                .str());
      *flag.intField(flags) = number;
      return Error::success();
    }
    if (flag.type == FlagType::Enum) {
      SmallVector<StringRef> choices;
      flag.choices.split(choices, '|');
      if (!llvm::is_contained(choices, *value))
        return bad("'" + *value + "' is not one of " + flag.choices);
    }
    if (flag.isRegex) {
      std::string why;
      if (!Regex(*value).isValid(why))
        return bad("invalid regular expression '" + *value + "': " + why);
    }
    *flag.stringField(flags) = value->str();
    return Error::success();
  }

  TesseraFlags &flags;
  FlagFileReader readFile;
};

Error joinErrors(const std::vector<std::string> &errors) {
  if (errors.empty())
    return Error::success();
  return createStringError(errc::invalid_argument, "%s",
                           absl::StrJoin(errors, "\n").c_str());
}
} // namespace

Error parseFlagsInto(StringRef text, StringRef origin, TesseraFlags &flags,
                     FlagFileReader readFile) {
  Parser parser(flags, readFile);
  parser.parseText(text, origin, 0);
  return joinErrors(parser.errors);
}

Expected<TesseraFlags> parseFlags(StringRef text, StringRef origin,
                                  FlagFileReader readFile) {
  TesseraFlags flags;
  if (Error err = parseFlagsInto(text, origin, flags, readFile))
    return std::move(err);
  return flags;
}

Expected<TesseraFlags> parseFlagArgs(ArrayRef<std::string> args,
                                     StringRef origin,
                                     FlagFileReader readFile) {
  TesseraFlags flags;
  Parser parser(flags, readFile);
  parser.parseTokens(args, origin, 0);
  if (Error err = joinErrors(parser.errors))
    return std::move(err);
  return flags;
}

TesseraFlags mergeFlags(const TesseraFlags &env, const TesseraFlags &cli) {
  TesseraFlags merged = env;
  for (const FlagInfo &flag : getFlagRegistry()) {
    if (!cli.isSet(flag.name))
      continue;
    if (const bool *value = flag.boolField(cli))
      *flag.boolField(merged) = *value;
    else if (const int64_t *value = flag.intField(cli))
      *flag.intField(merged) = *value;
    else
      *flag.stringField(merged) = *flag.stringField(cli);
    merged.explicitlySet.insert(flag.name.str());
  }
  merged.helpRequested = env.helpRequested || cli.helpRequested;
  return merged;
}

} // namespace tessera
