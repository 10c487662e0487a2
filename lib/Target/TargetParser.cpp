//===- TargetParser.cpp - JSON to a validated TargetDescription -----------===//
//
// Validation reads the DOM field by field and records every problem with the
// JSON path of the offending value, instead of stopping at the first, so a
// user fixing a hand-written file sees all mistakes at once. Cross-field
// rules (dtype lists drawn from `dtypes`, reserved bytes below SRAM, chips
// connected by links) run after the fields they relate are known good, so
// one typo does not cascade into a page of errors.
//
//===----------------------------------------------------------------------===//

#include "FieldReader.h"

#include "tessera/Target/TargetJson.h"
#include "tessera/Target/TargetSchema.h"
#include "tessera/Trace/InputFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <mutex>
#include <numeric>
#include <set>

using namespace tessera;
using namespace tessera::target_detail;
using llvm::StringRef;

// Ranges beyond any chip modelled, so that products and divisions of these
// fields in the later passes cannot overflow or divide by a wrapped value
// (docs/limits.md): 4,096 chips of 1M tiles, vectors of 1M elements, 1 MiB
// alignment.
static constexpr int64_t kMaxChips = int64_t(1) << 12;
static constexpr int64_t kMaxTilesPerChip = int64_t(1) << 20;
static constexpr int64_t kMaxVectorWidth = int64_t(1) << 20;
static constexpr int64_t kMaxAlignmentBytes = int64_t(1) << 20;

namespace {

/// Everything the individual field readers need to share.
class TargetParser {
public:
  explicit TargetParser(Diagnostics &diag) : diag(diag) {}

  void parse(const Json &root, TargetDescription &target);

private:
  void parseName(ObjectReader &reader, TargetDescription &target);
  void parseChipLinks(ObjectReader &reader, TargetDescription &target,
                      bool chipsValid);
  void parseReserved(ObjectReader &reader, TargetDescription &target,
                     bool sramValid);
  void parseVectorWidth(ObjectReader &reader, TargetDescription &target);
  void parseMatrixUnit(ObjectReader &reader, TargetDescription &target);
  void parseLayoutTile(ObjectReader &reader, TargetDescription &target);
  void parseExchange(ObjectReader &reader, TargetDescription &target);
  void parseHostLink(ObjectReader &reader, TargetDescription &target);
  void parseOverheads(ObjectReader &reader, TargetDescription &target);
  void parseDtypes(ObjectReader &reader, TargetDescription &target);
  void parseOps(ObjectReader &reader, TargetDescription &target);
  std::optional<OpConstraint> parseOp(StringRef op, const Json &value,
                                      const std::string &path);
  void parseRuntimeOps(ObjectReader &reader, TargetDescription &target);

  /// "" when `dtype` may be used in a dtype sub-list, else why not.
  std::string checkTargetDtype(StringRef dtype) const;

