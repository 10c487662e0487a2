//===- LongLineDiagnosticsTest.cpp - errors on very long input lines ------===//
//
// The importer reports through the context's handlers, whatever the line:
// a library user's handler gets every diagnostic. The tools add
// LongLineDiagnosticHandler, which prints a diagnostic on a line over 512
// characters with a window of the line rather than the whole of it.
//
//===----------------------------------------------------------------------===//

#include "tessera/Import/LongLineDiagnostics.h"
#include "tessera/Import/HloImporter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

/// An HLO module whose one instruction line carries a 100,000-character
/// name and then a token the parser rejects.
std::string longLineModel() {
  return "HloModule m\nENTRY e { ROOT p = f32[4] parameter(0), "
         "metadata={op_name=\"" +
         std::string(100000, 'x') + "\"} junk }\n";
}

TEST(LongLineDiagnostics, TheImporterReportsToTheCallersHandler) {
  MLIRContext context;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(longLineModel(), "long.hlo"),
      llvm::SMLoc());
  std::vector<std::string> seen;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    seen.push_back(d.str());
    return success();
  });
  EXPECT_FALSE(tessera::importHloText(sourceMgr, &context));
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_NE(seen[0].find("junk"), std::string::npos) << seen[0];
}

TEST(LongLineDiagnostics, AToolShowsAWindowOfTheLine) {
  MLIRContext context;
  llvm::SourceMgr sourceMgr;
  // Added after the handler is made, as tessera-compile does.
  std::string printed;
  llvm::raw_string_ostream os(printed);
  tessera::LongLineDiagnosticHandler longLines(sourceMgr, &context, os);
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(longLineModel(), "long.hlo"),
      llvm::SMLoc());
  EXPECT_FALSE(tessera::importHloText(sourceMgr, &context));
  // file:line:col of the token in the whole line (the '}' after "junk",
  // where the parser wanted '='), the message, a window cut at the start,
  // and a caret under the token.
  std::string model = longLineModel();
  size_t column = model.find("junk }") + 5 - model.find('\n');
  EXPECT_EQ(
      printed.rfind("long.hlo:2:" + std::to_string(column) + ": error: ", 0),
      0u)
      << printed.substr(0, 300);
  EXPECT_LT(printed.size(), 1000u);
  EXPECT_NE(printed.find("\n...x"), std::string::npos);
  EXPECT_NE(printed.find("junk }"), std::string::npos);
  size_t caretLine = printed.rfind('\n', printed.size() - 2) + 1;
  size_t windowLine = printed.rfind('\n', caretLine - 2) + 1;
  size_t caret = printed.find('^', caretLine) - caretLine;
  EXPECT_EQ(printed.substr(windowLine + caret - 5, 6), "junk }");

  // A short line goes on to the next handler untouched.
  printed.clear();
  std::vector<std::string> passedOn;
  {
    ScopedDiagnosticHandler outer(&context, [&](Diagnostic &d) {
      passedOn.push_back(d.str());
      return success();
    });
    llvm::SourceMgr shortLines;
    tessera::LongLineDiagnosticHandler inner(shortLines, &context, os);
    shortLines.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(
            "HloModule m\nENTRY e { ROOT p = f32[4] parameter(0) junk }\n",
            "short.hlo"),
        llvm::SMLoc());
    EXPECT_FALSE(tessera::importHloText(shortLines, &context));
  }
  EXPECT_EQ(printed, "");
  ASSERT_EQ(passedOn.size(), 1u);
}

} // namespace
