//===- OpIdentity.h - how reports name an op ---------------------*- C++
//-*-===//
//
// Every report names an op the way its user knows it: the HLO instruction,
// the framework op name and type from HLO metadata, where it is in the HLO
// text and in the user's source. One helper, so all reports agree.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_ANALYSIS_OPIDENTITY_H
#define TESSERA_ANALYSIS_OPIDENTITY_H

#include "mlir/IR/Operation.h"

#include <string>

namespace tessera {

struct OpIdentity {
  std::string instruction; ///< HLO instruction name ("" if none)
  std::string opName;      ///< framework op name (metadata op_name)
  std::string opType;      ///< framework op type (metadata op_type)
  std::string function;    ///< enclosing func.func (HLO computation)
  std::string location;    ///< file:line:col of the op in its input text
  std::string source;      ///< user's source file:line, from metadata
};

OpIdentity identifyOp(mlir::Operation *op);

/// The profile category of a tgraph op kind (its name without the dialect
/// prefix): convolution, matmul, reduction, collective, control, data
/// formatting or elementwise (docs/execution.md). Host placement is the
/// caller's to add: it is a property of the lowering, not of the op.
llvm::StringRef opCategory(llvm::StringRef kind);

} // namespace tessera

#endif // TESSERA_ANALYSIS_OPIDENTITY_H
