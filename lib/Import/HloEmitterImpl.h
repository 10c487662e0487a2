//===- HloEmitterImpl.h - state shared by the emitter files -----*- C++ -*-===//
//
// The emitter is split by concern: HloEmitter.cpp (module structure,
// functions, regions, locations, types), HloEmitterOps.cpp (one HLO
// instruction to one tgraph op: dispatch, shared attributes, unknown ops),
// the HloEmit*.cpp files (one op family each, sharing HloEmitOps.h) and
// HloLiterals.cpp (constant literals). This header holds what they share.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_LIB_IMPORT_HLOEMITTERIMPL_H
#define TESSERA_LIB_IMPORT_HLOEMITTERIMPL_H

#include "HloAttrs.h"
#include "HloEmitter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

namespace tessera::hlo::detail {

/// Opcodes with a dedicated tgraph op that is not a plain unary/binary
/// elementwise op.
enum class Op {
  Unknown,
  Unary,
  Binary,
  Parameter,
  Constant,
  Iota,
  Rng,
  IsFinite,
  Compare,
  Select,
  Clamp,
  Convert,
  BitcastConvert,
  Bitcast,
  ReducePrecision,
  Broadcast,
  Reshape,
  Transpose,
  Reverse,
  Slice,
  DynamicSlice,
  DynamicUpdateSlice,
  Concatenate,
  Pad,
  Gather,
  Scatter,
  Dot,
  Convolution,
  Reduce,
  ReduceWindow,
  SelectAndScatter,
  Sort,
  Tuple,
  GetTupleElement,
  Call,
  Fusion,
  While,
  Conditional,
  AllReduce,
  AllGather,
  AllToAll,
  ReduceScatter,
  CollectivePermute,
  ReplicaId,
  PartitionId,
  AfterAll,
  Infeed,
  Outfeed,
  BatchNormTraining,
  BatchNormInference,
  BatchNormGrad,
  CustomCall,
  OptimizationBarrier,
};

Op classify(llvm::StringRef opcode);
/// Whether `to_apply=` of this opcode is inlined as a region.
bool usesRegionForToApply(Op op);
/// Attributes that name computations by symbol.
bool isSymbolComputationAttr(llvm::StringRef name);
/// The layout to keep as `tgraph.layout`: the array's layout text, or for
/// tuples `(l0, l1, ...)` of the leaves; false when all are default.
bool nonDefaultLayout(const Shape &shape, std::string &out);

/// The attributes of one instruction, tracking which ones an op consumed;
/// the rest are kept verbatim in `tgraph.hlo_attributes`.
class AttrTable {
public:
  explicit AttrTable(const Instruction &instr)
      : instr(instr), used(instr.attrs.size(), false) {}
  const Attr *take(llvm::StringRef name) {
    for (auto [i, a] : llvm::enumerate(instr.attrs))
      if (a.name == name) {
        used[i] = true;
        return &a;
      }
    return nullptr;
  }
  void takeAll() { used.assign(used.size(), true); }
  template <typename Fn> void forEachUnused(Fn fn) const {
    for (auto [i, a] : llvm::enumerate(instr.attrs))
      if (!used[i])
        fn(a);
  }

private:
  const Instruction &instr;
  llvm::SmallVector<bool, 8> used;
};

/// Per-computation state of the emitter.
struct CompInfo {
  std::string symbol;
  bool symbolUsed = false; // called by symbol, or the entry, or unused
  bool regionUsed = false;
  bool inProgress = false; // guards against recursive region inlining
  /// Instruction index by parameter number.
  llvm::SmallVector<int64_t, 4> params;
  llvm::StringMap<unsigned> index; // instruction name -> index
  mlir::func::FuncOp func;
};

struct InstrEmit;

class Emitter {
public:
  Emitter(const Module &module, llvm::SourceMgr &sourceMgr, unsigned bufferId,
          mlir::MLIRContext *context, DiagnosticSink &diags)
      : module(module), sourceMgr(sourceMgr), bufferId(bufferId), ctx(context),
        diags(diags), builder(context),
        fileName(mlir::StringAttr::get(
            context,
            sourceMgr.getMemoryBuffer(bufferId)->getBufferIdentifier())) {}

  mlir::OwningOpRef<mlir::ModuleOp> run();

private:
  //===--- Diagnostics and locations ---===//
  bool error(llvm::SMLoc loc, const llvm::Twine &message) {
    diags.error(loc, message);
    return false;
  }
  mlir::FileLineColLoc fileLoc(llvm::SMLoc loc) {
    auto [line, col] = sourceMgr.getLineAndColumn(loc, bufferId);
    return mlir::FileLineColLoc::get(fileName, line, col);
  }
  /// NameLoc(name, file:line:col), fused with the framework location.
  mlir::Location instrLoc(const Instruction &instr, const Metadata &md);
  /// The source location of stack frame `id` (1-based), with its callers
  /// as CallSiteLocs; null if it cannot be resolved.
  std::optional<mlir::Location> frameLoc(int64_t id, unsigned depth = 0);

  //===--- Types ---===//
  mlir::Type convertShape(const Shape &shape);
  mlir::Type convertElementType(const Shape &shape);

  //===--- Module structure ---===//
  bool collectComputations();
  bool computeSignature(unsigned compIdx);
  /// The computation's written signature against its parameters and root.
  bool checkDeclaredSignature(unsigned compIdx);
  bool emitFunction(unsigned compIdx);
  /// Emits the instructions of computation `compIdx` into `block` (whose
  /// arguments are the parameters) and its terminator.
  bool emitBody(unsigned compIdx, mlir::Block *block, bool isRegion);
  /// Fills `region` with the body of the computation named by `attr`.
  bool buildRegion(mlir::Region &region, const Attr *attr,
                   const Instruction &instr, llvm::StringRef what);
  bool lookupComputation(llvm::StringRef name, llvm::SMLoc loc,
                         unsigned &compIdx);

  //===--- Instructions ---===//
  mlir::Value emitInstruction(const Instruction &instr,
                              llvm::ArrayRef<mlir::Value> operands);
  mlir::Attribute convertLiteral(const Instruction &instr,
                                 mlir::RankedTensorType type);
  /// Adds the attributes any instruction may carry (metadata names,
  /// sharding, frontend attributes, layout, dynamic bounds) and the ones
  /// no op consumed (`tgraph.hlo_attributes`) to `out`.
  bool addCommonAttrs(AttrTable &attrs, const Instruction &instr,
                      const Metadata &md, mlir::NamedAttrList &out);
  /// Forwards get_tuple_element reads of library-call tuples to the tuple's
  /// elements and drops the tuples (and workspaces) nothing else uses.
  void foldLibraryTuples();

  const Module &module;
  llvm::SourceMgr &sourceMgr;
  unsigned bufferId;
  mlir::MLIRContext *ctx;
  DiagnosticSink &diags;
  mlir::OpBuilder builder;
  mlir::StringAttr fileName;
  mlir::ModuleOp mlirModule;
  llvm::StringMap<unsigned> compByName;
  std::vector<CompInfo> comps;
  llvm::DenseMap<int64_t, mlir::Location> frameCache;
  bool directParentIds = false;
  static constexpr unsigned kMaxRegionDepth = 64;
  unsigned regionDepth = 0;
  std::vector<mlir::Operation *> libraryTuples;

  // The op families reach the diagnostics, regions and computation
  // symbols through the instruction they emit.
  friend struct InstrEmit;
};

} // namespace tessera::hlo::detail

#endif // TESSERA_LIB_IMPORT_HLOEMITTERIMPL_H
