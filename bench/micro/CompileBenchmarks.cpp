//===- CompileBenchmarks.cpp - micro benchmarks of the compile stages -----===//
//
// Google Benchmark timings of the stages the end-to-end benchmark
// (bench/run.py) times as a whole: HLO import, the tgraph-to-tile lowering,
// and the planners underneath it. Graphs are chains of N blocks (dot, bias
// broadcast, add, maximum), built in memory so nothing is read from disk.
//
//   build/bench/tessera-microbench --benchmark_filter=Lower
//
//===----------------------------------------------------------------------===//

#include "tessera/Import/HloImporter.h"
#include "tessera/InitAll.h"
#include "tessera/Conversion/TGraphToTile/ElementCopies.h"
#include "tessera/Conversion/TGraphToTile/ExchangeRuns.h"
#include "tessera/Conversion/TGraphToTile/MappingPlanner.h"
#include "tessera/Conversion/TGraphToTile/TGraphToTile.h"
#include "tessera/Target/Presets.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <benchmark/benchmark.h>

#include <string>

using namespace tessera;

namespace {

/// HLO text of `blocks` dense layers of width `width` on a [64, width]
/// activation: 5 instructions a block plus one weight and bias parameter.
std::string denseChain(int blocks, int width) {
  std::string w = std::to_string(width);
  std::string act = "f32[64," + w + "]";
  std::string params = "x: " + act, body;
  body += "  %x = " + act + " parameter(0)\n";
  std::string prev = "x";
  int param = 1;
  for (int i = 0; i < blocks; ++i) {
    std::string k = "k" + std::to_string(i), b = "b" + std::to_string(i),
                s = std::to_string(i);
    params +=
        ", " + k + ": f32[" + w + "," + w + "], " + b + ": f32[" + w + "]";
    body += "  %" + k + " = f32[" + w + "," + w + "] parameter(" +
            std::to_string(param++) + ")\n";
    body += "  %" + b + " = f32[" + w + "] parameter(" +
            std::to_string(param++) + ")\n";
    body += "  %dot." + s + " = " + act + " dot(%" + prev + ", %" + k +
            "), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n";
    body += "  %bias." + s + " = " + act + " broadcast(%" + b +
            "), dimensions={1}\n";
    body +=
        "  %add." + s + " = " + act + " add(%dot." + s + ", %bias." + s + ")\n";
    body += "  %zero." + s + " = f32[] constant(0)\n";
    body += "  %zeros." + s + " = " + act + " broadcast(%zero." + s +
            "), dimensions={}\n";
    body += "  %relu." + s + " = " + act + " maximum(%add." + s + ", %zeros." +
            s + ")\n";
    prev = "relu." + s;
  }
  body.replace(body.rfind("  %" + prev), 3, "  ROOT %");
  return "HloModule dense_chain\n\nENTRY %main (" + params + ") -> " + act +
         " {\n" + body + "}\n";
}

mlir::OwningOpRef<mlir::ModuleOp> import(mlir::MLIRContext &context,
                                         const std::string &text) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "chain.hlo"), llvm::SMLoc());
  return importHloText(sourceMgr, &context);
}

void BM_ImportHlo(benchmark::State &state) {
  std::string text = denseChain(state.range(0), 128);
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  loadImportDialects(context);
  for (auto _ : state) {
    auto module = import(context, text);
    benchmark::DoNotOptimize(module.get());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0) * 6);
}
BENCHMARK(BM_ImportHlo)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);

void BM_LowerToTile(benchmark::State &state) {
  std::string text = denseChain(state.range(0), 128);
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  loadImportDialects(context);
  context.loadAllAvailableDialects();
  llvm::Expected<TargetDescription> target = loadPreset("tile-1472");
  if (!target) {
    state.SkipWithError(llvm::toString(target.takeError()).c_str());
    return;
  }
  for (auto _ : state) {
    state.PauseTiming();
    auto module = import(context, text);
    state.ResumeTiming();
    if (mlir::failed(lowerEntryToTile(*module, *target)))
      state.SkipWithError("lowering failed");
  }
  state.SetItemsProcessed(state.iterations() * state.range(0) * 6);
}
BENCHMARK(BM_LowerToTile)->Arg(10)->Arg(100)->Unit(benchmark::kMillisecond);

void BM_PlanLinear(benchmark::State &state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(planLinear(state.range(0), 1472, 4));
}
BENCHMARK(BM_PlanLinear)->Arg(1 << 10)->Arg(1 << 24);

/// A 512x512 transpose between linear layouts: the walk behind listing a
/// view exchange's copies.
void BM_ViewCopyRuns(benchmark::State &state) {
  PlannedMapping src = planLinear(512 * 512, 1472, 4);
  PlannedMapping dst = planLinear(512 * 512, 1472, 4);
  for (auto _ : state)
    benchmark::DoNotOptimize(
        viewCopyRuns(src.runs, dst.runs, {512, 512}, 0, {1, 512}, 1 << 30));
}
BENCHMARK(BM_ViewCopyRuns)->Unit(benchmark::kMillisecond);

/// Re-laying a 62.5M-element tensor from grain 2 to grain 8 (bert's logits):
/// interval by interval, independent of the element count.
void BM_IdentityCopies(benchmark::State &state) {
  PlannedMapping a = planLinear(2048 * 30522, 1472, 2);
  PlannedMapping b = planLinear(2048 * 30522, 1472, 8);
  for (auto _ : state)
    benchmark::DoNotOptimize(planIdentityCopies(a.runs, b.runs));
}
BENCHMARK(BM_IdentityCopies);

} // namespace

BENCHMARK_MAIN();
