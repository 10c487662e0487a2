//===- Rendezvous.cpp - replicas meeting at their collectives -------------===//

#include "tessera/Support/Rendezvous.h"

#include "llvm/ADT/STLExtras.h"

using namespace tessera;

static llvm::Error failure(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<std::vector<HostTensor>>
Rendezvous::exchange(int64_t sequence, int64_t device,
                     llvm::ArrayRef<int64_t> members, HostTensor value,
                     int64_t arrivalCycle, int64_t *latestArrival) {
  auto self = llvm::find(members, device);
  if (self == members.end())
    return failure("device " + llvm::Twine(device) +
                   " is not a member of its own group");
  std::unique_lock<std::mutex> lock(mutex);
  if (aborted)
    return failure(*aborted);
  auto key = std::make_pair(sequence, *llvm::min_element(members));
  Meeting &m = meetings[key];
  if (m.members.empty()) {
    m.members.assign(members.begin(), members.end());
    m.values.resize(members.size());
  } else if (llvm::ArrayRef<int64_t>(m.members) != members) {
    std::string why = "devices disagree on the group of collective " +
                      std::to_string(sequence);
    aborted = why;
    changed.notify_all();
    return failure(why);
  }
  m.values[self - members.begin()] = std::move(value);
  m.latestArrival = std::max(m.latestArrival, arrivalCycle);
  ++m.arrived;
  changed.notify_all();
  changed.wait(lock, [&] {
    return aborted || m.arrived == static_cast<int64_t>(m.members.size());
  });
  if (aborted)
    return failure(*aborted);
  std::vector<HostTensor> all;
  all.reserve(m.values.size());
  for (const std::optional<HostTensor> &v : m.values)
    all.push_back(*v);
  if (latestArrival)
    *latestArrival = m.latestArrival;
  // The last to read closes the meeting.
  if (++m.left == static_cast<int64_t>(m.members.size()))
    meetings.erase(key);
  return all;
}

void Rendezvous::abort(const std::string &why) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!aborted)
    aborted = why;
  changed.notify_all();
}
