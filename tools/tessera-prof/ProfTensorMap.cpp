//===- ProfTensorMap.cpp - tessera-prof tensor-map: where tensors live ----===//
//
// The compile's tensor map (docs/compile.md: per computation, every
// tensor's shape, dtype and elements per tile) summarised, for one tensor,
// or for one tile. A large model's map runs to hundreds of megabytes of
// JSON, so it is read with nlohmann's SAX interface, one entry at a time,
// from its report file through a fixed buffer (or from the event's own
// bytes when it is carried inline): memory holds the per-tile totals and
// the rows kept for printing, not the map.
//
//===----------------------------------------------------------------------===//

#include "ProfCommands.h"

#include "tessera/Support/TextReport.h"
#include "tessera/Trace/EventFile.h"
#include "tessera/Trace/EventQuery.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <queue>

using namespace llvm;
using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

namespace tessera::prof {

namespace {

/// Tile numbers are read from the file: bound them before sizing a vector.
constexpr int64_t kMaxTiles = int64_t(1) << 24;

/// One entry: [hlo, leaf, shape, dtype, constant, alias, elements, tiles,
/// name]; `tiles` holds the [tile, elements] pairs, whichever form the
/// file has.
struct Entry {
  std::string computation, hlo, name, dtype;
  int64_t leaf = 0, elements = 0;
  std::vector<int64_t> shape;
  bool constant = false, alias = false;
  std::vector<std::pair<int64_t, int64_t>> tiles;

  std::string label() const { return name.empty() ? hlo : name; }
  std::string type() const {
    std::vector<std::string> dims;
    for (int64_t d : shape)
      dims.push_back(std::to_string(d));
    return dtype + "[" + join(dims, ",") + "]";
  }
  int64_t mostOnATile() const {
    int64_t most = 0;
    for (auto &[t, n] : tiles)
      most = std::max(most, n);
    return most;
  }
};

/// Hands each entry of `mappings.<computation>` to a callback; everything
/// else in the document is skipped. An entry is at most a few thousand
/// numbers (its tile list), so it is built as a small DOM.
class EntryReader : public nlohmann::json_sax<json> {
public:
  using Callback = std::function<bool(Entry &)>;
  explicit EntryReader(Callback onEntry) : onEntry(std::move(onEntry)) {}

  std::string error;
  int64_t entries = 0;

  bool null() override { return value(json(nullptr)); }
  bool boolean(bool v) override { return value(json(v)); }
  bool number_integer(number_integer_t v) override { return value(json(v)); }
  bool number_unsigned(number_unsigned_t v) override {
    return value(json(v));
  }
  bool number_float(number_float_t v, const string_t &) override {
    return value(json(v));
  }
  bool string(string_t &v) override { return value(json(std::move(v))); }
  bool binary(binary_t &) override { return value(json()); }
  bool start_object(std::size_t) override {
    ++depth;
    if (inEntry())
      return push(json::object());
    return true;
  }
  bool key(string_t &k) override {
    if (inEntry()) {
      pendingKey = k;
      return true;
    }
    if (depth == 1)
      inMappings = k == "mappings";
    else if (depth == 2 && inMappings)
      computation = k;
    return true;
  }
  bool end_object() override {
    if (inEntry())
      pop();
    --depth;
    return true;
  }
  bool start_array(std::size_t) override {
    ++depth;
    if (depth == kEntryDepth && inMappings) {
      stack.clear();
      root = json::array();
      stack.push_back(&root);
      return true;
    }
    if (inEntry())
      return push(json::array());
    return true;
  }
  bool end_array() override {
    if (depth == kEntryDepth && inMappings) {
      --depth;
      stack.clear();
      return finishEntry();
    }
    if (inEntry())
      pop();
    --depth;
    return true;
  }
  bool parse_error(std::size_t position, const std::string &,
                   const nlohmann::detail::exception &ex) override {
    error = formatv("not valid JSON at byte {0}: {1}", position, ex.what())
                .str();
    return false;
  }

private:
  // root object = 1, mappings object = 2, a computation's array = 3.
  static constexpr int kEntryDepth = 4;

  bool inEntry() const { return !stack.empty() && depth > kEntryDepth; }

  bool value(json v) {
    if (!stack.empty())
      return add(std::move(v)) != nullptr;
    return true;
  }
  json *add(json v) {
    json &top = *stack.back();
    if (top.is_array()) {
      top.push_back(std::move(v));
      return &top.back();
    }
    json &slot = top[pendingKey];
    slot = std::move(v);
    return &slot;
  }
  bool push(json v) {
    stack.push_back(add(std::move(v)));
    return true;
  }
  void pop() { stack.pop_back(); }

