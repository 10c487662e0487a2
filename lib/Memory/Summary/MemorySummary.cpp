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
#include "tessera/Memory/ReportForms.h"
#include "tessera/Support/JsonFields.h"
#include "tessera/Support/TextReport.h"

#include "llvm/Support/Format.h"

#include <algorithm>
#include <cmath>

using namespace tessera;
using namespace tessera::memory;
using json = nlohmann::ordered_json;

// Reports come back from event files, possibly written by another
// version: fields are read through JsonFields.h.
using namespace tessera::json_fields;

/// `report` in the complete form: a compact one expanded into `storage`.
static const json &completeForm(const json &report, json &storage) {
  if (!isCompactMemoryReport(report))
    return report;
  storage = expandMemoryReport(report);
  return storage;
}

void tessera::memory::writeMemorySummary(const json &input,
                                         llvm::raw_ostream &os) {
  json storage;
  const json &report = completeForm(input, storage);
  const json &target = field(report, "target");
  const json &graph = field(report, "graph");
  const json &s = field(report, "summary");
  int64_t tiles = intAt(target, "tiles"), perTile = intAt(target, "bytes_per_tile");
  int64_t chipBytes = tiles * perTile;

  os << "Memory report of @" << stringAt(report, "program") << " on "
     << stringAt(target, "name") << "\n\n";
  os << "Target:\n";
  reportLine(os, 2, "Number of chips", groupDigits(intAt(target, "chips")));
  reportLine(os, 2, "Number of tiles", groupDigits(tiles));
  reportLine(os, 2, "Bytes per tile", groupDigits(perTile));
  reportLine(os, 2, "Total memory", groupDigits(chipBytes));
  {
    std::string clock;
    llvm::raw_string_ostream cs(clock);
    cs << llvm::format("%.2f GHz", intAt(target, "clock_hz") / 1e9);
    reportLine(os, 2, "Clock", clock);
  }
  os << "\nGraph:\n";
  reportLine(os, 2, "Number of vertices", groupDigits(intAt(graph, "vertices")));
  reportLine(os, 2, "Number of edges", groupDigits(intAt(graph, "edges")));
  reportLine(os, 2, "Number of variables",
             groupDigits(intAt(graph, "variables")));
  reportLine(os, 2, "Number of compute sets",
             groupDigits(intAt(graph, "compute_sets")));
  reportLine(os, 2, "Number of exchanges",
             groupDigits(intAt(graph, "exchanges")));
  reportLine(os, 2, "Number of program points",
             groupDigits(intAt(graph, "program_points")));

  os << "\nMemory Usage:\n";
  os << "  Total:\n";
  int64_t incl = intAt(s, "total_including_gaps"),
          excl = intAt(s, "total_excluding_gaps");
  reportLine(os, 4, "Including gaps",
             groupDigits(incl) + percentOf(incl, chipBytes));
  reportLine(os, 4, "Excluding gaps",
             groupDigits(excl) + percentOf(excl, chipBytes));
  reportLine(os, 4, "Gaps", groupDigits(intAt(s, "gaps")));
  os << "  By region:\n";
  reportLine(os, 4, "Always-live",
             groupDigits(intAt(s, "always_live")) +
                 percentOf(intAt(s, "always_live"), excl));
  reportLine(os, 4, "Not-always-live",
             groupDigits(intAt(s, "not_always_live")) +
                 percentOf(intAt(s, "not_always_live"), excl));
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
    reportLine(os, 4, label, groupDigits(intAt(field(s, "by_category"), key)));
  os << "  By data type (all buffers, padded):\n";
  for (auto &[dtype, bytes] : field(s, "buffers_by_dtype").items())
    reportLine(os, 4, dtype, groupDigits(asInt(bytes)));
  os << "  By buffer category (padded / unpadded):\n";
  for (auto &[cat, bytes] : field(s, "buffers_by_category").items())
    reportLine(os, 4, cat,
               groupDigits(intAt(bytes, "size")) + " / " +
                   groupDigits(intAt(bytes, "unpadded_size")));
  const json &pad = field(s, "padding");
  os << "  Padding:\n";
  reportLine(os, 4, "Unpadded", groupDigits(intAt(pad, "unpadded_bytes")));
  reportLine(os, 4, "Padded", groupDigits(intAt(pad, "padded_bytes")));
  {
    std::string e;
    llvm::raw_string_ostream es(e);
    es << llvm::format("%.2fx", realAt(pad, "expansion", 1.0));
    reportLine(os, 4, "Expansion", e);
  }
  os << "  Vertex data (by vertex kind):\n";
  for (const json &k : listAt(s, "vertex_data"))
    reportLine(os, 4, stringAt(k, "kind"),
               groupDigits(intAt(k, "vertices")) + " vertices, state " +
                   groupDigits(intAt(k, "state_bytes")) + ", code " +
                   groupDigits(intAt(k, "code_bytes")));

  // Histogram: every bucket up to the last non-empty one.
  const json &hist = field(s, "histogram");
  const json &buckets = listAt(hist, "buckets");
  int64_t maxCount = 0;
  size_t lastUsed = 0;
  for (size_t i = 0; i < buckets.size(); ++i) {
    int64_t n = intAt(buckets[i], "tiles");
    maxCount = std::max(maxCount, n);
    if (n > 0)
      lastUsed = i;
  }
  os << "\nTile memory histogram (bytes including gaps, "
     << intAt(hist, "bucket_kb") << " KB buckets):\n";
  for (size_t i = 0; i <= lastUsed && i < buckets.size(); ++i) {
    int64_t n = intAt(buckets[i], "tiles");
    int64_t bar = maxCount ? (n * 40 + maxCount - 1) / maxCount : 0;
    os << llvm::format("  %7lld - %7lld KB ",
                       (long long)intAt(buckets[i], "from_kb"),
                       (long long)intAt(buckets[i], "to_kb"))
       << std::string(bar, '*') << std::string(41 - bar, ' ') << n << "\n";
  }
  os << "\n";
  const json &maxIncl = field(s, "max_tile_including_gaps");
  const json &maxExcl = field(s, "max_tile_excluding_gaps");
  reportLine(os, 2, "Maximum tile (including gaps)",
             groupDigits(intAt(maxIncl, "bytes")) + " on tile " +
                 std::to_string(intAt(maxIncl, "tile")));
  reportLine(os, 2, "Maximum tile (excluding gaps)",
             groupDigits(intAt(maxExcl, "bytes")) + " on tile " +
                 std::to_string(intAt(maxExcl, "tile")));
  reportLine(os, 2, "Mean used tile",
             groupDigits(intAt(s, "mean_used_tile_bytes")) + " over " +
                 groupDigits(intAt(s, "tiles_used")) + " tiles");
  int64_t oom = intAt(s, "tiles_out_of_memory");
  os << "  " << oom << " tile(s) out of memory\n";
  for (const json &o : expandTileRuns(listAt(report, "out_of_memory"))) {
    os << "    tile " << intAt(o, "tile") << ": over by "
       << groupDigits(intAt(o, "over_by")) << " bytes at point "
       << intAt(o, "peak_point") << " (" << stringAt(o, "peak_step") << ")\n";
  }
  const json &check = field(s, "liveness_check");
  os << "  Liveness self-check: " << intAt(check, "points_checked") << " points, "
     << intAt(check, "mismatches") << " mismatches\n";

  // The five fullest tiles in detail.
  std::vector<const json *> order;
  json perTileEntries = expandTileRuns(listAt(report, "tiles"));
  for (const json &t : perTileEntries)
    order.push_back(&t);
  std::stable_sort(
      order.begin(), order.end(), [](const json *x, const json *y) {
        return intAt(*x, "including_gaps") > intAt(*y, "including_gaps");
      });
  os << "\nMost loaded tiles:\n";
  for (size_t i = 0; i < std::min<size_t>(5, order.size()); ++i) {
    const json &t = *order[i];
    os << "  Tile " << intAt(t, "tile") << ": "
       << groupDigits(intAt(t, "including_gaps")) << " bytes including gaps"
       << percentOf(intAt(t, "including_gaps"), perTile) << ", "
       << groupDigits(intAt(t, "excluding_gaps")) << " excluding, peak at point "
       << intAt(t, "peak_point")
       << (flagAt(t, "out_of_memory")
               ? ", OUT OF MEMORY by " + groupDigits(intAt(t, "over_by"))
               : std::string())
       << "\n";
    os << "    always-live " << groupDigits(intAt(t, "always_live"))
       << ", not-always-live " << groupDigits(intAt(t, "not_always_live"))
       << ", gaps " << groupDigits(intAt(t, "gaps")) << "\n";
    os << "   ";
    for (auto [key, label] : categories)
      os << " " << key << " " << groupDigits(intAt(field(t, "by_category"), key));
    os << "\n";
  }
}