  Diagnostics &diag;
  /// The target's dtypes, once `dtypes` parsed cleanly; until then (or if it
  /// is bad) sub-lists are only checked against the known dtype names.
  std::optional<std::vector<std::string>> targetDtypes;
};

std::vector<StringRef> dtypeNames() {
  std::vector<StringRef> names;
  for (const DtypeInfo &info : knownDtypes())
    names.push_back(info.name);
  return names;
}

std::string TargetParser::checkTargetDtype(StringRef dtype) const {
  if (!dtypeBytes(dtype))
    return unknownNameMessage("dtype", dtype, dtypeNames());
  if (targetDtypes && !llvm::is_contained(*targetDtypes, dtype))
    return ("dtype '" + dtype + "' is not in the target's dtypes").str();
  return "";
}

void TargetParser::parse(const Json &root, TargetDescription &target) {
  std::optional<ObjectReader> reader = ObjectReader::open(root, "", diag);
  if (!reader)
    return;
  // dtypes first: vector_width, matrix_unit and ops are checked against it.
  parseDtypes(*reader, target);

  parseName(*reader, target);
  if (const Json *v = reader->field("description", false))
    if (std::optional<std::string> s =
            readString(*v, reader->pathOf("description"), diag))
      target.description = *s;

  std::optional<int64_t> chips =
      reader->intField("chips", false, 1, kMaxChips);
  bool chipsValid = chips || !reader->field("chips", false);
  if (chips)
    target.chips = *chips;
  parseChipLinks(*reader, target, chipsValid);

  if (auto v = reader->intField("tiles_per_chip", true, 1, kMaxTilesPerChip))
    target.tilesPerChip = *v;
  std::optional<int64_t> sram =
      reader->intField("sram_bytes_per_tile", true, 1);
  if (sram)
    target.sramBytesPerTile = *sram;
  parseReserved(*reader, target, sram.has_value());
  // Later passes multiply these freely (total tiles, bytes of the whole
  // system); refuse sizes whose product does not fit in 63 bits.
  int64_t tiles = 0, bytes = 0;
  if (chips && target.tilesPerChip && sram &&
      (llvm::MulOverflow(target.chips, target.tilesPerChip, tiles) ||
       llvm::MulOverflow(tiles, target.sramBytesPerTile, bytes)))
    diag.error("sram_bytes_per_tile",
               "chips × tiles_per_chip × sram_bytes_per_tile does not fit "
               "in a 64-bit byte count");
  if (auto v = reader->intField("clock_hz", true, 1))
    target.clockHz = *v;
  parseVectorWidth(*reader, target);
  parseMatrixUnit(*reader, target);
  parseLayoutTile(*reader, target);
  if (auto v = reader->intField("alignment_bytes", false, 1,
                                kMaxAlignmentBytes)) {
    // Offsets of on-tile buffers are multiples of it; allocators round with
    // masks, so only powers of two make sense.
    if (*v & (*v - 1))
      diag.error("alignment_bytes",
                 "expected a power of two, got " + std::to_string(*v));
    else
      target.alignmentBytes = *v;
  }
  parseExchange(*reader, target);
  if (auto v = reader->intField("sync_cycles", true, 0))
    target.syncCycles = *v;
  parseHostLink(*reader, target);
  parseOverheads(*reader, target);
  parseOps(*reader, target);
  parseRuntimeOps(*reader, target);
  reader->rejectUnknownKeys();
}

void TargetParser::parseName(ObjectReader &reader, TargetDescription &target) {
  const Json *value = reader.field("name", true);
  if (!value)
    return;
  std::optional<std::string> name = readString(*value, "name", diag);
  if (!name)
    return;
  // The name goes into dump file names and report headers: keep it to
  // characters that are safe in both.
  bool safe = !name->empty() && llvm::all_of(*name, [](char c) {
    return llvm::isAlnum(c) || c == '-' || c == '_' || c == '.';
  });
  if (!safe) {
    diag.error("name", "expected letters, digits, '-', '_' or '.', got " +
                           describe(*value));
    return;
  }
  target.name = *name;
}

void TargetParser::parseChipLinks(ObjectReader &reader,
                                  TargetDescription &target, bool chipsValid) {
  const Json *value = reader.field("chip_links", false);
  std::string path = reader.pathOf("chip_links");
  if (value && !value->is_array()) {
    diag.error(path, "expected an array of links, got " + describe(*value));
    return;
  }
  size_t errorsBefore = diag.count();
  if (value) {
    for (size_t i = 0; i < value->size(); ++i) {
      std::optional<ObjectReader> link =
          ObjectReader::open((*value)[i], indexPath(path, i), diag);
      if (!link)
        continue;
      ChipLink parsed;
      bool ok = true;
      if (const Json *between = link->field("between", true)) {
        std::string betweenPath = link->pathOf("between");
        if (!between->is_array() || between->size() != 2) {
          diag.error(betweenPath,
                     "expected [chip, chip], got " + describe(*between));
          ok = false;
        } else {
          int64_t ends[2] = {0, 0};
          for (size_t e = 0; e < 2; ++e) {
            std::string endPath = indexPath(betweenPath, e);
            std::optional<int64_t> chip =
                readInt((*between)[e], endPath, 0, diag);
            if (!chip) {
              ok = false;
            } else if (chipsValid && *chip >= target.chips) {
              diag.error(endPath, "chip " + llvm::Twine(*chip) +
                                      " does not exist (chips is " +
                                      llvm::Twine(target.chips) + ")");
              ok = false;
            } else {
              ends[e] = *chip;
            }
          }
          if (ok && ends[0] == ends[1]) {
            diag.error(betweenPath, "a link must join two different chips");
            ok = false;
          }
          parsed.chipA = std::min(ends[0], ends[1]);
          parsed.chipB = std::max(ends[0], ends[1]);
        }
      } else {
        ok = false;
      }
      std::optional<int64_t> bandwidth =
          link->intField("bandwidth_bytes_per_s", true, 1);
      std::optional<int64_t> latency =
          link->intField("latency_cycles", true, 0);
      link->rejectUnknownKeys();
      if (!ok || !bandwidth || !latency)
        continue;
      parsed.bandwidthBytesPerSecond = *bandwidth;
      parsed.latencyCycles = *latency;
      for (size_t j = 0; j < target.chipLinks.size(); ++j) {
        const ChipLink &other = target.chipLinks[j];
        if (other.chipA == parsed.chipA && other.chipB == parsed.chipB) {
          diag.error(link->pathOf("between"), "duplicate link between chips " +
                                                  llvm::Twine(parsed.chipA) +
                                                  " and " +
                                                  llvm::Twine(parsed.chipB));
          ok = false;
        }
      }
      if (ok)
        target.chipLinks.push_back(parsed);
    }
  }
  if (!chipsValid || diag.count() != errorsBefore || target.chips == 1)
    return;
  // Every chip must be reachable from chip 0: the partitioner assumes any
  // two chips can exchange data, possibly over several hops.
  std::vector<int64_t> parent(target.chips);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int64_t c) {
    while (parent[c] != c)
      c = parent[c] = parent[parent[c]];
    return c;
  };
  for (const ChipLink &link : target.chipLinks)
    parent[find(link.chipA)] = find(link.chipB);
  std::vector<std::string> unreachable;
  for (int64_t c = 1; c < target.chips; ++c)
    if (find(c) != find(0))
      unreachable.push_back(std::to_string(c));
  if (!unreachable.empty()) {
    if (unreachable.size() > 8) {
      unreachable.resize(8);
      unreachable.push_back("...");
    }
    bool one = unreachable.size() == 1;
    diag.error(path, (one ? "chip " : "chips ") +
                         llvm::join(unreachable, ", ") +
                         (one ? " is" : " are") +
                         " not connected to chip 0 (a system with " +
                         llvm::Twine(target.chips) +
                         " chips needs links joining them all)");
  }
}

