//===- TraceEventFileTest.cpp - Event file writer/reader tests
//-------------===//

#include "TraceTestUtil.h"

#include "tessera/Trace/EventFile.h"

#include "gtest/gtest.h"

#include <fstream>
#include <functional>
#include <unistd.h>

using namespace tessera;
using tessera::testing::readWholeFile;
using tessera::testing::ScopedTempDir;

namespace {

TraceEvent makeEvent(TraceEvent::Type type, const std::string &module,
                     int64_t time) {
  TraceEvent event;
  event.set_type(type);
  event.set_module_name(module);
  event.set_timestamp_ns(time);
  return event;
}

/// Three records of different shapes and sizes (one over 127 bytes, so its
/// length prefix takes two varint bytes).
std::vector<TraceEvent> threeEvents() {
  TraceEvent begin = makeEvent(TraceEvent::COMPILE_BEGIN, "m", 1);
  begin.mutable_compile_begin()->set_target("tiny");
  TraceEvent end = makeEvent(TraceEvent::COMPILE_END, "m", 2);
  end.mutable_compile_end()->mutable_compilation_report()->set_data(
      std::string(300, 'r'));
  end.mutable_compile_end()->add_pass_timeline()->set_name("tile-liveness");
  TraceEvent run = makeEvent(TraceEvent::EXECUTE, "m", 3);
  run.mutable_execute()->set_run_index(7);
  return {begin, end, run};
}

std::string fileBytes(const std::vector<TraceEvent> &events,
                      std::vector<size_t> &recordEnds) {
  std::string bytes = eventFileHeader();
  for (const TraceEvent &event : events) {
    appendEventRecord(event, bytes);
    recordEnds.push_back(bytes.size());
  }
  return bytes;
}

TEST(TraceEventFile, HeaderIsMagicAndVersion) {
  std::string header = eventFileHeader();
  ASSERT_EQ(header.size(), kEventFileHeaderSize);
  EXPECT_EQ(header.substr(0, 7), "TESSEVT");
  EXPECT_EQ(static_cast<uint8_t>(header[7]), kEventFileVersion);
}

TEST(TraceEventFile, RecordIsVarintLengthThenMessage) {
  TraceEvent event = threeEvents()[1];
  std::string record;
  appendEventRecord(event, record);
  size_t size = event.ByteSizeLong();
  ASSERT_GT(size, 127u);
  ASSERT_LT(size, 16384u);
  // Two-byte little-endian base-128 varint.
  EXPECT_EQ(static_cast<uint8_t>(record[0]), (size & 0x7f) | 0x80);
  EXPECT_EQ(static_cast<uint8_t>(record[1]), size >> 7);
  EXPECT_EQ(record.size(), size + 2);
  EXPECT_EQ(record.substr(2), event.SerializeAsString());
}

TEST(TraceEventFile, WriterReaderRoundTrip) {
  ScopedTempDir dir;
  std::string path = dir.path("round.events");
  {
    auto writer = EventWriter::open(path);
    ASSERT_TRUE(static_cast<bool>(writer)) << toString(writer.takeError());
    for (const TraceEvent &event : threeEvents())
      ASSERT_FALSE(static_cast<bool>((*writer)->write(event)));
    EXPECT_EQ((*writer)->recordsWritten(), 3u);
  }
  auto contents = readEventFile(path);
  ASSERT_TRUE(static_cast<bool>(contents)) << toString(contents.takeError());
  EXPECT_FALSE(contents->damage.has_value());
  ASSERT_EQ(contents->events.size(), 3u);
  std::vector<TraceEvent> expected = threeEvents();
  for (size_t i = 0; i < 3; ++i)
    EXPECT_EQ(contents->events[i].SerializeAsString(),
              expected[i].SerializeAsString());
  EXPECT_EQ(contents->offsets[0], kEventFileHeaderSize);
  EXPECT_EQ(contents->events[2].execute().run_index(), 7);
}

TEST(TraceEventFile, EveryRecordIsOnDiskBeforeTheWriterCloses) {
  // A crash cannot run destructors: what is readable while the writer is
  // still open is what survives one.
  ScopedTempDir dir;
  std::string path = dir.path("live.events");
  auto writer = EventWriter::open(path);
  ASSERT_TRUE(static_cast<bool>(writer));
  std::vector<TraceEvent> events = threeEvents();
  for (size_t i = 0; i < events.size(); ++i) {
    ASSERT_FALSE(static_cast<bool>((*writer)->write(events[i])));
    auto contents = readEventFile(path);
    ASSERT_TRUE(static_cast<bool>(contents));
    EXPECT_EQ(contents->events.size(), i + 1);
    EXPECT_FALSE(contents->damage.has_value());
  }
}

TEST(TraceEventFile, TruncationAtEveryByteOffset) {
  std::vector<size_t> ends;
  std::string bytes = fileBytes(threeEvents(), ends);
  std::vector<size_t> starts = {kEventFileHeaderSize, ends[0], ends[1]};
  for (size_t cut = 0; cut <= bytes.size(); ++cut) {
    SCOPED_TRACE("cut at byte " + std::to_string(cut));
    auto contents = parseEventFile(llvm::StringRef(bytes).substr(0, cut));
    ASSERT_TRUE(static_cast<bool>(contents)) << toString(contents.takeError());
    size_t complete = 0;
    while (complete < ends.size() && ends[complete] <= cut)
      ++complete;
    EXPECT_EQ(contents->events.size(), complete);
    bool atBoundary = cut == kEventFileHeaderSize ||
                      std::find(ends.begin(), ends.end(), cut) != ends.end();
    ASSERT_EQ(contents->damage.has_value(), !atBoundary);
    if (!atBoundary) {
      EXPECT_EQ(contents->damage->recordIndex, complete);
      uint64_t expectedOffset =
          cut < kEventFileHeaderSize ? 0 : starts[complete];
      EXPECT_EQ(contents->damage->offset, expectedOffset);
      EXPECT_NE(contents->damage->describe().find(
                    "byte offset " + std::to_string(expectedOffset)),
                std::string::npos);
    }
    // The records returned are the originals, not garbage.
    for (size_t i = 0; i < contents->events.size(); ++i)
      EXPECT_EQ(contents->events[i].timestamp_ns(), int64_t(i + 1));
  }
}

TEST(TraceEventFile, MalformedLengthPrefixIsDamageNotCrash) {
  std::vector<size_t> ends;
  std::string bytes = fileBytes(threeEvents(), ends);
  bytes.resize(ends[0]);
  bytes += std::string(6, '\xff');
  auto contents = parseEventFile(bytes);
  ASSERT_TRUE(static_cast<bool>(contents));
  EXPECT_EQ(contents->events.size(), 1u);
  ASSERT_TRUE(contents->damage.has_value());
  EXPECT_EQ(contents->damage->offset, ends[0]);
  EXPECT_EQ(contents->damage->recordIndex, 1u);
  EXPECT_NE(contents->damage->reason.find("malformed"), std::string::npos);
}

TEST(TraceEventFile, UnparsableRecordIsDamage) {
  // Length 2, then field 1 declared as a length-delimited field of 100
  // bytes: not a TraceEvent.
  std::string bytes = eventFileHeader() + std::string("\x02\x0a\x64", 3);
  auto contents = parseEventFile(bytes);
  ASSERT_TRUE(static_cast<bool>(contents));
  EXPECT_TRUE(contents->events.empty());
  ASSERT_TRUE(contents->damage.has_value());
  EXPECT_EQ(contents->damage->offset, kEventFileHeaderSize);
  EXPECT_NE(contents->damage->reason.find("not a valid TraceEvent"),
            std::string::npos);
}

TEST(TraceEventFile, WrongMagicOrVersionIsAnError) {
  auto notEvents = parseEventFile("{\"json\": true}");
  ASSERT_FALSE(static_cast<bool>(notEvents));
  EXPECT_NE(toString(notEvents.takeError()).find("not a Tessera event file"),
            std::string::npos);
  std::string future = eventFileHeader();
  future[7] = 9;
  auto newer = parseEventFile(future);
  ASSERT_FALSE(static_cast<bool>(newer));
  EXPECT_NE(toString(newer.takeError()).find("version 9"), std::string::npos);
}

TEST(TraceEventFile, MissingFileNamesThePath) {
  auto contents = readEventFile("/nonexistent/dir/x.events");
  ASSERT_FALSE(static_cast<bool>(contents));
  EXPECT_NE(toString(contents.takeError()).find("/nonexistent/dir/x.events"),
            std::string::npos);
}

TEST(TraceEventFile, AppendCutsADamagedTailFirst) {
  ScopedTempDir dir;
  std::string path = dir.path("append.events");
  std::vector<size_t> ends;
  std::string bytes = fileBytes(threeEvents(), ends);
  // A crash in the middle of the third record.
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << llvm::StringRef(bytes).substr(0, ends[1] + 3);
  }
  auto writer = EventWriter::open(path, EventWriter::Mode::Append);
  ASSERT_TRUE(static_cast<bool>(writer)) << toString(writer.takeError());
  ASSERT_FALSE(static_cast<bool>(
      (*writer)->write(makeEvent(TraceEvent::LOAD_ENGINE, "m", 4))));
  auto contents = readEventFile(path);
  ASSERT_TRUE(static_cast<bool>(contents));
  EXPECT_FALSE(contents->damage.has_value());
  ASSERT_EQ(contents->events.size(), 3u);
  EXPECT_EQ(contents->events[2].type(), TraceEvent::LOAD_ENGINE);
}