  bool bad(const Twine &what) {
    error = ("entry " + Twine(entries) + " of computation '" + computation +
             "': " + what)
                .str();
    return false;
  }
  bool finishEntry() {
    const json &e = root;
    if (e.size() < 8)
      return bad("expected [hlo, leaf, shape, dtype, constant, alias, "
                 "elements, tiles, name], got " +
                 Twine(e.size()) + " fields");
    if (!e[0].is_string() || !e[1].is_number_integer() || !e[2].is_array() ||
        !e[3].is_string() || !e[4].is_boolean() || !e[5].is_boolean() ||
        !e[6].is_number_integer() || !e[7].is_array() ||
        (e.size() > 8 && !e[8].is_string()))
      return bad("a field has the wrong type");
    Entry out;
    out.computation = computation;
    out.hlo = e[0].get<std::string>();
    out.leaf = e[1].get<int64_t>();
    for (const json &d : e[2]) {
      if (!d.is_number_integer())
        return bad("a dimension is not an integer");
      out.shape.push_back(d.get<int64_t>());
    }
    out.dtype = e[3].get<std::string>();
    out.constant = e[4].get<bool>();
    out.alias = e[5].get<bool>();
    out.elements = e[6].get<int64_t>();
    // Either form of docs/tile-dialect.md: [tile, elements] pairs, or
    // runs [first_tile, last_tile, elements_each] (the default), read as
    // the pairs they stand for.
    for (const json &p : e[7]) {
      bool pair = p.is_array() && p.size() == 2;
      if (!p.is_array() || (p.size() != 2 && p.size() != 3) ||
          !llvm::all_of(p, [](const json &v) { return v.is_number_integer(); }))
        return bad("a tile entry is not [tile, elements] or [first_tile, "
                   "last_tile, elements_each]");
      int64_t first = p[0].get<int64_t>();
      int64_t last = pair ? first : p[1].get<int64_t>();
      int64_t n = p[pair ? 1 : 2].get<int64_t>();
      if (first < 0 || last < first || last >= kMaxTiles || n < 0)
        return bad("tile " +
                   (last != first
                        ? std::to_string(first) + ".." + std::to_string(last)
                        : std::to_string(first)) +
                   " with " + Twine(n) + " elements is out of range");
      for (int64_t tile = first; tile <= last; ++tile)
        out.tiles.push_back({tile, n});
    }
    if (e.size() > 8)
      out.name = e[8].get<std::string>();
    ++entries;
    return onEntry(out);
  }

