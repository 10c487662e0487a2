//===- Value.h - The interpreter's values -----------------------*- C++ -*-===//
//
// Private to lib/Interpreter. A Tensor holds floats as double and integers
// and pred as int64 (unsigned 64-bit values as their bits), so every op is
// written once over two storage kinds instead of once per element type.
// A Value is a tensor or a tuple of values; a token is the empty tuple.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_LIB_INTERPRETER_VALUE_H
#define TESSERA_LIB_INTERPRETER_VALUE_H

#include "tessera/Dialect/TGraph/IR/TGraph.h"
#include "tessera/Interpreter/Interpreter.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>

namespace tessera::interp {

struct Tensor {
  DType dtype = DType::F32;
  llvm::SmallVector<int64_t, 4> shape;
  std::vector<double> f;  ///< float element types
  std::vector<int64_t> i; ///< integer element types and pred

  Tensor() = default;
  Tensor(DType dtype, llvm::ArrayRef<int64_t> shape);

  bool isFloat() const { return tessera::isFloat(dtype); }
  int64_t size() const;
  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  /// Element `k` as a double / int64, whatever the storage.
  double getF(int64_t k) const { return isFloat() ? f[k] : double(i[k]); }
  int64_t getI(int64_t k) const { return isFloat() ? int64_t(f[k]) : i[k]; }
  /// Copies element `from` of `src` (same dtype) into element `to`.
  void copyFrom(int64_t to, const Tensor &src, int64_t from) {
    if (isFloat())
      f[to] = src.f[from];
    else
      i[to] = src.i[from];
  }
};

using TensorPtr = std::shared_ptr<const Tensor>;

struct Value {
  TensorPtr tensor;           ///< set for a tensor
  std::vector<Value> tuple;   ///< the elements of a tuple (or token)

  static Value of(Tensor t) {
    Value v;
    v.tensor = std::make_shared<const Tensor>(std::move(t));
    return v;
  }
  bool isTensor() const { return bool(tensor); }
  const Tensor &t() const { return *tensor; }
};

/// Row-major strides of `shape`.
llvm::SmallVector<int64_t, 4> stridesOf(llvm::ArrayRef<int64_t> shape);

using Index = llvm::SmallVector<int64_t, 6>;

/// Calls `fn(index, k)` for every element of `shape` in row-major order.
template <typename Fn> void forEachIndex(llvm::ArrayRef<int64_t> shape, Fn fn) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  Index index(shape.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    fn(llvm::ArrayRef<int64_t>(index), k);
    for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
}

/// The row-major offset of `index`.
inline int64_t linear(llvm::ArrayRef<int64_t> index,
                      llvm::ArrayRef<int64_t> strides) {
  int64_t k = 0;
  for (size_t d = 0; d < index.size(); ++d)
    k += index[d] * strides[d];
  return k;
}

/// Rounds floats to the element type (always for f16/bf16, for f32 unless
/// computing in f64) and wraps integers to their width.
void normalize(Tensor &t, const Options &options);
/// One value rounded or wrapped as `normalize` does.
double roundFloat(DType dtype, double v, const Options &options);
int64_t wrapInt(DType dtype, int64_t v);

/// The DType of a ranked tensor type, or an error naming `op`.
llvm::Expected<DType> dtypeOfTensor(mlir::Operation *op, mlir::Type type);

/// An error "LOC: 'tgraph.x': MESSAGE".
llvm::Error opError(mlir::Operation *op, const llvm::Twine &message);

/// Conversions between host tensors and interpreter tensors.
Tensor fromHost(const HostTensor &h);
HostTensor toHost(const Tensor &t, const Options &options);

//===----------------------------------------------------------------------===//
// Op families, one file each. Each takes the op and its operand values and
// returns its result value.
//===----------------------------------------------------------------------===//

class Interpreter;

/// Elementwise.cpp: unary, binary, compare, select, clamp, convert,
/// bitcast_convert, reduce_precision, is_finite.
llvm::Expected<Value> evalElementwise(mlir::Operation *op,
                                      llvm::ArrayRef<Value> operands,
                                      const Options &options);
/// Applies the binary elementwise op named `mnemonic` to scalars; used by
/// the reducers' fast path. Returns false for a mnemonic it does not know.
bool isFastReducer(llvm::StringRef mnemonic);
double reduceFloat(llvm::StringRef mnemonic, double a, double b);
int64_t reduceInt(llvm::StringRef mnemonic, DType dtype, int64_t a,
                  int64_t b);

/// Random.cpp: rng-bit-generator (imported as an unknown op).
llvm::Expected<Value> rngBitGenerator(tgraph::UnknownOp op,
                                      llvm::ArrayRef<Value> operands,
                                      const Options &options);

/// Random.cpp: Neuron's GELU custom calls (AwsNeuronGelu: exact GELU;
/// AwsNeuronGeluBackward: its derivative, which the graph multiplies by the
/// gradient itself).
llvm::Expected<Value> neuronGelu(tgraph::CustomCallOp op,
                                 llvm::ArrayRef<Value> operands,
                                 const Options &options);

/// Shape.cpp: data movement and indexing.
llvm::Expected<Value> evalShape(mlir::Operation *op,
                                llvm::ArrayRef<Value> operands,
                                Interpreter &interp);

/// Contraction.cpp: dot_general and convolution.
llvm::Expected<Value> evalContraction(mlir::Operation *op,
                                      llvm::ArrayRef<Value> operands,
                                      const Options &options);

/// Regions.cpp: collectives over several devices (Options::rendezvous):
/// all_reduce, all_gather, reduce_scatter, collective_permute.
llvm::Expected<Value> evalCollective(mlir::Operation *op,
                                     llvm::ArrayRef<Value> operands,
                                     Interpreter &interp);

/// Regions.cpp: reduce, reduce_window, select_and_scatter, sort, scatter,
/// all_reduce, reduce_scatter, and the batch norms.
llvm::Expected<Value> evalRegionOp(mlir::Operation *op,
                                   llvm::ArrayRef<Value> operands,
                                   Interpreter &interp);

/// The evaluator: environments, calls, control flow.
class Interpreter {
public:
  Interpreter(mlir::Operation *symbolScope, const Options &options)
      : options(options), scope(symbolScope) {}

  /// Evaluates `block` with `args` bound to its arguments and returns the
  /// operands of its terminator.
  llvm::Expected<std::vector<Value>> evalBlock(mlir::Block &block,
                                               llvm::ArrayRef<Value> args);
  /// Evaluates one op on its operand values.
  llvm::Expected<Value> evalOp(mlir::Operation *op,
                               llvm::ArrayRef<Value> operands);
  /// Calls the function named `callee`.
  llvm::Expected<std::vector<Value>> call(mlir::Operation *caller,
                                          llvm::StringRef callee,
                                          llvm::ArrayRef<Value> args);
  /// A tensor of `op`'s result type, checked against maxElements.
  llvm::Expected<Tensor> makeResult(mlir::Operation *op, mlir::Type type);

  const Options &options;
  /// Collectives this evaluation has met (Rendezvous's sequence).
  int64_t collectives = 0;

private:
  mlir::Operation *scope;
  llvm::DenseMap<mlir::Operation *, int64_t> rngCalls;
  int64_t callDepth = 0;
};

} // namespace tessera::interp

#endif // TESSERA_LIB_INTERPRETER_VALUE_H
