//===- TGraph.h - tgraph dialect --------------------------------*- C++ -*-===//
//
// The graph-level dialect: HLO-like ops on ranked tensors.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_DIALECT_TGRAPH_IR_TGRAPH_H
#define TESSERA_DIALECT_TGRAPH_IR_TGRAPH_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tessera/Dialect/TGraph/IR/TGraphOpsDialect.h.inc"

#include "tessera/Dialect/TGraph/IR/TGraphEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tessera/Dialect/TGraph/IR/TGraphOpsTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tessera/Dialect/TGraph/IR/TGraphAttrs.h.inc"

#define GET_OP_CLASSES
#include "tessera/Dialect/TGraph/IR/TGraphOps.h.inc"

namespace tessera::tgraph {

/// Where each dimension is, for one of the three parts of HLO `dim_labels`
/// (`b01f_01io->b01f`): `batch` and `feature` (or kernel `i`/`o`), and the
/// spatial dimensions in order 0, 1, ...
struct ConvDimPart {
  int64_t batchOrInput = -1;    // 'b' for activations, 'i' for the kernel
  int64_t featureOrOutput = -1; // 'f' for activations, 'o' for the kernel
  llvm::SmallVector<int64_t> spatial;
};
struct ConvDimLabels {
  ConvDimPart input, kernel, output;
};

/// Parses HLO `dim_labels`; on failure returns a message naming the problem.
llvm::FailureOr<ConvDimLabels> parseConvDimLabels(llvm::StringRef labels,
                                                  std::string &error);

/// Names of the discardable attributes the HLO importer attaches.
inline constexpr llvm::StringLiteral kOpNameAttr = "tgraph.op_name";
inline constexpr llvm::StringLiteral kOpTypeAttr = "tgraph.op_type";
/// On the dot_general / convolution a cuBLAS or cuDNN custom call was
/// imported as: the call's target name.
inline constexpr llvm::StringLiteral kLibraryCallAttr = "tgraph.library_call";
/// On a library custom call the importer kept as a call: why it has no
/// exact tgraph form (the compatibility checker reports it).
inline constexpr llvm::StringLiteral kNotImportedAttr = "tgraph.not_imported";

/// The HLO instruction name an op was imported from, or "": the first
/// non-empty NameLoc in its location (the importer's NameLoc(instruction,
/// position), fused with the user's source when metadata has one). Every
/// report names an op's instruction so (OpIdentity.h). Cheap, and the
/// name is the context's: the lowering and the executable writer ask it
/// of every op and step, where building an op's whole identity (its
/// location strings, its function's name) was 4% of a compile.
llvm::StringRef getInstructionName(mlir::Operation *op);

} // namespace tessera::tgraph

#endif // TESSERA_DIALECT_TGRAPH_IR_TGRAPH_H