void TargetParser::parseReserved(ObjectReader &reader,
                                 TargetDescription &target, bool sramValid) {
  const Json *value = reader.field("reserved_bytes_per_tile", false);
  if (!value)
    return;
  std::optional<ObjectReader> reserved = ObjectReader::open(
      *value, reader.pathOf("reserved_bytes_per_tile"), diag);
  if (!reserved)
    return;
  std::optional<int64_t> code = reserved->intField("code", false, 0);
  std::optional<int64_t> stack = reserved->intField("stack", false, 0);
  bool codeOk = code || !reserved->field("code", false);
  bool stackOk = stack || !reserved->field("stack", false);
  reserved->rejectUnknownKeys();
  target.reservedBytesPerTile.code = code.value_or(0);
  target.reservedBytesPerTile.stack = stack.value_or(0);
  if (!sramValid || !codeOk || !stackOk)
    return;
  int64_t total =
      target.reservedBytesPerTile.code + target.reservedBytesPerTile.stack;
  if (total >= target.sramBytesPerTile)
    diag.error(reserved->path(), "code + stack = " + llvm::Twine(total) +
                                     " bytes leaves no memory for tensors in "
                                     "sram_bytes_per_tile = " +
                                     llvm::Twine(target.sramBytesPerTile));
}

void TargetParser::parseVectorWidth(ObjectReader &reader,
                                    TargetDescription &target) {
  const Json *value = reader.field("vector_width", false);
  if (!value)
    return;
  std::optional<ObjectReader> widths =
      ObjectReader::open(*value, reader.pathOf("vector_width"), diag);
  if (!widths)
    return;
  // Keys are dtypes, so they are checked here rather than by
  // rejectUnknownKeys().
  for (auto it = value->begin(); it != value->end(); ++it) {
    std::string path = widths->pathOf(it.key());
    std::string problem = checkTargetDtype(it.key());
    if (!problem.empty()) {
      diag.error(path, problem);
      continue;
    }
    if (std::optional<int64_t> width =
            readInt(it.value(), path, 1, diag, kMaxVectorWidth))
      target.vectorWidth[it.key()] = *width;
  }
}

