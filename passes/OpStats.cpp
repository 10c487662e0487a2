//===- OpStats.cpp - tgraph-op-stats --------------------------------------===//
//
// Prints per-opcode counts, FLOPs and bytes as JSON. The IR is unchanged.
//
//===----------------------------------------------------------------------===//

#include "tessera/Analysis/OpCost.h"
#include "tessera/Dialect/TGraph/IR/TGraph.h"
#include "tessera/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace tessera {
#define GEN_PASS_DEF_TGRAPHOPSTATS
#include "Passes.h.inc"
} // namespace tessera

using namespace mlir;

namespace {

struct Totals {
  int64_t count = 0, flops = 0, bytes = 0;
};

struct TGraphOpStatsPass
    : public tessera::impl::TGraphOpStatsBase<TGraphOpStatsPass> {
  using TGraphOpStatsBase::TGraphOpStatsBase;

  void runOnOperation() override {
    llvm::json::OStream json(llvm::outs(), /*IndentSize=*/2);
    Totals total;
    std::map<std::string, Totals> byOpcode;
    json.objectBegin();
    if (perOp)
      json.attributeBegin("ops"), json.arrayBegin();
    getOperation()->walk([&](Operation *op) {
      // Reducer and comparator bodies are part of their op's cost.
      if (!isa<tessera::tgraph::TGraphDialect>(op->getDialect()) ||
          !isa<func::FuncOp>(op->getParentOp()))
        return;
      llvm::StringRef opcode = op->getName().stripDialect();
      int64_t flops = tessera::opFlops(op), bytes = tessera::opBytes(op);
      Totals &t = byOpcode[opcode.str()];
      for (Totals *acc : {&t, &total}) {
        ++acc->count;
        acc->flops += flops;
        acc->bytes += bytes;
      }
      if (!perOp)
        return;
      json.object([&] {
        json.attribute("name", tessera::tgraph::getInstructionName(op));
        json.attribute("opcode", opcode);
        json.attribute("flops", flops);
        json.attribute("bytes", bytes);
      });
    });
    if (perOp)
      json.arrayEnd(), json.attributeEnd();
    json.attributeObject("opcodes", [&] {
      for (auto &[name, t] : byOpcode)
        json.attributeObject(name, [&] { writeTotals(json, t); });
    });
    json.attributeObject("total", [&] { writeTotals(json, total); });
    json.objectEnd();
    llvm::outs() << "\n";
    markAllAnalysesPreserved();
  }

  static void writeTotals(llvm::json::OStream &json, const Totals &t) {
    json.attribute("count", t.count);
    json.attribute("flops", t.flops);
    json.attribute("bytes", t.bytes);
  }
};

} // namespace