TEST(TraceEventFile, AppendToNewFileWritesHeader) {
  ScopedTempDir dir;
  std::string path = dir.path("new.events");
  {
    auto writer = EventWriter::open(path, EventWriter::Mode::Append);
    ASSERT_TRUE(static_cast<bool>(writer));
    ASSERT_FALSE(static_cast<bool>((*writer)->write(threeEvents()[0])));
  }
  {
    auto writer = EventWriter::open(path, EventWriter::Mode::Append);
    ASSERT_TRUE(static_cast<bool>(writer));
    ASSERT_FALSE(static_cast<bool>((*writer)->write(threeEvents()[2])));
  }
  EXPECT_EQ(readWholeFile(path).substr(0, 7), "TESSEVT");
  auto contents = readEventFile(path);
  ASSERT_TRUE(static_cast<bool>(contents));
  EXPECT_EQ(contents->events.size(), 2u);
  EXPECT_FALSE(contents->damage.has_value());
}

TEST(TraceEventFile, AppendRefusesAFileThatIsNotAnEventFile) {
  ScopedTempDir dir;
  std::string path = dir.path("notes.txt");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    os << "precious notes";
  }
  auto writer = EventWriter::open(path, EventWriter::Mode::Append);
  ASSERT_FALSE(static_cast<bool>(writer));
  consumeError(writer.takeError());
  EXPECT_EQ(readWholeFile(path), "precious notes");
}

