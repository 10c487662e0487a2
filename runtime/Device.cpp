//===- Device.cpp - The model device --------------------------------------===//

#include "tessera/Runtime/Device.h"

#include "Collectives.h"

#include "tessera/Runtime/Vertex.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Parallel.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>

using namespace llvm;

namespace tessera::runtime {

HostOpEvaluator::~HostOpEvaluator() = default;
HostThreadListener::~HostThreadListener() = default;

Device::Device(const Program &program, DeviceOptions options)
    : program(program), options(options) {
  // The pool is LLVM's parallel executor; its size is fixed at first use.
  if (options.threads != 0)
    parallel::strategy = hardware_concurrency(options.threads);
  // calloc: a large arena comes from mmap, zero pages the kernel maps only
  // when touched, so a tile's memory costs what its buffers use, not what
  // the target gives it (core-8 tiles, or overflow held on the host).
  arenas.reserve(program.numTiles());
  for (int64_t t = 0; t < program.numTiles(); ++t) {
    size_t bytes = std::max<int64_t>(program.arenaBytes()[t], 1);
    arenas.emplace_back(static_cast<uint8_t *>(std::calloc(bytes, 1)));
    if (!arenas.back())
      report_bad_alloc_error("cannot allocate the arena of a tile");
  }
  staging.resize(program.buffers().size());
  // Constants are loaded with the program.
  for (const auto &[i, b] : llvm::enumerate(program.executable().buffers())) {
    if (b.category() != exe::CATEGORY_CONSTANT || b.elided())
      continue;
    const BufferLayout &layout = program.buffer(i);
    HostTensor value(layout.dtype, layout.shape);
    std::memcpy(value.bytes.data(), b.constant_data().data(),
                value.bytes.size());
    write(i, value);
  }
}

Device::~Device() = default;

uint8_t *Device::dataOf(int32_t buffer, const TileShare &share) const {
  (void)buffer;
  return arenas[share.tile].get() + share.offset;
}

HostTensor Device::read(int32_t buffer) const {
  const BufferLayout &layout = program.buffer(buffer);
  HostTensor out(layout.dtype, layout.shape);
  int64_t eb = layout.elementBytes;
  for (const TileShare &share : layout.shares) {
    const uint8_t *base = dataOf(buffer, share);
    for (const Interval &iv : share.intervals)
      std::memcpy(out.bytes.data() + iv.begin * eb, base + iv.local * eb,
                  (iv.end - iv.begin) * eb);
  }
  return out;
}

void Device::write(int32_t buffer, const HostTensor &value) {
  const BufferLayout &layout = program.buffer(buffer);
  int64_t eb = layout.elementBytes;
  for (const TileShare &share : layout.shares) {
    uint8_t *base = dataOf(buffer, share);
    for (const Interval &iv : share.intervals)
      std::memcpy(base + iv.local * eb, value.bytes.data() + iv.begin * eb,
                  (iv.end - iv.begin) * eb);
  }
}

Expected<bool> Device::readPredicate(int32_t buffer) {
  const BufferLayout &layout = program.buffer(buffer);
  const TileShare &share = layout.shares.front();
  return *dataOf(buffer, share) != 0;
}

static int64_t unixNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

/// The pool's index of the running thread (kCallingThread off the pool).
static unsigned poolThread() {
#if LLVM_ENABLE_THREADS && !defined(_WIN32)
  return parallel::threadIndex;
#else
  return HostThreadListener::kCallingThread;
#endif
}

/// Runs `fn(i)` for i in [0, n) on the pool in a few contiguous chunks per
/// thread: a chunk per item costs a task spawn per tile, which on 1,472
/// tiles of small vertices outweighs the work (mobilenetv2 on tile-1472
/// ran slower on two threads than on one). Each chunk's wall time goes to
/// the host-thread listener, when there is one.
void Device::parallelChunks(int64_t n, function_ref<void(int64_t)> fn) {
  HostThreadListener *listener = options.hostThreads;
  auto chunk = [&](int64_t begin, int64_t end) {
    int64_t start = listener ? unixNowNs() : 0;
    for (int64_t i = begin; i < end; ++i)
      fn(i);
    if (listener && end > begin)
      listener->chunkRan(poolThread(), start, unixNowNs());
  };
  int64_t threads = parallel::getThreadCount();
  int64_t chunks = threads <= 1 ? 1 : std::min<int64_t>(n, 4 * threads);
  if (chunks <= 1) {
    chunk(0, n);
    return;
  }
  parallelFor(0, chunks, [&](size_t c) {
    chunk(n * int64_t(c) / chunks, n * int64_t(c + 1) / chunks);
  });
}

/// parallelChunks, keeping the first error.
Error Device::parallelTry(int64_t n, function_ref<Error(int64_t)> fn) {
  std::mutex mutex;
  Error first = Error::success();
  parallelChunks(n, [&](int64_t i) {
    Error err = fn(i);
    if (!err)
      return;
    std::lock_guard<std::mutex> lock(mutex);
    if (first)
      consumeError(std::move(err));
    else
      first = std::move(err);
  });
  return first;
}

Error Device::runComputeSet(const exe::Step &step) {
  const exe::ComputeSet &cs = step.compute_set();
  const PreparedComputeSet &prepared = program.prepared(&cs);
  auto operand = [&](int32_t b, int64_t tile) {
    const BufferLayout &layout = program.buffer(b);
    TileOperand op;
    op.buffer = &layout;
    op.share = layout.shareOn(tile);
    if (op.share)
      op.data = dataOf(b, *op.share);
    return op;
  };
  CycleClock *clock = options.clock;
  int64_t n = cs.end_tile() - cs.first_tile();
  MutableArrayRef<TileWork> work;
  if (clock)
    work = clock->workSlots(n);
  Error err = parallelTry(n, [&](int64_t i) -> Error {
    int64_t tile = cs.first_tile() + i;
    SmallVector<TileOperand, 4> ins, outs;
    for (int32_t b : cs.ins())
      ins.push_back(operand(b, tile));
    for (int32_t b : cs.outs())
      outs.push_back(operand(b, tile));
    if (Error err = prepared.vertex->run(tile, ins, outs))
      return createStringError(program.source() + ": " + Program::where(step) +
                               ": " + toString(std::move(err)));
    if (clock)
      work[i] = prepared.vertex->work(clock->rates(), tile, ins, outs);
    return Error::success();
  });
  if (!err && clock)
    clock->computeSetRan(step);
  return err;
}

void Device::runExchange(const exe::Exchange &x) {
  const BufferLayout &src = program.buffer(x.source());
  const BufferLayout &dst = program.buffer(x.dest());
  int64_t eb = dst.elementBytes;
  // An exchange is bulk-synchronous: every tile sends what it held before
  // the exchange. When the source and destination share storage (a
  // replication inside one buffer), read from a snapshot.
  std::optional<HostTensor> snapshot;
  if (src.storage == dst.storage)
    snapshot = read(x.source());
  auto sourceBytes = [&](int64_t element, const TileShare *share) {
    if (snapshot)
      return static_cast<const uint8_t *>(snapshot->bytes.data()) +
             element * eb;
    return static_cast<const uint8_t *>(dataOf(x.source(), *share)) +
           share->localOf(element) * eb;
  };

  if (!x.is_view()) {
    CopyRuns runs = program.copyRuns(x);
    parallelChunks(runs.numRuns(), [&](int64_t r) {
      const int64_t *c = runs.run(r);
      RunStrides h = runs.stridesOf(r);
      for (int64_t k = 0; k < c[2]; ++k) {
        const TileShare *from =
            snapshot ? nullptr : src.shareOn(c[0] + k * h.srcTileStep);
        const TileShare *to = dst.shareOn(c[1] + k * h.dstTileStep);
        for (int64_t j = 0, e = c[3] / h.chunk; j < e; ++j) {
          int64_t s0 = c[4] + k * c[5] + j * h.srcStride,
                  d0 = c[6] + k * c[7] + j * h.dstStride;
          std::memmove(dataOf(x.dest(), *to) + to->localOf(d0) * eb,
                       sourceBytes(s0, from), h.chunk * eb);
        }
      }
    });
    return;
  }

  // A view: dest element idx reads source element offset + sum idx * s.
  ArrayRef<int64_t> strides(x.view_strides().data(), x.view_strides_size());
  ArrayRef<int64_t> shape = dst.shape;
  int64_t rank = shape.size();
  parallelChunks(dst.shares.size(), [&](int64_t s) {
    const TileShare &to = dst.shares[s];
    uint8_t *out = dataOf(x.dest(), to);
    SmallVector<int64_t, 8> idx(rank);
    const ElementRun *cached = nullptr;
    for (const Interval &iv : to.intervals) {
      // Coordinates of iv.begin, then incremented element by element.
      int64_t rest = iv.begin, srcElement = x.view_offset();
      for (int64_t d = rank - 1; d >= 0; --d) {
        idx[d] = rest % shape[d];
        rest /= shape[d];
        srcElement += idx[d] * strides[d];
      }
      for (int64_t e = iv.begin; e < iv.end; ++e) {
        const uint8_t *from;
        if (snapshot) {
          from = snapshot->bytes.data() + srcElement * eb;
        } else {
          if (!cached || srcElement < cached->begin ||
              srcElement >= cached->end)
            cached = &src.runOf(srcElement);
          const TileShare &share = src.shares[cached->share];
          from = dataOf(x.source(), share) +
                 (cached->local + srcElement - cached->begin) * eb;
        }
        std::memcpy(out + (iv.local + e - iv.begin) * eb, from, eb);
        for (int64_t d = rank - 1; d >= 0; --d) {
          srcElement += strides[d];
          if (++idx[d] < shape[d])
            break;
          srcElement -= strides[d] * shape[d];
          idx[d] = 0;
        }
      }
    }
  });
}

Error Device::runHostCompute(const exe::Step &step, RunRecord &record) {
  const exe::HostCompute &hc = step.host_compute();
  if (!options.hostOps)
    return createStringError(program.source() + ": " + Program::where(step) +
                             ": '" + hc.op() + "' runs on the host (" +
                             hc.reason() +
                             "), and no host evaluator was given");
  std::vector<HostTensor> ins;
  for (int32_t b : hc.ins()) {
    if (!staging[b])
      return createStringError(program.source() + ": " + Program::where(step) +
                               ": input " + program.buffer(b).describe() +
                               " was not sent to the host");
    ins.push_back(*staging[b]);
  }
  auto start = std::chrono::steady_clock::now();
  Expected<std::vector<HostTensor>> outs = options.hostOps->evaluate(hc, ins);
  if (options.clock)
    options.clock->hostComputeRan(
        step, std::chrono::duration_cast<std::chrono::nanoseconds>(
                  std::chrono::steady_clock::now() - start)
                  .count());
  if (!outs)
    return createStringError(program.source() + ": " + Program::where(step) +
                             ": " + toString(outs.takeError()));
  if (outs->size() != static_cast<size_t>(hc.outs_size()))
    return createStringError(program.source() + ": " + Program::where(step) +
                             ": the host op gave " + Twine(outs->size()) +
                             " results for " + Twine(hc.outs_size()) +
                             " buffers");
  for (auto [i, b] : llvm::enumerate(hc.outs())) {
    const BufferLayout &layout = program.buffer(b);
    HostTensor &value = (*outs)[i];
    if (value.shape != layout.shape)
      return createStringError(program.source() + ": " + Program::where(step) +
                               ": host result " + Twine(i) + " is " +
                               value.typeString() + ", the buffer " +
                               layout.describe());
    if (value.dtype != layout.dtype)
      value = value.convertTo(layout.dtype);
    staging[b] = std::move(value);
  }
  ++record.hostOps;
  return Error::success();
}

Error Device::runStep(const exe::Step &step, RunRecord &record) {
  ++record.steps;
  // The last step to write each buffer's storage.
  auto wrote = [&](int32_t b) {
    record.lastWriter[program.buffer(b).storage] = &step;
  };
  if (step.has_compute_set())
    llvm::for_each(step.compute_set().outs(), wrote);
  else if (step.has_exchange())
    wrote(step.exchange().dest());
  else if (step.has_collective())
    wrote(step.collective().dest());
  else if (step.has_host_copy() &&
           step.host_copy().direction() == exe::HostCopy::INFEED)
    wrote(step.host_copy().buffer());
  switch (step.kind_case()) {
  case exe::Step::kComputeSet:
    return runComputeSet(step);
  case exe::Step::kExchange:
    runExchange(step.exchange());
    if (options.clock)
      options.clock->exchangeRan(step);
    return Error::success();
  case exe::Step::kSync:
    // Steps run one after the other on the host: every step is already a
    // barrier, so a sync has nothing left to wait for -- but the chip
    // spends its cycles on it.
    if (options.clock)
      options.clock->syncRan(step);
    return Error::success();
  case exe::Step::kHostCopy: {
    int32_t b = step.host_copy().buffer();
    const BufferLayout &layout = program.buffer(b);
    // A copy the device makes costs the host link's time, whatever path
    // it takes below.
    if (options.clock &&
        !(layout.category == exe::CATEGORY_PARAMETER && synthetic &&
          step.host_copy().direction() == exe::HostCopy::INFEED))
      options.clock->hostCopyRan(step,
                                 layout.numElements * layout.elementBytes);
    if (step.host_copy().direction() == exe::HostCopy::OUTFEED) {
      staging[b] = read(b);
      return Error::success();
    }
    if (layout.category == exe::CATEGORY_PARAMETER && synthetic)
      return Error::success();
    if (layout.category == exe::CATEGORY_PARAMETER) {
      if (!staging[b])
        return createStringError(program.source() + ": " +
                                 Program::where(step) + ": parameter " +
                                 layout.describe() + " was not given");
      write(b, *staging[b]);
      return Error::success();
    }
    // A host op's result is sent once; any other infeed is the model's
    // own (HLO infeed), whose data the host supplies each time.
    if (staging[b]) {
      write(b, *staging[b]);
      staging[b].reset();
      return Error::success();
    }
    if (!options.infeed)
      return createStringError(program.source() + ": " + Program::where(step) +
                               ": infeed of " + layout.describe() +
                               " but the host has no data for it");
    Expected<HostTensor> data = options.infeed(layout);
    if (!data)
      return createStringError(program.source() + ": " + Program::where(step) +
                               ": " + toString(data.takeError()));
    if (data->dtype != layout.dtype || data->shape != layout.shape)
      return createStringError(program.source() + ": " + Program::where(step) +
                               ": infeed data is " + data->typeString() +
                               ", the buffer " + layout.describe());
    record.toDevice.push_back(
        {layout.name, -1, static_cast<int64_t>(data->bytes.size())});
    write(b, *data);
    return Error::success();
  }
  case exe::Step::kHostCompute:
    return runHostCompute(step, record);
  case exe::Step::kCollective:
    return runCollective(step);
  case exe::Step::kRepeat: {
    const exe::Repeat &loop = step.repeat();
    record.lastIterations[&loop] = 0;
    while (true) {
      Expected<bool> go = readPredicate(loop.condition());
      if (!go)
        return go.takeError();
      if (!*go)
        return Error::success();
      if (Error err = runSteps(loop.body(), record))
        return err;
      // (runSteps may grow the map: look the counter up again.)
      ++record.lastIterations[&loop];
    }
  }
  case exe::Step::kIfStep: {
    Expected<bool> p = readPredicate(step.if_step().predicate());
    if (!p)
      return p.takeError();
    return runSteps(*p ? step.if_step().then_body()
                       : step.if_step().else_body(),
                    record);
  }
  case exe::Step::KIND_NOT_SET:
    break;
  }
  return Error::success();
}

Error Device::runCollective(const exe::Step &step) {
  const exe::Collective &c = step.collective();
  int64_t devices = options.rendezvous ? options.rendezvous->numDevices() : 1;
  std::vector<int64_t> members = collectiveMembers(c, options.device, devices);
  if (members.empty())
    return createStringError(inconvertibleErrorCode(),
                             Program::where(step) + ": device " +
                                 Twine(options.device) +
                                 " is in none of its groups");
  HostTensor source = read(c.source());
  std::vector<HostTensor> values;
  // The collective starts when its group's last member arrives, on every
  // member's clock.
  int64_t arrival = options.clock ? options.clock->cycles() : 0;
  int64_t start = arrival;
  if (options.rendezvous) {
    Expected<std::vector<HostTensor>> all =
        options.rendezvous->exchange(collectivesMet++, options.device, members,
                                     std::move(source), arrival, &start);
    if (!all)
      return createStringError(inconvertibleErrorCode(),
                               Program::where(step) + ": " +
                                   toString(all.takeError()));
    values = std::move(*all);
  } else if (members.size() == 1) {
    values.push_back(std::move(source));
  } else {
    return createStringError(inconvertibleErrorCode(),
                             Program::where(step) + ": a collective over " +
                                 Twine(members.size()) +
                                 " devices needs a run of that many replicas");
  }
  Expected<HostTensor> result =
      combineCollective(c, options.device, members, values, read(c.dest()));
  if (!result)
    return createStringError(inconvertibleErrorCode(),
                             Program::where(step) + ": " +
                                 toString(result.takeError()));
  write(c.dest(), *result);
  if (options.clock)
    options.clock->collectiveRan(step, start - arrival);
  return Error::success();
}

Error Device::runSteps(
    const google::protobuf::RepeatedPtrField<exe::Step> &steps,
    RunRecord &record) {
  for (const exe::Step &step : steps)
    if (Error err = runStep(step, record))
      return err;
  return Error::success();
}

Expected<std::vector<HostTensor>>
Device::run(ArrayRef<HostTensor> inputs, RunRecord &record, bool synthetic) {
  this->synthetic = synthetic;
  collectivesMet = 0;
  const exe::Executable &e = program.executable();
  for (auto &s : staging)
    s.reset();
  if (!synthetic) {
    if (inputs.size() != static_cast<size_t>(e.parameters_size()))
      return createStringError(program.source() + ": the program takes " +
                               Twine(e.parameters_size()) + " inputs, got " +
                               Twine(inputs.size()));
    for (auto [i, binding] : llvm::enumerate(e.parameters())) {
      const HostTensor &in = inputs[i];
      if (dtypeName(in.dtype) != binding.dtype() ||
          ArrayRef<int64_t>(in.shape) !=
              ArrayRef<int64_t>(binding.shape().data(), binding.shape_size()))
        return createStringError(program.source() + ": input " + Twine(i) +
                                 " ('" + binding.name() + "') is " +
                                 in.typeString() + ", expected " +
                                 binding.dtype() + "[" +
                                 llvm::join(llvm::map_range(
                                                binding.shape(),
                                                [](int64_t d) {
                                                  return std::to_string(d);
                                                }),
                                            ",") +
                                 "]");
      if (binding.buffer_plus_one() == 0)
        continue;
      staging[binding.buffer_plus_one() - 1] = in;
      record.toDevice.push_back(
          {binding.name(), static_cast<int64_t>(i),
           static_cast<int64_t>(in.bytes.size())});
    }
  }
  if (options.clock)
    options.clock->beginRun();
  if (Error err = runSteps(e.steps(), record))
    return std::move(err);
  std::vector<HostTensor> outputs;
  for (const exe::Binding &binding : e.outputs()) {
    if (binding.buffer_plus_one() == 0)
      return createStringError(program.source() + ": output '" +
                               binding.name() + "' has no buffer");
    int32_t b = binding.buffer_plus_one() - 1;
    outputs.push_back(staging[b] ? *staging[b] : read(b));
    record.toHost.push_back({binding.name(), -1,
                             static_cast<int64_t>(outputs.back().bytes.size())});
  }
  return outputs;
}

} // namespace tessera::runtime
