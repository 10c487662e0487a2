//===- RunStorage.cpp - tessera-run --check_storage -----------------------===//
//
// The allocator's plan judged by its result: the program run again with
// every buffer in storage of its own (LoadOptions::privateStorage) must
// give the same bits. Buffers whose live ranges the liveness got wrong, or
// that the allocation let overlap while both are live, write over each
// other in the allocator's storage and not in their own.
//
//===----------------------------------------------------------------------===//

#include "RunChecks.h"

#include "tessera/Runtime/Program.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tessera::run {

bool checkStorage(const runtime::Program &program, bool mainIsPrivate,
                  runner::GraphModule &graph, ArrayRef<HostTensor> inputs,
                  ArrayRef<HostTensor> outputs, uint64_t seed,
                  unsigned threads) {
  const exe::Executable &exe = program.executable();
  runtime::LoadOptions load;
  load.privateStorage = !mainIsPrivate;
  // The run being compared loaded, so its overflow (if any) was allowed.
  load.allowOutOfMemory = true;
  Expected<std::unique_ptr<runtime::Program>> other =
      runtime::Program::load(exe, "--check_storage", load);
  if (!other)
    fail("--check_storage: " + toString(other.takeError()));
  runner::SeededDevice device(**other, graph, seed, threads);
  runtime::RunRecord record;
  Expected<std::vector<HostTensor>> again = device.run(inputs, record);
  if (!again)
    fail("--check_storage: " + toString(again.takeError()));
  if (again->size() != outputs.size())
    fail("--check_storage: the second run gives " + Twine(again->size()) +
         " outputs, the first " + Twine(outputs.size()));

  outs() << "storage check (the run again, "
         << (mainIsPrivate ? "in the allocator's storage"
                           : "every buffer in storage of its own")
         << "; the outputs must be the same bits):\n";
  bool allSame = true;
  for (auto [k, binding] : llvm::enumerate(exe.outputs())) {
    const HostTensor &first = outputs[k], &second = (*again)[k];
    outs() << format("  %-16s %-20s ", binding.name().c_str(),
                     first.typeString().c_str());
    runner::BitsDiff diff = runner::diffBits(first, second);
    if (diff.differ == 0) {
      outs() << "same\n";
      continue;
    }
    allSame = false;
    int64_t n = first.numElements(), at = diff.first;
    const HostTensor &allocated = mainIsPrivate ? second : first;
    const HostTensor &own = mainIsPrivate ? first : second;
    outs() << formatv("DIFFERS: {0} of {1} elements, first at {2}: {3} in "
                      "the allocator's storage, {4} in its own\n",
                      diff.differ, n, at, allocated.getDouble(at),
                      own.getDouble(at));
  }
  outs() << (allSame ? "storage check: PASS\n" : "storage check: FAIL\n");
  return allSame;
}

} // namespace tessera::run