TEST(TraceEventFile, OpenInMissingFolderFailsWithMessage) {
  auto writer = EventWriter::open("/nonexistent/dir/x.events");
  ASSERT_FALSE(static_cast<bool>(writer));
  EXPECT_NE(toString(writer.takeError()).find("cannot open event file"),
            std::string::npos);
}

} // namespace

namespace {

/// What scanEventFile and parseEventFile found, for comparing them.
std::string summarize(size_t events, const std::vector<uint64_t> &offsets,
                      const std::optional<EventFileDamage> &damage) {
  std::string s = std::to_string(events) + " events at";
  for (uint64_t o : offsets)
    s += " " + std::to_string(o);
  return s + (damage ? "; " + damage->describe() : "; intact");
}

// The streaming reader finds what the whole-file parser finds, for cuts
// anywhere: in the header, in a length prefix, inside a record that spans
// its 1 MiB windows, and at record boundaries.
TEST(TraceEventFile, ScanAgreesWithParseAtEveryKindOfCut) {
  ScopedTempDir dir;
  std::vector<TraceEvent> events = threeEvents();
  TraceEvent big = makeEvent(TraceEvent::COMPILE_END, "m", 4);
  big.mutable_compile_end()->mutable_tensor_map()->set_data(
      std::string(3 << 20, 't'));
  events.push_back(big);
  events.push_back(makeEvent(TraceEvent::EXECUTE, "m", 5));
  std::vector<size_t> ends;
  std::string bytes = fileBytes(events, ends);
  std::vector<size_t> cuts = {0,           3,          8,
                              9,           ends[0],    ends[0] + 1,
                              ends[2] + 2, ends[2] + (1 << 20),
                              ends[3] - 1, ends[3],    bytes.size() - 1,
                              bytes.size()};
  std::string path = dir.path("scan.events");
  for (size_t cut : cuts) {
    SCOPED_TRACE("cut at byte " + std::to_string(cut));
    {
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out.write(bytes.data(), static_cast<std::streamsize>(cut));
    }
    auto parsed = parseEventFile(llvm::StringRef(bytes).substr(0, cut));
    ASSERT_TRUE(static_cast<bool>(parsed));
    std::vector<uint64_t> offsets;
    std::vector<int64_t> times;
    auto scanned = scanEventFile(path, [&](TraceEvent &e, uint64_t offset) {
      offsets.push_back(offset);
      times.push_back(e.timestamp_ns());
      return llvm::Error::success();
    });
    ASSERT_TRUE(static_cast<bool>(scanned)) << toString(scanned.takeError());
    EXPECT_EQ(summarize(scanned->records, offsets, scanned->damage),
              summarize(parsed->events.size(), parsed->offsets,
                        parsed->damage));
    EXPECT_EQ(scanned->fileSize, cut);
    for (size_t i = 0; i < times.size(); ++i)
      EXPECT_EQ(times[i], int64_t(i + 1));
  }
}

TEST(TraceEventFile, ScanStopsAtTheCallersError) {
  ScopedTempDir dir;
  std::vector<size_t> ends;
  std::string bytes = fileBytes(threeEvents(), ends);
  std::string path = dir.path("stop.events");
  {
    std::ofstream out(path, std::ios::binary);
    out << bytes;
  }
  int seen = 0;
  auto scanned = scanEventFile(path, [&](TraceEvent &, uint64_t) {
    return ++seen == 2 ? llvm::createStringError("enough")
                       : llvm::Error::success();
  });
  ASSERT_FALSE(static_cast<bool>(scanned));
  EXPECT_EQ(toString(scanned.takeError()), "enough");
  EXPECT_EQ(seen, 2);
  auto missing = scanEventFile(dir.path("none.events"),
                               [](TraceEvent &, uint64_t) {
                                 return llvm::Error::success();
                               });
  ASSERT_FALSE(static_cast<bool>(missing));
  EXPECT_NE(toString(missing.takeError()).find("none.events"),
            std::string::npos);
}

// A file that grows a byte at a time, as a writer appends it: the tail
// hands each event over exactly once, when its last byte arrives, and a
// half-written record or header is not damage until the final read.
TEST(TraceEventFile, TailReadsEachRecordOnceAsTheFileGrows) {
  ScopedTempDir dir;
  std::vector<size_t> ends;
  std::string bytes = fileBytes(threeEvents(), ends);
  std::string path = dir.path("grow.events");
  std::ofstream out(path, std::ios::binary);
  out.flush();
  auto tail = EventFileTail::open(path);
  ASSERT_TRUE(static_cast<bool>(tail)) << toString(tail.takeError());
  std::vector<std::pair<size_t, int64_t>> seen; // (bytes written, time)
  for (size_t n = 1; n <= bytes.size(); ++n) {
    out.write(bytes.data() + n - 1, 1);
    out.flush();
    auto read = (*tail)->read(
        [&](TraceEvent &e, uint64_t) {
          seen.push_back({n, e.timestamp_ns()});
          return llvm::Error::success();
        },
        /*final=*/false);
    ASSERT_TRUE(static_cast<bool>(read)) << toString(read.takeError());
    ASSERT_FALSE((*tail)->damage().has_value()) << "at byte " << n;
  }
  ASSERT_EQ(seen.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(seen[i].first, ends[i]);
    EXPECT_EQ(seen[i].second, int64_t(i + 1));
  }
  EXPECT_EQ((*tail)->records(), 3u);
  EXPECT_EQ((*tail)->bytesRead(), bytes.size());
}

TEST(TraceEventFile, TailFinalReadCallsACutOffRecordDamage) {
  ScopedTempDir dir;
  std::vector<size_t> ends;
  std::string bytes = fileBytes(threeEvents(), ends);
  std::string path = dir.path("cut.events");
  {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(ends[1] + 1));
  }
  auto tail = EventFileTail::open(path);
  ASSERT_TRUE(static_cast<bool>(tail));
  auto none = [](TraceEvent &, uint64_t) { return llvm::Error::success(); };
  auto first = (*tail)->read(none, /*final=*/false);
  ASSERT_TRUE(static_cast<bool>(first));
  EXPECT_EQ(*first, 2u);
  EXPECT_FALSE((*tail)->damage().has_value());
  auto last = (*tail)->read(none, /*final=*/true);
  ASSERT_TRUE(static_cast<bool>(last));
  EXPECT_EQ(*last, 0u);
  ASSERT_TRUE((*tail)->damage().has_value());
  EXPECT_EQ((*tail)->damage()->offset, ends[1]);
  EXPECT_EQ((*tail)->damage()->recordIndex, 2u);
}

