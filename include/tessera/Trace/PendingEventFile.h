//===- PendingEventFile.h - An event file kept only on success --*- C++ -*-===//
//
// A compile's events are written as they happen (a crash leaves every
// complete record readable, see EventFile.h), but DESIGN's rule "no partial
// output files" holds for a failed compile: events go to a unique temporary
// name beside the final one, commit() renames it into place, and destruction
// without commit() deletes it. After a hard crash the temporary
// (`<path>.partial-XXXXXX`) is left behind and is a readable event file.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TRACE_PENDINGEVENTFILE_H
#define TESSERA_TRACE_PENDINGEVENTFILE_H

#include "tessera/Trace/EventFile.h"
#include "tessera/Trace/ReportSink.h"

#include <memory>
#include <string>

namespace tessera {

class PendingEventFile : public EventOutput {
public:
  static llvm::Expected<std::unique_ptr<PendingEventFile>>
  create(llvm::StringRef path);
  ~PendingEventFile() override;

  llvm::Error write(const TraceEvent &event) override;
  /// Renames the temporary to the final path.
  llvm::Error commit();

  llvm::StringRef finalPath() const { return path; }

private:
  PendingEventFile(std::string path, std::string tempPath,
                   std::unique_ptr<EventWriter> writer);

  std::string path;
  std::string tempPath;
  std::unique_ptr<EventWriter> writer;
  bool committed = false;
};

} // namespace tessera

#endif // TESSERA_TRACE_PENDINGEVENTFILE_H
