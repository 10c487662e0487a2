//===- Runner.cpp - The graph module, host ops and seeded data -------------===//

#include "tessera/Runner/Runner.h"

#include "tessera/Dialect/TGraph/IR/TGraph.h"
#include "tessera/Dialect/Tile/IR/Tile.h"

#include "mlir/Bytecode/BytecodeReader.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Block.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace mlir;

namespace tessera::runner {

llvm::Expected<std::unique_ptr<GraphModule>>
GraphModule::parse(const exe::Executable &executable, llvm::StringRef source,
                   const GraphModule *lowered) {
  std::unique_ptr<GraphModule> g(new GraphModule());
  llvm::StringRef bytes =
      lowered ? executable.source_module() : executable.graph_module();
  // The graph module holds tgraph and func ops (and tile attributes), and
  // the scalar arith / tensor / math ops an exported model keeps beside
  // them (docs/tosa-import.md); registering these, not every pass, keeps
  // the runner off the compiler.
  DialectRegistry registry;
  registry
      .insert<tgraph::TGraphDialect, tile::TileDialect, func::FuncDialect,
              arith::ArithDialect, math::MathDialect, tensor::TensorDialect>();
  g->context = std::make_unique<MLIRContext>(registry);
  // Host ops and the reference run on the caller's thread; the context
  // needs no pool of its own.
  g->context->disableMultithreading();
  g->context->loadAllAvailableDialects();
  std::string diagnostics;
  ScopedDiagnosticHandler handler(g->context.get(), [&](Diagnostic &d) {
    diagnostics += d.str() + "\n";
    return success();
  });
  Block block;
  llvm::MemoryBufferRef buffer(bytes, source);
  ParserConfig config(g->context.get());
  if (failed(readBytecodeFile(buffer, &block, config)) ||
      block.getOperations().size() != 1 ||
      !isa<ModuleOp>(block.front()))
    return llvm::createStringError(
        source + ": the executable's graph module cannot be read" +
        (diagnostics.empty() ? "" : ": " + diagnostics));
  g->moduleOp = OwningOpRef<ModuleOp>(cast<ModuleOp>(block.front()));
  g->moduleOp->getOperation()->remove();
  int64_t maxId = -1;
  g->moduleOp->walk([&](Operation *op) {
    if (auto id = op->getAttrOfType<IntegerAttr>("tile.op_id")) {
      g->byId.try_emplace(id.getInt(), op);
      maxId = std::max<int64_t>(maxId, id.getInt());
    }
  });
  if (lowered) {
    // Normalization changes constants' types, never their number or order:
    // the n-th constant here is the lowered module's n-th, and an elided
    // one gets the data stream the device's copy got.
    SmallVector<Operation *> mine, theirs;
    g->moduleOp->walk([&](tgraph::ConstantOp c) { mine.push_back(c); });
    lowered->moduleOp.get()->walk(
        [&](tgraph::ConstantOp c) { theirs.push_back(c); });
    if (mine.size() != theirs.size())
      return llvm::createStringError(
          source + ": the source module has " + llvm::Twine(mine.size()) +
          " constants, the graph module " + llvm::Twine(theirs.size()));
    for (auto [a, b] : llvm::zip_equal(mine, theirs))
      if (cast<tgraph::ConstantOp>(a).getElided())
        g->streams[a] = lowered->streamOf(b);
  } else {
    uint64_t next = uint64_t(maxId + 1);
    g->moduleOp->walk([&](tgraph::ConstantOp c) {
      if (c.getElided() && !c->hasAttr("tile.op_id"))
        g->streams[c] = constantStream(int64_t(next++));
    });
  }
  StringRef entry = executable.entry().empty() ? StringRef("main")
                                               : StringRef(executable.entry());
  g->entryFn = g->moduleOp->lookupSymbol<func::FuncOp>(entry);
  if (!g->entryFn)
    return llvm::createStringError(source + ": the graph module has no entry "
                                            "function @" +
                                   entry);
  return g;
}

uint64_t GraphModule::streamOf(Operation *constant) const {
  if (auto id = constant->getAttrOfType<IntegerAttr>("tile.op_id"))
    return constantStream(id.getInt());
  return streams.lookup(constant);
}

HostTensor seededTensor(DType dtype, llvm::ArrayRef<int64_t> shape,
                        uint64_t seed, uint64_t stream) {
  HostTensor t(dtype, shape);
  std::seed_seq seq{uint32_t(seed), uint32_t(seed >> 32), uint32_t(stream),
                    uint32_t(stream >> 32)};
  std::mt19937_64 gen(seq);
  int64_t n = t.numElements();
  if (isFloat(dtype)) {
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    for (int64_t i = 0; i < n; ++i)
      t.setDouble(i, dist(gen));
  } else {
    int64_t hi = dtype == DType::Pred ? 1 : 7;
    std::uniform_int_distribution<int64_t> dist(0, hi);
    for (int64_t i = 0; i < n; ++i)
      t.setInt(i, dist(gen));
  }
  return t;
}

int64_t fillElidedConstants(const runtime::Program &program,
                            runtime::Device &device, uint64_t seed) {
  int64_t count = 0;
  for (const auto &[i, b] : llvm::enumerate(program.executable().buffers())) {
    if (b.category() != exe::CATEGORY_CONSTANT || !b.elided() ||
        b.alias_of_plus_one() != 0)
      continue;
    const runtime::BufferLayout &layout = program.buffer(i);
    device.write(i, seededTensor(layout.dtype, layout.shape, seed,
                                 constantStream(b.op_id())));
    ++count;
  }
  return count;
}

interp::Options referenceOptions(const GraphModule &graph, uint64_t seed,
                                 bool computeInF64, InfeedSource &infeed) {
  interp::Options options;
  options.infeed = [&infeed](Operation *, DType dtype,
                             llvm::ArrayRef<int64_t> shape) {
    return llvm::Expected<HostTensor>(infeed.next(dtype, shape));
  };
  options.computeInF64 = computeInF64;
  options.seed = seed;
  options.elidedConstant = [&graph,
                            seed](Operation *op) -> llvm::Expected<HostTensor> {
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    std::optional<DType> d =
        type ? interp::dtypeOf(type.getElementType()) : std::nullopt;
    if (!d)
      return llvm::createStringError("an elided constant of a type the "
                                     "runner cannot fill");
    return seededTensor(*d, type.getShape(), seed, graph.streamOf(op));
  };
  return options;
}

llvm::Expected<std::vector<HostTensor>>
InterpreterHostOps::evaluate(const exe::HostCompute &hc,
                             llvm::ArrayRef<HostTensor> ins) {
  Operation *op = graph.lookup(hc.op_id());
  if (!op)
    return llvm::createStringError("no op with tile.op_id " +
                                   llvm::Twine(hc.op_id()) +
                                   " in the graph module");
  return interp::interpretOp(op, ins, options);
}

double toleranceOf(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return 1e-4;
  case DType::F64:
    return 1e-5;
  case DType::F16:
    return 4e-3;
  case DType::BF16:
    return 3.2e-2;
  default:
    return 0;
  }
}

