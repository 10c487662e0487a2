//===- TraceEventQueryTest.cpp - Listing and extract helpers --------------===//

#include "TraceTestUtil.h"

#include "tessera/Trace/AtomicFile.h"
#include "tessera/Trace/EventQuery.h"

#include "gtest/gtest.h"

using namespace tessera;
using tessera::testing::ScopedTempDir;

namespace {

Report inlineReport(const std::string &bytes, ReportFormat format) {
  Report report;
  report.set_format(format);
  report.set_data(bytes);
  report.set_size(bytes.size());
  return report;
}

TraceEvent compileEnd() {
  TraceEvent event;
  event.set_type(TraceEvent::COMPILE_END);
  event.set_module_name("m");
  CompileEnd *end = event.mutable_compile_end();
  end->set_duration_ns(42);
  *end->mutable_compilation_report() =
      inlineReport("{\"a\":1}", REPORT_FORMAT_JSON);
  *end->mutable_tensor_map() =
      inlineReport("{\"mappings\":{}}", REPORT_FORMAT_JSON);
  end->add_pass_timeline()->set_name("p1");
  end->add_pass_timeline()->set_name("p2");
  end->set_serialized_program("PROG");
  return event;
}

TEST(TraceEventQuery, KindNamesRoundTrip) {
  for (ExtractKind kind : allExtractKinds())
    EXPECT_EQ(parseExtractKind(extractKindName(kind)), kind);
  EXPECT_FALSE(parseExtractKind("compile_report").has_value());
}

TEST(TraceEventQuery, DescribePayload) {
  EXPECT_EQ(describePayload(compileEnd()),
            "duration_ns=42 report=7B(json) tensor_map=15B(json) passes=2 "
            "program=4B");
  TraceEvent transfer;
  transfer.set_type(TraceEvent::HOST_TO_DEVICE_TRANSFER);
  transfer.mutable_transfer()->add_tensors()->set_size(8);
  transfer.mutable_transfer()->set_total_size(8);
  EXPECT_EQ(describePayload(transfer), "tensors=1 total_size=8B");
  TraceEvent empty;
  EXPECT_EQ(describePayload(empty), "no-payload");
  EXPECT_EQ(eventTypeName(empty), "UNKNOWN(0)");
  empty.set_type(static_cast<TraceEvent::Type>(42));
  EXPECT_EQ(eventTypeName(empty), "UNKNOWN(42)");
  EXPECT_EQ(eventTypeName(compileEnd()), "COMPILE_END");
}

TEST(TraceEventQuery, ExtractInlineReports) {
  TraceEvent event = compileEnd();
  auto report = extractBytes(event, ExtractKind::CompileReport, "");
  ASSERT_TRUE(static_cast<bool>(report));
  EXPECT_EQ(*report, "{\"a\":1}");
  auto program = extractBytes(event, ExtractKind::Program, "");
  ASSERT_TRUE(static_cast<bool>(program));
  EXPECT_EQ(*program, "PROG");

  auto missing = extractBytes(event, ExtractKind::ExecuteReport, "");
  ASSERT_FALSE(static_cast<bool>(missing));
  EXPECT_EQ(toString(missing.takeError()),
            "the COMPILE_END event of module 'm' carries no execute-report");
}

TEST(TraceEventQuery, ExtractReportStoredByPath) {
  ScopedTempDir dir;
  ASSERT_FALSE(static_cast<bool>(
      writeFileAtomically(dir.path("m/graph.json"), "{\"from\":\"file\"}",
                          AtomicWriteOptions{/*createParentDirs=*/true})));
  TraceEvent event = compileEnd();
  Report *report = event.mutable_compile_end()->mutable_compilation_report();
  report->set_path("m/graph.json");
  auto bytes = extractBytes(event, ExtractKind::CompileReport, dir.root());
  ASSERT_TRUE(static_cast<bool>(bytes)) << toString(bytes.takeError());
  EXPECT_EQ(*bytes, "{\"from\":\"file\"}");

  report->set_path("m/gone.json");
  auto gone = extractBytes(event, ExtractKind::CompileReport, dir.root());
  ASSERT_FALSE(static_cast<bool>(gone));
  EXPECT_NE(toString(gone.takeError()).find("gone.json"), std::string::npos);
}

TEST(TraceEventQuery, DroppedReportSaysWhy) {
  TraceEvent event = compileEnd();
  Report *report = event.mutable_compile_end()->mutable_compilation_report();
  report->clear_data();
  report->set_dropped(true);
  report->set_size(300000000);
  EXPECT_NE(describePayload(event).find("report=dropped(300000000B)"),
            std::string::npos);
  auto bytes = extractBytes(event, ExtractKind::CompileReport, "");
  ASSERT_FALSE(static_cast<bool>(bytes));
  EXPECT_NE(toString(bytes.takeError()).find("300000000 bytes exceeded"),
            std::string::npos);
}

TEST(TraceEventQuery, ExtractAllSkipsEventsWithout) {
  TraceEvent run;
  run.set_type(TraceEvent::EXECUTE);
  run.set_module_name("m");
  *run.mutable_execute()->mutable_execution_report() =
      inlineReport("{\"cycles\":3}", REPORT_FORMAT_JSON);
  std::vector<TraceEvent> events = {compileEnd(), run, compileEnd(), run};
  auto items = extractAll(events, ExtractKind::ExecuteReport, "");
  ASSERT_TRUE(static_cast<bool>(items));
  ASSERT_EQ(items->size(), 2u);
  EXPECT_EQ((*items)[0].eventIndex, 1u);
  EXPECT_EQ((*items)[1].eventIndex, 3u);
  EXPECT_EQ((*items)[1].bytes, "{\"cycles\":3}");
}

} // namespace
