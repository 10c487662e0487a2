//===- ReportSinkTest.cpp - The report sink and the compile trace ---------===//
//
// The sink's rules without a compiler in the loop: events per mode, report
// encodings, max_report_size, report-directory paths, and the rollback of
// written files; plus the Chrome trace's nesting guarantee.
//
//===----------------------------------------------------------------------===//

#include "TraceTestUtil.h"

#include "tessera/Trace/ChromeTrace.h"
#include "tessera/Trace/PendingEventFile.h"
#include "tessera/Trace/ReportSink.h"

#include "llvm/Support/FileSystem.h"

#include <map>
#include <tuple>

using namespace tessera;
using json = nlohmann::ordered_json;

namespace {

struct VectorOutput : EventOutput {
  std::vector<TraceEvent> events;
  llvm::Error write(const TraceEvent &event) override {
    events.push_back(event);
    return llvm::Error::success();
  }
};

CompileBeginInfo beginInfo() {
  CompileBeginInfo info;
  info.moduleName = "../../m";
  info.target = "tile-1472";
  info.moduleId = 7;
  return info;
}

CompileEndInfo endInfo() {
  CompileEndInfo end;
  end.durationNs = 1000;
  end.reports.push_back(
      {ReportKind::Compilation, json{{"module", "m"}, {"graph", {{"ops", 3}}}},
       [](const json &report, llvm::raw_ostream &os) {
         os << "ops: " << report["graph"]["ops"].get<int64_t>() << "\n";
       }});
  end.reports.push_back(
      {ReportKind::Compatibility, json{{"totals", {{"ops", 3}}}}, nullptr});
  end.passes.push_back({"p", 10, 20, 3, 3, 0, false});
  end.serializedProgram = "PROGRAM";
  return end;
}

struct SinkRun {
  VectorOutput out;
  std::string warnings;
};

void run(const ReportSinkOptions &options, SinkRun &result,
         llvm::StringRef eventFolder = ".") {
  llvm::raw_string_ostream warnings(result.warnings);
  ReportSink sink(options, &result.out, eventFolder.str(), "test", warnings);
  ASSERT_FALSE(llvm::errorToBool(sink.compileBegin(beginInfo())));
  ASSERT_FALSE(llvm::errorToBool(sink.compileEnd(beginInfo(), endInfo())));
}

TEST(ReportSink, ProfilingWritesBeginAndEndWithReports) {
  ReportSinkOptions options;
  options.profiling = true;
  SinkRun r;
  run(options, r);
  ASSERT_EQ(r.out.events.size(), 2u);
  EXPECT_EQ(r.out.events[0].type(), TraceEvent::COMPILE_BEGIN);
  EXPECT_EQ(r.out.events[0].compile_begin().module_id(), 7);
  const CompileEnd &end = r.out.events[1].compile_end();
  EXPECT_EQ(end.duration_ns(), 1000);
  EXPECT_EQ(end.module_id(), 7);
  ASSERT_TRUE(end.has_compilation_report());
  json parsed = json::parse(end.compilation_report().data(), nullptr,
                            /*allow_exceptions=*/false);
  ASSERT_FALSE(parsed.is_discarded());
  EXPECT_EQ(parsed["graph"]["ops"], 3);
  EXPECT_TRUE(end.has_compatibility_report());
  ASSERT_EQ(end.pass_timeline_size(), 1);
  EXPECT_EQ(end.pass_timeline(0).start_ns(), 10);
  // No --serialized_graph: no program.
  EXPECT_TRUE(end.serialized_program().empty());
}

TEST(ReportSink, EventsOnlyHasNoReports) {
  ReportSinkOptions options;
  options.enableEvents = true;
  options.serializedGraph = true;
  SinkRun r;
  run(options, r);
  ASSERT_EQ(r.out.events.size(), 2u);
  const CompileEnd &end = r.out.events[1].compile_end();
  EXPECT_FALSE(end.has_compilation_report());
  EXPECT_FALSE(end.has_compatibility_report());
  EXPECT_EQ(end.pass_timeline_size(), 1);
  EXPECT_EQ(end.serialized_program(), "PROGRAM");
}

TEST(ReportSink, NoModeNoEvents) {
  SinkRun r;
  run(ReportSinkOptions(), r);
  EXPECT_TRUE(r.out.events.empty());
}

TEST(ReportSink, CborIsTheSameObject) {
  NamedReport report = endInfo().reports[0];
  std::string bytes = encodeReport(report, REPORT_FORMAT_CBOR);
  ASSERT_FALSE(bytes.empty());
  // A map of two entries.
  EXPECT_EQ(static_cast<uint8_t>(bytes[0]), 0xa2);
  json back = json::from_cbor(bytes, /*strict=*/true,
                              /*allow_exceptions=*/false);
  EXPECT_EQ(back, report.json);
  // Only the compilation report follows the format.
  EXPECT_EQ(encodeReport(endInfo().reports[1], REPORT_FORMAT_CBOR)[0], '{');
  EXPECT_EQ(encodeReport(report, REPORT_FORMAT_TEXT), "ops: 3\n");
}

TEST(ReportSink, InvalidUtf8DoesNotAbort) {
  NamedReport report{ReportKind::Compilation, json{{"module", "\xff\xfe"}},
                     nullptr};
  EXPECT_NE(encodeReport(report, REPORT_FORMAT_JSON).find("\"module\""),
            std::string::npos);
}

TEST(ReportSink, ReportsEncodedInPartsAreTheWholeDump) {
  // A memory report (unindented JSON, encoded a member at a time) with
  // names to escape and invalid UTF-8, an empty one, a non-object one, an
  // indented compilation report and a text one: each the same bytes as
  // encodeReport's, in every format.
  std::vector<NamedReport> reports = endInfo().reports;
  reports.push_back(
      {ReportKind::Memory,
       json{{"program", "m\"\n\xff"},
            {"tiles", json::array({{{"tile", 0}, {"bytes", 1.5}}, nullptr})},
            {"k\xc3\xa9y\t", {{"nested", {{"x", -1}}}}},
            {"empty", json::object()}},
       nullptr});
  reports.push_back({ReportKind::Memory, json::object(), nullptr});
  reports.push_back({ReportKind::TensorMap, json::array({1, 2}), nullptr});
  // Large enough (2^17 values and more) to be encoded in tasks.
  std::vector<int64_t> many(1 << 17);
  for (size_t i = 0; i < many.size(); ++i)
    many[i] = static_cast<int64_t>(i * 7919 % 100003);
  reports.push_back({ReportKind::Memory,
                     json{{"a", many}, {"b", "x"}, {"c", many}}, nullptr});
  for (ReportFormat format :
       {REPORT_FORMAT_JSON, REPORT_FORMAT_CBOR, REPORT_FORMAT_TEXT}) {
    std::vector<std::string> bytes = encodeReports(reports, format);
    ASSERT_EQ(bytes.size(), reports.size());
    for (size_t i = 0; i < reports.size(); ++i)
      EXPECT_EQ(bytes[i], encodeReport(reports[i], format))
          << "report " << i << " in format " << format;
  }
  EXPECT_EQ(encodeReports(reports, REPORT_FORMAT_JSON)[2].substr(0, 13),
            "{\"program\":\"m");
}

TEST(ReportSink, OversizedReportsAreDroppedWithAWarning) {
  ReportSinkOptions options;
  options.profiling = true;
  options.maxReportSize = 10;
  SinkRun r;
  run(options, r);
  const Report &report = r.out.events[1].compile_end().compilation_report();
  EXPECT_TRUE(report.dropped());
  EXPECT_GT(report.size(), 10);
  EXPECT_TRUE(report.data().empty());
  EXPECT_NE(r.warnings.find("more than --max_report_size=10"),
            std::string::npos)
      << r.warnings;
  EXPECT_NE(r.warnings.find(std::to_string(report.size()) + " bytes"),
            std::string::npos)
      << r.warnings;
}

TEST(ReportSink, ReportDirectoryPathsAndRollback) {
  tessera::testing::ScopedTempDir dir;
  ReportSinkOptions options;
  options.profiling = true;
  options.reportDirectory = dir.path("reports/deep");
  VectorOutput out;
  std::string warnings;
  llvm::raw_string_ostream warningStream(warnings);
  ReportSink sink(options, &out, std::string(dir.root()), "test",
                  warningStream);
  ASSERT_FALSE(llvm::errorToBool(sink.compileEnd(beginInfo(), endInfo())));
  const CompileEnd &end = out.events[0].compile_end();
  // Below the event folder: relative; the module folder is sanitized.
  EXPECT_EQ(end.compilation_report().path(), "reports/deep/______m/graph.json");
  EXPECT_EQ(end.compatibility_report().path(),
            "reports/deep/______m/compat.json");
  EXPECT_TRUE(
      llvm::sys::fs::exists(dir.path("reports/deep/______m/graph.json")));
  sink.removeWrittenFiles();
  // Every folder the sink created is gone again.
  EXPECT_EQ(dir.entries(), std::vector<std::string>{});
}

TEST(ReportSink, PathsOutsideTheEventFolderAreAbsolute) {
  tessera::testing::ScopedTempDir dir;
  ReportSinkOptions options;
  options.profiling = true;
  options.reportDirectory = dir.path("reports");
  VectorOutput out;
  std::string warnings;
  llvm::raw_string_ostream warningStream(warnings);
  ReportSink sink(options, &out, dir.path("events"), "test", warningStream);
  ASSERT_FALSE(llvm::errorToBool(sink.compileEnd(beginInfo(), endInfo())));
  llvm::StringRef path =
      out.events[0].compile_end().compilation_report().path();
  EXPECT_TRUE(llvm::sys::path::is_absolute(path)) << path.str();
}

TEST(PendingEventFile, AppearsOnlyOnCommit) {
  tessera::testing::ScopedTempDir dir;
  {
    auto file = PendingEventFile::create(dir.path("a.events"));
    ASSERT_TRUE(bool(file));
    TraceEvent event;
    ASSERT_FALSE(llvm::errorToBool((*file)->write(event)));
  }
  EXPECT_EQ(dir.entries(), std::vector<std::string>{});
  auto file = PendingEventFile::create(dir.path("b.events"));
  ASSERT_TRUE(bool(file));
  ASSERT_FALSE(llvm::errorToBool((*file)->commit()));
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"b.events"});
}