/// The loosest float tolerance among the leaves of `type`.
static double typeTolerance(mlir::Type type) {
  double tol = 0;
  if (auto tuple = mlir::dyn_cast<mlir::TupleType>(type)) {
    for (mlir::Type t : tuple.getTypes())
      tol = std::max(tol, typeTolerance(t));
    return tol;
  }
  if (auto shaped = mlir::dyn_cast<mlir::ShapedType>(type))
    if (auto d = interp::dtypeOf(shaped.getElementType()))
      if (isFloat(*d))
        return toleranceOf(*d);
  return 0;
}

int64_t leafCount(mlir::Type type) {
  if (auto tuple = mlir::dyn_cast<mlir::TupleType>(type)) {
    int64_t n = 0;
    for (mlir::Type t : tuple.getTypes())
      n += leafCount(t);
    return n;
  }
  return mlir::isa<mlir::TensorType>(type) ? 1 : 0;
}

std::vector<double> outputTolerances(mlir::func::FuncOp entry) {
  mlir::Block &body = entry.getBody().front();
  // Block order is dependence order, so one forward pass gives each op the
  // loosest tolerance of everything it depends on: its own results and its
  // regions' ops, and the ops of this block its operands (or its regions'
  // operands) come from.
  llvm::DenseMap<mlir::Operation *, double> cone;
  auto coneOf = [&](mlir::Value v) {
    mlir::Operation *def = v.getDefiningOp();
    return def ? cone.lookup(def) : 0.0;
  };
  for (mlir::Operation &op : body) {
    double tol = 0;
    op.walk([&](mlir::Operation *inner) {
      for (mlir::Type t : inner->getResultTypes())
        tol = std::max(tol, typeTolerance(t));
      for (mlir::Value operand : inner->getOperands())
        if (operand.getParentBlock() == &body)
          tol = std::max(tol, coneOf(operand));
    });
    cone[&op] = tol;
  }
  std::vector<double> out;
  for (mlir::Value v : body.getTerminator()->getOperands()) {
    double tol = std::max(typeTolerance(v.getType()), coneOf(v));
    // Every leaf of a tuple result shares its value's tolerance.
    out.insert(out.end(), leafCount(v.getType()), tol);
  }
  return out;
}

