//===- Dumper.cpp - The TESSERA_FLAGS dump environment --------------------===//

#include "tessera/Compile/Dumper.h"

#include "tessera/Compile/Program.h"
#include "tessera/Trace/AtomicFile.h"
#include "tessera/Trace/DumpNames.h"
#include "tessera/Trace/ReportSink.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using namespace mlir;

namespace tessera {

/// Elements attrs with more elements than this print as
/// dense_resource<__elided__> unless --dump_large_constants (the same limit
/// tessera-opt uses by default).
static constexpr int64_t kLargeConstantElements = 16;

Dumper::Dumper(const TesseraFlags &flags, std::string toolName,
               raw_ostream &diag)
    : flags(flags), toolName(std::move(toolName)), diag(diag) {
  // The regexes were checked when the flags were parsed.
  if (!flags.dumpPassRe.empty())
    passRe.emplace(flags.dumpPassRe);
  if (!flags.dumpModuleRe.empty())
    moduleRe.emplace(flags.dumpModuleRe);
}

Dumper::~Dumper() = default;

void Dumper::beginModule(int64_t id, StringRef name, StringRef targetName,
                         std::vector<std::string> pipeline) {
  active = false;
  written.clear();
  moduleId = id;
  moduleName = name.str();
  target = targetName.str();
  passes = std::move(pipeline);
  step = 0;
  timestampMicros = unixTimeNs() / 1000;
  if (!enabled())
    return;
  if (moduleRe && !moduleRe->match(moduleName))
    return;
  if (flags.dumpMaxModules >= 0 && modulesDumped >= flags.dumpMaxModules)
    return;
  ++modulesDumped;
  active = true;
}

bool Dumper::passSelected(StringRef passName) const {
  return passRe && passRe->match(passName);
}

std::string Dumper::printModule(ModuleOp module) const {
  OpPrintingFlags printing;
  if (!flags.dumpLargeConstants)
    printing.elideLargeElementsAttrs(kLargeConstantElements);
  std::string text;
  raw_string_ostream os(text);
  module->print(os, printing);
  os << "\n";
  return text;
}

void Dumper::writeDump(const std::string &baseName, StringRef contents) {
  std::string fileName = flags.dumpIncludeTimestamp
                             ? dumpNameWithTimestamp(timestampMicros, baseName)
                             : baseName;
  if (flags.dumpTo == "-") {
    // stdout: a header per dump, like XLA; binary dumps would garble it.
    if (StringRef(fileName).ends_with(kProgramExtension)) {
      diag << toolName << ": note: not dumping binary '" << fileName
           << "' to stdout\n";
      return;
    }
    outs() << "// ----- " << fileName << " -----\n" << contents;
    outs().flush();
    written.push_back(fileName);
    return;
  }
  SmallString<256> path(flags.dumpTo);
  sys::path::append(path, fileName);
  AtomicWriteOptions options;
  options.createParentDirs = true;
  if (Error err = writeFileAtomically(path, contents, options)) {
    diag << toolName
         << ": warning: dump not written: " << toString(std::move(err)) << "\n";
    return;
  }
  written.push_back(path.str().str());
}

void Dumper::dumpBeforeOptimizations(ModuleOp module) {
  if (!active)
    return;
  writeDump(dumpNameBeforeOptimizations(moduleId, moduleName),
            printModule(module));
}

void Dumper::dumpAfterOptimizations(ModuleOp module,
                                    ArrayRef<DumpSideFile> sideFiles) {
  if (!active)
    return;
  writeDump(dumpNameAfterOptimizations(moduleId, moduleName),
            printModule(module));
  for (const DumpSideFile &side : sideFiles)
    writeDump(dumpNameAfterOptimizations(moduleId, moduleName, side.suffix),
              side.contents);
}

void Dumper::dumpBoundary(ModuleOp module, StringRef afterPass,
                          StringRef beforePass) {
  int64_t thisStep = step++;
  auto name = [&](StringRef ext) {
    return dumpNameForPass(moduleId, thisStep, target, afterPass, beforePass,
                           ext);
  };
  if (flags.dumpsText())
    writeDump(name("mlir"), printModule(module));
  if (flags.dumpAsDot) {
    std::string dot;
    raw_string_ostream os(dot);
    writeOpGraphDot(module, moduleName, os);
    writeDump(name("dot"), dot);
  }
  if (flags.dumpAsProto)
    writeDump(name(kProgramExtension), serializeProgram(module));
}

namespace {
/// Dumps at the boundaries between top-level passes whose name (on either
/// side) matches --dump_pass_re: before the first pass
/// (after_pipeline-start), after each pass (before_<next> or
/// before_pipeline-end). Nested passes run inside their parent and are not
/// boundaries of the module's pipeline.
class DumpInstrumentation : public PassInstrumentation {
public:
  explicit DumpInstrumentation(Dumper &dumper) : dumper(dumper) {}

  void runBeforePass(Pass *pass, Operation *op) override {
    if (depth++ != 0)
      return;
    auto module = dyn_cast<ModuleOp>(op);
    const std::vector<std::string> &names = dumper.pipeline();
    if (module && index == 0 && !names.empty() && dumper.passSelected(names[0]))
      dumper.dumpBoundary(module, "pipeline-start", names[0]);
  }

  void runAfterPass(Pass *pass, Operation *op) override {
    if (--depth != 0)
      return;
    const std::vector<std::string> &names = dumper.pipeline();
    size_t i = index++;
    auto module = dyn_cast<ModuleOp>(op);
    if (!module || i >= names.size())
      return;
    StringRef next = i + 1 < names.size() ? StringRef(names[i + 1])
                                          : StringRef("pipeline-end");
    if (dumper.passSelected(names[i]) ||
        (i + 1 < names.size() && dumper.passSelected(next)))
      dumper.dumpBoundary(module, names[i], next);
  }

  void runAfterPassFailed(Pass *, Operation *) override {
    --depth;
    ++index;
  }

private:
  Dumper &dumper;
  unsigned depth = 0;
  size_t index = 0;
};
} // namespace

std::unique_ptr<PassInstrumentation> Dumper::createPassInstrumentation() {
  if (!active || !passRe)
    return nullptr;
  return std::make_unique<DumpInstrumentation>(*this);
}

} // namespace tessera