  Callback onEntry;
  int depth = 0;
  bool inMappings = false;
  std::string computation, pendingKey;
  json root;
  std::vector<json *> stack;
};

struct Options {
  std::string module, tensor;
  std::optional<int64_t> tile;
  int64_t top = 10;
  bool json = false;
};

std::optional<Options> parseOptions(ArrayRef<std::string> args) {
  Options o;
  for (StringRef a : args) {
    int64_t n;
    if (a == "--json") {
      o.json = true;
    } else if (a.consume_front("--module=")) {
      o.module = a.str();
    } else if (a.consume_front("--tensor=")) {
      o.tensor = a.str();
    } else if (a.consume_front("--tile=")) {
      if (a.getAsInteger(10, n) || n < 0) {
        fail("--tile needs a tile number, got '" + a + "'");
        return std::nullopt;
      }
      o.tile = n;
    } else if (a.consume_front("--top=")) {
      if (a.getAsInteger(10, o.top) || o.top < 1) {
        fail("--top needs an integer >= 1, got '" + a + "'");
        return std::nullopt;
      }
    } else {
      fail("tensor-map: unknown option '" + a + "'");
      return std::nullopt;
    }
  }
  if (o.tile && !o.tensor.empty()) {
    fail("tensor-map: --tensor and --tile ask different questions; give one");
    return std::nullopt;
  }
  return o;
}

/// Keeps the `n` largest of a stream by a key, in bounded memory.
template <typename T, typename Key> class TopN {
public:
  TopN(size_t n, Key key) : n(n), key(key), heap(Greater{key}) {}
  void add(T v) {
    heap.push(std::move(v));
    if (heap.size() > n)
      heap.pop();
  }
  std::vector<T> sorted() {
    std::vector<T> out;
    while (!heap.empty()) {
      out.push_back(heap.top());
      heap.pop();
    }
    std::reverse(out.begin(), out.end());
    return out;
  }

private:
  struct Greater {
    Key key;
    bool operator()(const T &a, const T &b) const { return key(a) > key(b); }
  };
  size_t n;
  Key key;
  std::priority_queue<T, std::vector<T>, Greater> heap;
};

struct ComputationTotals {
  std::string name;
  int64_t tensors = 0, elements = 0;
  std::vector<int64_t> perTile; ///< elements on each tile
};

} // namespace

int runTensorMapCommand(StringRef eventsPath, ArrayRef<std::string> args) {
  std::optional<Options> o = parseOptions(args);
  if (!o)
    return 1;
  // The last compile's tensor map (of --module).
  std::optional<TraceEvent> compile;
  Expected<EventFileScan> scan =
      scanEventFile(eventsPath, [&](TraceEvent &e, uint64_t) {
        if (hasExtractable(e, ExtractKind::TensorMap) &&
            (o->module.empty() || e.module_name() == o->module))
          compile = std::move(e);
        return Error::success();
      });
  if (!scan)
    return fail(toString(scan.takeError()));
  if (!compile)
    return fail("no compile in " + eventsPath + " carries a tensor-map" +
                (o->module.empty() ? "" : " of module '" + o->module + "'") +
                " (compile with --profiling)");
  std::string module = compile->module_name();
  const Report &report = *findReport(*compile, ExtractKind::TensorMap);
  if (report.dropped())
    return fail("the tensor map of '" + module + "' was dropped (" +
                Twine(report.size()) + " bytes > max_report_size)");
  if (report.format() != REPORT_FORMAT_JSON)
    return fail("the tensor map of '" + module + "' is not JSON");

  std::vector<ComputationTotals> totals;
  auto less = [](const Entry &e) { return e.elements; };
  TopN<Entry, decltype(less)> largest(o->top, less);
  std::optional<Entry> tensor;
  auto onTile = [](const std::pair<Entry, int64_t> &e) { return e.second; };
  TopN<std::pair<Entry, int64_t>, decltype(onTile)> onThisTile(o->top,
                                                               onTile);
  int64_t tensorsOnTile = 0, elementsOnTile = 0;
  EntryReader reader([&](Entry &e) {
    if (totals.empty() || totals.back().name != e.computation)
      totals.push_back({e.computation});
    ComputationTotals &c = totals.back();
    ++c.tensors;
    c.elements += e.elements;
    for (auto &[t, n] : e.tiles) {
      if (t >= static_cast<int64_t>(c.perTile.size()))
        c.perTile.resize(t + 1, 0);
      c.perTile[t] += n;
      if (o->tile && t == *o->tile) {
        ++tensorsOnTile;
        elementsOnTile += n;
        onThisTile.add({e, n});
      }
    }
    if (!o->tensor.empty() && !tensor &&
        (e.name == o->tensor || e.hlo == o->tensor))
      tensor = e;
    if (o->tensor.empty() && !o->tile) {
      e.tiles.shrink_to_fit();
      largest.add(std::move(e));
    }
    return true;
  });

  bool ok;
  std::string where;
  Expected<std::optional<std::string>> located =
      reportFilePath(report, sys::path::parent_path(eventsPath));
  if (!located)
    return fail(toString(located.takeError()));
  if (const std::optional<std::string> &path = *located) {
    // Streamed from the file through a 1 MiB buffer.
    std::ifstream in;
    std::vector<char> buffer(1 << 20);
    in.rdbuf()->pubsetbuf(buffer.data(), buffer.size());
    in.open(*path, std::ios::binary);
    if (!in)
      return fail("cannot read the tensor map of '" + module + "' from '" +
                  *path + "'");
    ok = json::sax_parse(in, &reader);
    where = *path;
  } else {
    const std::string &data = report.data();
    ok = json::sax_parse(data.begin(), data.end(), &reader);
    where = eventsPath.str();
  }
  if (!ok)
    return fail("the tensor map of '" + module + "' in " + where + ": " +
                (reader.error.empty() ? "ended early" : reader.error));

  if (!o->tensor.empty()) {
    if (!tensor)
      return fail("no tensor named '" + o->tensor + "' in the tensor map of '" +
                  module + "' (" + Twine(reader.entries) + " tensors)");
    if (o->json) {
      ordered_json tiles = ordered_json::array();
      for (auto &[t, n] : tensor->tiles)
        tiles.push_back({t, n});
      ordered_json out{{"module", module},
                       {"computation", tensor->computation},
                       {"name", tensor->name},
                       {"hlo", tensor->hlo},
                       {"output", tensor->leaf},
                       {"shape", tensor->shape},
                       {"dtype", tensor->dtype},
                       {"constant", tensor->constant},
                       {"alias", tensor->alias},
                       {"elements", tensor->elements},
                       {"tiles", std::move(tiles)}};
      outs() << out.dump(2) << "\n";
      return 0;
    }
    outs() << "== " << tensor->label() << " (" << tensor->computation
           << "): " << tensor->type() << ", "
           << groupDigits(tensor->elements) << " elements on "
           << tensor->tiles.size() << " tiles (hlo " << tensor->hlo
           << ", output " << tensor->leaf << ")"
           << (tensor->constant ? ", constant" : "")
           << (tensor->alias ? ", an alias" : "") << "\n";
    outs() << formatv("  {0,8} {1,12}\n", "tile", "elements");
    int64_t shown = 0;
    for (auto &[t, n] : tensor->tiles) {
      if (shown++ == o->top * 10) {
        outs() << "  ... " << tensor->tiles.size() - o->top * 10
               << " more tiles (--top=N shows 10N)\n";
        break;
      }
      outs() << formatv("  {0,8} {1,12}\n", t, groupDigits(n));
    }
    return 0;
  }

  if (o->tile) {
    std::vector<std::pair<Entry, int64_t>> rows = onThisTile.sorted();
    if (o->json) {
      ordered_json list = ordered_json::array();
      for (auto &[e, n] : rows)
        list.push_back({{"name", e.label()},
                        {"computation", e.computation},
                        {"type", e.type()},
                        {"elements_on_tile", n},
                        {"elements", e.elements}});
      outs() << ordered_json{{"module", module},
                             {"tile", *o->tile},
                             {"tensors", tensorsOnTile},
                             {"elements", elementsOnTile},
                             {"largest", std::move(list)}}
                    .dump(2)
             << "\n";
      return 0;
    }
    outs() << "== " << module << ": tile " << *o->tile << " holds "
           << tensorsOnTile << " tensor(s), " << groupDigits(elementsOnTile)
           << " elements\n";
    if (!rows.empty())
      outs() << formatv("  {0,-32} {1,-24} {2,14} {3,14}\n", "tensor",
                        "type", "on this tile", "in all");
    for (auto &[e, n] : rows)
      outs() << formatv("  {0,-32} {1,-24} {2,14} {3,14}\n", e.label(),
                        e.type(), groupDigits(n), groupDigits(e.elements));
    if (tensorsOnTile > static_cast<int64_t>(rows.size()))
      outs() << "  ... " << tensorsOnTile - int64_t(rows.size())
             << " more (--top=N)\n";
    return 0;
  }

  std::vector<Entry> rows = largest.sorted();
  auto spread = [](const ComputationTotals &c) {
    int64_t used = 0, minimum = 0, maximum = 0, busiest = 0;
    for (auto [t, n] : enumerate(c.perTile)) {
      if (n == 0)
        continue;
      minimum = used++ == 0 ? n : std::min(minimum, n);
      if (n > maximum)
        maximum = n, busiest = static_cast<int64_t>(t);
    }
    return std::array<int64_t, 4>{used, minimum, maximum, busiest};
  };
  if (o->json) {
    ordered_json comps = ordered_json::array();
    for (const ComputationTotals &c : totals) {
      auto [used, minimum, maximum, busiest] = spread(c);
      comps.push_back({{"computation", c.name},
                       {"tensors", c.tensors},
                       {"elements", c.elements},
                       {"tiles_used", used},
                       {"min_elements_per_used_tile", minimum},
                       {"max_elements_per_tile", maximum},
                       {"busiest_tile", busiest}});
    }
    ordered_json list = ordered_json::array();
    for (const Entry &e : rows)
      list.push_back({{"name", e.label()},
                      {"computation", e.computation},
                      {"type", e.type()},
                      {"elements", e.elements},
                      {"tiles", e.tiles.size()},
                      {"most_on_a_tile", e.mostOnATile()}});
    outs() << ordered_json{{"module", module},
                           {"computations", std::move(comps)},
                           {"largest", std::move(list)}}
                  .dump(2)
           << "\n";
    return 0;
  }
  outs() << "== " << module << ": tensor map, " << reader.entries
         << " tensors in " << totals.size() << " computation(s)\n";
  for (const ComputationTotals &c : totals) {
    auto [used, minimum, maximum, busiest] = spread(c);
    outs() << "  " << c.name << ": " << c.tensors << " tensors, "
           << groupDigits(c.elements) << " elements on " << groupDigits(used)
           << " tiles; per used tile min " << groupDigits(minimum) << ", mean "
           << formatv("{0:f1}", used ? double(c.elements) / used : 0.0)
           << ", max " << groupDigits(maximum) << " (tile " << busiest
           << ")\n";
  }
  outs() << "  Largest tensors:\n";
  outs() << formatv("    {0,-32} {1,-24} {2,12} {3,6} {4,14}\n", "tensor",
                    "type", "elements", "tiles", "most on a tile");
  for (const Entry &e : rows)
    outs() << formatv("    {0,-32} {1,-24} {2,12} {3,6} {4,14}\n", e.label(),
                      e.type(), groupDigits(e.elements), e.tiles.size(),
                      groupDigits(e.mostOnATile()));
  return 0;
}

} // namespace tessera::prof
