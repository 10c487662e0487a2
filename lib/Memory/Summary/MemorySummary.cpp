//===- MemorySummary.cpp - text summary and SVG of a memory report --------===//
//
// Renders a buildMemoryReport() object for people: the summary in the
// style of a compiler memory report (target, graph, memory usage, a
// histogram of bytes per tile, the tiles out of memory, the five fullest
// tiles), and a heat map of bytes per tile. Reads only the report, so the
// text shows exactly the numbers of the JSON.
//
//===----------------------------------------------------------------------===//

#include "tessera/Memory/MemorySummary.h"
#include "tessera/Support/TextReport.h"

#include "llvm/Support/Format.h"

#include <algorithm>
#include <cmath>

using namespace tessera;
using namespace tessera::memory;
using json = nlohmann::ordered_json;

// Accessors that read a missing or mistyped field as empty: tessera-prof
// renders reports from event files, possibly written by another version,
// and nlohmann's const operator[] on a missing key is undefined behaviour.
static const json &field(const json &j, const char *key) {
  static const json null;
  if (!j.is_object())
    return null;
  auto it = j.find(key);
  return it == j.end() ? null : *it;
}
static int64_t asInt(const json &j) {
  if (j.is_number_integer())
    return j.get<int64_t>();
  return j.is_number_float() ? int64_t(j.get<double>()) : 0;
}
static std::string asStr(const json &j) {
  return j.is_string() ? j.get<std::string>() : "";
}
static const json &list(const json &j, const char *key) {
  static const json empty = json::array();
  const json &v = field(j, key);
  return v.is_array() ? v : empty;
}
static int64_t num(const json &j, const char *key) {
  return asInt(field(j, key));
}
static std::string str(const json &j, const char *key) {
  return asStr(field(j, key));
}
static bool flag(const json &j, const char *key) {
  const json &v = field(j, key);
  return v.is_boolean() && v.get<bool>();
}