OutputCheck checkOutput(llvm::StringRef name, const HostTensor &got,
                        const HostTensor &ref,
                        std::optional<double> tolerance) {
  OutputCheck c;
  c.name = name.str();
  c.type = got.typeString();
  c.tolerance = tolerance.value_or(toleranceOf(got.dtype));
  if (!isFloat(got.dtype))
    c.tolerance = 0;
  if (got.shape != ref.shape) {
    c.mismatches = got.numElements();
    c.type += " (reference " + ref.typeString() + ")";
    return c;
  }
  int64_t n = got.numElements();
  if (!isFloat(got.dtype)) {
    for (int64_t i = 0; i < n; ++i) {
      int64_t a = got.getInt(i), b = ref.getInt(i);
      if (a != b) {
        if (c.firstMismatch < 0)
          c.firstMismatch = i;
        ++c.mismatches;
        double d = std::fabs(double(a) - double(b));
        c.maxAbsErr = std::max(c.maxAbsErr, d);
      }
    }
    c.pass = c.mismatches == 0;
    return c;
  }
  double scale = 0;
  for (int64_t i = 0; i < n; ++i)
    if (std::isfinite(ref.getDouble(i)))
      scale = std::max(scale, std::fabs(ref.getDouble(i)));
  for (int64_t i = 0; i < n; ++i) {
    double a = got.getDouble(i), b = ref.getDouble(i);
    bool bad;
    if (std::isnan(b) || std::isinf(b)) {
      bad = std::isnan(b) ? !std::isnan(a) : a != b;
    } else {
      double d = std::fabs(a - b);
      bad = !(d <= c.tolerance * scale); // NaN in `a` is bad too
      if (std::isfinite(d)) {
        c.maxAbsErr = std::max(c.maxAbsErr, d);
        if (b != 0)
          c.maxRelErr = std::max(c.maxRelErr, d / std::fabs(b));
      } else {
        c.maxAbsErr = std::numeric_limits<double>::infinity();
      }
    }
    if (bad) {
      if (c.firstMismatch < 0)
        c.firstMismatch = i;
      ++c.mismatches;
    }
  }
  c.normErr = scale > 0 ? c.maxAbsErr / scale : c.maxAbsErr;
  c.pass = c.mismatches == 0;
  return c;
}

SeededDevice::SeededDevice(const runtime::Program &program, GraphModule &graph,
                           uint64_t seed, unsigned threads)
    : infeed(seed), hostOps(graph, seed, infeed) {
  runtime::DeviceOptions options;
  options.threads = threads;
  options.hostOps = &hostOps;
  options.infeed = [this](const runtime::BufferLayout &b) {
    return llvm::Expected<HostTensor>(infeed.next(b.dtype, b.shape));
  };
  dev = std::make_unique<runtime::Device>(program, options);
  fillElidedConstants(program, *dev, seed);
}

llvm::Expected<std::vector<HostTensor>>
SeededDevice::run(llvm::ArrayRef<HostTensor> inputs,
                  runtime::RunRecord &record) {
  infeed.reset();
  return dev->run(inputs, record, /*synthetic=*/false);
}

BitsDiff diffBits(const HostTensor &a, const HostTensor &b) {
  BitsDiff d;
  int64_t n = a.numElements();
  if (a.dtype != b.dtype || a.shape != b.shape ||
      a.bytes.size() != b.bytes.size()) {
    d.differ = std::max(n, b.numElements());
    d.first = 0;
    return d;
  }
  size_t width = n ? a.bytes.size() / size_t(n) : 0;
  for (int64_t i = 0; i < n; ++i)
    if (std::memcmp(&a.bytes[i * width], &b.bytes[i * width], width) != 0) {
      if (d.first < 0)
        d.first = i;
      ++d.differ;
    }
  return d;
}

} // namespace tessera::runner
