//===- CompatReport.cpp - compatibility reports ---------------------------===//

#include "tessera/Analysis/CompatReport.h"

#include "tessera/Analysis/Compat.h"
#include "tessera/Analysis/OpIdentity.h"
#include "tessera/Analysis/PrecisionLine.h"
#include "tessera/Dialect/TGraph/Transforms/NormalizePrecision.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Format.h"

#include <cmath>
#include <map>
#include <set>

using namespace mlir;
using namespace tessera;
using json = nlohmann::ordered_json;

static constexpr llvm::StringLiteral kNoOpName = "(no op_name)";
/// Scopes below this depth count toward their ancestor at it: each scope
/// keeps its whole prefix, so a hostile op_name of 500,000 levels would
/// cost memory quadratic in its length (docs/limits.md). Frameworks' names
/// are a few levels deep.
static constexpr size_t kMaxScopeDepth = 32;

llvm::SmallVector<std::string> tessera::nameScopes(llvm::StringRef opName) {
  if (opName.empty())
    return {kNoOpName.str()};
  llvm::SmallVector<llvm::StringRef> parts;
  opName.split(parts, '/', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (parts.empty())
    return {opName.str()};
  // A name without '/' is its own node; otherwise its scopes are the
  // prefixes without the last component (the op itself).
  size_t depth =
      std::min(parts.size() == 1 ? 1 : parts.size() - 1, kMaxScopeDepth);
  llvm::SmallVector<std::string> scopes;
  std::string prefix;
  for (size_t i = 0; i < depth; ++i) {
    prefix += (i ? "/" : "") + parts[i].str();
    scopes.push_back(prefix);
  }
  return scopes;
}

namespace {

struct Counts {
  int64_t compatible = 0, incompatible = 0, notAssessed = 0;
  int64_t total() const { return compatible + incompatible + notAssessed; }
  void add(CompatStatus s) {
    if (s == CompatStatus::Ok)
      ++compatible;
    else if (s == CompatStatus::Incompatible)
      ++incompatible;
    else
      ++notAssessed;
  }
};

double percent(int64_t part, int64_t whole) {
  if (whole == 0)
    return 100.0;
  return std::round(1000.0 * part / whole) / 10.0;
}

/// Calls `fn(op, verdict)` for every assessed op that carries a verdict, in
/// program order.
template <typename Fn> void forEachVerdict(ModuleOp module, Fn fn) {
  module.walk([&](Operation *op) {
    if (!isAssessedOp(op))
      return;
    if (std::optional<CompatVerdict> v = getVerdict(op))
      fn(op, *v);
  });
}

json opEntry(Operation *op, const CompatVerdict &v) {
  OpIdentity id = identifyOp(op);
  json entry;
  entry["instruction"] = id.instruction;
  entry["op"] = op->getName().getStringRef().str();
  entry["op_type"] = id.opType;
  entry["op_name"] = id.opName;
  entry["function"] = id.function;
  entry["reason"] = v.reason;
  entry["detail"] = v.detail;
  entry["hint"] = v.hint;
  entry["location"] = id.location;
  entry["source"] = id.source;
  return entry;
}

} // namespace

json tessera::buildCompatReport(ModuleOp module, llvm::StringRef targetName) {
  Counts totals;
  std::map<std::string, int64_t> byReason;
  std::map<std::string, Counts> scopes;
  std::map<std::string, Counts> byOp;
  json incompatibleOps = json::array(), hostOps = json::array(),
       rewrittenOps = json::array();
  forEachVerdict(module, [&](Operation *op, const CompatVerdict &v) {
    totals.add(v.status);
    byOp[op->getName().stripDialect().str()].add(v.status);
    OpIdentity id = identifyOp(op);
    for (const std::string &scope : nameScopes(id.opName))
      scopes[scope].add(v.status);
    if (v.status == CompatStatus::Incompatible) {
      ++byReason[v.reason];
      incompatibleOps.push_back(opEntry(op, v));
    } else if (v.status == CompatStatus::NotAssessed) {
      hostOps.push_back(opEntry(op, v));
    } else if (v.reason == compat_reason::Rewritten) {
      rewrittenOps.push_back(opEntry(op, v));
    }
  });

  json report;
  report["target"] = targetName.str();
  int64_t assessed = totals.compatible + totals.incompatible;
  report["totals"] = {
      {"ops", totals.total()},
      {"compatible", totals.compatible},
      {"incompatible", totals.incompatible},
      {"not_assessed", totals.notAssessed},
      {"compatible_percent", percent(totals.compatible, assessed)}};
  report["by_reason"] = json::object();
  for (auto &[reason, n] : byReason)
    report["by_reason"][reason] = n;
  report["by_op"] = json::object();
  for (auto &[name, c] : byOp)
    report["by_op"][name] = {{"compatible", c.compatible},
                             {"incompatible", c.incompatible},
                             {"not_assessed", c.notAssessed}};
  json scopeList = json::array();
  for (auto &[name, c] : scopes) {
    int64_t depth = 1 + llvm::count(name, '/');
    if (name == kNoOpName)
      depth = 1;
    scopeList.push_back(
        {{"name", name},
         {"depth", depth},
         {"ops", c.total()},
         {"compatible", c.compatible},
         {"incompatible", c.incompatible},
         {"not_assessed", c.notAssessed},
         {"compatible_percent", percent(c.compatible, c.total())},
         {"incompatible_percent", percent(c.incompatible, c.total())},
         {"not_assessed_percent", percent(c.notAssessed, c.total())}});
  }
  report["scopes"] = std::move(scopeList);
  report["incompatible_ops"] = std::move(incompatibleOps);
  report["not_assessed_ops"] = std::move(hostOps);
  report["rewritten_ops"] = std::move(rewrittenOps);
  if (auto precision =
          module->getAttrOfType<tgraph::PrecisionAttr>(kPrecisionAttr)) {
    auto typeName = [](Type t) { return hloDtypeName(t); };
    report["precision"] = {{"policy", precision.getPolicy().str()},
                           {"from", typeName(precision.getFrom())},
                           {"to", typeName(precision.getTo())},
                           {"ops", precision.getOps()},
                           {"converts", precision.getConverts()},
                           {"roundings", precision.getRoundings()},
                           {"bytes_added", precision.getBytesAdded()}};
  }
  return report;
}

//===----------------------------------------------------------------------===//
// DOT
//===----------------------------------------------------------------------===//

static std::string dotQuote(llvm::StringRef s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out + "\"";
}

static std::string nodeAtDepth(llvm::StringRef opName, unsigned depth) {
  llvm::SmallVector<std::string> scopes = nameScopes(opName);
  return scopes[std::min<size_t>(depth, scopes.size()) - 1];
}

void tessera::writeCompatDot(const json &report, ModuleOp module,
                             unsigned depth, llvm::raw_ostream &os) {
  // Node of each assessed op, at the requested depth.
  struct OpNode {
    Operation *op;
    std::string opName;
  };
  std::vector<OpNode> ops;
  forEachVerdict(module, [&](Operation *op, const CompatVerdict &) {
    ops.push_back({op, identifyOp(op).opName});
  });
  if (depth == 0) {
    // Auto: the first depth at which the graph splits into several nodes
    // (JAX names start with one `jit(fn)` scope that holds everything).
    depth = 1;
    for (unsigned d = 1; d <= 8; ++d) {
      std::set<std::string> nodes;
      for (OpNode &n : ops)
        nodes.insert(nodeAtDepth(n.opName, d));
      if (nodes.size() >= 2) {
        depth = d;
        break;
      }
    }
  }
  llvm::DenseMap<Operation *, std::string> nodeOf;
  std::map<std::string, Counts> counts;
  std::vector<std::string> order; // first-appearance order, for stable DOT
  for (OpNode &n : ops) {
    std::string node = nodeAtDepth(n.opName, depth);
    nodeOf[n.op] = node;
    auto [it, inserted] = counts.try_emplace(node);
    if (inserted)
      order.push_back(node);
    it->second.add(getVerdict(n.op)->status);
  }
  std::map<std::pair<std::string, std::string>, int64_t> edges;
  for (OpNode &n : ops)
    for (Value operand : n.op->getOperands())
      if (Operation *def = operand.getDefiningOp()) {
        auto it = nodeOf.find(def);
        if (it != nodeOf.end() && it->second != nodeOf[n.op])
          ++edges[{it->second, nodeOf[n.op]}];
      }

  os << "digraph compat {\n";
  os << "  label="
     << dotQuote("compatibility with " + report.value("target", std::string()))
     << ";\n";
  os << "  rankdir=TB;\n";
  os << "  node [shape=box, fontname=\"Helvetica\"];\n";
  for (const std::string &node : order) {
    const Counts &c = counts[node];
    struct Part {
      const char *color, *what;
      int64_t n;
    } parts[] = {{"#4caf50", "ok", c.compatible},
                 {"#e53935", "incompatible", c.incompatible},
                 {"#9e9e9e", "on host", c.notAssessed}};
    std::string fill, label = node + "\\n";
    unsigned used = 0;
    for (const Part &p : parts) {
      if (!p.n)
        continue;
      double frac = static_cast<double>(p.n) / c.total();
      std::string f;
      llvm::raw_string_ostream fs(f);
      fs << (used ? ":" : "") << p.color << ";" << llvm::format("%.3f", frac);
      fill += f;
      std::string l;
      llvm::raw_string_ostream ls(l);
      ls << (used ? ", " : "") << llvm::format("%.1f", 100.0 * frac) << "% "
         << p.what;
      label += l;
      ++used;
    }
    label += " (" + std::to_string(c.total()) + " ops)";
    os << "  " << dotQuote(node) << " [label=\"";
    for (char ch : label) // `\n` sequences are already DOT escapes.
      os << (ch == '"' ? "\\\"" : std::string(1, ch));
    os << "\", style=" << (used > 1 ? "striped" : "filled") << ", fillcolor=\""
       << fill << "\"];\n";
  }
  for (auto &[edge, n] : edges)
    os << "  " << dotQuote(edge.first) << " -> " << dotQuote(edge.second)
       << (n > 1 ? " [penwidth=2]" : "") << ";\n";
  os << "}\n";
}

//===----------------------------------------------------------------------===//
// Text summary
//===----------------------------------------------------------------------===//

void tessera::writeCompatSummary(const json &report, llvm::raw_ostream &os,
                                 unsigned maxListed) {
  const json &t = report["totals"];
  int64_t ops = t["ops"], ok = t["compatible"], bad = t["incompatible"],
          host = t["not_assessed"];
  os << "Compatibility with " << report.value("target", std::string()) << ": "
     << llvm::format("%.1f", t["compatible_percent"].get<double>()) << "% of "
     << (ok + bad) << " assessed ops (" << ok << " ok, " << bad
     << " incompatible, " << host << " placed on host; " << ops
     << " ops in all)\n";
  // Reports written before rewrites existed have no such list.
  if (const auto it = report.find("rewritten_ops");
      it != report.end() && !it->empty()) {
    os << "Compatible after an exact rewrite the compiler makes:\n";
    for (size_t i = 0; i < it->size() && i < maxListed; ++i) {
      const json &e = (*it)[i];
      os << "  " << e["instruction"].get<std::string>() << ": "
         << e["detail"].get<std::string>() << "\n";
    }
    if (it->size() > maxListed)
      os << "  ... " << it->size() - maxListed << " more\n";
  }
  if (std::string line = precisionLine(report); !line.empty())
    os << line << "\n";
  if (bad == 0)
    return;
  os << "Incompatible by reason:\n";
  for (auto &[reason, n] : report["by_reason"].items())
    os << "  " << llvm::left_justify(reason, 24) << n.get<int64_t>() << "\n";

  // Scopes that hold incompatible ops, least compatible first.
  std::vector<const json *> scopes;
  for (const json &s : report["scopes"])
    if (s["incompatible"].get<int64_t>() > 0)
      scopes.push_back(&s);
  std::stable_sort(scopes.begin(), scopes.end(),
                   [](const json *a, const json *b) {
                     return (*a)["compatible_percent"].get<double>() <
                            (*b)["compatible_percent"].get<double>();
                   });
  os << "Name scopes with incompatible ops:\n";
  for (size_t i = 0; i < scopes.size() && i < maxListed; ++i) {
    const json &s = *scopes[i];
    os << "  " << llvm::left_justify(s["name"].get<std::string>(), 40) << " "
       << llvm::format("%5.1f", s["compatible_percent"].get<double>())
       << "% ok (" << s["compatible"].get<int64_t>() << "/"
       << s["ops"].get<int64_t>() << ")\n";
  }
  if (scopes.size() > maxListed)
    os << "  ... " << scopes.size() - maxListed << " more\n";

  os << "Incompatible ops:\n";
  const json &list = report["incompatible_ops"];
  for (size_t i = 0; i < list.size() && i < maxListed; ++i) {
    const json &e = list[i];
    std::string name = e["instruction"].get<std::string>();
    if (name.empty())
      name = e["op"].get<std::string>();
    os << "  " << name;
    if (!e["op_name"].get<std::string>().empty())
      os << " (" << e["op_name"].get<std::string>() << ")";
    os << ": " << e["reason"].get<std::string>() << ": "
       << e["detail"].get<std::string>();
    if (!e["hint"].get<std::string>().empty())
      os << "; fix: " << e["hint"].get<std::string>();
    std::string where = e["source"].get<std::string>();
    if (where.empty())
      where = e["location"].get<std::string>();
    if (!where.empty())
      os << " [" << where << "]";
    os << "\n";
  }
  if (list.size() > maxListed)
    os << "  ... " << list.size() - maxListed << " more\n";
}
