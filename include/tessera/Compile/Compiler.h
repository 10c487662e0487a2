//===- Compiler.h - Compile one module: pipeline, sink, dumps ---*- C++ -*-===//
//
// The core of tessera-compile, usable from other drivers and tests: runs the
// compile pipeline on a module through a PassManager carrying the pass
// timeline, dump and progress instrumentations, then hands the results to
// the report sink (events, reports) and the dumper. It never writes the
// compiled output itself: the driver decides where that goes.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_COMPILE_COMPILER_H
#define TESSERA_COMPILE_COMPILER_H

#include "tessera/Compile/Dumper.h"
#include "tessera/Dialect/TGraph/Transforms/NormalizePrecision.h"
#include "tessera/Target/Target.h"
#include "tessera/Trace/ChromeTrace.h"
#include "tessera/Trace/ReportSink.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tessera {

namespace memory {
struct MemoryAnalysis;
class ShareCache;
} // namespace memory

/// Compile options that are not TESSERA_FLAGS (tessera-compile's own).
struct CompileOptions {
  /// --target: a preset name or a JSON file; empty = the default preset.
  /// The passes resolve it themselves, so it must name the description the
  /// Compiler is given: Compiler::compile refuses a mismatch.
  std::string target;
  /// --host-ops: regex of ops placed on the host.
  std::string hostOps;
  /// --compat-fail-on: none | incompatible.
  std::string compatFailOn = "none";
  /// --precision-policy: what a type the target lacks is computed in.
  PrecisionPolicy precisionPolicy = PrecisionPolicy::Bf16ToF32;
  /// --chips: chips a replica's program spans (0: automatic).
  int64_t chips = 0;
  /// --placement: auto | stages | spread | mixed (tgraph-to-tile's).
  std::string placement = "auto";
  /// --recompute_distance: tgraph-recompute's distance (0: off).
  int64_t recomputeDistance = 0;
  /// Takes the memory analysis tgraph-to-tile made of the program it kept
  /// (its search for the chips allocates each try), so the compile does
  /// not allocate the program twice. Set by the compiler for its own run.
  std::function<void(mlir::Operation *program, memory::MemoryAnalysis &&)>
      keepAnalysis;
  /// Works out the shares of the buffers tgraph-to-tile makes as it makes
  /// them, for the memory analyses (memory::ShareCache). Set by the
  /// compiler for its own run when it has a thread to spare.
  memory::ShareCache *shares = nullptr;
  /// Print each pass as it starts (a terminal, or --show_progress_bar).
  bool showProgress = false;
  /// How long a compile runs before its progress shows (0: at once, as
  /// --show_progress_bar asks; a terminal alone waits 2 s).
  std::chrono::milliseconds progressDelay{0};
  /// Leave the reports' JSON objects to the process's exit rather than
  /// free them when the compile returns (they stay reachable, so leak
  /// checkers stay quiet): for a tool that exits after compiling, as
  /// tessera-compile does. Freeing a 30k-op compile's reports took 0.17 s.
  bool keepReportsUntilExit = false;
  /// Count each pass's ops before and after it for the pass timeline
  /// (the COMPILE_END event's and the compile trace's). A tool that writes
  /// neither can turn it off: the counts walk the module twice per pass.
  bool countPassOps = true;
};

/// One step of the compile pipeline: its pass name and how to create it.
struct PipelineStep {
  std::string name;
  std::function<std::unique_ptr<mlir::Pass>(const CompileOptions &)> create;
};

/// The compile pipeline for `options`, in order: the steps that run (an
/// option that is off, such as recomputation, adds none).
std::vector<PipelineStep> compilePipeline(const CompileOptions &options);

/// The name a module is known by in events, reports and dumps: the HLO
/// module name the importer records (`tgraph.module_name`), else the
/// module's symbol name, else `fallback` (the input file's stem).
std::string moduleNameOf(mlir::ModuleOp module, llvm::StringRef fallback);

/// What a successful compile produced.
struct CompileOutput {
  std::string moduleName;
  int64_t moduleId = 0;
  /// The module as MLIR bytecode with --serialized_graph, else empty.
  std::string serializedProgram;
  /// The executable file's bytes (runtime/Format, docs/executable.md);
  /// empty from reuseCached(), whose bytes stay in the cache hit.
  std::string executable;
  /// The vertex graph as DOT when save_vertex_graph is set, else empty.
  std::string vertexGraphDot;
};

class Compiler {
public:
  Compiler(const TesseraFlags &flags, CompileOptions options,
           const TargetDescription &target, ReportSink &sink, Dumper &dumper,
           llvm::raw_ostream &progress);

  /// Compiles `module` in place. On failure the diagnostics were emitted
  /// through the context and nothing but dumps was written.
  mlir::FailureOr<CompileOutput> compile(mlir::ModuleOp module,
                                         llvm::StringRef fallbackName);

  /// Reports an executable taken from the executable cache as the compile
  /// of module `moduleName` that began at `start`: COMPILE_BEGIN and
  /// COMPILE_END with `cached` set and no reports or passes, and a span
  /// without passes. No pipeline runs, nothing is dumped. The output's
  /// `executable` is empty: the bytes stay in the caller's cache hit, not
  /// copied (10 MB for bert, a tenth of a hit's time).
  llvm::Expected<CompileOutput>
  reuseCached(llvm::StringRef moduleName,
              std::chrono::steady_clock::time_point start);

  /// One span per compile so far, for --compile_trace.
  llvm::ArrayRef<CompileSpan> spans() const { return compileSpans; }
  /// The Unix time of the spans' time 0.
  int64_t originUnixNs() const { return originUnix; }

private:
  TesseraFlags flags;
  CompileOptions options;
  const TargetDescription &target;
  ReportSink &sink;
  Dumper &dumper;
  llvm::raw_ostream &progress;
  /// Origin of the compile trace: the first compile's start.
  std::chrono::steady_clock::time_point origin;
  int64_t originUnix;
  std::vector<CompileSpan> compileSpans;
  /// Why options.target and `target` disagree (compile() refuses then);
  /// empty when they agree.
  std::string targetMismatch;
};

} // namespace tessera

#endif // TESSERA_COMPILE_COMPILER_H
