//===- HostTensor.cpp - A dense tensor in host memory ---------------------===//

#include "tessera/Support/HostTensor.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <Eigen/Core>

#include <cstring>

namespace tessera {

llvm::StringRef dtypeName(DType dtype) {
  switch (dtype) {
  case DType::Pred:
    return "pred";
  case DType::S8:
    return "s8";
  case DType::S16:
    return "s16";
  case DType::S32:
    return "s32";
  case DType::S64:
    return "s64";
  case DType::U8:
    return "u8";
  case DType::U16:
    return "u16";
  case DType::U32:
    return "u32";
  case DType::U64:
    return "u64";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  }
  return "?";
}

std::optional<DType> parseDType(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<DType>>(name)
      .Case("pred", DType::Pred)
      .Case("s8", DType::S8)
      .Case("s16", DType::S16)
      .Case("s32", DType::S32)
      .Case("s64", DType::S64)
      .Case("u8", DType::U8)
      .Case("u16", DType::U16)
      .Case("u32", DType::U32)
      .Case("u64", DType::U64)
      .Case("f16", DType::F16)
      .Case("bf16", DType::BF16)
      .Case("f32", DType::F32)
      .Case("f64", DType::F64)
      .Default(std::nullopt);
}

int64_t dtypeBytes(DType dtype) {
  switch (dtype) {
  case DType::Pred:
  case DType::S8:
  case DType::U8:
    return 1;
  case DType::S16:
  case DType::U16:
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::S32:
  case DType::U32:
  case DType::F32:
    return 4;
  case DType::S64:
  case DType::U64:
  case DType::F64:
    return 8;
  }
  return 1;
}

bool isFloat(DType dtype) {
  return dtype == DType::F16 || dtype == DType::BF16 || dtype == DType::F32 ||
         dtype == DType::F64;
}

bool isSigned(DType dtype) {
  return dtype == DType::S8 || dtype == DType::S16 || dtype == DType::S32 ||
         dtype == DType::S64;
}

std::optional<int64_t> checkedNumElements(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0)
      return std::nullopt;
    if (d != 0 && n > INT64_MAX / d)
      return std::nullopt;
    n *= d;
  }
  return n;
}

HostTensor::HostTensor(DType dtype, llvm::ArrayRef<int64_t> shape)
    : dtype(dtype), shape(shape.begin(), shape.end()),
      bytes(static_cast<size_t>(numElements() * dtypeBytes(dtype)), 0) {}

int64_t HostTensor::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string HostTensor::typeString() const {
  std::string s = dtypeName(dtype).str() + "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

template <typename T> static T load(const uint8_t *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <typename T> static void store(uint8_t *p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

double HostTensor::getDouble(int64_t i) const {
  const uint8_t *p = bytes.data() + i * dtypeBytes(dtype);
  switch (dtype) {
  case DType::F16:
    return static_cast<double>(
        static_cast<float>(Eigen::numext::bit_cast<Eigen::half>(
            load<uint16_t>(p))));
  case DType::BF16:
    return static_cast<double>(
        static_cast<float>(Eigen::numext::bit_cast<Eigen::bfloat16>(
            load<uint16_t>(p))));
  case DType::F32:
    return load<float>(p);
  case DType::F64:
    return load<double>(p);
  case DType::U64:
    return static_cast<double>(load<uint64_t>(p));
  default:
    return static_cast<double>(getInt(i));
  }
}

int64_t HostTensor::getInt(int64_t i) const {
  const uint8_t *p = bytes.data() + i * dtypeBytes(dtype);
  switch (dtype) {
  case DType::Pred:
    return *p != 0;
  case DType::S8:
    return load<int8_t>(p);
  case DType::S16:
    return load<int16_t>(p);
  case DType::S32:
    return load<int32_t>(p);
  case DType::S64:
    return load<int64_t>(p);
  case DType::U8:
    return load<uint8_t>(p);
  case DType::U16:
    return load<uint16_t>(p);
  case DType::U32:
    return load<uint32_t>(p);
  case DType::U64:
    return static_cast<int64_t>(load<uint64_t>(p));
  default:
    return static_cast<int64_t>(getDouble(i));
  }
}

void HostTensor::setDouble(int64_t i, double v) {
  uint8_t *p = bytes.data() + i * dtypeBytes(dtype);
  switch (dtype) {
  case DType::F16:
    // Through float: double -> half directly is not provided; the double
    // rounding this implies is what every f32-computing device does too.
    store(p, Eigen::numext::bit_cast<uint16_t>(
                 Eigen::half(static_cast<float>(v))));
    return;
  case DType::BF16:
    store(p, Eigen::numext::bit_cast<uint16_t>(
                 Eigen::bfloat16(static_cast<float>(v))));
    return;
  case DType::F32:
    store(p, static_cast<float>(v));
    return;
  case DType::F64:
    store(p, v);
    return;
  case DType::Pred:
    *p = v != 0;
    return;
  default:
    // Float to integer as HLO's convert: NaN becomes 0, values saturate.
    if (std::isnan(v))
      return setInt(i, 0);
    if (dtype == DType::U64) {
      uint64_t u = v <= 0 ? 0
                   : v >= 18446744073709551615.0
                       ? UINT64_MAX
                       : static_cast<uint64_t>(v);
      store(p, u);
      return;
    }
    return setInt(i, v >= 9223372036854775807.0    ? INT64_MAX
                     : v <= -9223372036854775808.0 ? INT64_MIN
                                                   : static_cast<int64_t>(v));
  }
}

void HostTensor::setInt(int64_t i, int64_t v) {
  uint8_t *p = bytes.data() + i * dtypeBytes(dtype);
  switch (dtype) {
  case DType::Pred:
    *p = v != 0;
    return;
  case DType::S8:
  case DType::U8:
    store(p, static_cast<uint8_t>(v));
    return;
  case DType::S16:
  case DType::U16:
    store(p, static_cast<uint16_t>(v));
    return;
  case DType::S32:
  case DType::U32:
    store(p, static_cast<uint32_t>(v));
    return;
  case DType::S64:
  case DType::U64:
    store(p, static_cast<uint64_t>(v));
    return;
  default:
    return setDouble(i, static_cast<double>(v));
  }
}

HostTensor HostTensor::convertTo(DType to) const {
  HostTensor out(to, shape);
  int64_t n = numElements();
  bool viaDouble = isFloat(dtype) || isFloat(to) || dtype == DType::U64;
  for (int64_t i = 0; i < n; ++i) {
    if (viaDouble)
      out.setDouble(i, getDouble(i));
    else
      out.setInt(i, getInt(i));
  }
  return out;
}

} // namespace tessera