void tessera::memory::writeTileDetail(const json &d, llvm::raw_ostream &os) {
  int64_t capacity = intAt(d, "capacity");
  os << "\nTile " << intAt(d, "tile") << " in detail:\n";
  reportLine(os, 2, "Including gaps",
             groupDigits(intAt(d, "including_gaps")) +
                 percentOf(intAt(d, "including_gaps"), capacity));
  reportLine(os, 2, "Excluding gaps", groupDigits(intAt(d, "excluding_gaps")));
  reportLine(os, 2, "Allocated peak", groupDigits(intAt(d, "allocated_peak")));
  reportLine(os, 2, "Lower bound", groupDigits(intAt(d, "lower_bound")));
  reportLine(os, 2, "Always-live", groupDigits(intAt(d, "always_live")));
  reportLine(os, 2, "Not-always-live", groupDigits(intAt(d, "not_always_live")));
  if (flagAt(d, "out_of_memory"))
    reportLine(os, 2, "OUT OF MEMORY by", groupDigits(intAt(d, "over_by")));
  reportLine(os, 2, "Peak",
             "point " + std::to_string(intAt(d, "peak_point")) + " (" +
                 stringAt(d, "peak_step") + ")");
  os << "  Live at the peak (" << intAt(d, "live_buffers") << " buffers, "
     << groupDigits(intAt(d, "live_bytes")) << " bytes), largest first:\n";
  for (const json &b : listAt(d, "live_at_peak")) {
    os << "    " << stringAt(b, "name") << ": "
       << groupDigits(intAt(b, "bytes_on_tile")) << " bytes at "
       << groupDigits(intAt(b, "offset")) << ", " << stringAt(b, "category") << " "
       << stringAt(b, "dtype") << " [";
    bool first = true;
    for (const json &dim : listAt(b, "shape")) {
      os << (first ? "" : ", ") << asInt(dim);
      first = false;
    }
    const json &range = field(b, "live_range_on_tile");
    bool hasRange = range.is_array() && range.size() == 2;
    os << "], live [" << (hasRange ? asInt(range[0]) : 0) << ", "
       << (hasRange ? asInt(range[1]) : 0) << "], written by";
    if (field(b, "written_by").empty())
      os << " nothing (loaded with the program)";
    for (const json &w : listAt(b, "written_by"))
      os << " " << asString(w);
    if (!stringAt(b, "hlo").empty())
      os << "; HLO " << stringAt(b, "hlo");
    if (!stringAt(b, "op_name").empty())
      os << " (" << stringAt(b, "op_name") << ")";
    os << "\n";
  }
}