// proto3 strings must be UTF-8: protobuf writes invalid ones but will not
// read them back. A module or pass name with bad bytes is repaired as it
// is written, so its record (and every later one) stays readable.
TEST(TraceEventFile, InvalidUtf8StringsAreRepairedNotLost) {
  ScopedTempDir dir;
  std::string path = dir.path("utf8.events");
  TraceEvent bad = makeEvent(TraceEvent::COMPILE_END, "mod\xff\xfe", 1);
  bad.mutable_compile_end()->add_pass_timeline()->set_name("pass\xc3");
  TraceEvent good = makeEvent(TraceEvent::EXECUTE, "after", 2);
  {
    auto writer = EventWriter::open(path);
    ASSERT_TRUE(static_cast<bool>(writer));
    ASSERT_FALSE(static_cast<bool>((*writer)->write(bad)));
    ASSERT_FALSE(static_cast<bool>((*writer)->write(good)));
  }
  auto contents = readEventFile(path);
  ASSERT_TRUE(static_cast<bool>(contents)) << toString(contents.takeError());
  EXPECT_FALSE(contents->damage.has_value());
  ASSERT_EQ(contents->events.size(), 2u);
  EXPECT_EQ(contents->events[0].module_name(), "mod\xef\xbf\xbd\xef\xbf\xbd");
  EXPECT_EQ(contents->events[0].compile_end().pass_timeline(0).name(),
            "pass\xef\xbf\xbd");
  EXPECT_EQ(contents->events[1].module_name(), "after");
}

