//===- VertexLibrary.cpp - Kinds to factories; VertexSpec helpers ---------===//

#include "VertexLibrary.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace tessera::runtime {

Vertex::~Vertex() = default;

Error VertexSpec::error(const Twine &what) const {
  return createStringError(where + ": vertex '" + cs.kind() + "': " + what);
}

Error VertexSpec::expectOperands(size_t ins, size_t outs) const {
  if (numIns() == ins && numOuts() == outs)
    return Error::success();
  return error("takes " + Twine(ins) + " inputs and " + Twine(outs) +
               " outputs, got " + Twine(numIns()) + " and " +
               Twine(numOuts()));
}

std::optional<int64_t> VertexSpec::getInt(StringRef name) const {
  auto it = cs.params().find(name.str());
  if (it == cs.params().end() || !it->second.has_int_value())
    return std::nullopt;
  return it->second.int_value();
}

std::optional<std::vector<int64_t>> VertexSpec::getInts(StringRef name) const {
  auto it = cs.params().find(name.str());
  if (it == cs.params().end())
    return std::nullopt;
  const exe::Ints *ints = program.intsOf(it->second);
  if (!ints)
    return std::nullopt;
  return std::vector<int64_t>(ints->values().begin(), ints->values().end());
}

std::optional<std::string> VertexSpec::getString(StringRef name) const {
  auto it = cs.params().find(name.str());
  if (it == cs.params().end() || !it->second.has_string_value())
    return std::nullopt;
  return it->second.string_value();
}

std::optional<double> VertexSpec::getFloat(StringRef name) const {
  auto it = cs.params().find(name.str());
  if (it == cs.params().end() || !it->second.has_float_value())
    return std::nullopt;
  return it->second.float_value();
}

bool VertexSpec::hasFlag(StringRef name) const {
  auto it = cs.params().find(name.str());
  return it != cs.params().end() && it->second.has_unit_value();
}

Expected<int64_t> VertexSpec::requireInt(StringRef name) const {
  if (std::optional<int64_t> v = getInt(name))
    return *v;
  return error("missing integer parameter '" + name + "'");
}

Expected<std::vector<int64_t>>
VertexSpec::requireInts(StringRef name, std::optional<size_t> size) const {
  std::optional<std::vector<int64_t>> v = getInts(name);
  if (!v)
    return error("missing integer-list parameter '" + name + "'");
  if (size && v->size() != *size)
    return error("parameter '" + name + "' has " + Twine(v->size()) +
                 " values, expected " + Twine(*size));
  return *v;
}

Error expectSameType(const VertexSpec &spec) {
  DType t = spec.numOuts() ? spec.out(0).dtype : spec.in(0).dtype;
  for (size_t i = 0; i < spec.numIns(); ++i)
    if (spec.in(i).dtype != t)
      return spec.error("input " + Twine(i) + " " + spec.in(i).describe() +
                        " is not " + dtypeName(t));
  for (size_t i = 0; i < spec.numOuts(); ++i)
    if (spec.out(i).dtype != t)
      return spec.error("output " + Twine(i) + " " + spec.out(i).describe() +
                        " is not " + dtypeName(t));
  return Error::success();
}

Expected<bool> expectPartialsOutput(const VertexSpec &spec, size_t operands) {
  DType in = spec.in(0).dtype, out = spec.out(0).dtype;
  bool wide = out == DType::F32 && (in == DType::F16 || in == DType::BF16);
  for (size_t i = 1; i < std::min(operands, spec.numIns()); ++i)
    if (spec.in(i).dtype != in)
      return spec.error("input " + Twine(i) + " " + spec.in(i).describe() +
                        " is not " + dtypeName(in));
  if (out != in && !wide)
    return spec.error("output " + spec.out(0).describe() + " is neither " +
                      dtypeName(in) + " nor f32 partials of a 16-bit float");
  return wide;
}