void tessera::memory::writeTileHeatmapSvg(const json &input,
                                          llvm::raw_ostream &os) {
  json storage;
  const json &report = completeForm(input, storage);
  const json tiles = expandTileRuns(listAt(report, "tiles"));
  int64_t n = tiles.size();
  int64_t perTile = intAt(field(report, "target"), "bytes_per_tile");
  int64_t columns = std::max<int64_t>(1, std::ceil(std::sqrt(n * 2.0)));
  int64_t rows = (n + columns - 1) / columns, cell = 12;
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << columns * cell
     << "\" height=\"" << rows * cell + 20 << "\">\n";
  os << "<text x=\"0\" y=\"14\" font-size=\"12\">bytes per tile of @"
     << stringAt(report, "program") << " (red: over " << groupDigits(perTile)
     << ")</text>\n";
  for (int64_t i = 0; i < n; ++i) {
    const json &t = tiles[i];
    double fill =
        perTile ? static_cast<double>(intAt(t, "including_gaps")) / perTile : 0.0;
    int shade = static_cast<int>(255 * (1.0 - std::min(fill, 1.0)));
    std::string colour = fill > 1.0 ? "rgb(220,0,0)"
                                    : "rgb(" + std::to_string(shade) + "," +
                                          std::to_string(shade) + ",255)";
    os << "<rect x=\"" << (i % columns) * cell << "\" y=\""
       << 20 + (i / columns) * cell << "\" width=\"" << cell - 1
       << "\" height=\"" << cell - 1 << "\" fill=\"" << colour
       << "\"><title>tile " << intAt(t, "tile") << ": "
       << groupDigits(intAt(t, "including_gaps")) << " bytes</title></rect>\n";
  }
  os << "</svg>\n";
}
