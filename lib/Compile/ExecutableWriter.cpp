//===- ExecutableWriter.cpp - A tile program as an executable -------------===//

#include "tessera/Compile/ExecutableWriter.h"

#include "tessera/Analysis/Compat.h"
#include "tessera/Analysis/OpIdentity.h"
#include "tessera/Conversion/TGraphToTile/TGraphToTile.h"
#include "tessera/Support/Heap.h"
#include "tessera/Support/HostTensor.h"
#include "tessera/Target/TargetJson.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Memory.h"
#include "llvm/Support/SwapByteOrder.h"
#include "llvm/Support/raw_ostream.h"

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"

#include <cstring>

using namespace mlir;

namespace tessera {

char ExecutableOpError::ID = 0;

namespace {

/// An ExecutableOpError at `op`'s location.
llvm::Error opError(Operation *op, const llvm::Twine &message) {
  return llvm::make_error<ExecutableOpError>(op->getLoc(), message.str());
}

/// "file:line" of the first file location inside `loc`, or "".
std::string sourceLine(Location loc) {
  std::string out;
  loc->walk([&](Location l) {
    if (auto file = dyn_cast<FileLineColLoc>(l)) {
      out = (file.getFilename().getValue() + ":" + Twine(file.getLine())).str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return out;
}

/// Row-major little-endian bytes of a constant, one byte per pred.
llvm::Expected<std::string> constantBytes(ElementsAttr value, DType dtype) {
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense)
    return llvm::createStringError("its value is not a dense literal");
  int64_t width = dtypeBytes(dtype);
  std::string bytes;
  auto put = [&](uint64_t bits) {
    for (int64_t i = 0; i < width; ++i)
      bytes.push_back(static_cast<char>((bits >> (8 * i)) & 0xff));
  };
  Type elt = dense.getElementType();
  // A number type of exactly the dtype's width is held as its little-endian
  // bytes already (a splat as one element): copied, not converted element
  // by element through APFloat/APInt, which was half of writing a
  // constant-heavy model's buffers (mobilenetv2: 0.48 G instructions).
  if (isa<FloatType, IntegerType>(elt) && llvm::sys::IsLittleEndianHost &&
      elt.getIntOrFloatBitWidth() == 8 * width) {
    ArrayRef<char> raw = dense.getRawData();
    int64_t n = dense.getNumElements();
    if (dense.isSplat() && raw.size() == size_t(width)) {
      // The element once, then what is there so far appended to itself:
      // log(n) appends, not one per element (2.7 M of them for
      // mobilenetv2's splats).
      size_t total = n * width;
      bytes.reserve(total);
      if (total > 0)
        bytes.append(raw.data(), raw.size());
      while (bytes.size() < total)
        bytes.append(bytes.data(),
                     std::min(bytes.size(), total - bytes.size()));
      return bytes;
    }
    if (!dense.isSplat() && raw.size() == size_t(n * width))
      return std::string(raw.data(), raw.size());
  }
  bytes.reserve(dense.getNumElements() * width);
  if (isa<FloatType>(elt)) {
    for (const APFloat &v : dense.getValues<APFloat>())
      put(v.bitcastToAPInt().getZExtValue());
  } else if (isa<IntegerType>(elt)) {
    for (const APInt &v : dense.getValues<APInt>())
      put(v.getZExtValue());
  } else {
    return llvm::createStringError("element type is not a number");
  }
  return bytes;
}

void toParam(Attribute attr, exe::Param &param) {
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return param.set_int_value(i.getValue().getSExtValue());
  if (auto f = dyn_cast<FloatAttr>(attr))
    return param.set_float_value(f.getValueAsDouble());
  if (auto s = dyn_cast<StringAttr>(attr))
    return param.set_string_value(s.getValue().str());
  if (isa<UnitAttr>(attr))
    return param.set_unit_value(true);
  if (auto a = dyn_cast<DenseI64ArrayAttr>(attr)) {
    // At once: a convolution's input boxes are thousands of integers.
    ArrayRef<int64_t> values = a.asArrayRef();
    param.mutable_ints_value()->mutable_values()->Add(values.begin(),
                                                      values.end());
    return;
  }
  if (auto a = dyn_cast<DenseBoolArrayAttr>(attr)) {
    param.mutable_ints_value();
    for (bool v : a.asArrayRef())
      param.mutable_ints_value()->add_values(v);
    return;
  }
  if (auto a = dyn_cast<DenseIntElementsAttr>(attr)) {
    param.mutable_ints_value();
    for (const APInt &v : a.getValues<APInt>())
      param.mutable_ints_value()->add_values(v.getSExtValue());
    return;
  }
  if (auto a = dyn_cast<ArrayAttr>(attr)) {
    if (llvm::all_of(a, [](Attribute e) { return isa<IntegerAttr>(e); })) {
      param.mutable_ints_value();
      for (Attribute e : a)
        param.mutable_ints_value()->add_values(
            cast<IntegerAttr>(e).getValue().getSExtValue());
      return;
    }
  }
  // Anything else travels as its printed form; vertices that read it parse
  // that form.
  std::string text;
  llvm::raw_string_ostream os(text);
  attr.print(os);
  param.set_string_value(text);
}

/// The payload as it is written: pieces of serialized message, appended
/// in the order the fields would be serialized in, so that the bytes are
/// those of the whole message serialized at once. A buffer or top-level
/// step is serialized as soon as it is built, so the executable never
/// holds all of them as messages: their copy lists as int64 fields were the
/// largest part of a 10k-op compile's peak RSS (BENCHMARKS.md, issue 16).
class PayloadWriter {
public:
  PayloadWriter() = default;
  PayloadWriter(const PayloadWriter &) = delete;
  PayloadWriter &operator=(const PayloadWriter &) = delete;
  ~PayloadWriter() {
    for (Block &block : blocks)
      release(block);
  }

  /// Appends `message` serialized (deterministically: vertex parameters
  /// are a map, and the executable cache promises identical bytes).
  llvm::Error append(const google::protobuf::MessageLite &message) {
    return put(message, message.ByteSizeLong(), 0);
  }
  /// Appends `message` as one element of the repeated message field
  /// `field` of the enclosing message.
  llvm::Error appendField(int field,
                          const google::protobuf::MessageLite &message) {
    return put(message, message.ByteSizeLong(), field);
  }
  /// Appends one element of the repeated message field `field` whose
  /// fields are the packed int64 lists `lists` (field number, values): the
  /// bytes protobuf would write for the message, made straight from the
  /// values. Built as messages, the executable's copy lists were copied
  /// into repeated fields that grew by doubling, sized, then serialized:
  /// a third of ssd_mobilenet_v1's executable time (5.2 of its 6.7 MB).
  llvm::Error
  appendPacked(int field,
               llvm::ArrayRef<std::pair<int, llvm::ArrayRef<int64_t>>> lists) {
    using google::protobuf::io::CodedOutputStream;
    size_t body = 0;
    // Sizes first (the lengths come before the values), per list.
    llvm::SmallVector<size_t, 2> listBytes;
    for (auto [number, values] : lists) {
      size_t n = 0;
      for (int64_t v : values)
        n += CodedOutputStream::VarintSize64(static_cast<uint64_t>(v));
      listBytes.push_back(n);
      // An empty packed field is not written.
      if (n)
        body += CodedOutputStream::VarintSize32(uint32_t(number) << 3 | 2) +
                CodedOutputStream::VarintSize64(n) + n;
    }
    llvm::Error err = llvm::Error::success();
    uint8_t *end;
    uint8_t *at = beginField(field, body, end, err);
    if (!at)
      return err;
    for (auto [k, list] : llvm::enumerate(lists)) {
      if (!listBytes[k])
        continue;
      at = CodedOutputStream::WriteVarint32ToArray(
          uint32_t(list.first) << 3 | 2, at);
      at = CodedOutputStream::WriteVarint64ToArray(listBytes[k], at);
      for (int64_t v : list.second)
        at = CodedOutputStream::WriteVarint64ToArray(static_cast<uint64_t>(v),
                                                     at);
    }
    if (at != end)
      return llvm::createStringError("cannot serialize the executable");
    return llvm::Error::success();
  }
  /// Appends the bytes field `field` of the enclosing message, its bytes
  /// copied from `bytes`' blocks, each freed once copied. An empty field
  /// is not written, as protobuf writes none.
  llvm::Error appendBytes(int field, GraphModuleBytes &&bytes) {
    if (bytes.size == 0)
      return llvm::Error::success();
    llvm::Error err = llvm::Error::success();
    uint8_t *end;
    uint8_t *at = beginField(field, bytes.size, end, err);
    if (!at)
      return err;
    for (std::string &block : bytes.blocks) {
      if (size_t(end - at) < block.size())
        return llvm::createStringError("cannot serialize the executable");
      std::memcpy(at, block.data(), block.size());
      at += block.size();
      block = std::string();
    }
    if (at != end)
      return llvm::createStringError("cannot serialize the executable");
    return llvm::Error::success();
  }
  /// Appends `other`'s pieces, after this one's, and empties it.
  llvm::Error take(PayloadWriter &&other) {
    if (size + other.size > runtime::kMaxExecutablePayload)
      return tooLarge();
    for (Block &block : other.blocks)
      blocks.push_back(block);
    size += other.size;
    other.blocks.clear();
    other.size = 0;
    return llvm::Error::success();
  }
  /// The file: header, then the pieces, each freed once copied (appended,
  /// not copied over zeros: the file's pages are touched only as the
  /// blocks' are given back).
  std::string finish() {
    std::string file;
    file.reserve(kExecutableHeaderSize + size);
    file.append(kExecutableHeaderSize, '\0');
    for (Block &block : blocks) {
      file.append(static_cast<const char *>(block.memory.base()), block.used);
      release(block);
    }
    runtime::writeExecutableHeader(
        file.data(), StringRef(file.data() + kExecutableHeaderSize, size));
    return file;
  }

private:
  static constexpr size_t kExecutableHeaderSize =
      runtime::kExecutableHeaderSize;
  /// Pieces go into blocks of about this size, so that a step is not a
  /// heap allocation of its own and no block grows by doubling.
  static constexpr size_t kBlockBytes = size_t(4) << 20;

  /// Mapped memory, not heap: finish() gives each block back to the
  /// system once copied. Freed heap stays resident (glibc), and the file's
  /// bytes, one piece, fit in none of the freed pieces: assembling them
  /// added their size again to a large compile's peak (issue 16).
  struct Block {
    llvm::sys::MemoryBlock memory;
    size_t used = 0;
    size_t left() const { return memory.allocatedSize() - used; }
  };

  static void release(Block &block) {
    if (block.memory.base())
      (void)llvm::sys::Memory::releaseMappedMemory(block.memory);
    block = Block();
  }

  static llvm::Error tooLarge() {
    return llvm::createStringError(
        "the executable is over " +
        std::to_string(runtime::kMaxExecutablePayload) +
        " bytes, the most the format holds");
  }

  /// Room for the length-delimited field `field` of `body` bytes at the
  /// payload's end, its tag and length written: where its body goes, with
  /// `end` where the field ends; null, with `err` set, as extend().
  uint8_t *beginField(int field, size_t body, uint8_t *&end, llvm::Error &err) {
    using google::protobuf::io::CodedOutputStream;
    uint32_t tag = uint32_t(field) << 3 | 2;
    size_t bytes = CodedOutputStream::VarintSize32(tag) +
                   CodedOutputStream::VarintSize64(body) + body;
    auto *at = reinterpret_cast<uint8_t *>(extend(bytes, err));
    if (!at)
      return nullptr;
    end = at + bytes;
    at = CodedOutputStream::WriteVarint32ToArray(tag, at);
    return CodedOutputStream::WriteVarint64ToArray(body, at);
  }

  /// `bytes` more bytes at the payload's end, in its last block or a
  /// new one; null, with `err` set, if the payload would be too large or
  /// no memory is left.
  char *extend(size_t bytes, llvm::Error &err) {
    if (size + bytes > runtime::kMaxExecutablePayload) {
      err = tooLarge();
      return nullptr;
    }
    if (blocks.empty() || blocks.back().left() < bytes) {
      std::error_code ec;
      Block block;
      block.memory = llvm::sys::Memory::allocateMappedMemory(
          std::max(kBlockBytes, bytes), nullptr,
          llvm::sys::Memory::MF_READ | llvm::sys::Memory::MF_WRITE, ec);
      if (ec) {
        err = llvm::createStringError(ec, "cannot hold the executable: " +
                                              ec.message());
        return nullptr;
      }
      blocks.push_back(block);
    }
    Block &block = blocks.back();
    char *at = static_cast<char *>(block.memory.base()) + block.used;
    block.used += bytes;
    size += bytes;
    return at;
  }

  llvm::Error put(const google::protobuf::MessageLite &message,
                  size_t messageSize, int field) {
    using google::protobuf::io::CodedOutputStream;
    uint32_t tag = field ? uint32_t(field) << 3 | 2 : 0; // length-delimited
    size_t bytes = messageSize;
    if (field)
      bytes += CodedOutputStream::VarintSize32(tag) +
               CodedOutputStream::VarintSize64(messageSize);
    llvm::Error err = llvm::Error::success();
    char *at = extend(bytes, err);
    if (!at)
      return err;
    google::protobuf::io::ArrayOutputStream stream(at, int(bytes));
    CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    if (field) {
      coded.WriteVarint32(tag);
      coded.WriteVarint64(messageSize);
    }
    message.SerializeWithCachedSizes(&coded);
    if (coded.HadError() || size_t(coded.ByteCount()) != bytes)
      return llvm::createStringError("cannot serialize the executable");
    return llvm::Error::success();
  }

  std::vector<Block> blocks;
  size_t size = 0;
};

/// Integer-list parameters of at least this many values are written once,
/// in Executable.shared_ints (Writer::addStep); shorter ones cost less than
/// the index that would name them.
constexpr size_t kSharedIntsMin = 64;

class Writer {
public:
  Writer(exe::Executable &out, ModuleOp module,
         const memory::MemoryAnalysis &analysis);

  /// Appends each buffer to `payload` as it is built: held as messages
  /// all at once, they were a large compile's peak (issue 16).
  llvm::Error addBuffers(PayloadWriter &payload, tile::ProgramOp program,
                         const memory::MemoryAnalysis &analysis);
  /// The step `op` into `step`; `op` is none of tile.var, tile.end and
  /// tile.yield.
  llvm::Error addStep(Operation &op, exe::Step &step);
  llvm::Error addSteps(Block &block,
                       google::protobuf::RepeatedPtrField<exe::Step> &steps);
  /// Fills graphOpOf, which only the steps read: built after the buffers,
  /// once the liveness is freed, it is not part of the writer's peak.
  void indexGraphOps(ModuleOp module);

  /// Holds what follows the steps (the graph ops, bindings, ...) but
  /// the copy lists and shared integer lists.
  exe::Executable &out;
  /// Executable.copy_lists and .shared_ints, serialized as they are found:
  /// the message's last two fields, after `out`'s.
  PayloadWriter copyListBytes, sharedIntBytes;
  const memory::MemoryAnalysis &analysis;
  llvm::DenseMap<Value, int32_t> index;

private:
  /// Sets the step's estimate and graph op (docs/execution.md).
  void describeStep(Operation &op, exe::Step &step);

  /// The step op at each program point (the schedule's order), and the
  /// point describeStep expects next: steps are written in that order, so
  /// a cursor finds each one's point. A map from op to point (8 MB at
  /// 100k ops) was part of the writer's peak memory (issue 16); it is
  /// built only if the writer ever visits a step out of that order.
  std::vector<Operation *> stepAt;
  size_t nextPoint = 0;
  llvm::DenseMap<Operation *, int64_t> pointOf;
  /// The program point of step op `op`, or -1.
  int64_t pointOfStep(Operation *op);
  /// The tgraph op of each HLO instruction (first by module order).
  llvm::StringMap<Operation *> graphOpOf;
  /// Executable.ops index of each HLO instruction or step name.
  llvm::StringMap<int32_t> opIndex;
  /// Executable.copy_lists index of each (copies, strided) attribute pair.
  llvm::DenseMap<std::pair<const void *, const void *>, int32_t> copyLists;
  /// Executable.shared_ints index of each large integer-list parameter
  /// (a uniqued attribute: its address names it).
  llvm::DenseMap<const void *, int32_t> sharedInts;
};

Writer::Writer(exe::Executable &out, ModuleOp module,
               const memory::MemoryAnalysis &analysis)
    : out(out), analysis(analysis) {
  stepAt.reserve(analysis.liveness.schedule.steps.size());
  for (const memory::Step &step : analysis.liveness.schedule.steps)
    stepAt.push_back(step.op);
}

void Writer::indexGraphOps(ModuleOp module) {
  module.walk([&](Operation *op) {
    if (isa<tile::ProgramOp>(op))
      return WalkResult::skip();
    if (op->getDialect() && op->getDialect()->getNamespace() == "tgraph") {
      if (StringRef name = tgraph::getInstructionName(op); !name.empty())
        graphOpOf.try_emplace(name, op);
    }
    return WalkResult::advance();
  });
}

int64_t Writer::pointOfStep(Operation *op) {
  if (nextPoint < stepAt.size() && stepAt[nextPoint] == op)
    return nextPoint++;
  if (pointOf.empty())
    for (auto [point, at] : llvm::enumerate(stepAt))
      pointOf.try_emplace(at, point);
  auto found = pointOf.find(op);
  if (found == pointOf.end())
    return -1;
  nextPoint = found->second + 1;
  return found->second;
}

void Writer::describeStep(Operation &op, exe::Step &step) {
  int64_t point = pointOfStep(&op);
  const memory::StepCost *cost =
      point < 0 ? nullptr : &analysis.cost.steps[point];
  if (cost) {
    exe::StepEstimate &e = *step.mutable_estimate();
    e.set_cycles(cost->cycles);
    e.set_flops(cost->flops);
    e.set_padded_flops(cost->paddedFlops);
    e.set_bytes(cost->bytesMoved);
    e.set_unit(cost->unit.str());
    if (cost->fit)
      e.set_fit("m " + cost->fit->m.describe() + ", n " +
                cost->fit->n.describe() + ", k " + cost->fit->k.describe());
  }
  // The step is located where its graph op is: its instruction names it.
  std::string fallback;
  StringRef key = tgraph::getInstructionName(&op);
  if (key.empty()) {
    fallback = cost ? cost->op.str() : step.name();
    key = fallback;
  }
  auto [it, inserted] =
      opIndex.try_emplace(key, static_cast<int32_t>(out.ops_size()));
  if (inserted) {
    exe::GraphOp &g = *out.add_ops();
    g.set_hlo(key.str());
    if (Operation *graph = graphOpOf.lookup(key)) {
      OpIdentity id = identifyOp(graph);
      g.set_op_name(id.opName);
      g.set_op_type(id.opType);
      StringRef kind = graph->getName().stripDialect();
      g.set_kind(kind.str());
      g.set_category(opCategory(kind).str());
      g.set_source(!id.source.empty() ? id.source : id.location);
    } else {
      g.set_category(isa<tile::SyncOp>(op) ? "control" : "data formatting");
      g.set_source(sourceLine(op.getLoc()));
    }
  }
  // An op any of whose work the host does is a host op in profiles.
  if (isa<tile::HostComputeOp>(op))
    out.mutable_ops(it->second)->set_category("host");
  step.set_op_plus_one(it->second + 1);
}

llvm::Error Writer::addBuffers(PayloadWriter &payload, tile::ProgramOp program,
                               const memory::MemoryAnalysis &analysis) {
  const memory::ProgramLiveness &live = analysis.liveness;
  // Placements: the allocator's offsets. A tile's offsets are in the
  // order of its buffers, ascending; visiting buffers in that order, a
  // cursor per tile finds each buffer's offset there without a list of
  // (tile, offset) pairs per buffer, which was a table per (buffer, tile)
  // again (118 MB for the 10k-op synthetic graph).
  // A tile with the same buffers and shares as the tile before has its
  // allocation too (sameSharesAsPrevious): each such stretch of tiles is
  // one placement run per buffer, found once at its first tile (`headOf`),
  // whose cursor serves the stretch. Tile by tile, writing conv20k's
  // executable took 744 ms rather than 519.
  int64_t numTiles = live.buffersOnTile.size();
  std::vector<int64_t> headOf = live.stretchStarts(), stretchEnd(numTiles);
  for (int64_t t = numTiles - 1; t >= 0; --t)
    stretchEnd[t] = t + 1 < numTiles && headOf[t + 1] == headOf[t]
                        ? stretchEnd[t + 1]
                        : t + 1;
  std::vector<uint32_t> cursor(numTiles, 0);
  for (auto [i, buffer] : llvm::enumerate(live.buffers)) {
    tile::VarOp var = buffer.var;
    index[var.getResult()] = static_cast<int32_t>(i);
    exe::Buffer b;
    b.set_name(var.getName().str());
    b.set_category(static_cast<exe::Category>(var.getCategory()));
    auto type = cast<tile::BufferType>(var.getType());
    std::string dtype = hloDtypeName(type.getElementType());
    std::optional<DType> parsed = parseDType(dtype);
    if (!parsed)
      return opError(var, "buffer '" + var.getName() + "' has element type " +
                              dtype + ", which the runtime cannot hold");
    b.set_dtype(dtype);
    // Added whole, so that each field is sized once: element by element,
    // a mapping of 4096 runs (bert_small_train's logits) regrew its
    // field fourteen times, copying it each time.
    b.mutable_shape()->Add(type.getShape().begin(), type.getShape().end());
    llvm::ArrayRef<int64_t> runs = var.getMapping().getRuns();
    b.mutable_mapping()->Add(runs.begin(), runs.end());
    if (buffer.aliasOf >= 0)
      b.set_alias_of_plus_one(buffer.aliasOf + 1);
    else
      for (const memory::TileShares::Run &run : buffer.tiles.runs()) {
        // Only live shares are placed (liveness lists no other).
        if (!run.isLive())
          continue;
        for (int64_t tile = run.firstTile; tile < run.endTile();) {
          int64_t head = headOf[tile];
          int64_t stop = std::min<int64_t>(stretchEnd[head], run.endTile());
          // The buffer's runs may split a stretch; the cursor moves on
          // when the stretch ends.
          uint32_t k = cursor[head];
          if (stop == stretchEnd[head])
            ++cursor[head];
          if (k >= live.buffersOnTile[head].size() ||
              live.buffersOnTile[head][k] != i)
            return llvm::createStringError("buffer '" + var.getName().str() +
                                           "' has no offset on tile " +
                                           std::to_string(tile));
          int64_t offset = analysis.tiles[head].allocation.offsets()[k];
          // Extends the last run when the tiles follow it at its offset.
          int n = b.placement_runs_size();
          if (n && b.placement_runs(n - 1) == offset &&
              b.placement_runs(n - 3) + b.placement_runs(n - 2) == tile) {
            b.set_placement_runs(n - 2, b.placement_runs(n - 2) + stop - tile);
          } else {
            b.add_placement_runs(tile);
            b.add_placement_runs(stop - tile);
            b.add_placement_runs(offset);
          }
          tile = stop;
        }
      }
    if (std::optional<StringRef> hlo = var.getHlo())
      b.set_hlo(hlo->str());
    std::optional<uint64_t> resultOf = var.getResultOf();
    std::optional<uint64_t> leaf = var.getResultLeaf();
    if (resultOf && leaf) {
      b.set_result_op_plus_one(int64_t(*resultOf) + 1);
      b.set_result_leaf(static_cast<int32_t>(*leaf));
    }
    if (var.getCategory() == tile::Category::Constant) {
      if (ElementsAttr value = var.getValueAttr()) {
        llvm::Expected<std::string> bytes = constantBytes(value, *parsed);
        if (!bytes)
          return opError(var, "constant '" + var.getName() +
                                  "': " + toString(bytes.takeError()));
        b.set_constant_data(std::move(*bytes));
      } else if (std::optional<uint64_t> id = var.getOpId()) {
        b.set_elided(true);
        b.set_op_id(int64_t(*id));
      } else {
        return opError(var, "constant '" + var.getName() + "' has no value");
      }
    }
    if (llvm::Error err =
            payload.appendField(exe::Executable::kBuffersFieldNumber, b))
      return err;
  }
  return llvm::Error::success();
}

/// Steps are every op of a body but these.
bool isStep(Operation &op) {
  return !isa<tile::VarOp, tile::EndOp, tile::YieldOp>(op);
}

llvm::Error
Writer::addSteps(Block &block,
                 google::protobuf::RepeatedPtrField<exe::Step> &steps) {
  for (Operation &op : block)
    if (isStep(op))
      if (llvm::Error err = addStep(op, *steps.Add()))
        return err;
  return llvm::Error::success();
}

llvm::Error Writer::addStep(Operation &op, exe::Step &step) {
  auto idx = [&](Value v) { return index.lookup(v); };
  step.set_location(sourceLine(op.getLoc()));
  if (auto name = op.getAttrOfType<StringAttr>("name"))
    step.set_name(name.getValue().str());
  describeStep(op, step);
  if (auto cs = dyn_cast<tile::ComputeSetOp>(op)) {
    exe::ComputeSet &c = *step.mutable_compute_set();
    c.set_kind(cs.getKind().str());
    c.set_first_tile(cs.getFirstTile());
    c.set_end_tile(cs.getEndTile());
    c.set_vertices_per_tile(cs.getVerticesPerTile());
    for (Value v : cs.getIns())
      c.add_ins(idx(v));
    for (Value v : cs.getOuts())
      c.add_outs(idx(v));
    for (NamedAttribute a : op.getDiscardableAttrs()) {
      exe::Param &param = (*c.mutable_params())[a.getName().str()];
      // A large integer list is written once and named by the compute sets
      // that take it (format version 4): every step of a convolution layer
      // takes the same input boxes, which were 20 of the 33 MB of the
      // 20k-op convolution graph's executable, one copy per step.
      auto ints = dyn_cast<DenseI64ArrayAttr>(a.getValue());
      if (!ints || static_cast<size_t>(ints.size()) < kSharedIntsMin) {
        toParam(a.getValue(), param);
        continue;
      }
      auto [it, inserted] =
          sharedInts.try_emplace(ints.getAsOpaquePointer(), sharedInts.size());
      if (inserted)
        if (llvm::Error err = sharedIntBytes.appendPacked(
                exe::Executable::kSharedIntsFieldNumber,
                {{exe::Ints::kValuesFieldNumber, ints.asArrayRef()}}))
          return err;
      param.set_shared_ints(it->second);
    }
  } else if (auto x = dyn_cast<tile::ExchangeOp>(op)) {
    exe::Exchange &e = *step.mutable_exchange();
    e.set_source(idx(x.getSource()));
    e.set_dest(idx(x.getDest()));
    if (x.isView()) {
      e.set_is_view(true);
      std::optional<ArrayRef<int64_t>> strides = x.getViewStrides();
      e.mutable_view_strides()->Add(strides->begin(), strides->end());
      e.set_view_offset(x.getViewOffset().value_or(0));
    } else {
      // Exchanges of repeated layers copy by the same runs, which the IR
      // holds once (attributes are uniqued): the executable lists each
      // once too, and the exchanges name it (format version 3).
      auto [it, inserted] = copyLists.try_emplace(
          std::make_pair(x.getCopiesAttr().getAsOpaquePointer(),
                         x.getStridedAttr().getAsOpaquePointer()),
          copyLists.size());
      if (inserted)
        if (llvm::Error err = copyListBytes.appendPacked(
                exe::Executable::kCopyListsFieldNumber,
                {{exe::CopyList::kCopiesFieldNumber, x.getCopyRuns()},
                 {exe::CopyList::kStridedFieldNumber,
                  x.getStrided().value_or(ArrayRef<int64_t>())}}))
          return err;
      e.set_copy_list_plus_one(it->second + 1);
    }
  } else if (auto c = dyn_cast<tile::CollectiveOp>(op)) {
    exe::Collective &e = *step.mutable_collective();
    e.set_kind(tile::stringifyCollectiveKind(c.getKind()).str());
    e.set_source(idx(c.getSource()));
    e.set_dest(idx(c.getDest()));
    for (int64_t d : c.getGroups())
      e.add_groups(d);
    e.set_group_size(c.getGroupSize());
    if (c.getReducer())
      e.set_reducer(c.getReducer()->str());
    e.set_dimension(c.getDimension());
    if (std::optional<ArrayRef<int64_t>> pairs = c.getPairs())
      for (int64_t d : *pairs)
        e.add_pairs(d);
    e.set_algorithm(c.getAlgorithm().str());
  } else if (isa<tile::SyncOp>(op)) {
    if (step.name().empty())
      step.set_name("sync");
    step.mutable_sync();
  } else if (auto hc = dyn_cast<tile::HostCopyOp>(op)) {
    // Named for what it moves: profiles and timelines list it.
    if (step.name().empty())
      if (auto var = hc.getBuffer().getDefiningOp<tile::VarOp>())
        step.set_name((hc.getDirection() == tile::HostDirection::Infeed
                           ? "infeed "
                           : "outfeed ") +
                      var.getName().str());
    exe::HostCopy &h = *step.mutable_host_copy();
    h.set_direction(hc.getDirection() == tile::HostDirection::Infeed
                        ? exe::HostCopy::INFEED
                        : exe::HostCopy::OUTFEED);
    h.set_buffer(idx(hc.getBuffer()));
  } else if (auto hc = dyn_cast<tile::HostComputeOp>(op)) {
    exe::HostCompute &h = *step.mutable_host_compute();
    h.set_op(hc.getOp().str());
    h.set_reason(hc.getReason().str());
    if (auto detail = op.getAttrOfType<StringAttr>("detail"))
      h.set_detail(detail.getValue().str());
    for (Value v : hc.getIns())
      h.add_ins(idx(v));
    for (Value v : hc.getOuts())
      h.add_outs(idx(v));
    auto id = op.getAttrOfType<IntegerAttr>("op_id");
    if (!id)
      return opError(hc, "host op '" + hc.getName() + "' names no tgraph op");
    h.set_op_id(id.getInt());
  } else if (auto loop = dyn_cast<tile::RepeatOp>(op)) {
    exe::Repeat &r = *step.mutable_repeat();
    r.set_condition(idx(loop.getCondition()));
    r.set_trip_count(loop.getTripCount());
    if (std::optional<uint64_t> id = loop.getOpId())
      r.set_op_id_plus_one(int64_t(*id) + 1);
    if (llvm::Error err = addSteps(loop.getBody().front(), *r.mutable_body()))
      return err;
  } else if (auto branch = dyn_cast<tile::IfOp>(op)) {
    exe::If &i = *step.mutable_if_step();
    i.set_predicate(idx(branch.getPredicate()));
    if (llvm::Error err =
            addSteps(branch.getThenBody().front(), *i.mutable_then_body()))
      return err;
    if (llvm::Error err =
            addSteps(branch.getElseBody().front(), *i.mutable_else_body()))
      return err;
  } else {
    return llvm::createStringError("the executable has no form for '" +
                                   op.getName().getStringRef().str() + "'");
  }
  return llvm::Error::success();
}

void addBinding(google::protobuf::RepeatedPtrField<exe::Binding> &list,
                StringRef name, RankedTensorType type, int32_t buffer) {
  exe::Binding &b = *list.Add();
  b.set_name(name.str());
  b.set_dtype(hloDtypeName(type.getElementType()));
  for (int64_t d : type.getShape())
    b.add_shape(d);
  b.set_buffer_plus_one(buffer + 1);
}

/// Tensor leaves of a type in tuple order.
void leavesOf(Type type, SmallVectorImpl<Type> &leaves) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    for (Type t : tuple.getTypes())
      leavesOf(t, leaves);
    return;
  }
  if (isa<TensorType>(type))
    leaves.push_back(type);
}

/// Appends to `payload` the fields before the graph module: the head,
/// each buffer and step as it is built; sets in `out` those after the
/// steps but the graph module, the copy lists and the shared integer
/// lists, which go to `tail`, serialized (the message's last fields). Frees
/// `owned`'s liveness and offsets once read (see write()). The Writer's tables
/// are freed on return.
llvm::Error writeProgram(PayloadWriter &payload, exe::Executable &out,
                         PayloadWriter &tail, ModuleOp module,
                         tile::ProgramOp program,
                         const memory::MemoryAnalysis &analysis,
                         memory::MemoryAnalysis *owned, StringRef moduleName,
                         std::string sourceModule) {
  Writer writer(out, module, analysis);
  {
    exe::Executable head;
    head.set_format_version(runtime::kExecutableFormatVersion);
    head.set_module_name(moduleName.str());
    head.set_program(program.getSymName().str());
    head.set_entry(analysis.entry);
    head.set_target_json(toJson(analysis.target));
    head.set_num_tiles(program.getTiles());
    if (llvm::Error err = payload.append(head))
      return err;
  }
  if (llvm::Error err = writer.addBuffers(payload, program, analysis))
    return err;
  // Parameters: the entry's argument leaves; the lowering gives each
  // static-shape leaf a parameter buffer, in order.
  func::FuncOp entry =
      module.lookupSymbol<func::FuncOp>(analysis.entry.empty()
                                            ? StringRef("main")
                                            : StringRef(analysis.entry));
  if (!entry)
    return llvm::createStringError("the program's entry function @" +
                                   analysis.entry + " is missing");
  std::vector<int32_t> parameterBuffers;
  for (auto [i, b] : llvm::enumerate(analysis.liveness.buffers))
    if (b.var.getCategory() == tile::Category::Parameter)
      parameterBuffers.push_back(static_cast<int32_t>(i));
  size_t next = 0;
  for (BlockArgument arg : entry.getArguments()) {
    SmallVector<Type> leaves;
    leavesOf(arg.getType(), leaves);
    std::string base = "arg" + std::to_string(arg.getArgNumber());
    if (auto nameLoc = dyn_cast<NameLoc>(arg.getLoc()))
      base = nameLoc.getName().str();
    for (auto [k, leaf] : llvm::enumerate(leaves)) {
      auto t = dyn_cast<RankedTensorType>(leaf);
      if (!t || !t.hasStaticShape())
        return llvm::createStringError("argument '" + base +
                                       "' has a dynamic shape");
      if (next >= parameterBuffers.size())
        return llvm::createStringError("argument '" + base +
                                       "' has no parameter buffer");
      std::string name =
          leaves.size() > 1 ? base + "." + std::to_string(k) : base;
      addBinding(*out.mutable_parameters(), name, t,
                 parameterBuffers[next++]);
    }
  }
  // Tiles over capacity, as the memory report words them.
  for (auto [t, alloc] : llvm::enumerate(analysis.tiles)) {
    if (!alloc.outOfMemory())
      continue;
    exe::TileMemory &m = *out.add_over_capacity();
    m.set_tile(t);
    m.set_required(alloc.includingGaps());
    m.set_over_by(alloc.overBy());
    int64_t point = alloc.allocation.peakPoint;
    m.set_peak_point(point);
    if (point < analysis.liveness.schedule.numPoints())
      m.set_peak_step(
          memory::stepName(analysis.liveness.schedule.steps[point]));
    else
      m.set_peak_step("(program start)");
  }
  // The steps read only the step costs (and the writer's own tables):
  // the liveness and the offsets, most of the analysis, are freed before
  // the steps' bytes pile up.
  // (The heap keeps freed pages resident unless asked, and what is built
  // after the analysis is freed, the graph module's bytecode and the
  // file's bytes in one piece, fits in few of its freed pieces: the heap
  // grew past them instead, by 19 MB at the end of a 30k-op compile, its
  // peak. Hence releaseFreedHeap after each part is freed.)
  if (owned) {
    owned->liveness = memory::ProgramLiveness();
    owned->tiles = std::vector<memory::TileAllocation>();
    releaseFreedHeap();
  }
  writer.indexGraphOps(module);
  // The program ends with one outfeed per result leaf.
  std::vector<int32_t> outfeeds;
  // One message, cleared for each step: it keeps its strings' and
  // repeated fields' storage, where a message per step was hundreds of
  // thousands of allocations and frees in a heap the analysis left
  // fragmented (their cost grew faster than the steps).
  exe::Step step;
  for (Operation &op : program.getBody().front()) {
    if (!isStep(op))
      continue;
    step.Clear();
    if (llvm::Error err = writer.addStep(op, step))
      return err;
    if (step.has_host_copy() &&
        step.host_copy().direction() == exe::HostCopy::OUTFEED)
      outfeeds.push_back(step.host_copy().buffer());
    if (llvm::Error err =
            payload.appendField(exe::Executable::kStepsFieldNumber, step))
      return err;
  }
  out.set_chips(program.getChips());
  out.set_replicas(program.getReplicas());
  if (program.getPlacement())
    out.set_placement(program.getPlacement()->str());
  out.set_bytes_per_tile(analysis.target.sramBytesPerTile);
  out.set_producer("tessera-compile");
  out.set_source_module(std::move(sourceModule));

  // Outputs: the last outfeeds.
  SmallVector<Type> results;
  for (Type t : entry.getFunctionType().getResults())
    leavesOf(t, results);
  if (outfeeds.size() < results.size())
    return llvm::createStringError("the program outfeeds fewer buffers than "
                                   "its entry returns");
  size_t first = outfeeds.size() - results.size();
  for (auto [k, leaf] : llvm::enumerate(results)) {
    auto t = dyn_cast<RankedTensorType>(leaf);
    if (!t || !t.hasStaticShape())
      return llvm::createStringError("result " + std::to_string(k) +
                                     " has a dynamic shape");
    addBinding(*out.mutable_outputs(), "output_" + std::to_string(k), t,
               outfeeds[first + k]);
  }
  if (llvm::Error err = tail.take(std::move(writer.copyListBytes)))
    return err;
  return tail.take(std::move(writer.sharedIntBytes));
}

/// writeExecutable; when `owned` is set (it is `analysis`), the analysis
/// is freed part by part as soon as the last field that reads it is
/// built (the liveness and offsets after the buffers and bindings, the
/// step costs after the steps): a large compile's peak memory was the
/// analysis held together with the steps' bytes, the graph module's copy
/// and the file's bytes, which come after.
llvm::Expected<std::string> write(ModuleOp module, tile::ProgramOp program,
                                  const memory::MemoryAnalysis &analysis,
                                  memory::MemoryAnalysis *owned,
                                  StringRef moduleName,
                                  std::string sourceModule,
                                  std::optional<GraphModuleBytes> graphModule) {
  // The message's fields in field order: `head` up to the buffers, the
  // buffers and the steps one by one, then `out`, then `tail` (the copy
  // lists and shared integer lists, fields 20 and 21).
  PayloadWriter payload, tail;
  exe::Executable out;
  if (llvm::Error err =
          writeProgram(payload, out, tail, module, program, analysis, owned,
                       moduleName, std::move(sourceModule)))
    return std::move(err);
  if (owned) {
    *owned = memory::MemoryAnalysis();
    releaseFreedHeap();
  }

  // The bytecode writer's pages go back before the message's bytes are
  // taken, and the message's before the file's bytes are assembled: at
  // 100k ops the end of the write was the compile's peak. A trim walks
  // the whole heap (~30 ms at 100k ops): none when nothing was freed.
  if (!graphModule) {
    llvm::Expected<GraphModuleBytes> bytes = writeGraphModule(module);
    if (!bytes)
      return bytes.takeError();
    graphModule = std::move(*bytes);
    if (owned)
      releaseFreedHeap();
  }
  // graph_module (field 11) comes between `out`'s bindings (9, 10) and its
  // other fields (12 on): the bindings go first as a message of their own,
  // then the module's bytes from their blocks, then the rest. Protobuf
  // writes a message's fields in number order, so these are the bytes of
  // `out` with the module set, without the module ever in one string.
  static_assert(exe::Executable::kParametersFieldNumber == 9 &&
                    exe::Executable::kOutputsFieldNumber == 10 &&
                    exe::Executable::kGraphModuleFieldNumber == 11 &&
                    exe::Executable::kOverCapacityFieldNumber == 12,
                "the executable's fields around graph_module moved");
  {
    exe::Executable bindings;
    bindings.mutable_parameters()->Swap(out.mutable_parameters());
    bindings.mutable_outputs()->Swap(out.mutable_outputs());
    if (llvm::Error err = payload.append(bindings))
      return std::move(err);
  }
  if (llvm::Error err = payload.appendBytes(
          exe::Executable::kGraphModuleFieldNumber, std::move(*graphModule)))
    return std::move(err);
  graphModule.reset();
  if (llvm::Error err = payload.append(out))
    return std::move(err);
  if (llvm::Error err = payload.take(std::move(tail)))
    return std::move(err);
  // Swapped out, not cleared: Clear() keeps the strings' memory.
  exe::Executable().Swap(&out);
  if (owned)
    releaseFreedHeap();
  return payload.finish();
}

/// A stream into blocks of a fixed size (GraphModuleBytes). Through a
/// string stream, the 100k-op graph's 9.5 MB module grew its string by
/// doubling and was copied once more to shrink it: 12 MB more memory while
/// the module was written, which is now beside the memory analysis
/// (Compiler.cpp).
class BlockStream : public llvm::raw_ostream {
public:
  BlockStream() = default;
  ~BlockStream() override { flush(); }
  /// The bytes written, in their blocks.
  GraphModuleBytes take() {
    flush();
    GraphModuleBytes bytes{std::move(blocks), total};
    blocks.clear();
    total = 0;
    return bytes;
  }

private:
  static constexpr size_t kBlockBytes = size_t(1) << 20;
  void write_impl(const char *ptr, size_t size) override {
    total += size;
    while (size > 0) {
      if (blocks.empty() || blocks.back().size() == kBlockBytes) {
        blocks.emplace_back();
        blocks.back().reserve(kBlockBytes);
      }
      std::string &block = blocks.back();
      size_t n = std::min(size, kBlockBytes - block.size());
      block.append(ptr, n);
      ptr += n;
      size -= n;
    }
  }
  uint64_t current_pos() const override { return total; }
  std::vector<std::string> blocks;
  size_t total = 0;
};
} // namespace

llvm::Expected<GraphModuleBytes> writeGraphModule(ModuleOp module) {
  // The tgraph module without the tile program: host ops and the reference.
  // Its ops are moved into the module written, then back where they were:
  // a copy of them (7.5 MB at 30k ops) was part of the compile's peak, and
  // a copy of the whole module had copied the tile program only to erase
  // it.
  OwningOpRef<ModuleOp> graph = ModuleOp::create(module.getLoc());
  (*graph)->setAttrs(module->getAttrDictionary());
  Block *body = module.getBody(), *graphBody = graph->getBody();
  std::vector<Operation *> order;
  for (Operation &op : *body)
    order.push_back(&op);
  for (Operation *op : order)
    if (!isa<tile::ProgramOp>(op))
      op->moveBefore(graphBody, graphBody->end());
  BlockStream os;
  LogicalResult written =
      writeBytecodeToFile(*graph, os, BytecodeWriterConfig("tessera"));
  for (Operation *op : order)
    op->moveBefore(body, body->end());
  if (failed(written))
    return llvm::createStringError("cannot serialize the tgraph module");
  // Held until the executable is written.
  return os.take();
}

llvm::Expected<std::string>
writeExecutable(ModuleOp module, tile::ProgramOp program,
                const memory::MemoryAnalysis &analysis, StringRef moduleName,
                std::string sourceModule,
                std::optional<GraphModuleBytes> graphModule) {
  return write(module, program, analysis, nullptr, moduleName,
               std::move(sourceModule), std::move(graphModule));
}

llvm::Expected<std::string>
writeExecutable(ModuleOp module, tile::ProgramOp program,
                memory::MemoryAnalysis &&analysis, StringRef moduleName,
                std::string sourceModule,
                std::optional<GraphModuleBytes> graphModule) {
  return write(module, program, analysis, &analysis, moduleName,
               std::move(sourceModule), std::move(graphModule));
}

llvm::Expected<exe::Executable>
buildExecutable(ModuleOp module, tile::ProgramOp program,
                const memory::MemoryAnalysis &analysis, StringRef moduleName) {
  llvm::Expected<std::string> file =
      writeExecutable(module, program, analysis, moduleName, "");
  if (!file)
    return file.takeError();
  return runtime::decodeExecutable(*file, moduleName);
}

} // namespace tessera
