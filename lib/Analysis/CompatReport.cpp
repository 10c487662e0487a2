//===- CompatReport.cpp - compatibility reports ---------------------------===//

#include "tessera/Analysis/CompatReport.h"

#include "tessera/Analysis/Compat.h"
#include "tessera/Analysis/OpIdentity.h"
#include "tessera/Analysis/PrecisionLine.h"
#include "tessera/Dialect/TGraph/Transforms/NormalizePrecision.h"
#include "tessera/Support/JsonBuild.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"

#include <cmath>
#include <map>
#include <set>

using namespace mlir;
using namespace tessera;
using json = nlohmann::ordered_json;
using tessera::json_build::object;
using tessera::json_build::put;

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

/// Calls `fn` on each of nameScopes(opName), as views of `opName` when its
/// components are all non-empty (every framework's names): the report
/// counts every op under each of its scopes, and a string per scope per op
/// was most of its cost.
static void forEachNameScope(llvm::StringRef opName,
                             llvm::function_ref<void(llvm::StringRef)> fn) {
  if (opName.empty() || opName.starts_with("/") || opName.ends_with("/") ||
      opName.contains("//")) {
    for (const std::string &scope : nameScopes(opName))
      fn(scope);
    return;
  }
  size_t parts = llvm::count(opName, '/') + 1;
  size_t depth = std::min(parts == 1 ? 1 : parts - 1, kMaxScopeDepth);
  size_t end = 0;
  for (size_t i = 0; i < depth; ++i) {
    end = opName.find('/', i == 0 ? 0 : end + 1);
    fn(opName.take_front(end));
  }
}

void CompatCounts::add(CompatStatus s) {
  if (s == CompatStatus::Ok)
    ++compatible;
  else if (s == CompatStatus::Incompatible)
    ++incompatible;
  else
    ++notAssessed;
}

double tessera::compatPercent(int64_t part, int64_t whole) {
  if (whole == 0)
    return 100.0;
  return std::round(1000.0 * part / whole) / 10.0;
}

/// Calls `fn(op, verdict)` for every assessed op that carries a verdict, in
/// program order.
template <typename Fn> static void forEachVerdict(ModuleOp module, Fn fn) {
  module.walk([&](Operation *op) {
    if (!isAssessedOp(op))
      return;
    if (std::optional<CompatVerdict> v = getVerdict(op))
      fn(op, *v);
  });
}

static CompatOpEntry opEntry(Operation *op, const OpIdentity &id,
                             const CompatVerdict &v) {
  return {id.instruction, op->getName().getStringRef().str(),
          id.opType,      id.opName,
          id.function,    v.reason,
          v.detail,       v.hint,
          id.location,    id.source};
}

