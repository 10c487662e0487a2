//===- SampleEvents.cpp - tessera-prof write-sample (test helper) ---------===//
//
// Writes a deterministic event file through the real EventWriter, so the
// reading side can be tested before the compiler and runtime produce events.
// --truncate=BYTES then cuts the file, as a crash would; --runs=N appends N
// more runs (three events each) for the streaming benchmarks.
//
//===----------------------------------------------------------------------===//

#include "ProfCommands.h"

#include "tessera/Trace/EventFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

#include <unistd.h>

using namespace llvm;

namespace tessera::prof {

namespace {
// A fixed clock, so tests can check timestamps.
constexpr int64_t kBaseTimeNs = 1700000000000000000;

Report jsonReport(StringRef json) {
  Report report;
  report.set_format(REPORT_FORMAT_JSON);
  report.set_data(json.str());
  report.set_size(static_cast<int64_t>(json.size()));
  return report;
}

TraceEvent makeEvent(TraceEvent::Type type, StringRef module, int64_t time) {
  TraceEvent event;
  event.set_type(type);
  event.set_module_name(module.str());
  event.set_timestamp_ns(kBaseTimeNs + time);
  event.set_ordinal(0);
  return event;
}

/// The six events one compile-and-run of `module` produces.
std::vector<TraceEvent> moduleEvents(StringRef module, int64_t moduleId,
                                     int64_t start) {
  std::vector<TraceEvent> events;
  TraceEvent begin = makeEvent(TraceEvent::COMPILE_BEGIN, module, start);
  begin.mutable_compile_begin()->set_target("tiny");
  begin.mutable_compile_begin()->set_module_id(moduleId);
  events.push_back(begin);

  TraceEvent end = makeEvent(TraceEvent::COMPILE_END, module, start + 5000);
  CompileEnd *compileEnd = end.mutable_compile_end();
  compileEnd->set_duration_ns(5000);
  compileEnd->set_module_id(moduleId);
  *compileEnd->mutable_compilation_report() = jsonReport(
      formatv(R"({{"module":"{0}","target":"tiny","memory":{{"total":4096}})",
              module)
          .str());
  *compileEnd->mutable_tensor_map() = jsonReport(
      R"({"mappings":{"main":[["x",0,[4],"f32",false,false,4,[[0,4]]]]}})");
  *compileEnd->mutable_instruction_info() =
      jsonReport(R"({"instructions":[{"name":"add.1","op":"add"}]})");
  *compileEnd->mutable_compatibility_report() =
      jsonReport(R"({"supported":true})");
  const char *passes[] = {"tgraph-check-compat", "tile-map-tensors",
                          "tile-liveness"};
  for (int i = 0; i < 3; ++i) {
    PassRecord *pass = compileEnd->add_pass_timeline();
    pass->set_name(passes[i]);
    pass->set_start_ns(1000 * i);
    pass->set_duration_ns(900);
    pass->set_ops_before(10 + i);
    pass->set_ops_after(11 + i);
  }
  compileEnd->set_serialized_program(std::string("TPRG\0\1\2\3", 8));
  events.push_back(end);

  TraceEvent toDevice =
      makeEvent(TraceEvent::HOST_TO_DEVICE_TRANSFER, module, start + 6000);
  Transfer *in = toDevice.mutable_transfer();
  for (int i = 0; i < 2; ++i) {
    TensorTransfer *tensor = in->add_tensors();
    tensor->set_name(formatv("arg{0}", i).str());
    tensor->set_parameter_index(i);
    tensor->set_size(16);
  }
  in->set_total_size(32);
  events.push_back(toDevice);

  TraceEvent load = makeEvent(TraceEvent::LOAD_ENGINE, module, start + 7000);
  load.mutable_load_engine()->set_duration_ns(100);
  load.mutable_load_engine()->set_program_size(8);
  events.push_back(load);

  TraceEvent run = makeEvent(TraceEvent::EXECUTE, module, start + 8000);
  run.mutable_execute()->set_run_index(0);
  run.mutable_execute()->set_duration_ns(1200);
  *run.mutable_execute()->mutable_execution_report() =
      jsonReport(R"({"cycles":1200})");
  events.push_back(run);

  TraceEvent toHost =
      makeEvent(TraceEvent::DEVICE_TO_HOST_TRANSFER, module, start + 9500);
  TensorTransfer *out = toHost.mutable_transfer()->add_tensors();
  out->set_name("result");
  out->set_parameter_index(0);
  out->set_size(16);
  toHost.mutable_transfer()->set_total_size(16);
  events.push_back(toHost);
  return events;
}
} // namespace

int runWriteSampleCommand(ArrayRef<std::string> args) {
  if (args.empty())
    return fail("write-sample needs an output file");
  std::string path = args[0];
  unsigned modules = 1;
  uint64_t runs = 0;
  std::optional<uint64_t> truncateAt;
  for (StringRef arg : args.drop_front()) {
    if (arg.consume_front("--runs=")) {
      if (arg.getAsInteger(10, runs))
        return fail("--runs needs a count");
    } else if (arg.consume_front("--modules=")) {
      if (arg.getAsInteger(10, modules) || modules == 0)
        return fail("--modules needs a positive integer");
    } else if (arg.consume_front("--truncate=")) {
      uint64_t bytes;
      if (arg.getAsInteger(10, bytes))
        return fail("--truncate needs a byte count");
      truncateAt = bytes;
    } else {
      return fail("unexpected argument '" + arg + "' to 'write-sample'");
    }
  }

  Expected<std::unique_ptr<EventWriter>> writer = EventWriter::open(path);
  if (!writer)
    return fail(toString(writer.takeError()));
  for (unsigned m = 0; m < modules; ++m) {
    std::string name = m == 0 ? "sample" : formatv("sample{0}", m).str();
    for (const TraceEvent &event : moduleEvents(name, m + 1, m * 100000))
      if (Error err = (*writer)->write(event))
        return fail(toString(std::move(err)));
  }
  writer->reset();
  if (runs) {
    // The benchmarks' long logs: more runs of the first module, three
    // events each (transfer in, execute, transfer out), written in bulk.
    std::error_code ec;
    raw_fd_ostream out(path, ec, sys::fs::OF_Append);
    if (ec)
      return fail("cannot write '" + path + "': " + ec.message());
    std::string buffer;
    int64_t t = int64_t(modules) * 100000;
    for (uint64_t r = 0; r < runs; ++r, t += 3000) {
      TraceEvent in = makeEvent(TraceEvent::HOST_TO_DEVICE_TRANSFER, "sample",
                                t);
      in.mutable_transfer()->set_total_size(4096);
      appendEventRecord(in, buffer);
      TraceEvent run = makeEvent(TraceEvent::EXECUTE, "sample", t);
      run.mutable_execute()->set_run_index(static_cast<int64_t>(r));
      run.mutable_execute()->set_duration_ns(2000);
      appendEventRecord(run, buffer);
      TraceEvent back = makeEvent(TraceEvent::DEVICE_TO_HOST_TRANSFER,
                                  "sample", t + 2000);
      back.mutable_transfer()->set_total_size(1024);
      appendEventRecord(back, buffer);
      if (buffer.size() > (1 << 20)) {
        out << buffer;
        buffer.clear();
      }
    }
    out << buffer;
    out.close();
    if (out.has_error())
      return fail("cannot write '" + path + "'");
  }
  if (truncateAt && ::truncate(path.c_str(), static_cast<off_t>(*truncateAt)))
    return fail("cannot truncate '" + path + "'");
  return 0;
}

} // namespace tessera::prof
