//===- RunChecks.h - tessera-run's checks and .npy files ---------*- C++ -*-===//
//
// What tessera-run prints when it judges a run: --check against the
// reference interpreter (with the UNSTABLE verdict), --check_ops op by op,
// --expected against another implementation's .npy files, --check_storage
// against a run in storage of every buffer's own; and the .npy directories
// of --save_inputs / --outputs.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TOOLS_TESSERA_RUN_RUNCHECKS_H
#define TESSERA_TOOLS_TESSERA_RUN_RUNCHECKS_H

#include "tessera/Runner/Runner.h"

#include <optional>
#include <string>

namespace tessera::run {

/// Prints "tessera-run: error: MESSAGE" and exits 1.
[[noreturn]] void fail(const llvm::Twine &message);

/// "0.123 ms" / "12.3 ms".
std::string formatMs(double ms);

/// The mean, least and greatest of run times (at least one).
struct RunTimes {
  double mean = 0, lo = 0, hi = 0;
};
RunTimes summarizeTimes(llvm::ArrayRef<double> times);

/// DIR/STEMk.npy.
std::string npyPath(llvm::StringRef dir, llvm::StringRef stem, size_t k);
/// Writes tensors as DIR/STEMk.npy, creating DIR.
void writeAll(llvm::StringRef dir, llvm::StringRef stem,
              llvm::ArrayRef<HostTensor> tensors);

/// Prints the per-op check; returns whether every op passed.
bool printOpChecks(const runner::OpCheckSummary &summary);

/// --expected: the outputs against DIR/outk.npy by the check tolerances;
/// prints the table, returns whether all passed.
bool compareWithFiles(const exe::Executable &exe,
                      llvm::ArrayRef<HostTensor> outputs, llvm::StringRef dir,
                      llvm::ArrayRef<double> tolerances);

/// --check: every output against the f64 reference, UNSTABLE outputs
/// judged by the per-op check's verdict (`opsPass`, when it ran); prints
/// the table, returns whether the run passes. `asWritten`: `graph` is the
/// executable's source module (the model before precision normalization).
bool checkOutputs(runner::GraphModule &graph, const exe::Executable &exe,
                  llvm::ArrayRef<HostTensor> inputs,
                  llvm::ArrayRef<HostTensor> outputs, uint64_t seed,
                  std::optional<bool> opsPass, bool asWritten = false);

/// --check_storage: `program` run again on `inputs`, in the other storage
/// than the run that gave `outputs` (that one had every buffer in storage
/// of its own when `mainIsPrivate`, else the allocator's offsets); prints
/// each output's verdict and returns whether every output is the same
/// bits (RunStorage.cpp).
bool checkStorage(const runtime::Program &program, bool mainIsPrivate,
                  runner::GraphModule &graph, llvm::ArrayRef<HostTensor> inputs,
                  llvm::ArrayRef<HostTensor> outputs, uint64_t seed,
                  unsigned threads);

} // namespace tessera::run

#endif // TESSERA_TOOLS_TESSERA_RUN_RUNCHECKS_H
