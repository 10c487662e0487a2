//===- HloGpuConfig.cpp - XLA:GPU backend configs of library calls --------===//
//
// Protobuf's JSON printer writes int64 fields as strings ("1") and enums as
// names; hand-edited and older dumps write plain numbers. Both are read.
// Fields are looked up by their proto JSON names; unknown fields are
// ignored, because XLA adds fields in every release.
//
//===----------------------------------------------------------------------===//

#include "HloGpuConfig.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace tessera::hlo::detail {
namespace {

constexpr StringLiteral kEpilogues[] = {"DEFAULT",   "BIAS",         "RELU",
                                        "BIAS_RELU", "GELU",         "GELU_AUX",
                                        "BIAS_GELU", "BIAS_GELU_AUX"};
constexpr StringLiteral kActivations[] = {
    "kNone", "kSigmoid",  "kRelu", "kRelu6",     "kReluX",
    "kTanh", "kBandPass", "kElu",  "kLeakyRelu", "kGeluExact"};

class Reader {
public:
  explicit Reader(ConfigError &error) : error(error) {}

  bool fail(const Twine &path, const Twine &what) {
    error.message = (path + ": " + what).str();
    return false;
  }

  /// Parses `text`; the byte offset of a syntax error is only in the
  /// message of llvm::json::ParseError ("[1:5, byte=4]: ..."), so it is
  /// read back from there.
  std::optional<json::Value> parse(StringRef text) {
    Expected<json::Value> value = json::parse(text);
    if (value)
      return std::move(*value);
    std::string message = toString(value.takeError());
    error.message = "invalid JSON: " + message;
    StringRef rest = StringRef(message).split("byte=").second;
    size_t offset;
    if (!rest.empty() && !rest.take_until([](char c) { return c == ']'; })
                              .getAsInteger(10, offset))
      error.offset = offset;
    return std::nullopt;
  }

  /// The config message: the `wrapper` member of a GpuBackendConfig, or the
  /// root itself in dumps from before the wrapper existed.
  const json::Object *config(const json::Value &root, StringRef wrapper,
                             std::string &path) {
    const json::Object *object = root.getAsObject();
    if (!object) {
      fail("backend_config", "expected a JSON object");
      return nullptr;
    }
    if (const json::Value *inner = object->get(wrapper)) {
      path = wrapper.str();
      if (const json::Object *o = inner->getAsObject())
        return o;
      fail(path, "expected an object");
      return nullptr;
    }
    path = "backend_config";
    return object;
  }

  /// A double, written as a number or (proto JSON) a string. `required`
  /// fields must be present.
  bool number(const json::Object &o, StringRef key, const std::string &path,
              double &out, bool required = false) {
    const json::Value *v = o.get(key);
    if (!v) {
      if (required)
        return fail(path, "needs '" + key + "'");
      return true;
    }
    if (std::optional<double> d = v->getAsNumber()) {
      out = *d;
      return true;
    }
    if (std::optional<StringRef> s = v->getAsString())
      if (!s->getAsDouble(out))
        return true;
    return fail(path + "." + key, "expected a number");
  }

  bool integer(const json::Value &v, int64_t &out) {
    if (std::optional<int64_t> i = v.getAsInteger()) {
      out = *i;
      return true;
    }
    if (std::optional<StringRef> s = v.getAsString())
      return !s->getAsInteger(10, out);
    return false;
  }

  /// A repeated int64 field; absent means empty.
  bool intList(const json::Object &o, StringRef key, const std::string &path,
               SmallVectorImpl<int64_t> &out) {
    const json::Value *v = o.get(key);
    if (!v)
      return true;
    const json::Array *array = v->getAsArray();
    if (!array)
      return fail(path + "." + key, "expected an array of integers");
    for (auto [i, item] : llvm::enumerate(*array)) {
      int64_t value;
      if (!integer(item, value))
        return fail(path + "." + key + "[" + Twine(i) + "]",
                    "expected an integer");
      out.push_back(value);
    }
    return true;
  }

  bool boolean(const json::Object &o, StringRef key, const std::string &path,
               bool &out) {
    const json::Value *v = o.get(key);
    if (!v)
      return true;
    if (std::optional<bool> b = v->getAsBoolean()) {
      out = *b;
      return true;
    }
    return fail(path + "." + key, "expected true or false");
  }

  /// An enum field: its name, or its number in `names` (the proto's order).
  bool enumName(const json::Object &o, StringRef key, const std::string &path,
                ArrayRef<StringLiteral> names, std::string &out) {
    const json::Value *v = o.get(key);
    if (!v)
      return true;
    if (std::optional<StringRef> s = v->getAsString();
        s && llvm::is_contained(names, *s)) {
      out = s->str();
      return true;
    }
    int64_t index;
    if (integer(*v, index) && index >= 0 &&
        index < static_cast<int64_t>(names.size())) {
      out = names[index].str();
      return true;
    }
    std::string valid;
    for (StringRef name : names)
      valid += (valid.empty() ? "" : ", ") + name.str();
    return fail(path + "." + key, "expected one of " + valid);
  }

private:
  ConfigError &error;
};

} // namespace

bool readGemmConfig(StringRef text, GemmConfig &out, ConfigError &error) {
  Reader r(error);
  std::optional<json::Value> root = r.parse(text);
  if (!root)
    return false;
  std::string path;
  const json::Object *c = r.config(*root, "gemm_backend_config", path);
  if (!c)
    return false;
  // proto3 reads an absent alpha as 0, which would zero the result; XLA
  // always writes it, so its absence means the config is not XLA's.
  if (!r.number(*c, "alpha_real", path, out.alphaReal, /*required=*/true) ||
      !r.number(*c, "alpha_imag", path, out.alphaImag) ||
      !r.number(*c, "beta", path, out.beta) ||
      !r.enumName(*c, "epilogue", path, kEpilogues, out.epilogue) ||
      !r.boolean(*c, "damax_output", path, out.damaxOutput) ||
      !r.boolean(*c, "is_fp8", path, out.isFp8))
    return false;
  const json::Value *dims = c->get("dot_dimension_numbers");
  if (!dims)
    return r.fail(path, "needs 'dot_dimension_numbers'");
  const json::Object *d = dims->getAsObject();
  std::string dimsPath = path + ".dot_dimension_numbers";
  if (!d)
    return r.fail(dimsPath, "expected an object");
  return r.intList(*d, "lhs_batch_dimensions", dimsPath, out.lhsBatch) &&
         r.intList(*d, "rhs_batch_dimensions", dimsPath, out.rhsBatch) &&
         r.intList(*d, "lhs_contracting_dimensions", dimsPath,
                   out.lhsContract) &&
         r.intList(*d, "rhs_contracting_dimensions", dimsPath, out.rhsContract);
}

bool readConvConfig(StringRef text, ConvConfig &out, ConfigError &error) {
  Reader r(error);
  std::optional<json::Value> root = r.parse(text);
  if (!root)
    return false;
  std::string path;
  const json::Object *c = r.config(*root, "cudnn_conv_backend_config", path);
  if (!c)
    return false;
  // As alpha above: an absent scale would read as 0.
  return r.number(*c, "conv_result_scale", path, out.convResultScale,
                  /*required=*/true) &&
         r.number(*c, "side_input_scale", path, out.sideInputScale) &&
         r.number(*c, "leakyrelu_alpha", path, out.leakyReluAlpha) &&
         r.enumName(*c, "activation_mode", path, kActivations,
                    out.activation) &&
         r.boolean(*c, "reordered_int8_nchw_vect", path, out.reorderedInt8);
}

} // namespace tessera::hlo::detail
