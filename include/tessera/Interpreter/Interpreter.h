//===- Interpreter.h - The reference interpreter of tgraph ------*- C++ -*-===//
//
// A plain evaluator of tgraph modules on the host, written from the HLO
// semantics and independent of the tile lowering: the oracle every
// correctness test compares the model device with, and the host's
// implementation of `host_compute`.
//
// Values are the leaves of the flattened argument and result types
// (tuples are flattened depth-first, tokens have no leaf), as the executable
// binds them. Floats are computed in double; with `computeInF64` an f32
// value keeps double precision between ops (an f64 reference), otherwise it
// is rounded to f32 after every op. f16 and bf16 are always rounded to their
// type after every op, as the model stores them.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_INTERPRETER_INTERPRETER_H
#define TESSERA_INTERPRETER_INTERPRETER_H

#include "tessera/Support/HostTensor.h"
#include "tessera/Support/Rendezvous.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <random>
#include <vector>

namespace tessera::interp {

struct Options {
  /// Keep f32 values in double between ops; results of f32 type come back
  /// as f64 tensors.
  bool computeInF64 = true;
  /// Largest tensor (elements) any op may produce; a bigger one is an error
  /// naming the op, not an allocation failure.
  int64_t maxElements = int64_t(1) << 28;
  /// Iterations after which a while loop is reported as not terminating.
  int64_t maxWhileIterations = int64_t(1) << 24;
  /// Seed of `rng`: op `k`'s n-th evaluation draws from a generator seeded
  /// with (seed, k, n), so the device's host and the reference agree.
  uint64_t seed = 0;
  /// The value of an elided constant (`tgraph.constant elided`); without it
  /// an elided constant is an error naming the op.
  std::function<llvm::Expected<HostTensor>(mlir::Operation *)> elidedConstant;
  /// Data for each leaf an `infeed` receives, in evaluation order; without
  /// it an infeed is an error naming the op.
  std::function<llvm::Expected<HostTensor>(mlir::Operation *infeed,
                                           DType dtype,
                                           llvm::ArrayRef<int64_t> shape)>
      infeed;
  /// Where `outfeed` sends its leaves; dropped when null.
  std::vector<HostTensor> *outfeed = nullptr;
  /// When set, every rounding of a float result to its type (f16, bf16,
  /// and f32 without computeInF64) goes to the neighbour above or below at
  /// random, with probability by distance: Monte Carlo arithmetic's model
  /// of an implementation correct to within one ulp per op. Comparing such
  /// runs with the reference measures how far rounding alone moves an
  /// output (tessera-run's UNSTABLE verdict).
  std::mt19937_64 *stochasticRounding = nullptr;
  /// A multi-replica run evaluates each device on its own thread: `device`
  /// is this one (replica * partitions + partition, CollectiveGroups.h),
  /// and the collectives meet the other devices' at `rendezvous`. Without
  /// one, a collective is one replica's (groups of one).
  int64_t device = 0;
  Rendezvous *rendezvous = nullptr;
};

/// Runs `func` on the leaves of its arguments and returns the leaves of its
/// results. Errors name the op and its location.
llvm::Expected<std::vector<HostTensor>>
interpretFunction(mlir::func::FuncOp func, llvm::ArrayRef<HostTensor> args,
                  const Options &options);

/// Evaluates one op (of a function of a module: calls resolve in it) on the
/// leaves of its operands and returns the leaves of its results.
llvm::Expected<std::vector<HostTensor>>
interpretOp(mlir::Operation *op, llvm::ArrayRef<HostTensor> operandLeaves,
            const Options &options);

/// The DType of an MLIR element type (i1 → pred, iN → sN, uiN → uN), or
/// nullopt for types the interpreter does not model.
std::optional<DType> dtypeOf(mlir::Type elementType);

} // namespace tessera::interp

#endif // TESSERA_INTERPRETER_INTERPRETER_H