Expected<std::vector<int64_t>> readFirstSlots(const VertexSpec &spec) {
  Expected<std::vector<int64_t>> runs =
      spec.requireInts("partials_per_output_runs");
  if (!runs)
    return runs.takeError();
  if (runs->size() % 2 != 0)
    return spec.error("partials_per_output_runs is not (count, outputs) pairs");
  int64_t n = spec.out(0).numElements;
  std::vector<int64_t> first;
  first.reserve(n + 1);
  first.push_back(0);
  for (size_t i = 0; i < runs->size(); i += 2) {
    int64_t count = (*runs)[i], repeat = (*runs)[i + 1];
    if (count < 0 || repeat <= 0 ||
        static_cast<int64_t>(first.size()) - 1 + repeat > n)
      return spec.error("partials_per_output_runs does not describe " +
                        Twine(n) + " outputs");
    for (int64_t r = 0; r < repeat; ++r)
      first.push_back(first.back() + count);
  }
  if (static_cast<int64_t>(first.size()) != n + 1 ||
      first.back() != spec.in(0).numElements)
    return spec.error("partials_per_output_runs covers " +
                      Twine(first.size() - 1) + " outputs and " +
                      Twine(first.back()) + " slots, expected " +
                      Twine(n) + " and " + Twine(spec.in(0).numElements));
  return first;
}

std::vector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

Expected<std::unique_ptr<Vertex>> createVertex(const VertexSpec &spec) {
  StringRef kind = spec.cs.kind();
  auto [family, op] = kind.split('.');
  if (family == "elementwise" && isElementwiseOp(op))
    return createElementwise(spec, op);
  if (family == "reduce-partial" && isReducer(op))
    return createReducePartial(spec, op);
  if (family == "reduce" && isReducer(op))
    return createReduce(spec, op);
  if (kind == "iota")
    return createIota(spec);
  if (kind == "fill")
    return createFill(spec);
  if (kind == "branch-index.equals")
    return createBranchIndexEquals(spec);
  if (kind == "matmul-partial")
    return createMatmulPartial(spec);
  if (kind == "conv-partial")
    return createConvPartial(spec);
  if (family == "reduce-window" && isReducer(op))
    return createReduceWindow(spec, op);
  if (family == "batch-norm")
    return createBatchNorm(spec, op);
  if (kind == "gather")
    return createGather(spec);
  if (family == "scatter")
    return createScatter(spec, op);
  if (kind == "dynamic-slice" || kind == "dynamic-update-slice")
    return createDynamicSlice(spec, kind == "dynamic-update-slice");
  if (kind == "sort")
    return createSort(spec);
  return createStringError(spec.where + ": vertex kind '" + kind +
                           "' is not in the model device's library");
}

ComputeRates::ComputeRates(const TargetDescription &target)
    : matrix(target.matrixUnit) {
  for (size_t d = 0; d < kDTypes; ++d) {
    StringRef name = dtypeName(static_cast<DType>(d));
    widths[d] = std::max<int64_t>(1, target.vectorWidthFor(name));
    matrixDtypes[d] = matrix.macsPerCycle() > 0 &&
                      llvm::is_contained(matrix.dtypes, name.str());
  }
}

TileWork Vertex::work(const ComputeRates &rates, int64_t tile,
                      ArrayRef<TileOperand> ins,
                      ArrayRef<TileOperand> outs) const {
  (void)tile;
  const TileOperand *moved =
      !outs.empty() ? &outs[0] : ins.empty() ? nullptr : &ins[0];
  if (!moved || !moved->buffer)
    return {};
  return {vectorCycles(moved->elements(),
                       rates.vectorWidth(moved->buffer->dtype)),
          0};
}

std::vector<std::string> vertexKinds() {
  return {"elementwise.*",   "iota",
          "fill",            "branch-index.equals",
          "matmul-partial",  "conv-partial",
          "reduce-partial.*", "reduce.*",
          "reduce-window.*", "batch-norm.*",
          "gather",          "scatter.*",
          "dynamic-slice",   "dynamic-update-slice",
          "sort"};
}

} // namespace tessera::runtime