void tessera::memory::writeMemorySummary(const json &report,
                                         llvm::raw_ostream &os) {
  const json &target = field(report, "target");
  const json &graph = field(report, "graph");
  const json &s = field(report, "summary");
  int64_t tiles = num(target, "tiles"), perTile = num(target, "bytes_per_tile");
  int64_t chipBytes = tiles * perTile;

  os << "Memory report of @" << str(report, "program") << " on "
     << str(target, "name") << "\n\n";
  os << "Target:\n";
  reportLine(os, 2, "Number of chips", groupDigits(num(target, "chips")));
  reportLine(os, 2, "Number of tiles", groupDigits(tiles));
  reportLine(os, 2, "Bytes per tile", groupDigits(perTile));
  reportLine(os, 2, "Total memory", groupDigits(chipBytes));
  {
    std::string clock;
    llvm::raw_string_ostream cs(clock);
    cs << llvm::format("%.2f GHz", num(target, "clock_hz") / 1e9);
    reportLine(os, 2, "Clock", clock);
  }
  os << "\nGraph:\n";
  reportLine(os, 2, "Number of vertices", groupDigits(num(graph, "vertices")));
  reportLine(os, 2, "Number of edges", groupDigits(num(graph, "edges")));
  reportLine(os, 2, "Number of variables",
             groupDigits(num(graph, "variables")));
  reportLine(os, 2, "Number of compute sets",
             groupDigits(num(graph, "compute_sets")));
  reportLine(os, 2, "Number of exchanges",
             groupDigits(num(graph, "exchanges")));
  reportLine(os, 2, "Number of program points",
             groupDigits(num(graph, "program_points")));

  os << "\nMemory Usage:\n";
  os << "  Total:\n";
  int64_t incl = num(s, "total_including_gaps"),
          excl = num(s, "total_excluding_gaps");
  reportLine(os, 4, "Including gaps",
             groupDigits(incl) + percentOf(incl, chipBytes));
  reportLine(os, 4, "Excluding gaps",
             groupDigits(excl) + percentOf(excl, chipBytes));
  reportLine(os, 4, "Gaps", groupDigits(num(s, "gaps")));
  os << "  By region:\n";
  reportLine(os, 4, "Always-live",
             groupDigits(num(s, "always_live")) +
                 percentOf(num(s, "always_live"), excl));
  reportLine(os, 4, "Not-always-live",
             groupDigits(num(s, "not_always_live")) +
                 percentOf(num(s, "not_always_live"), excl));
  os << "  By category (at each tile's peak):\n";
  static const std::pair<const char *, const char *> categories[] = {
      {"variables", "Variables"},
      {"constants", "Constants"},
      {"host_exchange_buffers", "Host-exchange buffers"},
      {"vertex_code", "Vertex code"},
      {"vertex_state", "Vertex state"},
      {"exchange_code", "Exchange code"},
      {"control_code", "Control code"},
      {"stack", "Stack"}};
  for (auto [key, label] : categories)
    reportLine(os, 4, label, groupDigits(num(field(s, "by_category"), key)));
  os << "  By data type (all buffers, padded):\n";
  for (auto &[dtype, bytes] : field(s, "buffers_by_dtype").items())
    reportLine(os, 4, dtype, groupDigits(asInt(bytes)));
  os << "  By buffer category (padded / unpadded):\n";
  for (auto &[cat, bytes] : field(s, "buffers_by_category").items())
    reportLine(os, 4, cat,
               groupDigits(num(bytes, "size")) + " / " +
                   groupDigits(num(bytes, "unpadded_size")));
  const json &pad = field(s, "padding");
  os << "  Padding:\n";
  reportLine(os, 4, "Unpadded", groupDigits(num(pad, "unpadded_bytes")));
  reportLine(os, 4, "Padded", groupDigits(num(pad, "padded_bytes")));
  {
    std::string e;
    llvm::raw_string_ostream es(e);
    es << llvm::format("%.2fx", (field(pad, "expansion").is_number()
                                     ? field(pad, "expansion").get<double>()
                                     : 1.0));
    reportLine(os, 4, "Expansion", e);
  }
  os << "  Vertex data (by vertex kind):\n";
  for (const json &k : list(s, "vertex_data"))
    reportLine(os, 4, str(k, "kind"),
               groupDigits(num(k, "vertices")) + " vertices, state " +
                   groupDigits(num(k, "state_bytes")) + ", code " +
                   groupDigits(num(k, "code_bytes")));

  // Histogram: every bucket up to the last non-empty one.
  const json &hist = field(s, "histogram");
  const json &buckets = list(hist, "buckets");
  int64_t maxCount = 0;
  size_t lastUsed = 0;
  for (size_t i = 0; i < buckets.size(); ++i) {
    int64_t n = num(buckets[i], "tiles");
    maxCount = std::max(maxCount, n);
    if (n > 0)
      lastUsed = i;
  }
  os << "\nTile memory histogram (bytes including gaps, "
     << num(hist, "bucket_kb") << " KB buckets):\n";
  for (size_t i = 0; i <= lastUsed && i < buckets.size(); ++i) {
    int64_t n = num(buckets[i], "tiles");
    int64_t bar = maxCount ? (n * 40 + maxCount - 1) / maxCount : 0;
    os << llvm::format("  %7lld - %7lld KB ",
                       (long long)num(buckets[i], "from_kb"),
                       (long long)num(buckets[i], "to_kb"))
       << std::string(bar, '*') << std::string(41 - bar, ' ') << n << "\n";
  }
  os << "\n";
  const json &maxIncl = field(s, "max_tile_including_gaps");
  const json &maxExcl = field(s, "max_tile_excluding_gaps");
  reportLine(os, 2, "Maximum tile (including gaps)",
             groupDigits(num(maxIncl, "bytes")) + " on tile " +
                 std::to_string(num(maxIncl, "tile")));
  reportLine(os, 2, "Maximum tile (excluding gaps)",
             groupDigits(num(maxExcl, "bytes")) + " on tile " +
                 std::to_string(num(maxExcl, "tile")));
  reportLine(os, 2, "Mean used tile",
             groupDigits(num(s, "mean_used_tile_bytes")) + " over " +
                 groupDigits(num(s, "tiles_used")) + " tiles");
  int64_t oom = num(s, "tiles_out_of_memory");
  os << "  " << oom << " tile(s) out of memory\n";
  for (const json &o : list(report, "out_of_memory")) {
    os << "    tile " << num(o, "tile") << ": over by "
       << groupDigits(num(o, "over_by")) << " bytes at point "
       << num(o, "peak_point") << " (" << str(o, "peak_step") << ")\n";
  }
  const json &check = field(s, "liveness_check");
  os << "  Liveness self-check: " << num(check, "points_checked") << " points, "
     << num(check, "mismatches") << " mismatches\n";

  // The five fullest tiles in detail.
  std::vector<const json *> order;
  for (const json &t : list(report, "tiles"))
    order.push_back(&t);
  std::stable_sort(
      order.begin(), order.end(), [](const json *x, const json *y) {
        return num(*x, "including_gaps") > num(*y, "including_gaps");
      });
  os << "\nMost loaded tiles:\n";
  for (size_t i = 0; i < std::min<size_t>(5, order.size()); ++i) {
    const json &t = *order[i];
    os << "  Tile " << num(t, "tile") << ": "
       << groupDigits(num(t, "including_gaps")) << " bytes including gaps"
       << percentOf(num(t, "including_gaps"), perTile) << ", "
       << groupDigits(num(t, "excluding_gaps")) << " excluding, peak at point "
       << num(t, "peak_point")
       << (flag(t, "out_of_memory")
               ? ", OUT OF MEMORY by " + groupDigits(num(t, "over_by"))
               : std::string())
       << "\n";
    os << "    always-live " << groupDigits(num(t, "always_live"))
       << ", not-always-live " << groupDigits(num(t, "not_always_live"))
       << ", gaps " << groupDigits(num(t, "gaps")) << "\n";
    os << "   ";
    for (auto [key, label] : categories)
      os << " " << key << " " << groupDigits(num(field(t, "by_category"), key));
    os << "\n";
  }
}

