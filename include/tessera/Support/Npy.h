//===- Npy.h - HostTensors as NumPy .npy files -------------------*- C++ -*-===//
//
// tessera-run's inputs and outputs. The format is NumPy's (format versions
// 1.0 and 2.0, little-endian, C order); the header is read and written by
// xtensor's xnpy, behind this exception-free interface. Sizes are checked
// against the file before anything is allocated, so a hostile header cannot
// ask for more memory than the file holds.
//
// NumPy has no bfloat16: a bf16 tensor is written as float32 (exactly), and
// a float32 file is read into a bf16 tensor rounding to nearest even. Every
// other element type must match the file's dtype exactly.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_SUPPORT_NPY_H
#define TESSERA_SUPPORT_NPY_H

#include "tessera/Support/HostTensor.h"

#include "llvm/Support/Error.h"

namespace tessera {

/// Reads `path`. Errors name the file and what is wrong with it.
llvm::Expected<HostTensor> readNpy(llvm::StringRef path);

/// Reads `path` as a tensor of `dtype` (bf16 from float32 allowed) and
/// `shape`; `what` ("parameter 'x'") names the expectation in errors.
llvm::Expected<HostTensor> readNpyAs(llvm::StringRef path, DType dtype,
                                     llvm::ArrayRef<int64_t> shape,
                                     llvm::StringRef what);

/// Writes `tensor` to `path` through a temporary file renamed into place,
/// so a failure never leaves a partial file.
llvm::Error writeNpy(llvm::StringRef path, const HostTensor &tensor);

/// The NumPy dtype string of `dtype` as written ("<f4", "|b1"; bf16: "<f4").
llvm::StringRef npyTypeString(DType dtype);

} // namespace tessera

#endif // TESSERA_SUPPORT_NPY_H
