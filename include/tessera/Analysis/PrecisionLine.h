//===- PrecisionLine.h - the compat report's precision line ------*- C++
//-*-===//
//
// One sentence for the `precision` object of a compatibility report (what
// precision normalization did), shared by tessera-opt's text summary and
// tessera-prof, which reads the report without MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_ANALYSIS_PRECISIONLINE_H
#define TESSERA_ANALYSIS_PRECISIONLINE_H

#include "tessera/Support/JsonFields.h"

#include <string>

namespace tessera {

/// "Precision (bf16-to-f32): 3 ops computed in f32 instead of bf16; 2
/// converts on the host, 1 rounding inserted; +40 bytes", or "" when the
/// report has no precision object.
template <typename Json> std::string precisionLine(const Json &report) {
  const Json &p = json_fields::field(report, "precision");
  if (!p.is_object())
    return "";
  auto count = [&](const char *key, const char *noun) {
    int64_t n = json_fields::intAt(p, key);
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
  };
  return "Precision (" + json_fields::stringAt(p, "policy") +
         "): " + count("ops", "op") + " computed in " +
         json_fields::stringAt(p, "to") + " instead of " +
         json_fields::stringAt(p, "from") + "; " +
         count("converts", "convert") + " on the host, " +
         count("roundings", "rounding") + " inserted; +" +
         std::to_string(json_fields::intAt(p, "bytes_added")) + " bytes";
}

} // namespace tessera

#endif // TESSERA_ANALYSIS_PRECISIONLINE_H
