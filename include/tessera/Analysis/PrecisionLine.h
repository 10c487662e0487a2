//===- PrecisionLine.h - the compat report's precision line ------*- C++
//-*-===//
//
// What precision normalization did, as the compatibility report carries it
// (its `precision` object), and the one sentence that says it. The report
// model (CompatReport.h) holds a PrecisionSummary; tessera-prof, which reads
// the report's JSON from event files without MLIR, reads it back into one
// (readPrecision), so both print the sentence with the same code.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_ANALYSIS_PRECISIONLINE_H
#define TESSERA_ANALYSIS_PRECISIONLINE_H

#include "tessera/Support/JsonFields.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tessera {

struct PrecisionSummary {
  std::string policy, from, to; ///< e.g. bf16-to-f32, bf16, f32
  int64_t ops = 0, converts = 0, roundings = 0, bytesAdded = 0;
};

/// "Precision (bf16-to-f32): 3 ops computed in f32 instead of bf16; 2
/// converts on the host, 1 rounding inserted; +40 bytes".
inline std::string precisionLine(const PrecisionSummary &p) {
  auto count = [](int64_t n, const char *noun) {
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
  };
  return "Precision (" + p.policy + "): " + count(p.ops, "op") +
         " computed in " + p.to + " instead of " + p.from + "; " +
         count(p.converts, "convert") + " on the host, " +
         count(p.roundings, "rounding") + " inserted; +" +
         std::to_string(p.bytesAdded) + " bytes";
}

/// The `precision` object of a compatibility report's JSON, if it has one.
template <typename Json>
std::optional<PrecisionSummary> readPrecision(const Json &report) {
  const Json &p = json_fields::field(report, "precision");
  if (!p.is_object())
    return std::nullopt;
  using namespace json_fields;
  return PrecisionSummary{stringAt(p, "policy"),  stringAt(p, "from"),
                          stringAt(p, "to"),      intAt(p, "ops"),
                          intAt(p, "converts"),   intAt(p, "roundings"),
                          intAt(p, "bytes_added")};
}

/// The sentence for a report's JSON, or "" when it has no precision object.
template <typename Json> std::string precisionLine(const Json &report) {
  std::optional<PrecisionSummary> p = readPrecision(report);
  return p ? precisionLine(*p) : std::string();
}

} // namespace tessera

#endif // TESSERA_ANALYSIS_PRECISIONLINE_H
