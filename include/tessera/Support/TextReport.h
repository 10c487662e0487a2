//===- TextReport.h - How readable reports lay out figures -------*- C++ -*-===//
//
// The compile's memory summary and the runtime's execution report print
// figures the same way (the Poplar style): "Label:" with values aligned at
// one column, digits grouped by thousands, shares as " (12.3%)".
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_SUPPORT_TEXTREPORT_H
#define TESSERA_SUPPORT_TEXTREPORT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace tessera {

/// 1234567 -> "1,234,567".
std::string groupDigits(int64_t n);

/// " (12.3%)" of part in whole; "" when whole <= 0.
std::string percentOf(int64_t part, int64_t whole);

/// `indent` spaces, "label:", and `value` from column 34 (one space at
/// least), then a newline.
void reportLine(llvm::raw_ostream &os, unsigned indent, llvm::StringRef label,
                llvm::StringRef value);

} // namespace tessera

#endif // TESSERA_SUPPORT_TEXTREPORT_H
