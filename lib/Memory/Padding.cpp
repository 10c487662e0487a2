//===- Padding.cpp - element sizes for the padding figures ----------------===//

#include "tessera/Memory/Padding.h"

#include "tessera/Target/TargetSchema.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <optional>

using namespace tessera;
using namespace tessera::memory;

int64_t tessera::memory::elementBytes(llvm::StringRef dtype) {
  std::optional<int64_t> bytes = dtypeBytes(dtype);
  return bytes && *bytes > 0 ? *bytes : 1;
}