TEST(ChromeTrace, ChildrenAreClampedIntoTheirParent) {
  CompileSpan span;
  span.moduleName = "m";
  span.startNs = 1000;
  span.durationNs = 500;
  // A pass reported as running past the compile's end, and a nested pass
  // running past its parent's end.
  span.passes.push_back({"outer", 100, 450, 1, 1, 0, false});
  span.passes.push_back({"inner", 400, 300, 1, 1, 1, false});
  std::string text;
  llvm::raw_string_ostream os(text);
  writeCompileChromeTrace(os, {span}, "proc");
  json trace = json::parse(text);
  std::vector<std::pair<double, double>> slices;
  for (const json &event : trace["traceEvents"])
    if (event["ph"] == "X")
      slices.push_back(
          {event["ts"].get<double>(),
           event["ts"].get<double>() + event["dur"].get<double>()});
  ASSERT_EQ(slices.size(), 3u);
  EXPECT_DOUBLE_EQ(slices[0].first, 1.0); // microseconds
  EXPECT_DOUBLE_EQ(slices[0].second, 1.5);
  EXPECT_LE(slices[1].second, slices[0].second);
  EXPECT_LE(slices[2].second, slices[1].second);
  EXPECT_GE(slices[2].first, slices[1].first);
}

TEST(ChromeTrace, PhasesAlongsideNestOnTheirOwnThread) {
  CompileSpan span;
  span.moduleName = "m";
  span.startNs = 1000;
  span.durationNs = 500;
  // The executable on the compile's thread; the reports alongside it,
  // overlapping it and reported as running past the compile's end.
  span.passes.push_back({"reports", 100, 450, 1, 1, 0, false, 1});
  span.passes.push_back({"executable", 200, 100, 1, 1, 0, false, 0});
  std::string text;
  llvm::raw_string_ostream os(text);
  writeCompileChromeTrace(os, {span}, "proc");
  json trace = json::parse(text);
  std::map<std::string, std::tuple<int, double, double>> slices;
  std::map<int, std::string> threads;
  for (const json &event : trace["traceEvents"]) {
    if (event["ph"] == "X")
      slices[event["name"].get<std::string>()] = {
          event["tid"].get<int>(), event["ts"].get<double>(),
          event["ts"].get<double>() + event["dur"].get<double>()};
    if (event["ph"] == "M" && event["name"] == "thread_name")
      threads[event["tid"].get<int>()] = event["args"]["name"];
  }
  ASSERT_EQ(slices.size(), 3u);
  EXPECT_EQ(std::get<0>(slices["COMPILE m"]), 1);
  EXPECT_EQ(std::get<0>(slices["executable"]), 1);
  EXPECT_EQ(std::get<0>(slices["reports"]), 2);
  EXPECT_EQ(threads[1], "compiler");
  EXPECT_EQ(threads[2], "compiler (alongside)");
  // The reports keep their start and are clamped into the span, strictly.
  // (Times are written to about a nanosecond.)
  EXPECT_NEAR(std::get<1>(slices["reports"]), 1.1, 0.001);
  EXPECT_LT(std::get<2>(slices["reports"]), 1.5);
  EXPECT_NEAR(std::get<1>(slices["executable"]), 1.2, 0.001);
  EXPECT_NEAR(std::get<2>(slices["executable"]), 1.3, 0.001);
}

} // namespace
