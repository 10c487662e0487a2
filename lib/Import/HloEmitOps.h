//===- HloEmitOps.h - shared pieces of the HLO op families ------*- C++ -*-===//
//
// Private to lib/Import: InstrEmit, the instruction every family builds
// from, and small readers of its attributes. Each HloEmit*.cpp file turns
// one family of HLO opcodes into typed tgraph ops; HloEmitterOps.cpp
// dispatches to them and adds the attributes every op may carry.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_LIB_IMPORT_HLOEMITOPS_H
#define TESSERA_LIB_IMPORT_HLOEMITOPS_H

#include "HloAttrs.h"
#include "HloEmitterImpl.h"

#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <string>
#include <utility>

namespace tessera::hlo::detail {

namespace tg = tessera::tgraph;

/// What a family made of an instruction: the op it built, or null for a
/// form the dialect does not model (it becomes tgraph.unknown), or failure
/// when an error was reported.
using Emitted = mlir::FailureOr<mlir::Operation *>;

inline Emitted keepAsUnknown() {
  return static_cast<mlir::Operation *>(nullptr);
}

/// One HLO instruction on its way to a tgraph op. Every HLO instruction has
/// one result, so ops are created at the instruction's location with its
/// result type; the rest of the emitter (diagnostics, computations) is
/// reached through the methods below.
struct InstrEmit {
  Emitter &emitter;
  const Instruction &instr;
  llvm::ArrayRef<mlir::Value> operands;
  AttrTable &attrs;
  mlir::Location loc;
  mlir::Type resultType;
  /// Ops a family built besides the one it returns (a library call's
  /// dot_general and epilogue): they carry the instruction's framework
  /// names and placement attributes too.
  llvm::SmallVector<mlir::Operation *, 4> helpers;
  /// Discardable attributes of the returned op beyond the common ones.
  mlir::NamedAttrList extraAttrs;

