//===- Vertex.h - The model device's vertex library interface ----*- C++ -*-===//
//
// A compute set runs one vertex kind on each of its tiles. The library has
// one factory per kind (or kind family: `elementwise.*`, `reduce.*`, ...),
// which checks the compute set's operands and parameters at load and returns
// a Vertex; running it on a tile touches only that tile's parts of the
// operands, as the chip's vertices do. Kinds and their parameters are the
// lowering's (docs/tile-dialect.md); docs/runtime.md lists what each vertex
// computes.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_RUNTIME_VERTEX_H
#define TESSERA_RUNTIME_VERTEX_H

#include "tessera/Runtime/Program.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <Eigen/Core>

#include <optional>

namespace tessera::runtime {

/// A tile's part of one operand: its elements in ascending element order.
struct TileOperand {
  uint8_t *data = nullptr;
  const TileShare *share = nullptr;
  const BufferLayout *buffer = nullptr;

  int64_t elements() const { return share ? share->elements : 0; }
  template <typename T> T *as() const { return reinterpret_cast<T *>(data); }
};

/// What a factory sees: the compute set, its buffers, where it is (for
/// messages), and typed access to its parameters.
struct VertexSpec {
  const exe::ComputeSet &cs;
  const Program &program;
  std::string where;

  const BufferLayout &in(size_t i) const {
    return program.buffer(cs.ins(static_cast<int>(i)));
  }
  const BufferLayout &out(size_t i) const {
    return program.buffer(cs.outs(static_cast<int>(i)));
  }
  size_t numIns() const { return cs.ins_size(); }
  size_t numOuts() const { return cs.outs_size(); }
  /// "<where>: vertex 'kind': <what>".
  llvm::Error error(const llvm::Twine &what) const;
  /// An error unless the vertex has exactly `ins` inputs and `outs` outputs.
  llvm::Error expectOperands(size_t ins, size_t outs) const;

  std::optional<int64_t> getInt(llvm::StringRef name) const;
  std::optional<std::vector<int64_t>> getInts(llvm::StringRef name) const;
  std::optional<std::string> getString(llvm::StringRef name) const;
  std::optional<double> getFloat(llvm::StringRef name) const;
  bool hasFlag(llvm::StringRef name) const;
  llvm::Expected<int64_t> requireInt(llvm::StringRef name) const;
  llvm::Expected<std::vector<int64_t>>
  requireInts(llvm::StringRef name, std::optional<size_t> size = {}) const;
};

/// The target's compute rates, as the cycle clock counts with them.
class ComputeRates {
public:
  explicit ComputeRates(const TargetDescription &target);
  /// Elements of `dtype` the vector unit does per cycle (at least 1).
  int64_t vectorWidth(DType dtype) const {
    return widths[static_cast<size_t>(dtype)];
  }
  /// Whether the matrix unit takes `dtype` (and the target has one).
  bool onMatrixUnit(DType dtype) const {
    return matrixDtypes[static_cast<size_t>(dtype)];
  }
  const MatrixUnit &matrixUnit() const { return matrix; }

private:
  static constexpr size_t kDTypes = static_cast<size_t>(DType::F64) + 1;
  int64_t widths[kDTypes];
  bool matrixDtypes[kDTypes];
  MatrixUnit matrix;
};

/// What one vertex run on one tile cost (docs/execution.md, "The cycle
/// clock").
struct TileWork {
  int64_t cycles = 0;
  int64_t flops = 0;
};

/// Cycles of `n` elements (or operations) on the vector unit: whole
/// vectors, the last one padded.
inline int64_t vectorCycles(int64_t n, int64_t width) {
  return (n + width - 1) / width;
}

class Vertex {
public:
  virtual ~Vertex();
  /// Runs on `tile`. Errors are for data a well-formed program can still
  /// get wrong at run time; they name the tile.
  virtual llvm::Error run(int64_t tile, llvm::ArrayRef<TileOperand> ins,
                          llvm::ArrayRef<TileOperand> outs) const = 0;
  /// The work of the run that just finished on `tile`, from the loops it
  /// ran over the tile's operands (read after `run`, so data-dependent
  /// work can look at the data). By default: the tile's output elements
  /// on the vector unit, no FLOPs -- what data movement vertices do.
  virtual TileWork work(const ComputeRates &rates, int64_t tile,
                        llvm::ArrayRef<TileOperand> ins,
                        llvm::ArrayRef<TileOperand> outs) const;
};

/// The vertex of `spec.cs.kind()`, or an error naming an unknown kind or a
/// bad parameter.
llvm::Expected<std::unique_ptr<Vertex>> createVertex(const VertexSpec &spec);

/// Every kind (or `family.*`) the library implements, for docs and errors.
std::vector<std::string> vertexKinds();

/// Calls `fn(T())` with T the storage type of `dtype`: uint8_t for pred,
/// the fixed-width integers, Eigen::half, Eigen::bfloat16, float, double.
template <typename Fn> auto dispatchStorage(DType dtype, Fn &&fn) {
  switch (dtype) {
  case DType::Pred:
  case DType::U8:
    return fn(uint8_t());
  case DType::S8:
    return fn(int8_t());
  case DType::S16:
    return fn(int16_t());
  case DType::S32:
    return fn(int32_t());
  case DType::S64:
    return fn(int64_t());
  case DType::U16:
    return fn(uint16_t());
  case DType::U32:
    return fn(uint32_t());
  case DType::U64:
    return fn(uint64_t());
  case DType::F16:
    return fn(Eigen::half());
  case DType::BF16:
    return fn(Eigen::bfloat16());
  case DType::F32:
    return fn(float());
  case DType::F64:
    return fn(double());
  }
  return fn(float());
}

/// The type arithmetic on a storage type is done in: float for the 16-bit
/// floats (rounded back on store, as the target's vector unit does),
/// otherwise the type itself.
template <typename T> struct ComputeType {
  using type = T;
};
template <> struct ComputeType<Eigen::half> {
  using type = float;
};
template <> struct ComputeType<Eigen::bfloat16> {
  using type = float;
};
template <typename T> using ComputeT = typename ComputeType<T>::type;

} // namespace tessera::runtime

#endif // TESSERA_RUNTIME_VERTEX_H
