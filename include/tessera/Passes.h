//===- Passes.h - Tessera pass declarations ----------------------*- C++ -*-===//

#ifndef TESSERA_PASSES_H
#define TESSERA_PASSES_H

#include "tessera/Dialect/TGraph/Transforms/NormalizePrecision.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <functional>

namespace tessera {

namespace memory {
struct MemoryAnalysis;
class ShareCache;
} // namespace memory

/// What a printing pass prints (its `print=` or `format=` option). Each pass
/// lists the values it accepts with clEnumValN in Passes.td, so llvm::cl
/// rejects any other while parsing the pipeline, with the list of valid
/// ones, before a pass runs.
enum class PrintFormat { None, Text, Json, Summary, Dot, Svg };

/// When tgraph-check-compat fails the pipeline (its `fail-on=` option).
enum class CompatFailOn { None, Incompatible };

#define GEN_PASS_DECL
#include "Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Passes.h.inc"

/// tgraph-to-tile for a caller that allocates the program next (the
/// compiler): when the pass searched for the chips, it analysed the
/// program it kept, and hands that analysis to `keep` rather than let the
/// caller compute it again. It is the program's until the IR changes.
/// With `shares`, the buffers' shares are worked out there as the
/// lowering makes them, for the pass's analyses and the caller's.
std::unique_ptr<mlir::Pass> createTGraphToTile(
    TGraphToTileOptions options,
    std::function<void(mlir::Operation *program, memory::MemoryAnalysis &&)>
        keep,
    memory::ShareCache *shares = nullptr);

} // namespace tessera

#endif // TESSERA_PASSES_H
