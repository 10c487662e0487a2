//===- LongLineDiagnostics.h - Errors on very long input lines --*- C++ -*-===//
//
// A tool's SourceMgrDiagnosticHandler echoes the whole source line under a
// diagnostic. An HLO file can hold a line of megabytes (a 1 MB name, a
// constant's literal), and an error there printed all of it. Tools install
// this handler after their own: a diagnostic on a line of more than 512
// characters is printed here as file:line:col with a window of the line
// around the column; the others go on to the tool's handler unchanged.
// It is the tools' choice, not the importer's: a library user's own
// handler (a test, the fuzzers) receives every diagnostic.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_IMPORT_LONGLINEDIAGNOSTICS_H
#define TESSERA_IMPORT_LONGLINEDIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace tessera {

class LongLineDiagnosticHandler : public mlir::ScopedDiagnosticHandler {
public:
  /// Lines of the buffers of `sourceMgr` (those added later too) longer
  /// than this are shown by a window of kWindow characters.
  static constexpr unsigned kLongLine = 512, kWindow = 120;

  LongLineDiagnosticHandler(llvm::SourceMgr &sourceMgr,
                            mlir::MLIRContext *context,
                            llvm::raw_ostream &os = llvm::errs());
};

} // namespace tessera

#endif // TESSERA_IMPORT_LONGLINEDIAGNOSTICS_H
