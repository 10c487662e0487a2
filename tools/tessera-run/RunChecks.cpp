//===- RunChecks.cpp - tessera-run's checks and .npy files -----------------===//
//
// The tables tessera-run prints when it judges a run (docs/runtime.md,
// "Checking a run"): one row per output or per op, PASS / UNSTABLE / FAIL.
//
//===----------------------------------------------------------------------===//

#include "RunChecks.h"

#include "tessera/Support/Npy.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <random>

using namespace llvm;

namespace tessera::run {

RunTimes summarizeTimes(ArrayRef<double> times) {
  RunTimes r{0, times[0], times[0]};
  for (double t : times) {
    r.mean += t;
    r.lo = std::min(r.lo, t);
    r.hi = std::max(r.hi, t);
  }
  r.mean /= times.size();
  return r;
}

std::string formatMs(double ms) {
  std::string s;
  raw_string_ostream os(s);
  if (ms < 1)
    os << format("%.3f ms", ms);
  else
    os << format("%.1f ms", ms);
  return s;
}

namespace {

void printCheckRow(const runner::OutputCheck &c, StringRef name) {
  outs() << format("  %-24s %-20s %12.3g %12.3g %10.3g  %s",
                   name.str().c_str(), c.type.c_str(), c.normErr,
                   c.maxRelErr, c.tolerance,
                   static_cast<const char *>(c.pass ? "PASS" : "FAIL"));
}

} // namespace

/// Prints the per-op check: every failing op (up to 20) in program order,
/// then the ops closest to their tolerance. Returns whether all passed.
bool printOpChecks(const runner::OpCheckSummary &summary) {
  std::vector<const runner::OpCheck *> failed, passed;
  for (const runner::OpCheck &c : summary.checks)
    (c.pass ? passed : failed).push_back(&c);
  outs() << "per-op check (each op on the device's own operand values): "
         << summary.checks.size() << " op(s) checked, " << failed.size()
         << " failed";
  auto unchecked = [](int64_t n, StringRef what) {
    if (n)
      outs() << ", " << n << " " << what;
  };
  unchecked(summary.skipped,
            "reading loop state or values not on the device");
  unchecked(summary.loopsNotRun, "loop(s) that ran no iteration");
  unchecked(summary.overwritten, "overwritten later");
  unchecked(summary.hostOps, "run on the host");
  unchecked(summary.hiddenInputs, "infeed/rng/custom-call");
  unchecked(summary.noBuffer, "without buffers");
  outs() << "\n  " << left_justify("op", 24) << " " << left_justify("type", 20)
         << "     norm err  max rel err  tolerance  result\n";
  auto row = [](const runner::OpCheck &c) {
    if (!c.error.empty()) {
      outs() << "  " << left_justify(c.name, 24) << " FAIL: " << c.error
             << "\n";
      return;
    }
    printCheckRow(c.worst, c.name);
    if (!c.location.empty())
      outs() << "  " << c.location;
    outs() << "\n";
  };
  for (size_t i = 0; i < std::min<size_t>(failed.size(), 20); ++i)
    row(*failed[i]);
  if (failed.size() > 20)
    outs() << "  ... and " << failed.size() - 20 << " more failing ops\n";
  // The passing ops nearest their bound show how much margin there is.
  auto ratio = [](const runner::OpCheck *c) {
    return c->worst.tolerance > 0 ? c->worst.normErr / c->worst.tolerance
                                  : 0.0;
  };
  llvm::stable_sort(passed, [&](const runner::OpCheck *a,
                                const runner::OpCheck *b) {
    return ratio(a) > ratio(b);
  });
  for (size_t i = 0; i < std::min<size_t>(passed.size(), 5); ++i)
    row(*passed[i]);
  outs() << (failed.empty() ? "per-op check: PASS\n" : "per-op check: FAIL\n");
  return failed.empty();
}

std::string npyPath(StringRef dir, StringRef stem, size_t k) {
  return (dir + "/" + stem + Twine(k) + ".npy").str();
}

/// Writes tensors as DIR/STEMk.npy, creating DIR.
void writeAll(StringRef dir, StringRef stem, ArrayRef<HostTensor> tensors) {
  if (std::error_code ec = sys::fs::create_directories(dir))
    fail(dir + ": cannot create: " + ec.message());
  for (auto [k, t] : llvm::enumerate(tensors))
    if (Error err = writeNpy(npyPath(dir, stem, k), t))
      fail(toString(std::move(err)));
}

namespace {

void printCheckHeader(StringRef what) {
  outs() << what << ":\n  " << left_justify("output", 16) << " "
         << left_justify("type", 20)
         << "  max abs err  max rel err     norm err  tolerance  result\n";
}

void printOutputRow(const runner::OutputCheck &c, StringRef result,
                    const HostTensor &got, const HostTensor &ref) {
  outs() << format("  %-16s %-20s %12.3g %12.3g %12.3g %10.3g  %s",
                   c.name.c_str(), c.type.c_str(), c.maxAbsErr, c.maxRelErr,
                   c.normErr, c.tolerance, result.str().c_str());
  if (!c.pass && c.firstMismatch >= 0)
    outs() << format(" (%lld elements out; first at %lld: got %.9g, "
                     "expected %.9g)",
                     (long long)c.mismatches, (long long)c.firstMismatch,
                     got.getDouble(c.firstMismatch),
                     ref.getDouble(c.firstMismatch));
  outs() << "\n";
}

} // namespace

/// --expected: the outputs against DIR/outk.npy, by the check's tolerances.
bool compareWithFiles(const exe::Executable &exe,
                      ArrayRef<HostTensor> outputs, StringRef dir,
                      ArrayRef<double> tolerances) {
  printCheckHeader(("compare with " + dir + "/out*.npy").str());
  bool allPass = true;
  for (const auto &[k, binding] : llvm::enumerate(exe.outputs())) {
    const HostTensor &got = outputs[k];
    Expected<HostTensor> ref =
        readNpyAs(npyPath(dir, "out", k), got.dtype, got.shape,
                  "output '" + binding.name() + "'");
    if (!ref)
      fail(toString(ref.takeError()));
    std::optional<double> tol;
    if (tolerances.size() == outputs.size())
      tol = tolerances[k];
    runner::OutputCheck c = runner::checkOutput(binding.name(), got, *ref, tol);
    allPass &= c.pass;
    printOutputRow(c, c.pass ? "PASS" : "FAIL", got, *ref);
  }
  outs() << (allPass ? "compare: PASS\n" : "compare: FAIL\n");
  return allPass;
}

namespace {

/// The reference on `inputs`: in f64, or (with `rounding`) rounding every
/// float result to its type stochastically.
Expected<std::vector<HostTensor>>
runReference(runner::GraphModule &graph, ArrayRef<HostTensor> inputs,
             uint64_t seed, std::mt19937_64 *rounding = nullptr) {
  runner::InfeedSource infeed(seed);
  interp::Options options =
      runner::referenceOptions(graph, seed, !rounding, infeed);
  options.stochasticRounding = rounding;
  return interp::interpretFunction(graph.entry(), inputs, options);
}

/// Stochastically rounded references compared with the f64 one, per
/// output that failed.
constexpr int kRoundingSamples = 2;

} // namespace

/// --check: every output against the f64 reference. An output out of
/// tolerance that rounding alone moves as far -- a reference whose every
/// float result is rounded to its type stochastically, i.e. correct to one
/// ulp per op, is out of tolerance too -- is UNSTABLE, not FAIL: a correct
/// device cannot be told from a wrong one by this output on these inputs.
/// It passes when the per-op check (`opsPass`) did.
bool checkOutputs(runner::GraphModule &graph, const exe::Executable &exe,
                  ArrayRef<HostTensor> inputs, ArrayRef<HostTensor> outputs,
                  uint64_t seed, std::optional<bool> opsPass, bool asWritten) {
  auto r0 = std::chrono::steady_clock::now();
  Expected<std::vector<HostTensor>> reference =
      runReference(graph, inputs, seed);
  auto r1 = std::chrono::steady_clock::now();
  if (!reference)
    fail("the reference interpreter: " + toString(reference.takeError()));
  if (reference->size() != outputs.size())
    fail("the reference gives " + Twine(reference->size()) +
         " outputs, the device " + Twine(outputs.size()));
  std::vector<double> tolerances = runner::outputTolerances(graph.entry());
  std::vector<runner::OutputCheck> checks;
  bool anyFloatFails = false;
  for (const auto &[k, binding] : llvm::enumerate(exe.outputs())) {
    std::optional<double> tol;
    if (tolerances.size() == outputs.size())
      tol = tolerances[k];
    checks.push_back(runner::checkOutput(binding.name(), outputs[k],
                                         (*reference)[k], tol));
    anyFloatFails |= !checks.back().pass && isFloat(outputs[k].dtype);
  }
  std::vector<std::vector<HostTensor>> rounded;
  for (int sample = 0; anyFloatFails && sample < kRoundingSamples; ++sample) {
    std::mt19937_64 gen(seed * kRoundingSamples + sample);
    Expected<std::vector<HostTensor>> r =
        runReference(graph, inputs, seed, &gen);
    if (!r)
      fail("the reference interpreter (stochastic rounding): " +
           toString(r.takeError()));
    rounded.push_back(std::move(*r));
  }

  printCheckHeader(
      std::string("check against the reference interpreter (f64, ") +
      (asWritten ? "on the model as written, before precision "
                   "normalization, "
                 : "") +
      formatMs(std::chrono::duration<double, std::milli>(r1 - r0).count()) +
      ")");
  bool allPass = true, anyUnstable = false;
  for (auto [k, c] : llvm::enumerate(checks)) {
    std::optional<double> spread;
    if (!c.pass && isFloat(outputs[k].dtype))
      for (const std::vector<HostTensor> &r : rounded)
        spread = std::max(spread.value_or(0.0),
                          runner::checkOutput(c.name, r[k], (*reference)[k],
                                              c.tolerance)
                              .normErr);
    bool unstable = spread && *spread > c.tolerance;
    anyUnstable |= unstable;
    allPass &= c.pass || (unstable && opsPass.value_or(false));
    printOutputRow(c, c.pass ? "PASS" : unstable ? "UNSTABLE" : "FAIL",
                   outputs[k], (*reference)[k]);
    if (spread)
      outs() << format("    rounding alone (the reference, stochastically "
                       "rounded) moves it by norm err %.3g%s\n",
                       *spread,
                       unstable ? ": not determined at this precision"
                                : "");
  }
  if (anyUnstable && !opsPass)
    outs() << "  (an UNSTABLE output cannot be judged whole; --check_ops "
              "checks each op alone)\n";
  else if (anyUnstable)
    outs() << "  (UNSTABLE outputs judged by the per-op check: "
           << (*opsPass ? "PASS" : "FAIL") << ")\n";
  outs() << (allPass ? "check: PASS\n" : "check: FAIL\n");
  return allPass;
}

} // namespace tessera::run
