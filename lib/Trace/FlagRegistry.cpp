//===- FlagRegistry.cpp - The table of TESSERA_FLAGS flags ----------------===//
//
// Expands Flags.def into the registry: name, type, default, help and the
// TesseraFlags field each flag writes.
//
//===----------------------------------------------------------------------===//

#include "tessera/Trace/Flags.h"

#include "absl/strings/str_split.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace llvm;

namespace tessera {

namespace {
// Field accessors: one pointer-to-member per flag, looked up by name. The
// registry stays a constant table of plain data.
struct FieldRef {
  StringRef name;
  bool TesseraFlags::*boolField = nullptr;
  int64_t TesseraFlags::*intField = nullptr;
  std::string TesseraFlags::*stringField = nullptr;
};

const FieldRef kFields[] = {
#define BOOL_FLAG(G, NAME, FIELD, D, H)                                        \
  {#NAME, &TesseraFlags::FIELD, nullptr, nullptr},
#define INT_FLAG(G, NAME, FIELD, D, MIN, MV, H)                                \
  {#NAME, nullptr, &TesseraFlags::FIELD, nullptr},
#define STRING_FLAG(G, NAME, FIELD, D, MV, H)                                  \
  {#NAME, nullptr, nullptr, &TesseraFlags::FIELD},
#define REGEX_FLAG(G, NAME, FIELD, MV, H)                                      \
  {#NAME, nullptr, nullptr, &TesseraFlags::FIELD},
#define ENUM_FLAG(G, NAME, FIELD, D, C, H)                                     \
  {#NAME, nullptr, nullptr, &TesseraFlags::FIELD},
#include "tessera/Trace/Flags.def"
};

const FlagInfo kRegistry[] = {
#define BOOL_FLAG(G, NAME, FIELD, D, H)                                        \
  {#NAME, FlagType::Bool, FlagGroup::G, #D, "", H, "", 0, false},
#define INT_FLAG(G, NAME, FIELD, D, MIN, MV, H)                                \
  {#NAME, FlagType::Int, FlagGroup::G, #D, MV, H, "", MIN, false},
#define STRING_FLAG(G, NAME, FIELD, D, MV, H)                                  \
  {#NAME, FlagType::String, FlagGroup::G, D, MV, H, "", 0, false},
#define REGEX_FLAG(G, NAME, FIELD, MV, H)                                      \
  {#NAME, FlagType::String, FlagGroup::G, "", MV, H, "", 0, true},
#define ENUM_FLAG(G, NAME, FIELD, D, C, H)                                     \
  {#NAME, FlagType::Enum, FlagGroup::G, D, C, H, C, 0, false},
#include "tessera/Trace/Flags.def"
};

const FieldRef &fieldOf(const FlagInfo &flag) {
  return kFields[&flag - kRegistry];
}
} // namespace

bool *FlagInfo::boolField(TesseraFlags &flags) const {
  auto member = fieldOf(*this).boolField;
  return member ? &(flags.*member) : nullptr;
}
int64_t *FlagInfo::intField(TesseraFlags &flags) const {
  auto member = fieldOf(*this).intField;
  return member ? &(flags.*member) : nullptr;
}
std::string *FlagInfo::stringField(TesseraFlags &flags) const {
  auto member = fieldOf(*this).stringField;
  return member ? &(flags.*member) : nullptr;
}

const bool *FlagInfo::boolField(const TesseraFlags &flags) const {
  auto member = fieldOf(*this).boolField;
  return member ? &(flags.*member) : nullptr;
}
const int64_t *FlagInfo::intField(const TesseraFlags &flags) const {
  auto member = fieldOf(*this).intField;
  return member ? &(flags.*member) : nullptr;
}
const std::string *FlagInfo::stringField(const TesseraFlags &flags) const {
  auto member = fieldOf(*this).stringField;
  return member ? &(flags.*member) : nullptr;
}

ArrayRef<FlagInfo> getFlagRegistry() { return kRegistry; }

const FlagInfo *findFlag(StringRef name) {
  for (const FlagInfo &flag : kRegistry)
    if (flag.name == name)
      return &flag;
  return nullptr;
}

std::vector<std::string> suggestFlags(StringRef name) {
  // Accept roughly one typo per three characters, at least two: "dump_tooo"
  // finds dump_to, while unrelated words stay unmatched.
  unsigned limit = std::max<unsigned>(2, name.size() / 3);
  std::vector<std::pair<unsigned, StringRef>> close;
  for (const FlagInfo &flag : kRegistry) {
    unsigned distance = name.edit_distance(flag.name, true, limit);
    if (distance <= limit || flag.name.starts_with(name))
      close.push_back({distance, flag.name});
  }
  llvm::stable_sort(
      close, [](const auto &a, const auto &b) { return a.first < b.first; });
  std::vector<std::string> names;
  for (auto &entry : close)
    if (names.size() < 3)
      names.push_back(entry.second.str());
  return names;
}

std::string flagValueText(const TesseraFlags &flags, const FlagInfo &flag) {
  if (const bool *value = flag.boolField(flags))
    return *value ? "true" : "false";
  if (const int64_t *value = flag.intField(flags))
    return std::to_string(*value);
  return *flag.stringField(flags);
}

static StringRef groupTitle(FlagGroup group) {
  switch (group) {
  case FlagGroup::Dump:
    return "Dump flags";
  case FlagGroup::Report:
    return "Report and event flags";
  case FlagGroup::Compile:
    return "Compile flags";
  case FlagGroup::Runtime:
    return "Runtime flags";
  }
  return "Flags";
}

/// Greedy word wrap, so --help reads well in an 80-column terminal.
static void printWrapped(raw_ostream &os, StringRef text, size_t indent,
                         size_t width) {
  size_t column = 0;
  for (absl::string_view word :
       absl::StrSplit(absl::string_view(text.data(), text.size()), ' ',
                      absl::SkipEmpty())) {
    if (column > indent && column + 1 + word.size() > width) {
      os << "\n";
      column = 0;
    }
    if (column == 0) {
      os.indent(indent);
      column = indent;
    } else {
      os << ' ';
      ++column;
    }
    os << StringRef(word.data(), word.size());
    column += word.size();
  }
  os << "\n";
}

void printFlagHelp(raw_ostream &os) {
  os << "TESSERA_FLAGS: whitespace-separated --name=value entries (values may "
        "be quoted);\n"
        "bools as --name or --name=true|false|1|0; a token not starting with "
        "'-' is a\n"
        "file of more flags. Command-line flags override TESSERA_FLAGS.\n";
  std::optional<FlagGroup> group;
  for (const FlagInfo &flag : kRegistry) {
    if (group != flag.group) {
      group = flag.group;
      os << "\n" << groupTitle(flag.group) << ":\n";
    }
    std::string usage = "--" + flag.name.str();
    if (flag.type != FlagType::Bool)
      usage += "=" + flag.metavar.str();
    std::string defaultText = flag.defaultValue.str();
    if (flag.type == FlagType::String || flag.type == FlagType::Enum)
      defaultText = "\"" + defaultText + "\"";
    os << formatv("  {0} (default: {1})\n", usage, defaultText);
    printWrapped(os, flag.help, /*indent=*/6, /*width=*/79);
  }
}

} // namespace tessera
