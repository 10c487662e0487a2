//===- JsonBuildTest.cpp - report objects built member by member ----------===//
//
// JsonBuild.h's builders stand in for nlohmann's literals in the reports,
// whose bytes must not move: each must give the value (and, written out,
// the text) of the literal it replaces, keys in the order given.
//
//===----------------------------------------------------------------------===//

#include "tessera/Support/JsonBuild.h"
#include "tessera/Memory/ReportForms.h"

#include <gtest/gtest.h>

#include <limits>

using json = nlohmann::ordered_json;
using namespace tessera::json_build;

namespace {

TEST(JsonBuild, ObjectIsTheLiteral) {
  std::vector<int64_t> shape = {2, 3};
  json built = object<json>("tile", int64_t(7), "name", std::string("w"),
                            "shape", shape, "ratio", 1.5, "ok", true,
                            "none", nullptr);
  json literal = {{"tile", 7},    {"name", "w"}, {"shape", shape},
                  {"ratio", 1.5}, {"ok", true},  {"none", nullptr}};
  EXPECT_EQ(built, literal);
  EXPECT_EQ(built.dump(), literal.dump());
  // Order as given, not sorted: "tile" before "name".
  EXPECT_EQ(built.begin().key(), "tile");
  EXPECT_EQ(object<json>().dump(), "{}");
}

TEST(JsonBuild, PutAppendsInOrder) {
  json o = json::object();
  put(o, "z", 1);
  put(o, "a", object<json>("b", 2));
  put(o, "m", array<json>(1, "x", nullptr));
  EXPECT_EQ(o.dump(), R"({"z":1,"a":{"b":2},"m":[1,"x",null]})");
}

TEST(JsonBuild, ArrayIsTheLiteral) {
  // Two strings would be a pair to nlohmann's literal; array() never is.
  EXPECT_EQ(array<json>("a", "b").dump(), R"(["a","b"])");
  EXPECT_EQ(array<json>(int64_t(1), int64_t(2)), json::array({1, 2}));
  EXPECT_EQ(array<json>().dump(), "[]");
  json moved = json::array({1, 2, 3});
  json outer = array<json>(std::move(moved), 4);
  EXPECT_EQ(outer.dump(), "[[1,2,3],4]");
}

TEST(JsonBuild, PairsKeepTheirOrderAndValues) {
  auto fields = pairs<json>("tile", int64_t(3), "step", std::string("s"));
  ASSERT_EQ(fields.size(), 2u);
  EXPECT_STREQ(fields[0].first, "tile");
  EXPECT_EQ(fields[0].second, 3);
  EXPECT_STREQ(fields[1].first, "step");
  EXPECT_EQ(fields[1].second, "s");
}

/// encodeColumn as it was, with nlohmann's comparisons throughout: the
/// compact tables' bytes must not depend on the short ways taken since.
json referenceColumn(std::vector<json> plain) {
  size_t runs = 0;
  for (size_t i = 0; i < plain.size(); ++i)
    runs += i == 0 || plain[i] != plain[i - 1];
  if (runs * 2 > plain.size())
    return json(plain);
  json out = json::array();
  for (size_t i = 0; i < plain.size(); ++i) {
    if (i > 0 && plain[i] == out.back()[0])
      out.back()[1] = out.back()[1].get<int64_t>() + 1;
    else
      out.push_back(json::array({plain[i], 1}));
  }
  return json{{"runs", out}};
}

TEST(JsonBuild, ColumnsEncodeAsNlohmannComparesThem) {
  // Signed and unsigned integers of one value are equal to nlohmann, as
  // are an integer and a float of one value; strings, nulls and arrays too.
  std::vector<std::vector<json>> columns = {
      {1, 1, 1, 2, 2, 2},
      {json(int64_t(5)), json(uint64_t(5)), json(int64_t(5)), json(5.0)},
      {json(std::numeric_limits<uint64_t>::max()), json(int64_t(-1)),
       json(int64_t(-1)), json(int64_t(-1))},
      {"a", "a", "a", "b"},
      {nullptr, nullptr, nullptr, 1},
      {json::array({1, 2}), json::array({1, 2}), json::array({1, 2}), 3},
      {1, 2, 3, 4},
      {},
  };
  for (const std::vector<json> &column : columns) {
    json expected = referenceColumn(column);
    json got = tessera::memory::forms::encodeColumn<json>(
        std::vector<json>(column));
    EXPECT_EQ(got.dump(), expected.dump()) << json(column).dump();
  }
}

} // namespace
