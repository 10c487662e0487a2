//===- JsonWriterTest.cpp - dumpJson writes what nlohmann's dump writes ---===//
//
// dumpJson is a faster writer of report JSON that must produce the bytes
// of nlohmann's dump(indent, ' ', false, replace): the values a report
// holds, the strings it must escape or repair, every indentation, and
// random documents, each compared with nlohmann's own output.
//
//===----------------------------------------------------------------------===//

#include "tessera/Trace/JsonWriter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

using namespace tessera;
using json = nlohmann::ordered_json;

namespace {

std::string reference(const json &value, int indent) {
  return value.dump(indent, ' ', false, json::error_handler_t::replace);
}

void expectSame(const json &value) {
  for (int indent : {-1, 0, 1, 2, 4})
    EXPECT_EQ(dumpJson(value, indent), reference(value, indent))
        << "indent " << indent;
}

TEST(JsonWriterTest, Scalars) {
  expectSame(nullptr);
  expectSame(true);
  expectSame(false);
  for (int64_t n : {int64_t(0), int64_t(-1), int64_t(7), int64_t(-123456789),
                    std::numeric_limits<int64_t>::min(),
                    std::numeric_limits<int64_t>::max()})
    expectSame(n);
  expectSame(std::numeric_limits<uint64_t>::max());
  for (double x :
       {0.0, -0.0, 1.0, -2.5, 0.1, 1e300, -1e-300, 123456789.125, 1.0 / 3,
        5e-324, std::nan(""), std::numeric_limits<double>::infinity(),
        -std::numeric_limits<double>::infinity()})
    expectSame(x);
}

TEST(JsonWriterTest, StringsToEscapeOrRepair) {
  for (const char *s :
       {"", "plain name/with.dots:0", "quote\"d", "back\\slash", "new\nline",
        "tab\there", "\x01\x1f control", "del\x7f", "caf\xc3\xa9",
        "emoji \xf0\x9f\x98\x80", "bad \xff byte", "cut \xc3", "\xed\xa0\x80"})
    expectSame(s);
  // Keys too, and a string next to plain ones in a container.
  json object = json::object();
  object["plain"] = "x";
  object["ke\"y\xff"] = "v\nal";
  object["\xc3\xa9"] = json::array({"a", "\x02", "b"});
  expectSame(object);
}

TEST(JsonWriterTest, Containers) {
  expectSame(json::array());
  expectSame(json::object());
  json nested = {{"a", json::array({1, 2, json::object(), json::array()})},
                 {"b", {{"c", json::array({json::array({3})})}, {"d", 4.5}}},
                 {"e", nullptr}};
  expectSame(nested);
  expectSame(json::array({nested, nested}));
  // Members stay in insertion order (ordered_json), not sorted.
  json order = json::object();
  order["z"] = 1;
  order["a"] = 2;
  EXPECT_EQ(dumpJson(order, -1), "{\"z\":1,\"a\":2}");
}

TEST(JsonWriterTest, BinaryAsNlohmannWritesIt) {
  json bin = json::binary({1, 2, 255}, 7);
  expectSame(bin);
  expectSame(json::object({{"k", bin}, {"l", json::binary({})}}));
}

TEST(JsonWriterTest, AppendsWithoutClobbering) {
  std::string out = "head:";
  appendJson(json::array({1, "x"}), -1, out);
  appendJson(json::object({{"k", false}}), 2, out);
  EXPECT_EQ(out, "head:[1,\"x\"]{\n  \"k\": false\n}");
}

/// A random document: every value type, nesting to `depth`, strings drawn
/// from bytes that include quotes, controls and invalid UTF-8.
json randomValue(std::mt19937_64 &rng, int depth) {
  std::uniform_int_distribution<int> kind(0, depth > 0 ? 8 : 6);
  auto text = [&] {
    static const char alphabet[] = "ab_.0 \"\\\n\x01\x7f\xc3\xa9\xff";
    std::string s;
    int n = std::uniform_int_distribution<int>(0, 6)(rng);
    for (int i = 0; i < n; ++i)
      s += alphabet[std::uniform_int_distribution<size_t>(0, sizeof alphabet -
                                                                 2)(rng)];
    return s;
  };
  switch (kind(rng)) {
  case 0:
    return nullptr;
  case 1:
    return rng() % 2 == 0;
  case 2:
    return static_cast<int64_t>(rng());
  case 3:
    return static_cast<uint64_t>(rng());
  case 4:
    return std::ldexp(static_cast<double>(static_cast<int64_t>(rng())),
                      std::uniform_int_distribution<int>(-80, 20)(rng));
  case 5:
  case 6:
    return text();
  case 7: {
    json array = json::array();
    int n = std::uniform_int_distribution<int>(0, 4)(rng);
    for (int i = 0; i < n; ++i)
      array.push_back(randomValue(rng, depth - 1));
    return array;
  }
  default: {
    json object = json::object();
    int n = std::uniform_int_distribution<int>(0, 4)(rng);
    for (int i = 0; i < n; ++i)
      object[text()] = randomValue(rng, depth - 1);
    return object;
  }
  }
}

TEST(JsonWriterTest, RandomDocuments) {
  std::mt19937_64 rng(16);
  for (int i = 0; i < 500; ++i) {
    json value = randomValue(rng, 4);
    for (int indent : {-1, 2})
      ASSERT_EQ(dumpJson(value, indent), reference(value, indent))
          << "document " << i << " indent " << indent;
  }
}

} // namespace
