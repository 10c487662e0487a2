//===- InstructionInfo.h - ML role of each dot and convolution ---*- C++
//-*-===//
//
// Profilers group matmul and convolution time by what the op is for in
// training. This classifies every dot_general and convolution of a module:
//   1 inference forward, 2 training forward, 3 training input-gradient,
//   4 training weight-update.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_ANALYSIS_INSTRUCTIONINFO_H
#define TESSERA_ANALYSIS_INSTRUCTIONINFO_H

#include "mlir/IR/BuiltinOps.h"

#include <nlohmann/json.hpp>

namespace tessera {

enum class MlType : int {
  InferenceForward = 1,
  TrainingForward = 2,
  TrainingInputGradient = 3,
  TrainingWeightUpdate = 4,
};

/// Calls fn(op, type) for every dot_general and convolution, in program
/// order.
void classifyMlTypes(mlir::ModuleOp module,
                     llvm::function_ref<void(mlir::Operation *, MlType)> fn);

/// `{"ml_types": {"<op_name>/<hlo_name>": type, ...}}` (docs/tile-dialect.md).
nlohmann::ordered_json buildInstructionInfo(mlir::ModuleOp module);

} // namespace tessera

#endif // TESSERA_ANALYSIS_INSTRUCTIONINFO_H
