//===- HloAsync.h - async start / update / done chains ----------*- C++ -*-===//
//
// HLO splits an operation into a start, optional updates and a done so a
// scheduler can overlap it with other work:
//
//   s = ((f32[8]), f32[2], s32[]) async-start(x), calls=rs   (full form)
//   s = ((f32[8]), f32[2], s32[]) reduce-scatter-start(x), ...  (short)
//   s = f32[8] all-reduce-start(x), to_apply=add    (opcodes of their own:
//       all-reduce, all-gather, collective-permute, copy)
//   d = f32[2] async-done(s)
//
// The value is the same as the operation run at once. checkAsyncChain
// checks each link as XLA's parser and verifier do; fuseAsyncPairs then
// turns every complete chain whose links are used only by the next one
// into that one operation (a call of the wrapped computation, the wrapped
// opcode, or the synchronous collective), which the importer already
// models. Send and receive (send / send-done, recv / recv-done) are
// checked but stay as they are: tgraph has no point-to-point transfer.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_LIB_IMPORT_HLOASYNC_H
#define TESSERA_LIB_IMPORT_HLOASYNC_H

#include "HloAst.h"
#include "HloParser.h"

#include "llvm/ADT/StringMap.h"

namespace tessera::hlo {

/// Fails, at the instruction's opcode, when `instr` is a link of an async
/// chain (or a send / receive) that XLA would refuse: a start whose shape
/// does not list its operands and outputs, an update or done whose
/// operand is not the link before it (of the same wrapped opcode), a done
/// whose shape is not the outputs', a calls= other than the start's.
/// Passes every other instruction. `index` maps names to positions in
/// `comp`; every shape must be known (run after inferShapes).
bool checkAsyncChain(const Module &module, const Computation &comp,
                     const llvm::StringMap<size_t> &index,
                     const Instruction &instr, DiagnosticSink &diags);

/// Replaces each checked chain start -> updates -> done, whose start and
/// updates have no other user, by one instruction at the start: its
/// operands and attributes, the done's shape, the opcode it stands for
/// (`call` with to_apply= for the full form). Users of the done use it;
/// the updates and the done are dropped.
void fuseAsyncPairs(Module &module);

} // namespace tessera::hlo

#endif // TESSERA_LIB_IMPORT_HLOASYNC_H
