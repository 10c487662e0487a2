//===- Runner.h - What tessera-run adds around the model device -*- C++ -*-===//
//
// The pieces of a run that need the compiler's dialects but not its passes:
// the executable's tgraph module (parsed back from its bytecode), the
// reference interpreter as the device's host-op evaluator and as the oracle
// of --check, the seeded data that stands in for inputs and for constants
// the source elided, and the comparison of device outputs with the
// reference (docs/runtime.md, "Checking a run").
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_RUNNER_RUNNER_H
#define TESSERA_RUNNER_RUNNER_H

#include "tessera/Interpreter/Interpreter.h"
#include "tessera/Runtime/Device.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>

namespace tessera::runner {

/// The executable's tgraph module, with its ops indexed by `tile.op_id`.
class GraphModule {
public:
  /// The executable's graph module; with `lowered` (that module, parsed),
  /// its `source_module` instead: the model as written, before precision
  /// normalization, whose elided constants get the data of their lowered
  /// counterparts.
  static llvm::Expected<std::unique_ptr<GraphModule>>
  parse(const exe::Executable &executable, llvm::StringRef source,
        const GraphModule *lowered = nullptr);

  mlir::ModuleOp module() { return *moduleOp; }
  /// The op with `tile.op_id` == id, or null.
  mlir::Operation *lookup(int64_t id) const { return byId.lookup(id); }
  /// The entry function.
  mlir::func::FuncOp entry() const { return entryFn; }
  /// The seeded-data stream of an elided constant: constantStream of its
  /// `tile.op_id` when the lowering gave it one (the device holds it), else
  /// of a number past every op id, by module order (a constant only the
  /// host evaluates, inside a computation run by a host op).
  uint64_t streamOf(mlir::Operation *constant) const;

private:
  GraphModule() = default;
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> moduleOp;
  llvm::DenseMap<int64_t, mlir::Operation *> byId;
  /// Streams of elided constants without a `tile.op_id`.
  llvm::DenseMap<mlir::Operation *, uint64_t> streams;
  mlir::func::FuncOp entryFn;
};

/// Seeded stand-in data: floats uniform in [-1, 1), integers in [0, 8),
/// pred 0/1. The same (seed, stream) always gives the same tensor.
HostTensor seededTensor(DType dtype, llvm::ArrayRef<int64_t> shape,
                        uint64_t seed, uint64_t stream);
/// The stream of parameter `index`, of the elided constant `opId` and of
/// the n-th infeed of a run (disjoint, so no two repeat each other's data).
inline uint64_t inputStream(int64_t index) { return 3 * uint64_t(index); }
inline uint64_t constantStream(int64_t opId) { return 3 * uint64_t(opId) + 1; }
inline uint64_t infeedStream(int64_t n) { return 3 * uint64_t(n) + 2; }

/// The data of the model's infeeds in one run: the n-th infeed leaf gets
/// seededTensor(..., infeedStream(n)), whether the device or the host (a
/// host op, the reference) runs it, so both see the same data.
class InfeedSource {
public:
  explicit InfeedSource(uint64_t seed) : seed(seed) {}
  HostTensor next(DType dtype, llvm::ArrayRef<int64_t> shape) {
    return seededTensor(dtype, shape, seed, infeedStream(count++));
  }
  /// Starts a run.
  void reset() { count = 0; }

private:
  uint64_t seed;
  int64_t count = 0;
};

/// Fills the executable's elided constants on `device` with seeded data;
/// returns how many there were.
int64_t fillElidedConstants(const runtime::Program &program,
                            runtime::Device &device, uint64_t seed);

/// Interpreter options whose elided constants get the same seeded data as
/// fillElidedConstants gives the device, and whose infeeds read `infeed`.
interp::Options referenceOptions(const GraphModule &graph, uint64_t seed,
                                 bool computeInF64, InfeedSource &infeed);

/// Runs host_compute ops with the reference interpreter, in the ops' own
/// precision (as the host computes them).
class InterpreterHostOps : public runtime::HostOpEvaluator {
public:
  InterpreterHostOps(GraphModule &graph, uint64_t seed, InfeedSource &infeed)
      : graph(graph), options(referenceOptions(graph, seed, false, infeed)) {}
  llvm::Expected<std::vector<HostTensor>>
  evaluate(const exe::HostCompute &op,
           llvm::ArrayRef<HostTensor> ins) override;
  /// The device a multi-replica run evaluates for (replica_id, ...).
  void setDevice(int64_t device) { options.device = device; }

private:
  GraphModule &graph;
  interp::Options options;
};

/// A device for `program` as tessera-run sets one up to check a run: host
/// ops evaluated by the reference, infeeds and elided constants given the
/// seeded data of `seed`, so the device and the reference see the same
/// values. For a second run beside a tool's own (--check_storage) and for
/// the fuzz targets.
class SeededDevice {
public:
  SeededDevice(const runtime::Program &program, GraphModule &graph,
               uint64_t seed, unsigned threads = 0);
  SeededDevice(const SeededDevice &) = delete;
  SeededDevice &operator=(const SeededDevice &) = delete;
  /// One run on `inputs` (the parameter leaves), its infeeds from the
  /// first again.
  llvm::Expected<std::vector<HostTensor>> run(llvm::ArrayRef<HostTensor> inputs,
                                              runtime::RunRecord &record);
  runtime::Device &device() { return *dev; }

private:
  // Before the device, which points at them.
  InfeedSource infeed;
  InterpreterHostOps hostOps;
  std::unique_ptr<runtime::Device> dev;
};

/// How one output compares with the reference.
struct OutputCheck {
  std::string name;
  std::string type;       ///< "f32[2,3]"
  double maxAbsErr = 0;   ///< max |got - ref|
  double maxRelErr = 0;   ///< max |got - ref| / |ref| over |ref| > 0
  double normErr = 0;     ///< max |got - ref| / max |ref|
  double tolerance = 0;   ///< the bound normErr must meet (0: exact)
  int64_t mismatches = 0; ///< elements over the bound (or not equal)
  int64_t firstMismatch = -1;
  bool pass = false;
};

/// The leaves of `type` as the interpreter and the executable number them:
/// tuples flattened depth-first, a tensor one, a token none.
int64_t leafCount(mlir::Type type);

/// The documented tolerance of an element type: 1e-4 for f32, 1e-5 for
/// f64, 4 ulp for f16 (4e-3) and bf16 (3.2e-2), 0 (exact) otherwise.
double toleranceOf(DType dtype);

/// Per output of `entry` (its results' leaves, in order): the tolerance of
/// the least precise float type its value is computed through -- every
/// result type of the ops it depends on, their regions included -- or of
/// its own type if that is looser. A bf16 matmul feeding an f32 output is
/// judged as bf16: the device rounds its result to bf16 like the graph
/// says, and an ulp of bf16 is a 0.4% change downstream.
std::vector<double> outputTolerances(mlir::func::FuncOp entry);

/// Compares a device output with the reference (which may be wider: f64 for
/// an f32 output). Floats pass when every |got - ref| is within
/// tolerance x max|ref| (NaN must meet NaN, inf the same inf); integers and
/// pred must be equal.
OutputCheck checkOutput(llvm::StringRef name, const HostTensor &got,
                        const HostTensor &ref,
                        std::optional<double> tolerance = std::nullopt);

/// Where two tensors of one type differ bit for bit: how many elements, and
/// the first (-1 when none). Floats are compared by their bytes, so NaNs
/// with the same payload are the same and 0.0 and -0.0 are not (a run in
/// other storage must give the same bits, not close values).
struct BitsDiff {
  int64_t differ = 0;
  int64_t first = -1;
};
BitsDiff diffBits(const HostTensor &a, const HostTensor &b);

/// One graph op checked alone: the reference interpreter applied to the
/// device's values of its operands, against the device's result.
struct OpCheck {
  int64_t opId = -1;
  std::string name;     ///< its HLO instruction
  std::string location; ///< "file:line", or ""
  bool pass = false;
  std::string error;    ///< the interpreter's, when it could not evaluate
  OutputCheck worst;    ///< its worst result leaf (a failing one first)
};

struct OpCheckSummary {
  /// In program order.
  std::vector<OpCheck> checks;
  /// Ops not checked: with operands not all on the device; run on the
  /// host (by the reference itself); with inputs besides their operands;
  /// without a buffer for every result leaf (constants folded away, values
  /// only the host holds).
  int64_t skipped = 0, hostOps = 0, hiddenInputs = 0, noBuffer = 0;
  /// Device loops whose last execution ran no iteration (their bodies hold
  /// nothing to check).
  int64_t loopsNotRun = 0;
  /// Ops whose result storage a later step reused (a loop's state updated
  /// in place over its initial value).
  int64_t overwritten = 0;
};

/// Checks every op the device computed -- of the entry's body and of the
/// condition and body of each loop the device ran (their last iteration) --
/// against the reference applied to the device's values of its operands.
/// Not checked: host ops, ops with inputs besides their operands (infeed,
/// rng, custom calls), ops reading loop-carried state (overwritten after
/// the last iteration read it), ops inside branches. `inputs` are the run's
/// parameter leaves, `record` its RunRecord. Needs a device loaded with
/// LoadOptions::privateStorage, run once.
OpCheckSummary checkOps(const GraphModule &graph,
                        const runtime::Program &program,
                        const runtime::Device &device,
                        const runtime::RunRecord &record,
                        llvm::ArrayRef<HostTensor> inputs, uint64_t seed);

} // namespace tessera::runner

#endif // TESSERA_RUNNER_RUNNER_H
