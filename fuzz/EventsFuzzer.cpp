//===- EventsFuzzer.cpp - Event files -------------------------------------===//
//
// tessera-prof reads event files by streaming them (scanEventFile), the
// Python API and tests read them whole (parseEventFile): both must return
// the same events and stop at the same damage. Every event read must then
// describe itself and extract its reports without a crash; reports stored
// by path resolve inside the event file's folder only.
//
//===----------------------------------------------------------------------===//

#include "FuzzTargets.h"

#include "tessera/Trace/EventFile.h"
#include "tessera/Trace/EventQuery.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>
#include <vector>

using namespace llvm;

/// The input written to a file in a folder of its own (made once per
/// process), for the streaming reader and for report paths to resolve in.
static std::string writeInput(StringRef bytes, std::string &folder) {
  // Never destroyed: the exit handler that removes the folder runs after
  // the destructors of statics made before it was registered (a static
  // std::string here was freed before the handler read it).
  static const std::string &dir = *[] {
    SmallString<128> path;
    if (sys::fs::createUniqueDirectory("tessera-fuzz-events", path))
      tessera::fuzz::propertyFailed("cannot make a temporary folder");
    auto *made = new std::string(path);
    // libFuzzer ends a timed run with exit(): the folder goes with it.
    std::atexit([] { sys::fs::remove_directories(dir); });
    return made;
  }();
  folder = dir;
  std::string file = dir + "/fuzz.events";
  std::error_code ec;
  raw_fd_ostream os(file, ec);
  if (ec)
    tessera::fuzz::propertyFailed("cannot write the temporary event file");
  os << bytes;
  return file;
}

int tessera::fuzz::fuzzEvents(const uint8_t *data, size_t size) {
  StringRef bytes(reinterpret_cast<const char *>(data), size);
  Expected<EventFileContents> whole = parseEventFile(bytes);

  std::string folder;
  std::string path = writeInput(bytes, folder);
  std::vector<std::string> streamed;
  std::vector<uint64_t> offsets;
  Expected<EventFileScan> scan =
      scanEventFile(path, [&](TraceEvent &event, uint64_t offset) {
        streamed.push_back(event.SerializeAsString());
        offsets.push_back(offset);
        return Error::success();
      });
  if (!whole || !scan) {
    if (bool(whole) != bool(scan))
      propertyFailed("one event reader refuses a file the other reads");
    consumeError(whole.takeError());
    consumeError(scan.takeError());
    return 0;
  }
  if (whole->events.size() != streamed.size() || whole->offsets != offsets)
    propertyFailed("the event readers return different records");
  for (size_t i = 0; i < streamed.size(); ++i)
    if (whole->events[i].SerializeAsString() != streamed[i])
      propertyFailed("the event readers decode a record differently");
  if (bool(whole->damage) != bool(scan->damage) ||
      (whole->damage &&
       (whole->damage->offset != scan->damage->offset ||
        whole->damage->recordIndex != scan->damage->recordIndex)))
    propertyFailed("the event readers stop at different places");

  for (const TraceEvent &event : whole->events) {
    (void)eventTypeName(event);
    (void)describePayload(event);
    for (ExtractKind kind : allExtractKinds()) {
      if (!hasExtractable(event, kind))
        continue;
      Expected<std::string> extracted = extractBytes(event, kind, folder);
      if (!extracted)
        consumeError(extracted.takeError());
    }
  }
  return 0;
}
