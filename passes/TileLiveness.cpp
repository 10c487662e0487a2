//===- TileLiveness.cpp - tile-liveness -----------------------------------===//
//
// Prints the live range of every buffer of each tile program and each
// tile's largest live bytes (docs/memory.md, "Liveness"; the report is
// tessera/Memory/AllocationReport.h's). The IR is unchanged.
//
//===----------------------------------------------------------------------===//

#include "MemoryPass.h"

#include "tessera/Memory/AllocationReport.h"
#include "tessera/Passes.h"

namespace tessera {
#define GEN_PASS_DEF_TILELIVENESS
#include "Passes.h.inc"

template class memory::JsonOrTextReportPass<impl::TileLivenessBase,
                                            memory::livenessReportJson,
                                            memory::writeLivenessText>;
} // namespace tessera
