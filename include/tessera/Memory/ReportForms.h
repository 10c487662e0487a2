//===- ReportForms.h - compact and complete memory reports ------*- C++ -*-===//
//
// The memory report (MemoryReport.h) in two forms (docs/memory.md, "Compact
// and complete reports"). The complete form is what buildMemoryReport()
// returns by default. The compact form, tessera-compile's default, is what
// compactMemoryReport() makes of it (and what buildMemoryReport(...,
// ReportForm::Compact) builds directly, with TableBuilder below, which a
// unit test holds to the same bytes): the per-buffer, per-tile and per-op
// lists become column tables, the heap curves keep only the points where
// they change (the step at each point is a column table of its own),
// buffers listed again (at the peak, on a tile out of memory) are indices
// into `buffers`, and the per-step cost list is left out (`cost.ops` is its
// sum per op).
// Every reader calls expandMemoryReport() first, which gives back the
// complete form but for `cost.steps`.
//
// Templates over the JSON type because readers use both nlohmann::json and
// nlohmann::ordered_json. No MLIR: tessera-prof links only the JSON.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_MEMORY_REPORTFORMS_H
#define TESSERA_MEMORY_REPORTFORMS_H

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tessera::memory {

/// The memory report's two forms: what buildMemoryReport() builds.
enum class ReportForm { Complete, Compact };

namespace forms {

/// An empty ordered_json object with room for `keys` keys. Its entries are
/// a vector of pair<const string, json>, which cannot be moved without a
/// possible throw, so each time that vector grows it copies every value
/// already in it, deeply: the memory report, built key by key, copied its
/// largest sections again (0.44 G instructions of a 10k-op compile).
template <typename Json> Json objectWithRoom(size_t keys) {
  Json object = Json::object();
  object.template get_ref<typename Json::object_t &>().reserve(keys);
  return object;
}

/// What one expandMemoryReport() may produce: reports come from event
/// files, and a run or an index of a few bytes could otherwise stand for
/// gigabytes. The largest real reports are far below it (a 10k-op
/// program's complete report is 21 MB of JSON). Past it, the rest is left
/// in its compact form (readers then find no list there).
struct Budget {
  int64_t values = int64_t(1) << 25;
  int64_t bytes = int64_t(1) << 30; ///< of JSON text

  /// Takes `n` copies of `v`; false (taking nothing) when they do not
  /// fit in what is left.
  template <typename Json> bool take(const Json &v, int64_t n = 1) {
    int64_t each = v.is_string() || v.is_structured()
                       ? static_cast<int64_t>(v.dump().size())
                       : 8;
    if (n < 0 || n > values || n > bytes / each)
      return false;
    values -= n;
    bytes -= n * each;
    return true;
  }
};

/// The leading keys of a `buffers` entry that a buffer listed at the peak
/// or on a tile out of memory repeats (MemoryReport.cpp's bufferBrief).
inline const char *const kBriefKeys[] = {
    "name", "hlo",           "op_name",   "shape", "dtype",     "category",
    "size", "unpadded_size", "expansion", "extra", "live_range"};

template <typename Json> Json brief(const Json &buffer) {
  Json out = Json::object();
  for (const char *key : kBriefKeys)
    if (auto it = buffer.find(key); it != buffer.end())
      out[key] = *it;
  return out;
}

template <typename Json> Json fromTable(const Json &table, Budget &budget);

/// A tile-out-of-memory live buffer from its compact row [buffer,
/// bytes_on_tile, first, last, offset] and the buffer's `buffers` entry.
template <typename Json> Json liveEntry(const Json &full, const Json &row) {
  Json e = brief(full);
  e["bytes_on_tile"] = row[1];
  e["live_range_on_tile"] = Json::array({row[2], row[3]});
  e["offset"] = row[4];
  e["written_by"] = full.value("written_by", Json::array());
  return e;
}

/// Whether two cells of a column are equal (nlohmann's ==, with a short
/// way for what most cells are: two integers, or two strings).
template <typename Json> bool sameCell(const Json &a, const Json &b) {
  using Int = typename Json::number_integer_t;
  using String = typename Json::string_t;
  if (const Int *x = a.template get_ptr<const Int *>())
    if (const Int *y = b.template get_ptr<const Int *>())
      return *x == *y;
  if (const String *x = a.template get_ptr<const String *>())
    if (const String *y = b.template get_ptr<const String *>())
      return *x == *y;
  return a == b;
}

/// One column of a table: {"runs": [[value, count], ...]} when that
/// halves it, else the values. Each run is built in place (not as an
/// array literal) and its count kept through a pointer (not read and
/// written through operator[] at every repeat).
template <typename Json> Json encodeColumn(std::vector<Json> &&plain) {
  size_t runs = 0;
  for (size_t i = 0; i < plain.size(); ++i)
    runs += i == 0 || !sameCell(plain[i], plain[i - 1]);
  if (runs * 2 > plain.size())
    return Json(std::move(plain));
  using Array = typename Json::array_t;
  Json out = Json::array();
  Array &list = out.template get_ref<Array &>();
  list.reserve(runs);
  int64_t *count = nullptr;
  for (size_t i = 0; i < plain.size(); ++i) {
    // plain[i - 1] was moved: compare with the run's value.
    if (count &&
        sameCell(plain[i], list.back().template get_ref<Array &>()[0])) {
      ++*count;
      continue;
    }
    Json run = Json::array();
    Array &pair = run.template get_ref<Array &>();
    pair.reserve(2);
    pair.emplace_back(std::move(plain[i]));
    pair.emplace_back(int64_t(1));
    list.push_back(std::move(run));
    count = list.back()
                .template get_ref<Array &>()[1]
                .template get_ptr<int64_t *>();
  }
  Json encoded = Json::object();
  encoded.template get_ref<typename Json::object_t &>().emplace_back(
      "runs", std::move(out));
  return encoded;
}

/// An entry of a list as its keys and values in order, before it is an
/// object or a table's row: the report builder makes both from it without
/// building the objects of a list that becomes a table.
template <typename Json>
using Fields = std::vector<std::pair<const char *, Json>>;

/// toTable() of a list whose entries are given as Fields with the same
/// keys in the same order (as the memory report's builder makes them),
/// built column by column: the table toTable() makes of the list of their
/// objects, without those objects or the check that the table gives them
/// back (entries of one builder cannot differ in their keys).
template <typename Json> class TableBuilder {
public:
  /// Room for `rows` rows in each column.
  void reserve(size_t rows) { reserved = rows; }

  void add(Fields<Json> &&entry) {
    if (rows == 0)
      for (const auto &[key, value] : entry) {
        if (value.is_object() && !value.empty()) {
          for (auto in = value.begin(); in != value.end(); ++in)
            columns.push_back(std::string(key) + "." + in.key());
        } else {
          columns.push_back(key);
        }
      }
    if (values.size() != columns.size()) {
      values.resize(columns.size());
      for (std::vector<Json> &column : values)
        column.reserve(reserved);
    }
    size_t c = 0;
    for (auto &[key, value] : entry) {
      if (value.is_object() && !value.empty()) {
        for (auto in = value.begin(); in != value.end(); ++in)
          values[c++].push_back(std::move(in.value()));
      } else {
        values[c++].push_back(std::move(value));
      }
    }
    ++rows;
  }

  /// The table; an empty list when nothing was added (toTable leaves an
  /// empty list as it is).
  Json finish() {
    if (rows == 0)
      return Json::array();
    Json encoded = Json::array();
    for (std::vector<Json> &column : values)
      encoded.push_back(encodeColumn<Json>(std::move(column)));
    return Json{{"columns", std::move(columns)},
                {"values", std::move(encoded)}};
  }

private:
  std::vector<std::string> columns;
  std::vector<std::vector<Json>> values;
  size_t rows = 0, reserved = 0;
};

/// A list of objects with the same keys, in the same order, as a table
/// {"columns": [...], "values": [column, ...]}; an object value is
/// flattened one level ("by_category.variables"). A column whose values
/// repeat is {"runs": [[value, count], ...]} when that halves it. A list
/// that is not such a list is returned as it is.
template <typename Json> Json toTable(const Json &list) {
  if (!list.is_array() || list.empty() || !list.front().is_object())
    return list;
  std::vector<std::string> columns;
  for (auto it = list.front().begin(); it != list.front().end(); ++it) {
    if (it.value().is_object() && !it.value().empty()) {
      for (auto in = it.value().begin(); in != it.value().end(); ++in)
        columns.push_back(it.key() + "." + in.key());
    } else {
      columns.push_back(it.key());
    }
  }
  auto cell = [](const Json &entry, const std::string &column) -> const Json * {
    auto it = entry.find(column);
    if (it != entry.end())
      return &*it;
    size_t dot = column.find('.');
    if (dot == std::string::npos)
      return nullptr;
    auto outer = entry.find(column.substr(0, dot));
    if (outer == entry.end() || !outer->is_object())
      return nullptr;
    auto inner = outer->find(column.substr(dot + 1));
    return inner == outer->end() ? nullptr : &*inner;
  };
  Json values = Json::array();
  for (const std::string &column : columns) {
    std::vector<Json> plain;
    plain.reserve(list.size());
    for (const Json &entry : list) {
      const Json *v = entry.is_object() ? cell(entry, column) : nullptr;
      if (!v)
        return list;
      plain.push_back(*v);
    }
    values.push_back(encodeColumn<Json>(std::move(plain)));
  }
  Json table = {{"columns", columns}, {"values", std::move(values)}};
  // Only a table that gives back the list exactly replaces it (entries
  // with other keys or key orders stay a list).
  Budget budget;
  return fromTable(table, budget) == list ? table : list;
}

/// The list a toTable() table stands for; any other value as it is. A
/// malformed table gives an empty list, one past the budget stays as it is.
template <typename Json> Json fromTable(const Json &table, Budget &budget) {
  if (!table.is_object() || !table.contains("columns") ||
      !table.contains("values"))
    return table;
  const Json &columns = table["columns"], &values = table["values"];
  if (!columns.is_array() || !values.is_array() ||
      columns.size() != values.size())
    return Json::array();
  std::vector<Json> plain;
  size_t rows = 0;
  for (const Json &column : values) {
    Json list = Json::array();
    if (column.is_object() && column.contains("runs") &&
        column["runs"].is_array()) {
      for (const Json &run : column["runs"])
        if (run.is_array() && run.size() == 2 && run[1].is_number_integer()) {
          int64_t n = run[1].template get<int64_t>();
          if (!budget.take(run[0], n))
            return table;
          for (int64_t i = 0; i < n; ++i)
            list.push_back(run[0]);
        }
    } else if (column.is_array()) {
      if (!budget.take(Json(0), int64_t(column.size())))
        return table;
      list = column;
    }
    rows = plain.empty() ? list.size() : std::min(rows, list.size());
    plain.push_back(std::move(list));
  }
  Json out = Json::array();
  for (size_t r = 0; r < rows; ++r) {
    Json entry = Json::object();
    for (size_t c = 0; c < plain.size(); ++c) {
      if (!columns[c].is_string())
        continue;
      std::string name = columns[c].template get<std::string>();
      size_t dot = name.find('.');
      if (dot == std::string::npos) {
        entry[name] = plain[c][r];
        continue;
      }
      Json &outer = entry[name.substr(0, dot)];
      if (outer.is_null())
        outer = Json::object();
      if (outer.is_object()) // else a malformed table: the column is lost
        outer[name.substr(dot + 1)] = plain[c][r];
    }
    out.push_back(std::move(entry));
  }
  return out;
}

/// A curve as [[point, padded, unpadded], ...] where it changes: of JSON
/// arrays (compacting a report) or of numbers (the report builder, which
/// names the JSON type).
template <typename Curve, typename Json = Curve>
Json changePoints(const Curve &padded, const Curve &unpadded) {
  Json out = Json::array();
  auto &changes = out.template get_ref<typename Json::array_t &>();
  for (size_t p = 0; p < padded.size() && p < unpadded.size(); ++p) {
    if (p > 0 && padded[p] == padded[p - 1] && unpadded[p] == unpadded[p - 1])
      continue;
    // Built in place: an initializer list copies each value, which was
    // most of a 20k-op transformer's heap curves (six of ~65k points).
    Json change = Json::array();
    auto &values = change.template get_ref<typename Json::array_t &>();
    values.reserve(3);
    values.emplace_back(p);
    values.emplace_back(padded[p]);
    values.emplace_back(unpadded[p]);
    changes.push_back(std::move(change));
  }
  return out;
}

/// changePoints() back to `points` values of column 1 (padded) or 2.
template <typename Json>
Json curveAt(const Json &changes, int64_t points, size_t column,
             Budget &budget) {
  Json out = Json::array();
  if (!changes.is_array() || !budget.take(Json(0), points))
    return out;
  for (size_t i = 0; i < changes.size(); ++i) {
    const Json &c = changes[i];
    if (!c.is_array() || c.size() != 3 || !c[0].is_number_integer())
      continue;
    int64_t end = i + 1 < changes.size() && changes[i + 1].is_array() &&
                          !changes[i + 1].empty() &&
                          changes[i + 1][0].is_number_integer()
                      ? changes[i + 1][0].template get<int64_t>()
                      : points;
    for (int64_t p = c[0].template get<int64_t>(); p < end && p < points; ++p)
      out.push_back(c[column]);
  }
  return out;
}

/// The complete heap from the compact one: the curve's change points, the
/// table of each point's step (its entries' keys between "point" and
/// "padded"), and the number of points.
template <typename Json>
Json expandHeap(const Json &changes, const Json &steps, int64_t points,
                Budget &budget) {
  Json padded = curveAt(changes, points, 1, budget),
       unpadded = curveAt(changes, points, 2, budget);
  Json labels = fromTable(steps, budget);
  Json heap = Json::array();
  for (size_t p = 0; p < padded.size() && p < unpadded.size(); ++p) {
    Json entry = {{"point", p}};
    if (labels.is_array() && p < labels.size() && labels[p].is_object())
      for (auto it = labels[p].begin(); it != labels[p].end(); ++it)
        entry[it.key()] = it.value();
    entry["padded"] = padded[p];
    entry["unpadded"] = unpadded[p];
    heap.push_back(std::move(entry));
  }
  return heap;
}

} // namespace forms

/// Whether `report` is a memory report in the compact form.
template <typename Json> bool isCompactMemoryReport(const Json &report) {
  auto it = report.find("format");
  return report.is_object() && it != report.end() && *it == "compact";
}

/// The compact form of a complete buildMemoryReport() object (see the file
/// comment); a report already compact is returned as it is. By value: the
/// compiler moves its report in.
template <typename Json> Json compactMemoryReport(Json r) {
  if (!r.is_object() || isCompactMemoryReport(r))
    return r;
  r["format"] = "compact";
  // Buffers by name, to list them again by index. A name seen twice, or a
  // repeat that differs from its `buffers` entry, stays in full.
  std::map<std::string, int64_t> index;
  const Json buffers = r.contains("buffers") ? r["buffers"] : Json::array();
  for (size_t i = 0; i < buffers.size(); ++i)
    if (buffers[i].is_object() && buffers[i].contains("name") &&
        buffers[i]["name"].is_string()) {
      auto [it, fresh] = index.try_emplace(
          buffers[i]["name"].template get<std::string>(), int64_t(i));
      if (!fresh)
        it->second = -1;
    }
  auto indexOf = [&](const Json &entry) -> int64_t {
    if (!entry.is_object() || !entry.contains("name") ||
        !entry["name"].is_string())
      return -1;
    auto it = index.find(entry["name"].template get<std::string>());
    return it == index.end() ? -1 : it->second;
  };

  if (r.contains("memory_viewer") && r["memory_viewer"].is_object()) {
    Json &v = r["memory_viewer"];
    if (v.contains("heap") && v["heap"].is_array()) {
      Json padded = Json::array(), unpadded = Json::array(),
           labels = Json::array();
      for (const Json &p : v["heap"]) {
        padded.push_back(p.value("padded", Json(0)));
        unpadded.push_back(p.value("unpadded", Json(0)));
        Json label = Json::object();
        if (p.is_object())
          for (auto it = p.begin(); it != p.end(); ++it)
            if (it.key() != "point" && it.key() != "padded" &&
                it.key() != "unpadded")
              label[it.key()] = it.value();
        labels.push_back(std::move(label));
      }
      Json changes = forms::changePoints(padded, unpadded);
      Json steps = forms::toTable(labels);
      // Only a compact heap that gives back this one replaces it.
      forms::Budget budget;
      if (forms::expandHeap(changes, steps, int64_t(padded.size()), budget) ==
          v["heap"]) {
        v["points"] = padded.size();
        v["heap"] = std::move(changes);
        v["heap_steps"] = std::move(steps);
      }
    }
    if (v.contains("tile_heaps") && v["tile_heaps"].is_array())
      for (Json &t : v["tile_heaps"])
        if (t.is_object() && t.contains("padded") && t.contains("unpadded")) {
          t["changes"] = forms::changePoints(t["padded"], t["unpadded"]);
          t.erase("padded");
          t.erase("unpadded");
        }
    for (const char *key :
         {"buffers_at_peak_by_program_order", "buffers_at_peak_by_size"})
      if (v.contains(key) && v[key].is_array())
        for (Json &b : v[key])
          if (int64_t i = indexOf(b); i >= 0 && forms::brief(buffers[i]) == b)
            b = i;
  }
  // A tile out of memory's live buffers: [buffer, bytes_on_tile, first,
  // last, offset] when the rest is its `buffers` entry's.
  if (r.contains("out_of_memory") && r["out_of_memory"].is_array())
    for (Json &o : r["out_of_memory"])
      if (o.is_object() && o.contains("live_at_peak") &&
          o["live_at_peak"].is_array())
        for (Json &b : o["live_at_peak"]) {
          int64_t i = indexOf(b);
          auto range = b.find("live_range_on_tile");
          if (i < 0 || range == b.end() || !range->is_array() ||
              range->size() != 2)
            continue;
          Json row =
              Json::array({i, b.value("bytes_on_tile", Json(0)), (*range)[0],
                           (*range)[1], b.value("offset", Json(0))});
          if (forms::liveEntry(buffers[i], row) == b)
            b = std::move(row);
        }
  for (const char *key : {"tiles", "buffers", "out_of_memory"})
    if (r.contains(key))
      r[key] = forms::toTable(r[key]);
  if (r.contains("cost") && r["cost"].is_object()) {
    r["cost"].erase("steps");
    if (r["cost"].contains("ops"))
      r["cost"]["ops"] = forms::toTable(r["cost"]["ops"]);
  }
  return r;
}

/// The complete form of a memory report in either form, but for what the
/// compact form drops (`cost.steps`).
/// Readers call it before they read; a complete report comes back as it is.
template <typename Json> Json expandMemoryReport(const Json &report) {
  if (!isCompactMemoryReport(report))
    return report;
  Json r = report;
  forms::Budget budget;
  for (const char *key : {"tiles", "buffers", "out_of_memory"})
    if (r.contains(key))
      r[key] = forms::fromTable(r[key], budget);
  if (r.contains("cost") && r["cost"].is_object() && r["cost"].contains("ops"))
    r["cost"]["ops"] = forms::fromTable(r["cost"]["ops"], budget);
  const Json buffers = r.contains("buffers") && r["buffers"].is_array()
                           ? r["buffers"]
                           : Json::array();
  // A buffer listed by index, if the budget holds its copy.
  auto buffer = [&](const Json &i) -> const Json * {
    if (!i.is_number_integer() || i.template get<int64_t>() < 0 ||
        i.template get<size_t>() >= buffers.size())
      return nullptr;
    const Json &full = buffers[i.template get<size_t>()];
    return budget.take(full) ? &full : nullptr;
  };

  if (r.contains("memory_viewer") && r["memory_viewer"].is_object()) {
    Json &v = r["memory_viewer"];
    int64_t points = 0;
    if (auto it = v.find("points"); it != v.end() && it->is_number_integer())
      points = std::max<int64_t>(it->template get<int64_t>(), 0);
    if (v.contains("heap") && v.contains("points")) {
      v["heap"] = forms::expandHeap(
          v["heap"], v.contains("heap_steps") ? v["heap_steps"] : Json(),
          points, budget);
      v.erase("heap_steps");
    }
    v.erase("points");
    if (v.contains("tile_heaps") && v["tile_heaps"].is_array())
      for (Json &t : v["tile_heaps"])
        if (t.is_object() && t.contains("changes")) {
          t["padded"] = forms::curveAt(t["changes"], points, 1, budget);
          t["unpadded"] = forms::curveAt(t["changes"], points, 2, budget);
          t.erase("changes");
        }
    for (const char *key :
         {"buffers_at_peak_by_program_order", "buffers_at_peak_by_size"})
      if (v.contains(key) && v[key].is_array())
        for (Json &b : v[key])
          if (const Json *full = buffer(b))
            b = forms::brief(*full);
  }
  if (r.contains("out_of_memory") && r["out_of_memory"].is_array())
    for (Json &o : r["out_of_memory"])
      if (o.is_object() && o.contains("live_at_peak") &&
          o["live_at_peak"].is_array())
        for (Json &b : o["live_at_peak"]) {
          const Json *full =
              b.is_array() && b.size() == 5 ? buffer(b[0]) : nullptr;
          if (full)
            b = forms::liveEntry(*full, b);
        }
  return r;
}

} // namespace tessera::memory

#endif // TESSERA_MEMORY_REPORTFORMS_H
