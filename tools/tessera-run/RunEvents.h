//===- RunEvents.h - the events tessera-run appends -------------*- C++ -*-===//
//
// With --profiling or --enable_events, tessera-run appends LOAD_ENGINE,
// transfer and EXECUTE events to the event file the compile wrote
// (docs/events.md). A run's events carry the device ordinal they concern:
// 0 for a program of one replica, the replica's number otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TOOLS_TESSERA_RUN_RUNEVENTS_H
#define TESSERA_TOOLS_TESSERA_RUN_RUNEVENTS_H

#include "tessera/Runtime/Device.h"
#include "tessera/Trace/EventFile.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>
#include <string>

namespace tessera::run {

[[noreturn]] void fail(const llvm::Twine &message);

/// Events go to the compile's event file, appended, when events are on;
/// without a writer every call does nothing.
class EventLog {
public:
  EventLog(std::unique_ptr<EventWriter> writer, std::string module)
      : writer(std::move(writer)), module(std::move(module)) {}

  bool enabled() const { return writer != nullptr; }

  void write(TraceEvent::Type type, int64_t timestampNs,
             llvm::function_ref<void(TraceEvent &)> fill, int32_t ordinal = 0) {
    if (!writer)
      return;
    TraceEvent e;
    e.set_timestamp_ns(timestampNs);
    e.set_ordinal(ordinal);
    e.set_type(type);
    e.set_module_name(module);
    fill(e);
    if (llvm::Error err = writer->write(e))
      fail(toString(std::move(err)));
  }

  void transfer(TraceEvent::Type type, int64_t timestampNs,
                llvm::ArrayRef<runtime::TransferRecord> tensors,
                int32_t ordinal = 0) {
    write(
        type, timestampNs,
        [&](TraceEvent &e) {
          Transfer &t = *e.mutable_transfer();
          int64_t total = 0;
          for (const runtime::TransferRecord &r : tensors) {
            TensorTransfer &tt = *t.add_tensors();
            tt.set_name(r.name);
            tt.set_parameter_index(r.parameterIndex);
            tt.set_size(r.bytes);
            total += r.bytes;
          }
          t.set_total_size(total);
        },
        ordinal);
  }

  /// One run of device `ordinal`: its inputs' transfer and EXECUTE at
  /// `startNs`, its outputs' transfer when it ended, `durationNs` later.
  void run(int64_t startNs, int64_t durationNs,
           const runtime::RunRecord &record, Execute execute,
           int32_t ordinal = 0) {
    transfer(TraceEvent::HOST_TO_DEVICE_TRANSFER, startNs, record.toDevice,
             ordinal);
    write(
        TraceEvent::EXECUTE, startNs,
        [&](TraceEvent &e) { *e.mutable_execute() = std::move(execute); },
        ordinal);
    transfer(TraceEvent::DEVICE_TO_HOST_TRANSFER, startNs + durationNs,
             record.toHost, ordinal);
  }

private:
  std::unique_ptr<EventWriter> writer;
  std::string module;
};

} // namespace tessera::run

#endif // TESSERA_TOOLS_TESSERA_RUN_RUNEVENTS_H
