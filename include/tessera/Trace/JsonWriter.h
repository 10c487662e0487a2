//===- JsonWriter.h - Report JSON text, quickly --------------*- C++ -*-===//
//
// The text of a report: exactly what nlohmann's dump(indent, ' ', false,
// error_handler_t::replace) writes, byte for byte, without its cost.
// nlohmann's serializer decodes every string through its UTF-8 state
// machine and writes each character through a virtual call, some 120
// instructions a byte of output: for a large model's memory report the
// serialization was a sixth of the whole compile. Here strings of plain
// printable ASCII (report keys and almost every name) are copied as they
// are and numbers written with std::to_chars; anything else (a string to
// escape or with other bytes, a float, a binary value) goes to nlohmann's
// own code, so the output cannot drift from its dump.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TRACE_JSONWRITER_H
#define TESSERA_TRACE_JSONWRITER_H

#include <nlohmann/json.hpp>

#include <string>

namespace tessera {

/// Appends `value` to `out` as `value.dump(indent, ' ', false,
/// nlohmann::json::error_handler_t::replace)` would return it (indent < 0:
/// no whitespace at all).
void appendJson(const nlohmann::ordered_json &value, int indent,
                std::string &out);

/// The same, as a string.
std::string dumpJson(const nlohmann::ordered_json &value, int indent);

} // namespace tessera

#endif // TESSERA_TRACE_JSONWRITER_H
