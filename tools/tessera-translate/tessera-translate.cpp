//===- tessera-translate.cpp - HLO text to tgraph MLIR --------------------===//
//
//   tessera-translate --import-hlo model.hlo -o model.mlir
//
//===----------------------------------------------------------------------===//

#include "tessera/Import/HloImporter.h"
#include "tessera/Import/LongLineDiagnostics.h"
#include "tessera/Trace/InputFile.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/raw_ostream.h"

/// mlir-translate's main reads its input whole with no bound and no check
/// of what the path is: /dev/zero aborted it. The input paths (every
/// argument that is not an option or -o's value) get the tools' common
/// checks first (docs/limits.md).
static bool inputsAreReadable(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg == "-o") {
      ++i;
      continue;
    }
    if (arg.starts_with("-"))
      continue;
    if (llvm::Error err =
            tessera::checkInputFile(arg, tessera::kMaxModelBytes, "model")) {
      llvm::errs() << "tessera-translate: error: "
                   << llvm::toString(std::move(err)) << "\n";
      return false;
    }
  }
  return true;
}

int main(int argc, char **argv) {
  if (!inputsAreReadable(argc, argv))
    return 1;
  mlir::TranslateToMLIRRegistration importHlo(
      "import-hlo", "import XLA HLO text as tgraph MLIR",
      [](llvm::SourceMgr &sourceMgr, mlir::MLIRContext *context) {
        tessera::loadImportDialects(*context);
        // Inside mlir-translate's own handler: runs before it.
        tessera::LongLineDiagnosticHandler longLines(sourceMgr, context);
        return tessera::importHloText(sourceMgr, context);
      });
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "Tessera translation tool"));
}
