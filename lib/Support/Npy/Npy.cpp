//===- Npy.cpp - HostTensors as NumPy .npy files ---------------------------===//
//
// xtensor's xnpy parses and writes the header; it reports errors by
// throwing, so this file alone is built with exceptions, and every
// exception becomes an llvm::Error here. xnpy trusts the header's lengths
// (it allocates what the header declares, and does not check that the data
// was all there); the checks below compare them with the file first.
//
//===----------------------------------------------------------------------===//

#include "tessera/Support/Npy.h"
#include "tessera/Trace/AtomicFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <xtensor/xnpy.hpp>

#include <fstream>
#include <sstream>

using namespace llvm;

namespace tessera {

namespace {

struct NpyType {
  DType dtype;
  const char *typestring;
};

/// NumPy's names, as numpy.save writes them (one-byte types with '|').
constexpr NpyType kTypes[] = {
    {DType::Pred, "|b1"}, {DType::S8, "|i1"},  {DType::S16, "<i2"},
    {DType::S32, "<i4"},  {DType::S64, "<i8"}, {DType::U8, "|u1"},
    {DType::U16, "<u2"},  {DType::U32, "<u4"}, {DType::U64, "<u8"},
    {DType::F16, "<f2"},  {DType::F32, "<f4"}, {DType::F64, "<f8"},
};

std::optional<DType> dtypeOfTypeString(StringRef s) {
  // One-byte types carry no byte order: '<' and '=' mean the same there.
  for (const NpyType &t : kTypes) {
    StringRef name(t.typestring);
    if (s == name || (name[0] == '|' && s.size() == 3 &&
                      (s[0] == '<' || s[0] == '=') &&
                      s.drop_front() == name.drop_front()))
      return t.dtype;
  }
  return std::nullopt;
}

Error fail(StringRef path, const Twine &what) {
  return createStringError(inconvertibleErrorCode(), path + ": " + what);
}

/// The file's header length field (version 1: 2 bytes, 2: 4 bytes), read
/// ahead of xnpy so a length past the end of the file is an error, not an
/// allocation of up to 4 GB.
Error checkHeaderLength(std::istream &in, unsigned major, uint64_t remaining,
                        StringRef path) {
  std::streampos at = in.tellg();
  unsigned char b[4] = {0, 0, 0, 0};
  unsigned n = major == 1 ? 2 : 4;
  in.read(reinterpret_cast<char *>(b), n);
  if (!in)
    return fail(path, "truncated in the header");
  uint64_t length = b[0] | (uint64_t(b[1]) << 8) | (uint64_t(b[2]) << 16) |
                    (uint64_t(b[3]) << 24);
  if (length > remaining - n)
    return fail(path, "the header length " + Twine(length) +
                          " runs past the end of the file");
  in.seekg(at);
  return Error::success();
}

} // namespace

StringRef npyTypeString(DType dtype) {
  if (dtype == DType::BF16)
    return "<f4";
  for (const NpyType &t : kTypes)
    if (t.dtype == dtype)
      return t.typestring;
  return "";
}

Expected<HostTensor> readNpy(StringRef path) {
  uint64_t fileSize = 0;
  if (std::error_code ec = sys::fs::file_size(path, fileSize))
    return fail(path, "cannot read: " + ec.message());
  std::ifstream in(path.str(), std::ios::binary);
  if (!in)
    return fail(path, "cannot open");
  if (fileSize < 10)
    return fail(path, "not a .npy file (" + Twine(fileSize) +
                          " bytes, shorter than any header)");
  try {
    unsigned char major = 0, minor = 0;
    xt::detail::read_magic(in, &major, &minor);
    std::string header;
    if (!((major == 1 || major == 2) && minor == 0))
      return fail(path, "unsupported .npy format version " + Twine(major) +
                            "." + Twine(minor) + " (1.0 and 2.0 are read)");
    if (Error err = checkHeaderLength(in, major, fileSize - uint64_t(in.tellg()),
                                      path))
      return std::move(err);
    header = major == 1 ? xt::detail::read_header_1_0(in)
                        : xt::detail::read_header_2_0(in);
    if (!in)
      return fail(path, "truncated in the header");
    bool fortranOrder = false;
    std::string typestring;
    std::vector<std::size_t> shape;
    xt::detail::parse_header(header, typestring, &fortranOrder, shape);
    if (fortranOrder)
      return fail(path, "Fortran-ordered arrays are not read (save a C-ordered "
                        "copy: numpy.ascontiguousarray)");
    std::optional<DType> dtype = dtypeOfTypeString(typestring);
    if (!dtype)
      return fail(path, "dtype '" + typestring +
                            "' is not one Tessera holds (bool, int8-64, "
                            "uint8-64, float16/32/64, little-endian)");
    // The element count, checked against the data the file holds before
    // anything is allocated.
    uint64_t remaining = fileSize - uint64_t(in.tellg());
    uint64_t width = uint64_t(dtypeBytes(*dtype));
    bool empty = llvm::is_contained(shape, std::size_t(0));
    uint64_t count = 1;
    std::vector<int64_t> dims;
    for (std::size_t d : shape) {
      // Only overflow here; the total is compared with the file below.
      if (d > (std::size_t(1) << 40) ||
          (!empty && count > (UINT64_MAX / width) / d))
        return fail(path, "its shape declares more data than the file holds (" +
                              Twine(remaining) + " bytes)");
      count *= d;
      dims.push_back(int64_t(d));
    }
    if (count * width != remaining)
      return fail(path, "its header declares " + Twine(count * width) +
                            " bytes of data, the file holds " +
                            Twine(remaining));
    HostTensor t(*dtype, dims);
    in.read(reinterpret_cast<char *>(t.bytes.data()),
            std::streamsize(t.bytes.size()));
    if (!in)
      return fail(path, "cannot read its data");
    return t;
  } catch (const std::exception &e) {
    return fail(path, Twine("not a valid .npy file: ") + e.what());
  }
}

Expected<HostTensor> readNpyAs(StringRef path, DType dtype,
                               ArrayRef<int64_t> shape, StringRef what) {
  Expected<HostTensor> t = readNpy(path);
  if (!t)
    return t.takeError();
  HostTensor expected(dtype, {});
  expected.shape.assign(shape.begin(), shape.end());
  if (t->shape != expected.shape ||
      !(t->dtype == dtype || (dtype == DType::BF16 && t->dtype == DType::F32)))
    return fail(path, "holds " + t->typeString() + ", " + what + " is " +
                          expected.typeString() +
                          (dtype == DType::BF16 ? " (from float32)" : ""));
  if (t->dtype != dtype)
    return t->convertTo(dtype);
  return std::move(*t);
}

Error writeNpy(StringRef path, const HostTensor &tensor) {
  // NumPy has no bfloat16: f32 holds every bf16 value exactly.
  std::optional<HostTensor> widened;
  if (tensor.dtype == DType::BF16)
    widened = tensor.convertTo(DType::F32);
  const HostTensor &data = widened ? *widened : tensor;
  // A temporary beside the destination, renamed over it when complete.
  SmallString<128> temp;
  int fd = -1;
  StringRef dir = sys::path::parent_path(path);
  SmallString<128> model(dir.empty() ? "." : dir);
  sys::path::append(model, sys::path::filename(path) + ".tmp-%%%%%%");
  if (std::error_code ec = sys::fs::createUniqueFile(model, fd, temp))
    return fail(path, "cannot write: " + ec.message());
  sys::fs::closeFile(fd);
  try {
    std::ofstream out(temp.str().str(), std::ios::binary | std::ios::trunc);
    std::vector<std::size_t> shape(data.shape.begin(), data.shape.end());
    xt::detail::write_header(out, npyTypeString(tensor.dtype).str(), false,
                             shape);
    out.write(reinterpret_cast<const char *>(data.bytes.data()),
              std::streamsize(data.bytes.size()));
    out.close();
    if (!out) {
      sys::fs::remove(temp);
      return fail(path, "cannot write (disk full?)");
    }
  } catch (const std::exception &e) {
    sys::fs::remove(temp);
    return fail(path, Twine("cannot write: ") + e.what());
  }
  if (std::error_code ec = replaceFile(temp, path)) {
    sys::fs::remove(temp);
    return fail(path, "cannot write: " + ec.message());
  }
  return Error::success();
}

} // namespace tessera