void TargetParser::parseMatrixUnit(ObjectReader &reader,
                                   TargetDescription &target) {
  const Json *value = reader.field("matrix_unit", true);
  if (!value)
    return;
  std::optional<ObjectReader> unit =
      ObjectReader::open(*value, reader.pathOf("matrix_unit"), diag);
  if (!unit)
    return;
  if (const Json *shape = unit->field("shape", true)) {
    std::string path = unit->pathOf("shape");
    if (!shape->is_array() || shape->size() != 3) {
      diag.error(path, "expected [M, N, K] (three positive integers), got " +
                           describe(*shape));
    } else {
      int64_t *dims[3] = {&target.matrixUnit.m, &target.matrixUnit.n,
                          &target.matrixUnit.k};
      for (size_t i = 0; i < 3; ++i)
        if (auto d = readInt((*shape)[i], indexPath(path, i), 1, diag))
          *dims[i] = *d;
    }
  }
  if (const Json *dtypes = unit->field("dtypes", true))
    if (auto names = readNameList(
            *dtypes, unit->pathOf("dtypes"), /*allowEmpty=*/false,
            [&](StringRef d) { return checkTargetDtype(d); }, diag))
      target.matrixUnit.dtypes = std::move(*names);
  unit->rejectUnknownKeys();
}

void TargetParser::parseLayoutTile(ObjectReader &reader,
                                   TargetDescription &target) {
  const Json *value = reader.field("layout_tile", true);
  if (!value)
    return;
  std::string path = reader.pathOf("layout_tile");
  if (!value->is_array() || value->size() != 2) {
    diag.error(path, "expected [rows, cols] (two positive integers), got " +
                         describe(*value));
    return;
  }
  if (auto rows = readInt((*value)[0], indexPath(path, 0), 1, diag))
    target.layoutTile.rows = *rows;
  if (auto cols = readInt((*value)[1], indexPath(path, 1), 1, diag))
    target.layoutTile.cols = *cols;
}

void TargetParser::parseExchange(ObjectReader &reader,
                                 TargetDescription &target) {
  const Json *value = reader.field("exchange", true);
  if (!value)
    return;
  std::optional<ObjectReader> exchange =
      ObjectReader::open(*value, reader.pathOf("exchange"), diag);
  if (!exchange)
    return;
  if (auto v = exchange->intField("bandwidth_bytes_per_cycle", true, 1))
    target.exchange.bandwidthBytesPerCycle = *v;
  if (auto v = exchange->intField("latency_cycles", true, 0))
    target.exchange.latencyCycles = *v;
  exchange->rejectUnknownKeys();
}

