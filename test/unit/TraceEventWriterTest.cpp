//===- TraceEventWriterTest.cpp - The streaming Chrome trace writer --------===//

#include "tessera/Trace/TraceEventWriter.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <random>

using namespace tessera;
using json = nlohmann::json;

namespace {

double parse(const std::string &text) { return std::strtod(text.c_str(), nullptr); }

TEST(TraceEventWriter, GridTimesAreExactDecimals) {
  EXPECT_EQ(TraceEventWriter::microsText(0), "0");
  EXPECT_EQ(TraceEventWriter::microsText(1024), "1");
  EXPECT_EQ(TraceEventWriter::microsText(1), "0.0009765625");
  EXPECT_EQ(TraceEventWriter::microsText(512 + 1024 * 7), "7.5");
  EXPECT_EQ(TraceEventWriter::microsText(-1536), "-1.5");
  // 1 us = 1000 ns = 1024 grid units; rounding to nearest.
  EXPECT_EQ(TraceEventWriter::gridOf(1000), 1024);
  EXPECT_EQ(TraceEventWriter::gridOf(1), 1);
  EXPECT_EQ(TraceEventWriter::gridOf(2), 2);
  EXPECT_EQ(TraceEventWriter::gridOf(-1000), -1024);
}

// What the clients compute from the text must be exact: ts + dur of a
// child ending with its parent equals the parent's, siblings back to back
// do not overlap, and speedscope's shift by the first ts keeps all of it.
TEST(TraceEventWriter, ClientArithmeticIsExact) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int64_t> time(0, int64_t(1) << 47); // ~1.6 days
  std::uniform_int_distribution<int64_t> span(1, 1000000);
  for (int i = 0; i < 100000; ++i) {
    int64_t a = time(rng), b = a + span(rng), c = b + span(rng);
    int64_t ga = TraceEventWriter::gridOf(a), gb = TraceEventWriter::gridOf(b),
            gc = TraceEventWriter::gridOf(c);
    ASSERT_LT(ga, gb) << "a positive duration stays positive";
    double ta = parse(TraceEventWriter::microsText(ga));
    double tb = parse(TraceEventWriter::microsText(gb));
    double tc = parse(TraceEventWriter::microsText(gc));
    double durAC = parse(TraceEventWriter::microsText(gc - ga));
    double durBC = parse(TraceEventWriter::microsText(gc - gb));
    double durAB = parse(TraceEventWriter::microsText(gb - ga));
    ASSERT_EQ(ta + durAC, tb + durBC) << a << " " << b << " " << c;
    ASSERT_EQ(ta + durAB, tb);
    double first = ta;
    ASSERT_EQ((ta - first) + durAC, (tb - first) + durBC);
    ASSERT_EQ(tc, tb + durBC);
  }
}

TEST(TraceEventWriter, WritesValidJson) {
  std::string text;
  llvm::raw_string_ostream os(text);
  TraceEventWriter w(os);
  w.processName(1, "host \"one\"", 0);
  w.threadName(1, 2, "tab\there", 1);
  w.slice(1, 2, "bad utf8 \xff\xfe", "cat", 1000, 3000,
          {{"n", int64_t(42)},
           {"d", 0.5},
           {"nan", std::nan("")},
           {"b", true},
           {"s", "line\nbreak\x01"}});
  w.instant(1, 2, "tick", "cat", 2000);
  w.counter(1, "mem", 2500, {{"bytes", int64_t(7)}});
  w.finish();
  EXPECT_EQ(w.events(), 7);
  json doc = json::parse(text);
  const json &events = doc["traceEvents"];
  ASSERT_EQ(events.size(), 7u);
  EXPECT_EQ(events[0]["args"]["name"], "host \"one\"");
  EXPECT_EQ(events[2]["args"]["name"], "tab\there");
  const json &x = events[4];
  EXPECT_EQ(x["ph"], "X");
  EXPECT_EQ(x["name"], "bad utf8 \xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(x["ts"].get<double>(), 1.0);
  EXPECT_EQ(x["dur"].get<double>(), 2.0);
  EXPECT_EQ(x["args"]["n"], 42);
  EXPECT_EQ(x["args"]["d"], 0.5);
  EXPECT_TRUE(x["args"]["nan"].is_null());
  EXPECT_EQ(x["args"]["b"], true);
  EXPECT_EQ(x["args"]["s"], "line\nbreak\x01");
  EXPECT_EQ(events[5]["ph"], "i");
  EXPECT_EQ(events[5]["s"], "t");
  EXPECT_EQ(events[6]["ph"], "C");
  EXPECT_EQ(events[6]["args"]["bytes"], 7);
}

} // namespace
