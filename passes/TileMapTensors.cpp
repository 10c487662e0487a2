//===- TileMapTensors.cpp - tile-map-tensors ------------------------------===//
//
// The tensor map: where every element of every tensor of a lowered program
// lives, in the format of docs/tile-dialect.md ("Tensor map"):
//
//   {"mappings": {computation: [[hlo_instruction, output_index, shape,
//     dtype, has_constant, has_alias, total_elements,
//     [[tile, elements], ...], tensor_name], ...]}}
//
// One entry per tile.var that holds an HLO instruction's data (`hlo`
// attribute); helper buffers without one (replicated scalars, re-layouts)
// are not tensors of the model and are left out. Only tiles holding
// elements are listed. Printed to stdout for now; handing it to the report
// sink (lib/Trace) is the next step.
//
//===----------------------------------------------------------------------===//

#include "tessera/Analysis/Compat.h"
#include "tessera/Dialect/Tile/IR/Tile.h"
#include "tessera/Passes.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace tessera {
#define GEN_PASS_DEF_TILEMAPTENSORS
#include "Passes.h.inc"
} // namespace tessera

using namespace mlir;
using namespace tessera;

namespace {

struct TileMapTensorsPass
    : public tessera::impl::TileMapTensorsBase<TileMapTensorsPass> {
  using TileMapTensorsBase::TileMapTensorsBase;

  void runOnOperation() override {
    if (summary) {
      getOperation().walk(
          [&](tile::ProgramOp program) { writeSummary(program); });
      return;
    }
    llvm::json::OStream json(llvm::outs(), pretty ? 1 : 0);
    json.object([&] {
      json.attributeObject("mappings", [&] {
        getOperation().walk([&](tile::ProgramOp program) {
          std::string computation = program.getSymName().str();
          if (auto entry = program->getAttrOfType<FlatSymbolRefAttr>("entry"))
            computation = entry.getValue().str();
          json.attributeArray(computation,
                              [&] { writeProgram(json, program); });
        });
      });
    });
    llvm::outs() << "\n";
  }

  /// Totals over the tensors of the map, per tile: how evenly the program
  /// spreads the model over the chip.
  static void writeSummary(tile::ProgramOp program) {
    llvm::SmallVector<int64_t> perTile(program.getTiles(), 0);
    int64_t tensors = 0, elements = 0;
    program.walk([&](tile::VarOp var) {
      if (!var->hasAttr("hlo"))
        return;
      ++tensors;
      elements += var.getType().getNumElements();
      for (auto [t, n] : llvm::enumerate(
               var.getMapping().elementsPerTile(program.getTiles())))
        perTile[t] += n;
    });
    int64_t used = 0, minimum = INT64_MAX, maximum = 0, busiest = 0;
    for (auto [t, n] : llvm::enumerate(perTile)) {
      if (n == 0)
        continue;
      ++used;
      minimum = std::min(minimum, n);
      if (n > maximum)
        maximum = n, busiest = t;
    }
    llvm::raw_ostream &os = llvm::outs();
    os << "tensor map of " << program.getSymName() << " on "
       << program.getTarget() << ": " << tensors << " tensors, " << elements
       << " elements\n";
    os << "  tiles used: " << used << " of " << program.getTiles() << "\n";
    if (used == 0)
      return;
    os << "  elements per used tile: min " << minimum << ", mean "
       << llvm::format("%.1f", static_cast<double>(elements) / used) << ", max "
       << maximum << " (tile " << busiest << ")\n";
  }

  void writeProgram(llvm::json::OStream &json, tile::ProgramOp program) {
    llvm::StringMap<int64_t> outputIndex;
    program.walk([&](tile::VarOp var) {
      auto hlo = var->getAttrOfType<StringAttr>("hlo");
      if (!hlo)
        return;
      auto type = var.getType();
      json.array([&] {
        json.value(hlo.getValue());
        json.value(outputIndex[hlo.getValue()]++);
        json.array([&] {
          for (int64_t d : type.getShape())
            json.value(d);
        });
        json.value(hloDtypeName(type.getElementType()));
        json.value(var.getCategory() == tile::Category::Constant);
        json.value(var->hasAttr("alias_of"));
        json.value(type.getNumElements());
        json.array([&] {
          llvm::SmallVector<int64_t> perTile =
              var.getMapping().elementsPerTile(program.getTiles());
          for (auto [t, n] : llvm::enumerate(perTile))
            if (n > 0)
              json.array([&] {
                json.value(int64_t(t));
                json.value(n);
              });
        });
        json.value(var.getName());
      });
    });
  }
};

} // namespace