// The writer checks an event's strings field by field through the
// generated accessors (EventFile.cpp). Every string field of the schema,
// found here by reflection, must be among them: set alone to bad bytes
// (its enclosing messages created, a oneof chosen), it must come back
// repaired, and the record must parse. A string field added to the schema
// and not to the writer fails here.
TEST(TraceEventFile, EveryStringFieldIsRepaired) {
  using google::protobuf::Descriptor;
  using google::protobuf::FieldDescriptor;
  // Each path from TraceEvent down to a string field.
  std::vector<std::vector<const FieldDescriptor *>> paths;
  std::vector<const FieldDescriptor *> path;
  std::function<void(const Descriptor *)> walk = [&](const Descriptor *d) {
    for (int i = 0; i < d->field_count(); ++i) {
      const FieldDescriptor *f = d->field(i);
      path.push_back(f);
      if (f->type() == FieldDescriptor::TYPE_STRING)
        paths.push_back(path);
      else if (f->type() == FieldDescriptor::TYPE_MESSAGE)
        walk(f->message_type());
      path.pop_back();
    }
  };
  walk(TraceEvent::descriptor());
  // module_name; compile_begin.target; compile_end's pass names and five
  // report paths; transfer's tensor names; execute's report path.
  EXPECT_EQ(paths.size(), 10u);
  for (const auto &fields : paths) {
    std::string name;
    for (const FieldDescriptor *f : fields)
      name += (name.empty() ? "" : ".") + f->name();
    SCOPED_TRACE(name);
    TraceEvent event;
    google::protobuf::Message *m = &event;
    for (const FieldDescriptor *f : fields) {
      const google::protobuf::Reflection *r = m->GetReflection();
      if (f->type() == FieldDescriptor::TYPE_STRING) {
        if (f->is_repeated())
          r->AddString(m, f, "bad\xff");
        else
          r->SetString(m, f, "bad\xff");
      } else {
        m = f->is_repeated() ? r->AddMessage(m, f) : r->MutableMessage(m, f);
      }
    }
    std::string record;
    appendEventRecord(event, record);
    // One byte of length: these records are short.
    ASSERT_LT(static_cast<unsigned char>(record[0]), 0x80);
    TraceEvent back;
    ASSERT_TRUE(back.ParseFromString(record.substr(1)));
    std::string value;
    const google::protobuf::Message *read = &back;
    for (const FieldDescriptor *f : fields) {
      const google::protobuf::Reflection *r = read->GetReflection();
      if (f->type() == FieldDescriptor::TYPE_STRING)
        value = f->is_repeated() ? r->GetRepeatedString(*read, f, 0)
                                 : r->GetString(*read, f);
      else
        read = f->is_repeated() ? &r->GetRepeatedMessage(*read, f, 0)
                                : &r->GetMessage(*read, f);
    }
    EXPECT_EQ(value, "bad\xef\xbf\xbd");
  }
}

} // namespace