  template <typename OpTy, typename... Args> OpTy create(Args &&...args) {
    return emitter.builder.create<OpTy>(loc, resultType,
                                        std::forward<Args>(args)...);
  }
  /// create() for callers that need only the operation.
  template <typename OpTy, typename... Args>
  mlir::Operation *emit(Args &&...args) {
    return create<OpTy>(std::forward<Args>(args)...).getOperation();
  }
  /// The location of an op built beside the returned one: the
  /// instruction's, renamed "<instruction>.<suffix>" (as HLO names the
  /// instructions it adds).
  mlir::Location helperLoc(llvm::StringRef suffix) const;
  mlir::OpBuilder &builder() { return emitter.builder; }
  mlir::MLIRContext *context() { return emitter.ctx; }
  DiagnosticSink &diags() { return emitter.diags; }
  bool error(llvm::SMLoc at, const llvm::Twine &message) {
    return emitter.error(at, message);
  }
  Emitted fail(llvm::SMLoc at, const llvm::Twine &message) {
    emitter.error(at, message);
    return mlir::failure();
  }
  /// Fills `region` with the computation the attribute `name` names.
  bool region(mlir::Region &region, llvm::StringRef name) {
    return emitter.buildRegion(region, attrs.take(name), instr, name);
  }
  /// The function symbol of computation `comp`, or null after an error.
  mlir::FlatSymbolRefAttr symbol(llvm::StringRef comp, llvm::SMLoc at) {
    unsigned idx;
    if (!emitter.lookupComputation(comp, at, idx))
      return nullptr;
    return mlir::FlatSymbolRefAttr::get(emitter.ctx, emitter.comps[idx].symbol);
  }
  mlir::Attribute literal(mlir::RankedTensorType type) {
    return emitter.convertLiteral(instr, type);
  }
  /// Records the (result, workspace) tuple of a library call: reads of its
  /// result through get_tuple_element are forwarded once the module is
  /// built, and the tuple dropped when nothing else uses it.
  void libraryTuple(mlir::Operation *tuple) {
    emitter.libraryTuples.push_back(tuple);
  }
};

//===----------------------------------------------------------------------===//
// Attribute readers. Each takes the attribute (so it is not kept in
// tgraph.hlo_attributes) and reports a located error on bad input.
//===----------------------------------------------------------------------===//

/// `loc` with its instruction name replaced by `name` (metadata locations
/// fused with it are kept).
mlir::Location renamed(mlir::Location loc, llvm::StringRef name);

/// Whether the instruction has `n` operands; reports the mismatch if not.
bool arity(InstrEmit &e, size_t n);
/// For variadic ops given too few operands: reports the mismatch against
/// `n`, the operand count of the op's usual form.
inline Emitted badArity(InstrEmit &e, size_t n) {
  arity(e, n);
  return mlir::failure();
}
/// The attribute `name`, or null after reporting that it is missing.
const Attr *required(InstrEmit &e, llvm::StringRef name);

bool requiredInts(InstrEmit &e, llvm::StringRef name,
                  llvm::SmallVectorImpl<int64_t> &out);
/// Leaves `out` empty when the attribute is absent.
bool optionalInts(InstrEmit &e, llvm::StringRef name,
                  llvm::SmallVectorImpl<int64_t> &out);
bool requiredInt(InstrEmit &e, llvm::StringRef name, int64_t &out);
/// Leaves `out` (the default) alone when the attribute is absent.
bool optionalInt(InstrEmit &e, llvm::StringRef name, int64_t &out);
/// An i64 attribute when present, null when absent.
bool optionalI64(InstrEmit &e, llvm::StringRef name, mlir::IntegerAttr &out);
/// A string attribute, unescaped; leaves `out` empty (the default of
/// every such op attribute) when absent.
bool optionalString(InstrEmit &e, llvm::StringRef name, std::string &out);
/// `name=true` or `name=false`; leaves `out` (false) alone when absent.
bool flag(InstrEmit &e, llvm::StringRef name, bool &out);
/// A `dimensions={d}` list that must hold exactly one dimension.
bool singleDim(InstrEmit &e, llvm::StringRef name, int64_t &out);

/// The function symbol of the computation the required attribute `name`
/// names; null after an error.
mlir::FlatSymbolRefAttr callee(InstrEmit &e, llvm::StringRef name);

/// Optional window fields are left out (null) when HLO did not print them.
inline mlir::DenseI64ArrayAttr optionalI64s(InstrEmit &e,
                                            llvm::ArrayRef<int64_t> values) {
  if (values.empty())
    return nullptr;
  return e.builder().getDenseI64ArrayAttr(values);
}

/// Region ops are created before their regions are filled; when filling
/// fails the op is dropped again, as if it had never been built.
inline Emitted discard(mlir::Operation *op) {
  op->erase();
  return mlir::failure();
}

/// Fills `region` of the new `op` with the computation the attribute
/// `name` names.
inline Emitted withRegion(InstrEmit &e, mlir::Operation *op,
                          mlir::Region &region, llvm::StringRef name) {
  if (!e.region(region, name))
    return discard(op);
  return op;
}

/// An op built from its one operand alone.
template <typename OpTy> Emitted unaryOp(InstrEmit &e) {
  if (!arity(e, 1))
    return mlir::failure();
  return e.emit<OpTy>(e.operands[0]);
}

/// The window, dimension labels and group counts of a convolution, read
/// from the instruction (HLO `convolution` and cuDNN custom calls alike).
struct ConvAttrs {
  llvm::StringRef labels;
  llvm::SMLoc labelsLoc;
  Window window;
  int64_t featureGroups = 1, batchGroups = 1;
};
bool readConvAttrs(InstrEmit &e, ConvAttrs &out);
tg::ConvolutionOp buildConvolution(InstrEmit &e, mlir::Location loc,
                                   mlir::Type type, mlir::Value lhs,
                                   mlir::Value rhs, const ConvAttrs &attrs);

/// Whether custom calls to `target` are library calls the importer reads
/// as the math they compute (cuBLAS GEMMs, cuDNN forward convolutions).
bool isLibraryCallTarget(llvm::StringRef target);
/// Builds the tgraph math of a library call from its `backend_config`
/// (`config`, located at `configAttr` when the instruction has one).
/// Returns null with `whyNot` set when the call is well-formed but has no
/// exact tgraph form (it then stays a custom_call), failure after a
/// located error when the config or operands are malformed.
Emitted emitLibraryCall(InstrEmit &e, llvm::StringRef target,
                        llvm::StringRef config, const Attr *configAttr,
                        std::string &whyNot);

//===----------------------------------------------------------------------===//
// The families. Each handles the Op kinds listed and returns the op it
// built, keepAsUnknown() or failure.
//===----------------------------------------------------------------------===//

/// Builds the op of one elementwise opcode (unaryOp<tg::AbsOp>, ...).
using ElementwiseBuilder = Emitted (*)(InstrEmit &e);
/// The builder of a unary (binary) elementwise opcode, or null when
/// `opcode` is not one.
ElementwiseBuilder unaryBuilder(llvm::StringRef opcode);
ElementwiseBuilder binaryBuilder(llvm::StringRef opcode);

/// Unary, Binary, IsFinite, Compare, Select, Clamp, Convert,
/// BitcastConvert, Bitcast, ReducePrecision.
Emitted emitElementwise(Op kind, InstrEmit &e);
/// Constant, Iota, Rng.
Emitted emitGenerator(Op kind, InstrEmit &e);
/// Broadcast, Reshape, Transpose, Reverse, Slice, DynamicSlice,
/// DynamicUpdateSlice, Concatenate, Pad, Gather.
Emitted emitShape(Op kind, InstrEmit &e);
/// Dot, Convolution, BatchNormTraining, BatchNormInference, BatchNormGrad.
Emitted emitNn(Op kind, InstrEmit &e);
/// Reduce, ReduceWindow, SelectAndScatter, Scatter, Sort.
Emitted emitRegionOp(Op kind, InstrEmit &e);
/// Tuple, GetTupleElement, Call, Fusion, While, Conditional.
Emitted emitControlFlow(Op kind, InstrEmit &e);
/// AllReduce, AllGather, ReduceScatter, CollectivePermute, ReplicaId,
/// PartitionId.
Emitted emitCollective(Op kind, InstrEmit &e);
/// CustomCall, OptimizationBarrier, AfterAll, Infeed, Outfeed.
Emitted emitOpaque(Op kind, InstrEmit &e);

} // namespace tessera::hlo::detail

#endif // TESSERA_LIB_IMPORT_HLOEMITOPS_H
