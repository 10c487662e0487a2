//===- Rendezvous.h - replicas meeting at their collectives ------*- C++
//-*-===//
//
// A multi-replica run simulates each device (replica x partition) on its
// own thread, the model device and the reference interpreter alike. At a
// collective every member of a group hands in its value and waits until
// the whole group has, then each reads every member's value and computes
// its own result. Devices run the same program, so the n-th collective of
// one device meets the n-th of the others: `sequence` keys the meeting.
// If one device fails, abort() wakes the others with its error, so a
// failed run ends instead of waiting forever.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_SUPPORT_RENDEZVOUS_H
#define TESSERA_SUPPORT_RENDEZVOUS_H

#include "tessera/Support/HostTensor.h"

#include "llvm/Support/Error.h"

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tessera {

class Rendezvous {
public:
  explicit Rendezvous(int64_t devices) : devices(devices) {}

  int64_t numDevices() const { return devices; }

  /// Device `device`'s collective number `sequence` over `members` (device
  /// ids, `device` among them): hands in `value`, waits for the others
  /// and returns every member's value, in `members` order. An error when
  /// the run was aborted or the members disagree on the meeting.
  /// `arrivalCycle` is when the device reached the collective on its own
  /// clock; `latestArrival`, when given, gets the group's latest, the
  /// cycle the collective can start at on every member.
  llvm::Expected<std::vector<HostTensor>>
  exchange(int64_t sequence, int64_t device, llvm::ArrayRef<int64_t> members,
           HostTensor value, int64_t arrivalCycle = 0,
           int64_t *latestArrival = nullptr);

  /// Ends every wait, now and later, with `why`.
  void abort(const std::string &why);

private:
  struct Meeting {
    std::vector<int64_t> members;
    std::vector<std::optional<HostTensor>> values;
    int64_t arrived = 0, left = 0;
    int64_t latestArrival = 0;
  };
  int64_t devices;
  std::mutex mutex;
  std::condition_variable changed;
  /// Keyed by (sequence, first member): disjoint groups meet apart.
  std::map<std::pair<int64_t, int64_t>, Meeting> meetings;
  std::optional<std::string> aborted;
};

} // namespace tessera

#endif // TESSERA_SUPPORT_RENDEZVOUS_H