CompatReport tessera::computeCompatReport(ModuleOp module,
                                          llvm::StringRef targetName) {
  CompatReport r;
  r.target = targetName.str();
  // Counted by hash, then put in name order (std::map's, which the
  // report keeps).
  llvm::StringMap<CompatCounts> scopes, byOp;
  forEachVerdict(module, [&](Operation *op, const CompatVerdict &v) {
    r.totals.add(v.status);
    byOp[op->getName().stripDialect()].add(v.status);
    llvm::StringRef opName;
    if (auto s = op->getAttrOfType<StringAttr>(tgraph::kOpNameAttr))
      opName = s.getValue();
    forEachNameScope(
        opName, [&](llvm::StringRef scope) { scopes[scope].add(v.status); });
    // The rest of an op's identity (its location as text) only for the
    // ops listed.
    if (v.status == CompatStatus::Incompatible) {
      ++r.byReason[v.reason];
      r.incompatibleOps.push_back(opEntry(op, identifyOp(op), v));
    } else if (v.status == CompatStatus::NotAssessed) {
      r.notAssessedOps.push_back(opEntry(op, identifyOp(op), v));
    } else if (v.reason == compat_reason::Rewritten) {
      r.rewrittenOps.push_back(opEntry(op, identifyOp(op), v));
    }
  });
  for (const auto &entry : byOp)
    r.byOp[entry.getKey().str()] = entry.getValue();
  std::vector<llvm::StringRef> names;
  names.reserve(scopes.size());
  for (const auto &entry : scopes)
    names.push_back(entry.getKey());
  llvm::sort(names);
  for (llvm::StringRef name : names) {
    int64_t depth = name == kNoOpName ? 1 : 1 + llvm::count(name, '/');
    r.scopes.push_back({name.str(), depth, scopes.lookup(name)});
  }
  if (auto precision =
          module->getAttrOfType<tgraph::PrecisionAttr>(kPrecisionAttr))
    r.precision = PrecisionSummary{
        precision.getPolicy().str(),     hloDtypeName(precision.getFrom()),
        hloDtypeName(precision.getTo()), precision.getOps(),
        precision.getConverts(),         precision.getRoundings(),
        precision.getBytesAdded()};
  return r;
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

static json opEntryJson(const CompatOpEntry &e) {
  return object<json>("instruction", e.instruction, "op", e.op, "op_type",
                      e.opType, "op_name", e.opName, "function", e.function,
                      "reason", e.reason, "detail", e.detail, "hint", e.hint,
                      "location", e.location, "source", e.source);
}

static json opListJson(const std::vector<CompatOpEntry> &entries) {
  json list = json::array();
  list.get_ref<json::array_t &>().reserve(entries.size());
  for (const CompatOpEntry &e : entries)
    list.push_back(opEntryJson(e));
  return list;
}

json tessera::compatTotalsJson(const CompatReport &r) {
  return object<json>(
      "ops", r.totals.total(), "compatible", r.totals.compatible,
      "incompatible", r.totals.incompatible, "not_assessed",
      r.totals.notAssessed, "compatible_percent", r.compatiblePercent());
}

json tessera::compatReportJson(const CompatReport &r) {
  // Built member by member (JsonBuild.h): an op list of a large model is
  // thousands of entries.
  json report = json::object();
  put(report, "target", r.target);
  put(report, "totals", compatTotalsJson(r));
  json byReason = json::object();
  for (auto &[reason, n] : r.byReason)
    put(byReason, reason.c_str(), n);
  put(report, "by_reason", std::move(byReason));
  json byOp = json::object();
  for (auto &[name, c] : r.byOp)
    put(byOp, name.c_str(),
        object<json>("compatible", c.compatible, "incompatible", c.incompatible,
                     "not_assessed", c.notAssessed));
  put(report, "by_op", std::move(byOp));
  json scopeList = json::array();
  scopeList.get_ref<json::array_t &>().reserve(r.scopes.size());
  for (const CompatScope &s : r.scopes) {
    const CompatCounts &c = s.counts;
    scopeList.push_back(object<json>(
        "name", s.name, "depth", s.depth, "ops", c.total(), "compatible",
        c.compatible, "incompatible", c.incompatible, "not_assessed",
        c.notAssessed, "compatible_percent",
        compatPercent(c.compatible, c.total()), "incompatible_percent",
        compatPercent(c.incompatible, c.total()), "not_assessed_percent",
        compatPercent(c.notAssessed, c.total())));
  }
  put(report, "scopes", std::move(scopeList));
  put(report, "incompatible_ops", opListJson(r.incompatibleOps));
  put(report, "not_assessed_ops", opListJson(r.notAssessedOps));
  put(report, "rewritten_ops", opListJson(r.rewrittenOps));
  if (const std::optional<PrecisionSummary> &p = r.precision)
    put(report, "precision",
        object<json>("policy", p->policy, "from", p->from, "to", p->to, "ops",
                     p->ops, "converts", p->converts, "roundings", p->roundings,
                     "bytes_added", p->bytesAdded));
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

void tessera::writeCompatDot(const CompatReport &report, ModuleOp module,
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
  std::map<std::string, CompatCounts> counts;
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
  os << "  label=" << dotQuote("compatibility with " + report.target) << ";\n";
  os << "  rankdir=TB;\n";
  os << "  node [shape=box, fontname=\"Helvetica\"];\n";
  for (const std::string &node : order) {
    const CompatCounts &c = counts[node];
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

void tessera::writeCompatSummary(const CompatReport &report,
                                 llvm::raw_ostream &os, unsigned maxListed) {
  const CompatCounts &t = report.totals;
  int64_t ok = t.compatible, bad = t.incompatible;
  os << "Compatibility with " << report.target << ": "
     << llvm::format("%.1f", report.compatiblePercent()) << "% of "
     << (ok + bad) << " assessed ops (" << ok << " ok, " << bad
     << " incompatible, " << t.notAssessed << " placed on host; " << t.total()
     << " ops in all)\n";
  if (!report.rewrittenOps.empty()) {
    os << "Compatible after an exact rewrite the compiler makes:\n";
    const std::vector<CompatOpEntry> &list = report.rewrittenOps;
    for (size_t i = 0; i < list.size() && i < maxListed; ++i)
      os << "  " << list[i].instruction << ": " << list[i].detail << "\n";
    if (list.size() > maxListed)
      os << "  ... " << list.size() - maxListed << " more\n";
  }
  if (report.precision)
    os << precisionLine(*report.precision) << "\n";
  if (bad == 0)
    return;
  os << "Incompatible by reason:\n";
  for (auto &[reason, n] : report.byReason)
    os << "  " << llvm::left_justify(reason, 24) << n << "\n";

  // Scopes that hold incompatible ops, least compatible first.
  std::vector<const CompatScope *> scopes;
  for (const CompatScope &s : report.scopes)
    if (s.counts.incompatible > 0)
      scopes.push_back(&s);
  auto percentOk = [](const CompatScope *s) {
    return compatPercent(s->counts.compatible, s->counts.total());
  };
  std::stable_sort(scopes.begin(), scopes.end(),
                   [&](const CompatScope *a, const CompatScope *b) {
                     return percentOk(a) < percentOk(b);
                   });
  os << "Name scopes with incompatible ops:\n";
  for (size_t i = 0; i < scopes.size() && i < maxListed; ++i) {
    const CompatScope &s = *scopes[i];
    os << "  " << llvm::left_justify(s.name, 40) << " "
       << llvm::format("%5.1f", percentOk(&s)) << "% ok ("
       << s.counts.compatible << "/" << s.counts.total() << ")\n";
  }
  if (scopes.size() > maxListed)
    os << "  ... " << scopes.size() - maxListed << " more\n";

  os << "Incompatible ops:\n";
  const std::vector<CompatOpEntry> &list = report.incompatibleOps;
  for (size_t i = 0; i < list.size() && i < maxListed; ++i) {
    const CompatOpEntry &e = list[i];
    os << "  " << (e.instruction.empty() ? e.op : e.instruction);
    if (!e.opName.empty())
      os << " (" << e.opName << ")";
    os << ": " << e.reason << ": " << e.detail;
    if (!e.hint.empty())
      os << "; fix: " << e.hint;
    const std::string &where = e.source.empty() ? e.location : e.source;
    if (!where.empty())
      os << " [" << where << "]";
    os << "\n";
  }
  if (list.size() > maxListed)
    os << "  ... " << list.size() - maxListed << " more\n";
}
