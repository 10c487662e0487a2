//===- OpGraphDot.cpp - Graphviz dot of a module's op graph ---------------===//
//
// Our own writer rather than MLIR's print-op-graph pass: dumps are written
// from inside a pass instrumentation, where running another pass manager on
// the same module is not allowed, and the tgraph view wants instruction
// names and shapes, not every attribute.
//
//===----------------------------------------------------------------------===//

#include "tessera/Compile/Dumper.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "llvm/ADT/DenseMap.h"

using namespace llvm;
using namespace mlir;

namespace tessera {

/// Dot string literal contents: quotes and backslashes escaped, newlines as
/// \n (the label line break).
static std::string escape(StringRef text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\')
      out.push_back('\\');
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out.push_back(c);
  }
  return out;
}

static std::string typeText(Type type) {
  std::string text;
  raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// The instruction name the importer keeps as the op's NameLoc.
static std::string locName(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (auto name = dyn_cast<NameLoc>(inner))
        return name.getName().str();
  return "";
}

void writeOpGraphDot(ModuleOp module, StringRef title, raw_ostream &os) {
  os << "digraph \"" << escape(title) << "\" {\n"
     << "  node [shape=box, fontname=\"monospace\"];\n";
  llvm::DenseMap<Value, std::string> producer;
  unsigned nodeId = 0, clusterId = 0;
  module.walk([&](func::FuncOp func) {
    os << "  subgraph cluster_" << clusterId++ << " {\n"
       << "    label=\"" << escape(func.getSymName()) << "\";\n";
    for (BlockArgument arg : func.getArguments()) {
      std::string node = "n" + std::to_string(nodeId++);
      producer[arg] = node;
      os << "    " << node << " [shape=ellipse, label=\"arg"
         << arg.getArgNumber() << "\\n"
         << escape(typeText(arg.getType())) << "\"];\n";
    }
    for (Block &block : func.getBody())
      for (Operation &op : block) {
        std::string node = "n" + std::to_string(nodeId++);
        for (Value result : op.getResults())
          producer[result] = node;
        std::string label = op.getName().getStringRef().str();
        std::string name = locName(op.getLoc());
        if (!name.empty())
          label = name + " = " + label;
        for (Type type : op.getResultTypes())
          label += "\n" + typeText(type);
        os << "    " << node << " [label=\"" << escape(label) << "\"];\n";
        for (Value operand : op.getOperands()) {
          auto it = producer.find(operand);
          if (it != producer.end())
            os << "    " << it->second << " -> " << node << ";\n";
        }
      }
    os << "  }\n";
  });
  os << "}\n";
}

} // namespace tessera
