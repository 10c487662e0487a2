//===- TileOps.cpp - tile op verifiers ------------------------------------===//
//
// The invariants every tile program keeps: each buffer's elements are mapped
// exactly once, vertices only touch data on their own tile, and exchanges
// read data where it is mapped and write it where it belongs.
//
//===----------------------------------------------------------------------===//

#include "tessera/Dialect/Tile/IR/Tile.h"

using namespace mlir;
using namespace tessera::tile;

static ProgramOp enclosingProgram(Operation *op) {
  return op->getParentOfType<ProgramOp>();
}

LogicalResult ProgramOp::verify() {
  if (getTiles() <= 0)
    return emitOpError("needs a positive tile count, got ") << getTiles();
  return success();
}

LogicalResult VarOp::verify() {
  ProgramOp program = enclosingProgram(*this);
  if (!program)
    return emitOpError("must be inside a tile.program");
  std::string problem =
      getMapping().checkCovers(getType().getNumElements(), program.getTiles());
  if (!problem.empty())
    return emitOpError("mapping of '")
           << getName() << "' is invalid: " << problem;
  return success();
}

/// The mapping of a buffer value: buffers are defined by tile.var.
static MappingAttr mappingOf(Value buffer) {
  if (auto var = buffer.getDefiningOp<VarOp>())
    return var.getMapping();
  return {};
}

LogicalResult ComputeSetOp::verify() {
  ProgramOp program = enclosingProgram(*this);
  if (!program)
    return emitOpError("must be inside a tile.program");
  int64_t first = getFirstTile(), end = getEndTile();
  if (first < 0 || end <= first || end > program.getTiles())
    return emitOpError("tile range [")
           << first << ", " << end - 1 << "] is empty or outside the program's "
           << program.getTiles() << " tiles";
  if (getVerticesPerTile() < 1)
    return emitOpError("needs at least one vertex per tile");
  for (auto [index, buffer] : llvm::enumerate(getOperands())) {
    MappingAttr mapping = mappingOf(buffer);
    if (!mapping)
      return emitOpError("operand #") << index << " is not a tile.var";
    for (int64_t t = first; t < end; ++t)
      if (!mapping.hasElementsOn(t))
        return emitOpError("vertex on tile ")
               << t << " would touch operand #" << index << " ('"
               << buffer.getDefiningOp<VarOp>().getName()
               << "'), which has no elements on that tile";
  }
  return success();
}

int64_t ExchangeOp::getElementsMoved() {
  int64_t n = 0;
  for (size_t i = 0, e = getNumRuns(); i < e; ++i) {
    Run r = getRun(i);
    n += r.count * r.elements;
  }
  return n;
}

LogicalResult ExchangeOp::verify() {
  if (getCopies().size() % kRunSize != 0)
    return emitOpError("copies come in runs of eight (src tile, dst tile, "
                       "count, elements, src element, src stride, dst "
                       "element, dst stride), got ")
           << getCopies().size() << " integers";
  MappingAttr src = mappingOf(getSource()), dst = mappingOf(getDest());
  if (!src || !dst)
    return emitOpError("source and dest must be tile.var buffers");
  for (size_t i = 0, e = getNumRuns(); i < e; ++i) {
    Run r = getRun(i);
    if (r.count <= 0 || r.elements <= 0 || r.srcTile < 0 || r.dstTile < 0 ||
        r.srcElement < 0 || r.dstElement < 0)
      return emitOpError("copy run ") << i << " is empty or negative";
    for (int64_t k = 0; k < r.count; ++k) {
      int64_t sb = r.srcElement + k * r.srcStride;
      int64_t db = r.dstElement + k * r.dstStride;
      if (!src.holds(r.srcTile + k, sb, sb + r.elements))
        return emitOpError("copy run ")
               << i << " reads elements [" << sb << ", " << sb + r.elements
               << ") of the source from tile " << r.srcTile + k
               << ", which does not hold them";
      if (!dst.holds(r.dstTile + k, db, db + r.elements))
        return emitOpError("copy run ")
               << i << " writes elements [" << db << ", " << db + r.elements
               << ") of the dest on tile " << r.dstTile + k
               << ", which does not hold them";
    }
  }
  return success();
}

/// The buffer a repeat / if reads to decide: one i1 element of a tile.var.
/// (Vars are declared outside the op; regions are not isolated, so steps
/// inside name any var of the program.)
static LogicalResult verifyControlBuffer(Operation *op, Value buffer,
                                         StringRef what) {
  auto type = cast<BufferType>(buffer.getType());
  if (!buffer.getDefiningOp<VarOp>())
    return op->emitOpError("") << what << " must be a tile.var";
  if (type.getNumElements() != 1 || !type.getElementType().isSignlessInteger(1))
    return op->emitOpError("")
           << what << " must be one i1 element, got " << type;
  return success();
}

LogicalResult RepeatOp::verify() {
  int64_t tripCount = static_cast<int64_t>(getTripCount());
  if (tripCount < -1)
    return emitOpError("trip_count must be -1 (unknown) or at least 0, got ")
           << tripCount;
  return verifyControlBuffer(*this, getCondition(), "condition");
}

LogicalResult IfOp::verify() {
  return verifyControlBuffer(*this, getPredicate(), "predicate");
}
