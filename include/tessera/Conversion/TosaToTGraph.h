//===- TosaToTGraph.h - TOSA to tgraph patterns -----------------*- C++ -*-===//
//
// The patterns behind convert-tosa-to-tgraph: one per TOSA op family, plus
// a catch-all that turns any other TOSA op into tgraph.unknown. Apply them
// once per op (see passes/ConvertTosaToTGraph.cpp): the greedy and dialect
// conversion drivers would fold TOSA ops first.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_CONVERSION_TOSATOTGRAPH_H
#define TESSERA_CONVERSION_TOSATOTGRAPH_H

#include "mlir/IR/PatternMatch.h"

namespace tessera {

void populateTosaToTGraphPatterns(mlir::RewritePatternSet &patterns);

} // namespace tessera

#endif // TESSERA_CONVERSION_TOSATOTGRAPH_H
