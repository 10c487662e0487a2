//===- FuzzSupport.cpp - What every fuzz target shares --------------------===//

#include "FuzzTargets.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

void tessera::fuzz::propertyFailed(const char *what) {
  llvm::errs() << "tessera fuzz: property failed: " << what << "\n";
  llvm::errs().flush();
  std::abort();
}
