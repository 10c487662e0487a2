//===- tessera-translate.cpp - HLO text to tgraph MLIR --------------------===//
//
//   tessera-translate --import-hlo model.hlo -o model.mlir
//
//===----------------------------------------------------------------------===//

#include "tessera/Import/HloImporter.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"

int main(int argc, char **argv) {
  mlir::TranslateToMLIRRegistration importHlo(
      "import-hlo", "import XLA HLO text as tgraph MLIR",
      [](llvm::SourceMgr &sourceMgr, mlir::MLIRContext *context) {
        tessera::loadImportDialects(*context);
        return tessera::importHloText(sourceMgr, context);
      });
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "Tessera translation tool"));
}
