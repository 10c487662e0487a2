//===- OpStats.cpp - tgraph-op-stats --------------------------------------===//
//
// Prints per-opcode counts, FLOPs and bytes as JSON or a text table. The IR
// is unchanged.
//
//===----------------------------------------------------------------------===//

#include "PassOutput.h"

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

struct OpRecord {
  llvm::StringRef name, opcode;
  int64_t flops, bytes;
};

struct TGraphOpStatsPass
    : public tessera::impl::TGraphOpStatsBase<TGraphOpStatsPass> {
  using TGraphOpStatsBase::TGraphOpStatsBase;

  void runOnOperation() override {
    Totals total;
    std::map<std::string, Totals> byOpcode;
    std::vector<OpRecord> ops;
    getOperation()->walk([&](Operation *op) {
      // Reducer and comparator bodies are part of their op's cost.
      if (!isa<tessera::tgraph::TGraphDialect>(op->getDialect()) ||
          !isa<func::FuncOp>(op->getParentOp()))
        return;
      OpRecord record{tessera::tgraph::getInstructionName(op),
                      op->getName().stripDialect(), tessera::opFlops(op),
                      tessera::opBytes(op)};
      Totals &t = byOpcode[record.opcode.str()];
      for (Totals *acc : {&t, &total}) {
        ++acc->count;
        acc->flops += record.flops;
        acc->bytes += record.bytes;
      }
      if (perOp)
        ops.push_back(record);
    });
    auto write = [&](llvm::raw_ostream &os) {
      if (format == tessera::PrintFormat::Text)
        printText(os, byOpcode, total);
      else
        printJson(os, ops, byOpcode, total);
      return success();
    };
    if (failed(tessera::writePassOutput(getOperation(), getArgument(), output,
                                        write)))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }

  void printJson(llvm::raw_ostream &os, llvm::ArrayRef<OpRecord> ops,
                 const std::map<std::string, Totals> &byOpcode,
                 const Totals &total) {
    llvm::json::OStream json(os, /*IndentSize=*/2);
    json.objectBegin();
    if (perOp)
      json.attributeArray("ops", [&] {
        for (const OpRecord &r : ops)
          json.object([&] {
            json.attribute("name", r.name);
            json.attribute("opcode", r.opcode);
            json.attribute("flops", r.flops);
            json.attribute("bytes", r.bytes);
          });
      });
    json.attributeObject("opcodes", [&] {
      for (auto &[name, t] : byOpcode)
        json.attributeObject(name, [&] { writeTotals(json, t); });
    });
    json.attributeObject("total", [&] { writeTotals(json, total); });
    json.objectEnd();
    os << "\n";
  }

  /// A table for terminals, the costliest opcodes first.
  static void printText(llvm::raw_ostream &os,
                        const std::map<std::string, Totals> &byOpcode,
                        const Totals &total) {
    std::vector<std::pair<std::string, Totals>> rows(byOpcode.begin(),
                                                     byOpcode.end());
    llvm::stable_sort(rows, [](const auto &a, const auto &b) {
      return a.second.flops > b.second.flops;
    });
    auto row = [&](llvm::StringRef name, const Totals &t) {
      os << llvm::left_justify(name, 24)
         << llvm::right_justify(std::to_string(t.count), 8)
         << llvm::right_justify(std::to_string(t.flops), 16)
         << llvm::right_justify(std::to_string(t.bytes), 16) << "\n";
    };
    os << llvm::left_justify("opcode", 24) << llvm::right_justify("ops", 8)
       << llvm::right_justify("FLOPs", 16) << llvm::right_justify("bytes", 16)
       << "\n";
    for (auto &[name, t] : rows)
      row(name, t);
    row("total", total);
  }

  static void writeTotals(llvm::json::OStream &json, const Totals &t) {
    json.attribute("count", t.count);
    json.attribute("flops", t.flops);
    json.attribute("bytes", t.bytes);
  }
};

} // namespace