void TargetParser::parseHostLink(ObjectReader &reader,
                                 TargetDescription &target) {
  const Json *value = reader.field("host_link", true);
  if (!value)
    return;
  std::optional<ObjectReader> host =
      ObjectReader::open(*value, reader.pathOf("host_link"), diag);
  if (!host)
    return;
  if (auto v = host->intField("bandwidth_bytes_per_s", true, 1))
    target.hostLink.bandwidthBytesPerSecond = *v;
  host->optionalInt("latency_cycles", 0, target.hostLink.latencyCycles);
  host->rejectUnknownKeys();
}

void TargetParser::parseOverheads(ObjectReader &reader,
                                  TargetDescription &target) {
  const Json *value = reader.field("overheads", false);
  if (!value)
    return;
  std::optional<ObjectReader> overheads =
      ObjectReader::open(*value, reader.pathOf("overheads"), diag);
  if (!overheads)
    return;
  ProgramOverheads &o = target.overheads;
  overheads->optionalInt("vertex_code_bytes", 0, o.vertexCodeBytes);
  overheads->optionalInt("vertex_state_bytes", 0, o.vertexStateBytes);
  overheads->optionalInt("exchange_code_bytes", 0, o.exchangeCodeBytes);
  overheads->optionalInt("exchange_state_bytes", 0, o.exchangeStateBytes);
  overheads->rejectUnknownKeys();
}

void TargetParser::parseDtypes(ObjectReader &reader,
                               TargetDescription &target) {
  const Json *value = reader.field("dtypes", true);
  if (!value)
    return;
  auto names = readNameList(
      *value, reader.pathOf("dtypes"), /*allowEmpty=*/false,
      [&](StringRef d) { return checkTargetDtype(d); }, diag);
  if (!names)
    return;
  target.dtypes = *names;
  targetDtypes = std::move(*names);
}

void TargetParser::parseOps(ObjectReader &reader, TargetDescription &target) {
  const Json *value = reader.field("ops", true);
  if (!value)
    return;
  std::optional<ObjectReader> ops =
      ObjectReader::open(*value, reader.pathOf("ops"), diag);
  if (!ops)
    return;
  std::vector<StringRef> opNames(knownOpNames().begin(), knownOpNames().end());
  for (auto it = value->begin(); it != value->end(); ++it) {
    std::string path = ops->pathOf(it.key());
    if (!isKnownOpName(it.key())) {
      diag.error(path, unknownNameMessage("op", it.key(), opNames));
      continue;
    }
    if (std::optional<OpConstraint> op = parseOp(it.key(), it.value(), path))
      target.ops.push_back(std::move(*op));
  }
}

std::optional<OpConstraint> TargetParser::parseOp(StringRef op,
                                                  const Json &value,
                                                  const std::string &path) {
  if (!value.is_object()) {
    diag.error(path, "expected an object of constraints ({} for none), got " +
                         describe(value));
    return std::nullopt;
  }
  size_t errorsBefore = diag.count();
  OpConstraint result;
  result.op = op.str();
  std::vector<StringRef> applicable = {"dtypes", "note"};
  for (const ConstraintKey &key : constraintKeys())
    if (key.appliesTo(op))
      applicable.push_back(key.name);

  for (auto it = value.begin(); it != value.end(); ++it) {
    StringRef name = it.key();
    std::string keyPath = childPath(path, name);
    const Json &v = it.value();
    if (name == "dtypes") {
      if (auto names = readNameList(
              v, keyPath, /*allowEmpty=*/false,
              [&](StringRef d) { return checkTargetDtype(d); }, diag))
        result.dtypes = std::move(*names);
      continue;
    }
    if (name == "note") {
      if (auto note = readString(v, keyPath, diag))
        result.note = *note;
      continue;
    }
    const ConstraintKey *key = findConstraintKey(name);
    if (!key) {
      std::string message = "unknown constraint";
      if (auto match = closestMatch(name, applicable))
        message += "; did you mean '" + *match + "'?";
      else
        message +=
            " (" + op.str() + " accepts: " + llvm::join(applicable, ", ") + ")";
      diag.error(keyPath, message);
      continue;
    }
    if (!key->appliesTo(op)) {
      diag.error(keyPath, "is not a constraint of " + op + " (it applies to " +
                              StringRef(key->ops) + ")");
      continue;
    }
    switch (key->kind) {
    case ConstraintKind::Limit:
      if (auto limit = readInt(v, keyPath, 0, diag))
        result.limits[name.str()] = *limit;
      break;
    case ConstraintKind::Flag:
      if (auto flag = readBool(v, keyPath, diag))
        result.flags[name.str()] = *flag;
      break;
    case ConstraintKind::NameList:
      if (auto names = readNameList(
              v, keyPath, /*allowEmpty=*/true,
              [](StringRef) { return std::string(); }, diag))
        result.nameLists[name.str()] = std::move(*names);
      break;
    }
  }
  if (diag.count() != errorsBefore)
    return std::nullopt;
  return result;
}

