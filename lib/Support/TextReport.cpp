//===- TextReport.cpp - How readable reports lay out figures --------------===//

#include "tessera/Support/TextReport.h"

#include "llvm/Support/Format.h"

#include <algorithm>

namespace tessera {

std::string groupDigits(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0)
      out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

std::string percentOf(int64_t part, int64_t whole) {
  if (whole <= 0)
    return "";
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format(" (%.1f%%)", 100.0 * part / whole);
  return s;
}

void reportLine(llvm::raw_ostream &os, unsigned indent, llvm::StringRef label,
                llvm::StringRef value) {
  os.indent(indent) << label << ":";
  int pad = 34 - static_cast<int>(indent + label.size() + 1);
  os.indent(std::max(pad, 1)) << value << "\n";
}

} // namespace tessera
