//===- TilePadding.cpp - tile-padding -------------------------------------===//
//
// Prints the padding of every buffer (unpadded and padded bytes, expansion,
// extra bytes), the matrix-unit fit of every matmul vertex and, per op,
// FLOPs, padded FLOPs and bytes moved (docs/memory.md, "Padding"), from the
// padding and cost report model the memory report is written from
// (tessera/Memory/PaddingReport.h). The IR is unchanged.
//
//===----------------------------------------------------------------------===//

#include "MemoryPass.h"

#include "tessera/Memory/PaddingReport.h"
#include "tessera/Passes.h"

namespace tessera {
#define GEN_PASS_DEF_TILEPADDING
#include "Passes.h.inc"

template class memory::JsonOrTextReportPass<
    impl::TilePaddingBase, memory::paddingReportJson, memory::writePaddingText>;
} // namespace tessera
