//===- Collectives.h - a collective step's result on one device --*- C++
//-*-===//
//
// The model device runs a collective as the chip would end up: every
// member's source gathered at the Rendezvous, then this device's dest
// computed from them in the group's order (the reference interpreter has
// its own implementation, lib/Interpreter/Regions.cpp, so the two check
// each other). Values combine in the element type's arithmetic, as the
// chip's vertices would: floats through double, rounded once per step.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_RUNTIME_COLLECTIVES_H
#define TESSERA_RUNTIME_COLLECTIVES_H

#include "tessera/Runtime/ExecutableFile.h"
#include "tessera/Support/HostTensor.h"

#include "llvm/Support/Error.h"

namespace tessera::runtime {

/// The devices that meet for `c` with `device`, in combining order.
std::vector<int64_t> collectiveMembers(const exe::Collective &c, int64_t device,
                                       int64_t devices);

/// `device`'s dest of `c` from its members' sources (`values`, in
/// collectiveMembers order); `dest` gives the dest's type and shape.
llvm::Expected<HostTensor> combineCollective(const exe::Collective &c,
                                             int64_t device,
                                             llvm::ArrayRef<int64_t> members,
                                             llvm::ArrayRef<HostTensor> values,
                                             const HostTensor &dest);

} // namespace tessera::runtime

#endif // TESSERA_RUNTIME_COLLECTIVES_H
