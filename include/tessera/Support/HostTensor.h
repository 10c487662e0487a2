//===- HostTensor.h - A dense tensor in host memory --------------*- C++ -*-===//
//
// The value type shared by the reference interpreter, the model device's
// host side (inputs, outputs, host_compute) and .npy I/O: an element type,
// a shape and row-major little-endian bytes. It depends on LLVMSupport only
// (no MLIR), so the runtime can use it without the compiler.
//
// f16 and bf16 are stored as their 16 bits; getDouble / setDouble convert
// with round-to-nearest-even (Eigen's half and bfloat16). Integer element
// types read and write through int64 with the wrap-around of their width;
// pred is one byte holding 0 or 1.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_SUPPORT_HOSTTENSOR_H
#define TESSERA_SUPPORT_HOSTTENSOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera {

/// Element types, named as HLO names them.
enum class DType : uint8_t {
  Pred,
  S8,
  S16,
  S32,
  S64,
  U8,
  U16,
  U32,
  U64,
  F16,
  BF16,
  F32,
  F64,
};

/// "pred", "s8", ..., "bf16", "f32", "f64".
llvm::StringRef dtypeName(DType dtype);
/// The inverse of dtypeName; nullopt for any other name.
std::optional<DType> parseDType(llvm::StringRef name);
/// Bytes of one element (pred: 1).
int64_t dtypeBytes(DType dtype);
bool isFloat(DType dtype);
bool isSigned(DType dtype);

/// A dense, row-major tensor.
struct HostTensor {
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;

  HostTensor() = default;
  /// A zero-filled tensor. The caller has checked that the size fits.
  HostTensor(DType dtype, llvm::ArrayRef<int64_t> shape);

  int64_t numElements() const;
  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  /// "f32[2,3]".
  std::string typeString() const;

  /// Element `i` (row-major) converted to double / int64.
  double getDouble(int64_t i) const;
  int64_t getInt(int64_t i) const;
  /// Stores `v` in element `i`, converted to the element type (floats round
  /// to nearest even; integers wrap; pred stores v != 0).
  void setDouble(int64_t i, double v);
  void setInt(int64_t i, int64_t v);

  /// This tensor converted element by element to `to`.
  HostTensor convertTo(DType to) const;
};

/// Elements of `shape`, or nullopt when a dimension is negative or the
/// product overflows int64.
std::optional<int64_t> checkedNumElements(llvm::ArrayRef<int64_t> shape);

} // namespace tessera

#endif // TESSERA_SUPPORT_HOSTTENSOR_H