void tessera::memory::writeTileDetail(const json &d, llvm::raw_ostream &os) {
  int64_t capacity = num(d, "capacity");
  os << "\nTile " << num(d, "tile") << " in detail:\n";
  reportLine(os, 2, "Including gaps",
             groupDigits(num(d, "including_gaps")) +
                 percentOf(num(d, "including_gaps"), capacity));
  reportLine(os, 2, "Excluding gaps", groupDigits(num(d, "excluding_gaps")));
  reportLine(os, 2, "Allocated peak", groupDigits(num(d, "allocated_peak")));
  reportLine(os, 2, "Lower bound", groupDigits(num(d, "lower_bound")));
  reportLine(os, 2, "Always-live", groupDigits(num(d, "always_live")));
  reportLine(os, 2, "Not-always-live", groupDigits(num(d, "not_always_live")));
  if (flag(d, "out_of_memory"))
    reportLine(os, 2, "OUT OF MEMORY by", groupDigits(num(d, "over_by")));
  reportLine(os, 2, "Peak",
             "point " + std::to_string(num(d, "peak_point")) + " (" +
                 str(d, "peak_step") + ")");
  os << "  Live at the peak (" << num(d, "live_buffers") << " buffers, "
     << groupDigits(num(d, "live_bytes")) << " bytes), largest first:\n";
  for (const json &b : list(d, "live_at_peak")) {
    os << "    " << str(b, "name") << ": "
       << groupDigits(num(b, "bytes_on_tile")) << " bytes at "
       << groupDigits(num(b, "offset")) << ", " << str(b, "category") << " "
       << str(b, "dtype") << " [";
    bool first = true;
    for (const json &dim : list(b, "shape")) {
      os << (first ? "" : ", ") << asInt(dim);
      first = false;
    }
    const json &range = field(b, "live_range_on_tile");
    bool hasRange = range.is_array() && range.size() == 2;
    os << "], live [" << (hasRange ? asInt(range[0]) : 0) << ", "
       << (hasRange ? asInt(range[1]) : 0) << "], written by";
    if (field(b, "written_by").empty())
      os << " nothing (loaded with the program)";
    for (const json &w : list(b, "written_by"))
      os << " " << asStr(w);
    if (!str(b, "hlo").empty())
      os << "; HLO " << str(b, "hlo");
    if (!str(b, "op_name").empty())
      os << " (" << str(b, "op_name") << ")";
    os << "\n";
  }
}

void tessera::memory::writeTileHeatmapSvg(const json &report,
                                          llvm::raw_ostream &os) {
  const json &tiles = list(report, "tiles");
  int64_t n = tiles.size();
  int64_t perTile = num(field(report, "target"), "bytes_per_tile");
  int64_t columns = std::max<int64_t>(1, std::ceil(std::sqrt(n * 2.0)));
  int64_t rows = (n + columns - 1) / columns, cell = 12;
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << columns * cell
     << "\" height=\"" << rows * cell + 20 << "\">\n";
  os << "<text x=\"0\" y=\"14\" font-size=\"12\">bytes per tile of @"
     << str(report, "program") << " (red: over " << groupDigits(perTile)
     << ")</text>\n";
  for (int64_t i = 0; i < n; ++i) {
    const json &t = tiles[i];
    double fill =
        perTile ? static_cast<double>(num(t, "including_gaps")) / perTile : 0.0;
    int shade = static_cast<int>(255 * (1.0 - std::min(fill, 1.0)));
    std::string colour = fill > 1.0 ? "rgb(220,0,0)"
                                    : "rgb(" + std::to_string(shade) + "," +
                                          std::to_string(shade) + ",255)";
    os << "<rect x=\"" << (i % columns) * cell << "\" y=\""
       << 20 + (i / columns) * cell << "\" width=\"" << cell - 1
       << "\" height=\"" << cell - 1 << "\" fill=\"" << colour
       << "\"><title>tile " << num(t, "tile") << ": "
       << groupDigits(num(t, "including_gaps")) << " bytes</title></rect>\n";
  }
  os << "</svg>\n";
}