void TargetParser::parseRuntimeOps(ObjectReader &reader,
                                   TargetDescription &target) {
  const Json *value = reader.field("runtime_ops", true);
  if (!value)
    return;
  std::vector<StringRef> kinds(vertexKinds().begin(), vertexKinds().end());
  auto names = readNameList(
      *value, reader.pathOf("runtime_ops"), /*allowEmpty=*/false,
      [&](StringRef kind) {
        return isVertexKind(kind)
                   ? std::string()
                   : unknownNameMessage("vertex kind", kind, kinds);
      },
      diag);
  if (names)
    target.runtimeOps = std::move(*names);
}

} // namespace

namespace {
/// Descriptions parsed so far, by their JSON text. One compile resolves
/// its target five times (the driver, then each pass with a `target`
/// option as the pass manager initializes it), and a parse was a fifth of
/// a small model's compile; the text alone decides the result, so a
/// preset or an unchanged file is parsed once per process. Only successes
/// are kept (an error names the source, which differs between callers),
/// and at most kMaxParsedTargets texts (a process reading more target
/// files than that starts the cache afresh).
constexpr size_t kMaxParsedTargets = 16;
struct ParsedTargets {
  std::mutex mutex;
  llvm::StringMap<TargetDescription> byText;
};
} // namespace

static ParsedTargets &parsedTargets() {
  static ParsedTargets *cache = new ParsedTargets; // never destroyed
  return *cache;
}

static llvm::Expected<TargetDescription>
parseTargetUncached(StringRef jsonText, StringRef sourceName);

llvm::Expected<TargetDescription> tessera::parseTarget(StringRef jsonText,
                                                       StringRef sourceName) {
  ParsedTargets &cache = parsedTargets();
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    auto it = cache.byText.find(jsonText);
    if (it != cache.byText.end())
      return it->second;
  }
  llvm::Expected<TargetDescription> target =
      parseTargetUncached(jsonText, sourceName);
  if (target) {
    std::lock_guard<std::mutex> lock(cache.mutex);
    if (cache.byText.size() >= kMaxParsedTargets)
      cache.byText.clear();
    cache.byText.try_emplace(jsonText, *target);
  }
  return target;
}

static llvm::Expected<TargetDescription>
parseTargetUncached(StringRef jsonText, StringRef sourceName) {
  std::string syntaxError;
  std::optional<Json> root = parseJsonText(jsonText, sourceName, syntaxError);
  if (!root)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), syntaxError);
  Diagnostics diag;
  TargetDescription target;
  TargetParser(diag).parse(*root, target);
  if (!diag.empty())
    return diag.take(sourceName);
  return target;
}

llvm::Expected<TargetDescription> tessera::parseTargetFile(StringRef path) {
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> file =
      readInputFile(path, kMaxTargetBytes, "target file", /*isText=*/true);
  if (!file)
    return file.takeError();
  return parseTarget((*file)->getBuffer(), path);
}
