//===- HloGpuConfig.h - XLA:GPU backend configs of library calls -*- C++
//-*-===//
//
// Readers of the JSON `backend_config` XLA:GPU attaches to its cuBLAS and
// cuDNN custom calls (GemmBackendConfig, CudnnConvBackendConfig), in the
// three spellings dumps use: wrapped in a GpuBackendConfig
// (`{"operation_queue_id":"0",...,"gemm_backend_config":{...}}`), bare (older
// XLA), int64 fields as numbers or as strings, enums as names or numbers.
// Fields the math does not depend on (algorithms, strides, queues) are
// ignored, so configs from newer XLA versions still read.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_LIB_IMPORT_HLOGPUCONFIG_H
#define TESSERA_LIB_IMPORT_HLOGPUCONFIG_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace tessera::hlo::detail {

/// Why a config could not be read: a message naming the JSON path
/// (`gemm_backend_config.beta: expected a number`) and, for JSON syntax
/// errors, the byte offset in the config text.
struct ConfigError {
  std::string message;
  std::optional<size_t> offset;
};

/// GemmBackendConfig: result = epilogue(alpha * dot(lhs, rhs) + beta * c
/// [+ bias]).
struct GemmConfig {
  double alphaReal = 1, alphaImag = 0, beta = 0;
  llvm::SmallVector<int64_t, 2> lhsBatch, rhsBatch, lhsContract, rhsContract;
  /// The Epilogue enum's name (`DEFAULT`, `BIAS_RELU`, ...).
  std::string epilogue = "DEFAULT";
  /// FP8 forms: an extra amax output, scale operands.
  bool damaxOutput = false, isFp8 = false;
};

/// CudnnConvBackendConfig: result = activation(conv_result_scale * conv(x, w)
/// + side_input_scale * side_input + bias).
struct ConvConfig {
  double convResultScale = 1, sideInputScale = 0, leakyReluAlpha = 0;
  /// The ActivationMode enum's name (`kNone`, `kRelu`, ...).
  std::string activation = "kNone";
  /// Filter and bias shuffled for int8x32 IMMA kernels: not the logical
  /// values any more.
  bool reorderedInt8 = false;
};

bool readGemmConfig(llvm::StringRef json, GemmConfig &out, ConfigError &error);
bool readConvConfig(llvm::StringRef json, ConvConfig &out, ConfigError &error);

} // namespace tessera::hlo::detail

#endif // TESSERA_LIB_IMPORT_HLOGPUCONFIG_H
