//===- Dumper.h - The TESSERA_FLAGS dump environment ------------*- C++ -*-===//
//
// Writes the IR dumps the --dump_* flags ask for (docs/compile.md):
//   module_XXXX.<module>.before_optimizations.mlir        (always, when on)
//   module_XXXX.YYYY.<TARGET>.after_<p>.before_<next>.<ext> (--dump_pass_re)
//   module_XXXX.<module>.after_optimizations.mlir         (always, when on)
//   module_XXXX.<module>.after_optimizations-<report>     (reports that exist)
// Names come from DumpNames.h, so user-controlled module, target and pass
// names are sanitized. Every file is written atomically. Dumps are a
// debugging aid: unlike the compile's outputs they are kept when the compile
// fails (the IR before the failing pass is what one wants to see).
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_COMPILE_DUMPER_H
#define TESSERA_COMPILE_DUMPER_H

#include "tessera/Trace/Flags.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "llvm/Support/Regex.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessera {

/// A file written beside the final dump: "<after_optimizations name><suffix>".
struct DumpSideFile {
  std::string suffix; ///< e.g. "-compat-summary.txt"
  std::string contents;
};

/// Graphviz dot of the op graph: one cluster per function, one node per op
/// in a function body (ops with regions are one node), edges along SSA uses.
void writeOpGraphDot(mlir::ModuleOp module, llvm::StringRef title,
                     llvm::raw_ostream &os);

/// Dumps of one process. Create once; call beginModule for each compile.
class Dumper {
public:
  /// Warnings (a dump that cannot be written) go to `diag`; a failed dump
  /// never fails the compile.
  Dumper(const TesseraFlags &flags, std::string toolName,
         llvm::raw_ostream &diag);
  ~Dumper();

  bool enabled() const { return !flags.dumpTo.empty(); }

  /// Starts a module: decides, from --dump_module_re and
  /// --dump_max_modules, whether it is dumped. `pipeline` lists the
  /// top-level pass names in order (for the before_<next> part).
  void beginModule(int64_t moduleId, llvm::StringRef moduleName,
                   llvm::StringRef target, std::vector<std::string> pipeline);
  bool dumpingModule() const { return active; }

  void dumpBeforeOptimizations(mlir::ModuleOp module);
  void dumpAfterOptimizations(mlir::ModuleOp module,
                              llvm::ArrayRef<DumpSideFile> sideFiles);

  /// The per-pass dump instrumentation of the current module, or null when
  /// no per-pass dumps are due (no --dump_pass_re, or module not dumped).
  std::unique_ptr<mlir::PassInstrumentation> createPassInstrumentation();

  /// Called by the instrumentation at a boundary between top-level passes.
  void dumpBoundary(mlir::ModuleOp module, llvm::StringRef afterPass,
                    llvm::StringRef beforePass);
  bool passSelected(llvm::StringRef passName) const;
  const std::vector<std::string> &pipeline() const { return passes; }

  /// Files written so far (for tests and the progress line).
  const std::vector<std::string> &writtenFiles() const { return written; }

private:
  void writeDump(const std::string &fileName, llvm::StringRef contents);
  std::string printModule(mlir::ModuleOp module) const;

  TesseraFlags flags;
  std::string toolName;
  llvm::raw_ostream &diag;
  std::optional<llvm::Regex> passRe, moduleRe;
  int64_t modulesDumped = 0;

  // The current module.
  bool active = false;
  int64_t moduleId = 0;
  std::string moduleName, target;
  std::vector<std::string> passes;
  int64_t step = 0;
  int64_t timestampMicros = 0;
  std::vector<std::string> written;
};

} // namespace tessera

#endif // TESSERA_COMPILE_DUMPER_H
