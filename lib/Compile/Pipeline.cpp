//===- Pipeline.cpp - The compile pipeline --------------------------------===//
//
// The list of passes tessera-compile runs, in order: TOSA to tgraph,
// precision normalization, the exact rewrites for the target, the
// compatibility check, the lowering to a tile program. Later steps
// (schedule, liveness, allocate, padding, cost) are appended here; the
// instrumentations, dumps and the pass timeline pick them up without
// further changes.
//
// Each step is one pass on the module: per-pass dumps are taken between
// steps, named after `name`, which must be the pass's argument (what users
// match with --dump_pass_re). A function-level pass goes in as a module pass
// that nests it (e.g. a small pipeline pass); its inner passes then show up
// nested in the pass timeline and compile trace.
//
//===----------------------------------------------------------------------===//

#include "tessera/Compile/Compiler.h"

#include "tessera/Passes.h"

namespace tessera {

std::vector<PipelineStep> compilePipeline(const CompileOptions &options) {
  std::vector<PipelineStep> steps;
  // TOSA input (TFLite converter, torch-mlir) becomes tgraph first; on a
  // module without TOSA ops the pass changes nothing.
  steps.push_back({"convert-tosa-to-tgraph", [](const CompileOptions &) {
                     return createConvertTosaToTGraph();
                   }});
  // A target without bf16 computes a bf16 model in f32 (by the policy)
  // rather than finding every op incompatible.
  steps.push_back(
      {"tgraph-normalize-precision", [](const CompileOptions &options) {
         TGraphNormalizePrecisionOptions pass;
         pass.targetName = options.target;
         pass.policy = options.precisionPolicy;
         return createTGraphNormalizePrecision(pass);
       }});
  // Exact rewrites that fit ops to the target's limits (e.g. dots with
  // more batching dimensions than it takes) come before the check, so
  // what they fix is compatible.
  steps.push_back(
      {"tgraph-legalize-for-target", [](const CompileOptions &options) {
         TGraphLegalizeForTargetOptions pass;
         pass.targetName = options.target;
         return createTGraphLegalizeForTarget(pass);
       }});
  // Recomputation is a memory-saving option: its copies are ordinary ops
  // that the check and the lowering then see. Off, it is not a step (no
  // dump, no line in the timeline).
  if (options.recomputeDistance > 0)
    steps.push_back({"tgraph-recompute", [](const CompileOptions &options) {
                       TGraphRecomputeOptions pass;
                       pass.distance = options.recomputeDistance;
                       return createTGraphRecompute(pass);
                     }});
  steps.push_back({"tgraph-check-compat", [](const CompileOptions &options) {
                     TGraphCheckCompatOptions pass;
                     pass.targetName = options.target;
                     pass.hostOps = options.hostOps;
                     // tessera-compile has checked the flag's value.
                     pass.failOn = options.compatFailOn == "incompatible"
                                       ? CompatFailOn::Incompatible
                                       : CompatFailOn::None;
                     // Remarks at each incompatible op only when the
                     // compile fails because of them: they are the
                     // located errors the user needs then.
                     pass.remarks = pass.failOn == CompatFailOn::Incompatible;
                     return createTGraphCheckCompat(pass);
                   }});
  // The entry function becomes a tile program; ops the checker marked
  // incompatible stay on the host side of it.
  steps.push_back({"tgraph-to-tile", [](const CompileOptions &options) {
                     TGraphToTileOptions pass;
                     pass.targetName = options.target;
                     pass.chips = options.chips;
                     pass.placementMode = options.placement;
                     return createTGraphToTile(pass, options.keepAnalysis,
                                               options.shares);
                   }});
  return steps;
}

} // namespace tessera
