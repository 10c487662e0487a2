//===- ProfSql.cpp - tessera-prof export and sql ---------------------------===//
//
// `export --sqlite=DB` stores ProfRows' tables in SQLite (Debian's
// libsqlite3), `export --ndjson=FILE` prints them one JSON object per line,
// and `sql "SELECT ..."` runs a query on an in-memory database built the
// same way. Files appear complete or not at all (a temporary renamed).
//
//===----------------------------------------------------------------------===//

#include "ProfCommands.h"
#include "ProfRows.h"

#include "tessera/Trace/AtomicFile.h"
#include "tessera/Trace/TraceEventWriter.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <sqlite3.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <memory>

using namespace llvm;

namespace tessera::prof {

namespace {

Error sqliteError(sqlite3 *db, const Twine &what) {
  return createStringError(inconvertibleErrorCode(),
                           what + ": " + sqlite3_errmsg(db));
}

/// A database with the tables created; rows inserted in one transaction.
class SqliteSink : public RowSink {
public:
  static Expected<std::unique_ptr<SqliteSink>> open(const std::string &path) {
    sqlite3 *db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                        nullptr) != SQLITE_OK) {
      Error err = sqliteError(db, "cannot open '" + path + "'");
      sqlite3_close(db);
      return std::move(err);
    }
    std::unique_ptr<SqliteSink> sink(new SqliteSink(db));
    if (Error err = sink->createTables())
      return std::move(err);
    return std::move(sink);
  }
  ~SqliteSink() override {
    for (auto &[table, stmt] : inserts)
      sqlite3_finalize(stmt);
    sqlite3_close(db);
  }

  Error row(const Table &table, ArrayRef<Value> values) override {
    sqlite3_stmt *stmt = inserts[table.name];
    for (auto [i, v] : llvm::enumerate(values)) {
      int col = static_cast<int>(i) + 1;
      if (const int64_t *n = std::get_if<int64_t>(&v))
        sqlite3_bind_int64(stmt, col, *n);
      else if (const double *d = std::get_if<double>(&v))
        sqlite3_bind_double(stmt, col, *d);
      else if (const StringRef *s = std::get_if<StringRef>(&v))
        sqlite3_bind_text(stmt, col, s->data(), static_cast<int>(s->size()),
                          SQLITE_TRANSIENT);
      else
        sqlite3_bind_null(stmt, col);
    }
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    if (rc != SQLITE_DONE)
      return sqliteError(db, Twine("inserting into ") + table.name);
    return Error::success();
  }

  /// Commits the rows and builds the indexes.
  Error finish() {
    if (Error err = exec("COMMIT"))
      return err;
    for (const Table &t : tables())
      for (const char *column : t.indexes)
        if (Error err = exec(formatv("CREATE INDEX {0}_{1} ON {0}({1})",
                                     t.name, column)
                                 .str()))
          return err;
    return exec("ANALYZE");
  }

  sqlite3 *handle() { return db; }

  Error exec(const std::string &sql) {
    char *message = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) ==
        SQLITE_OK)
      return Error::success();
    std::string text = message ? message : "unknown error";
    sqlite3_free(message);
    return createStringError(inconvertibleErrorCode(), text);
  }

private:
  explicit SqliteSink(sqlite3 *db) : db(db) {}

  Error createTables() {
    for (const Table &t : tables()) {
      SmallVector<std::string> defs, marks;
      for (const Column &c : t.columns) {
        defs.push_back(std::string(c.name) + " " +
                       (c.type == ColumnType::Integer ? "INTEGER"
                        : c.type == ColumnType::Real  ? "REAL"
                                                      : "TEXT"));
        marks.push_back("?");
      }
      if (Error err = exec(formatv("CREATE TABLE {0} ({1})", t.name,
                                   join(defs, ", "))
                               .str()))
        return err;
      sqlite3_stmt *stmt = nullptr;
      std::string insert = formatv("INSERT INTO {0} VALUES ({1})", t.name,
                                   join(marks, ", "))
                               .str();
      if (sqlite3_prepare_v2(db, insert.c_str(), -1, &stmt, nullptr) !=
          SQLITE_OK)
        return sqliteError(db, insert);
      inserts[t.name] = stmt;
    }
    return exec("BEGIN");
  }

  sqlite3 *db;
  StringMap<sqlite3_stmt *> inserts;
};

/// One JSON object a row: {"table": NAME, column: value, ...}. Rows come
/// by the million (10M events make 20M rows), so each row is formatted into
/// a block of its own from keys rendered once per table, with std::to_chars
/// for numbers, and whole blocks go to the stream: formatting through
/// raw_ostream's operators a value at a time cost twice as much.
class NdjsonSink : public RowSink {
public:
  explicit NdjsonSink(raw_ostream &os)
      : os(os), block(std::make_unique<char[]>(kBlock)) {}

  Error row(const Table &table, ArrayRef<Value> values) override {
    const std::vector<std::string> &keys = keysOf(table);
    for (auto [key, v] : llvm::zip_equal(keys, values)) {
      put(key);
      if (const int64_t *n = std::get_if<int64_t>(&v))
        putNumber(*n);
      else if (const double *d = std::get_if<double>(&v))
        putReal(*d);
      else if (const StringRef *s = std::get_if<StringRef>(&v))
        putString(*s);
      else
        put("null");
    }
    put("}\n");
    return Error::success();
  }

  void flush() {
    os.write(block.get(), used);
    used = 0;
  }

private:
  static constexpr size_t kBlock = 1 << 20;

  void put(StringRef s) {
    if (used + s.size() > kBlock)
      return putSlow(s);
    std::memcpy(block.get() + used, s.data(), s.size());
    used += s.size();
  }

  LLVM_ATTRIBUTE_NOINLINE void putSlow(StringRef s) {
    flush();
    if (s.size() > kBlock) {
      os << s;
      return;
    }
    std::memcpy(block.get(), s.data(), s.size());
    used = s.size();
  }

  template <typename T> void putNumber(T n) {
    char tmp[64];
    std::to_chars_result r = std::to_chars(tmp, tmp + sizeof(tmp), n);
    put(StringRef(tmp, r.ptr - tmp));
  }

  void putReal(double d) {
    if (std::isfinite(d))
      putNumber(d);
    else
      put("null");
  }

  void putString(StringRef s) {
    // The common case (printable ASCII, nothing to escape) is copied whole;
    // anything else goes through the shared escaper.
    bool plain = llvm::all_of(s, [](char c) {
      auto u = static_cast<unsigned char>(c);
      return u >= 0x20 && u < 0x80 && c != '"' && c != '\\';
    });
    if (!plain) {
      std::string escaped;
      raw_string_ostream out(escaped);
      writeJsonString(out, s);
      put(escaped);
      return;
    }
    put("\"");
    put(s);
    put("\"");
  }

  /// `{"table":"T","c0":` for the first column, `,"cN":` for the others.
  /// Column names are identifiers: no escaping needed.
  const std::vector<std::string> &keysOf(const Table &table) {
    if (lastTable == &table)
      return *lastKeys;
    std::vector<std::string> &keys = keyCache[&table];
    if (keys.empty())
      for (const Column &c : table.columns)
        keys.push_back((keys.empty()
                            ? "{\"table\":\"" + std::string(table.name) + "\","
                            : std::string(",")) +
                       "\"" + c.name + "\":");
    lastTable = &table;
    lastKeys = &keys;
    return keys;
  }

  raw_ostream &os;
  std::unique_ptr<char[]> block;
  size_t used = 0;
  DenseMap<const Table *, std::vector<std::string>> keyCache;
  const Table *lastTable = nullptr;
  const std::vector<std::string> *lastKeys = nullptr;
};

void printWarnings(ArrayRef<std::string> warnings) {
  for (const std::string &w : warnings)
    errs() << "tessera-prof: warning: " << w << "\n";
}

/// Prints a query's result as a table: a header, then the rows; NULL shows
/// as NULL, reals with up to 6 significant digits.
Error printQuery(sqlite3 *db, StringRef sql, raw_ostream &os) {
  sqlite3_stmt *stmt = nullptr;
  const char *tail = nullptr;
  std::string text = sql.str();
  if (sqlite3_prepare_v2(db, text.c_str(), -1, &stmt, &tail) != SQLITE_OK)
    return sqliteError(db, "sql");
  std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt *)> guard(
      stmt, sqlite3_finalize);
  if (!stmt)
    return createStringError(inconvertibleErrorCode(), "sql: empty query");
  if (tail && !StringRef(tail).trim().empty())
    return createStringError(inconvertibleErrorCode(),
                             "sql: one statement at a time (left over: '" +
                                 StringRef(tail).trim() + "')");
  if (!sqlite3_stmt_readonly(stmt))
    return createStringError(inconvertibleErrorCode(),
                             "sql: only queries that read (SELECT, WITH, "
                             "PRAGMA ...) are run");
  int columns = sqlite3_column_count(stmt);
  std::vector<std::vector<std::string>> rows(1);
  for (int c = 0; c < columns; ++c)
    rows[0].push_back(sqlite3_column_name(stmt, c));
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    std::vector<std::string> row;
    for (int c = 0; c < columns; ++c) {
      switch (sqlite3_column_type(stmt, c)) {
      case SQLITE_NULL:
        row.push_back("NULL");
        break;
      case SQLITE_INTEGER:
        row.push_back(std::to_string(sqlite3_column_int64(stmt, c)));
        break;
      case SQLITE_FLOAT:
        row.push_back(formatv("{0}", format("%.6g", sqlite3_column_double(
                                                         stmt, c)))
                          .str());
        break;
      default:
        row.push_back(reinterpret_cast<const char *>(
            sqlite3_column_text(stmt, c)));
      }
    }
    rows.push_back(std::move(row));
  }
  if (rc != SQLITE_DONE)
    return sqliteError(db, "sql");
  std::vector<size_t> width(columns, 0);
  for (const auto &row : rows)
    for (int c = 0; c < columns; ++c)
      width[c] = std::max(width[c], row[c].size());
  for (const auto &row : rows) {
    for (int c = 0; c < columns; ++c)
      os << (c ? "  " : "") << left_justify(row[c], c + 1 < columns ? width[c]
                                                                    : 0);
    os << "\n";
  }
  os << "(" << rows.size() - 1 << (rows.size() == 2 ? " row" : " rows")
     << ")\n";
  return Error::success();
}

} // namespace

int runExportCommand(ArrayRef<std::string> eventFiles,
                     ArrayRef<std::string> args) {
  std::string sqlitePath, ndjsonPath;
  for (StringRef a : args) {
    if (a.consume_front("--sqlite="))
      sqlitePath = a.str();
    else if (a.consume_front("--ndjson="))
      ndjsonPath = a.str();
    else
      return fail("export: unknown option '" + a +
                  "' (--sqlite=DB or --ndjson=FILE)");
  }
  if (sqlitePath.empty() == ndjsonPath.empty())
    return fail("export needs one of --sqlite=DB and --ndjson=FILE");
  std::vector<std::string> warnings;
  if (!ndjsonPath.empty()) {
    Error err = writeFileAtomically(ndjsonPath, [&](raw_ostream &os) {
      NdjsonSink sink(os);
      Error err = emitRows(eventFiles, sink, warnings);
      sink.flush();
      return err;
    });
    printWarnings(warnings);
    return err ? fail(toString(std::move(err))) : 0;
  }
  // SQLite writes a file of its own: build it beside the target and rename
  // it there when complete.
  SmallString<256> temp;
  StringRef parent = sys::path::parent_path(sqlitePath);
  if (!parent.empty())
    if (std::error_code ec = sys::fs::create_directories(parent))
      return fail("cannot create folder '" + parent + "': " + ec.message());
  if (std::error_code ec = sys::fs::createUniqueFile(
          sqlitePath + ".tmp-%%%%%%%%", temp))
    return fail("cannot write '" + sqlitePath + "': " + ec.message());
  sys::fs::remove(temp);
  auto build = [&]() -> Error {
    Expected<std::unique_ptr<SqliteSink>> sink =
        SqliteSink::open(temp.str().str());
    if (!sink)
      return sink.takeError();
    if (Error err = emitRows(eventFiles, **sink, warnings))
      return err;
    return (*sink)->finish();
  };
  Error err = build();
  printWarnings(warnings);
  if (!err)
    if (std::error_code ec = replaceFile(temp, sqlitePath))
      err = createStringError(ec, "cannot write '%s': %s", sqlitePath.c_str(),
                              ec.message().c_str());
  if (err) {
    sys::fs::remove(temp);
    return fail(toString(std::move(err)));
  }
  return 0;
}

int runSqlCommand(ArrayRef<std::string> eventFiles,
                  ArrayRef<std::string> args) {
  if (args.size() != 1)
    return fail("sql needs one query, e.g. sql \"SELECT hlo, cycles FROM "
                "ops ORDER BY cycles DESC LIMIT 10\"");
  // "": SQLite's private temporary database, whose pages live in a
  // bounded cache and spill to a temporary file (deleted on close), so a
  // query over millions of events does not need them all in memory.
  Expected<std::unique_ptr<SqliteSink>> sink = SqliteSink::open("");
  if (!sink)
    return fail(toString(sink.takeError()));
  std::vector<std::string> warnings;
  Error err = emitRows(eventFiles, **sink, warnings);
  if (!err)
    err = (*sink)->finish();
  printWarnings(warnings);
  if (!err)
    err = printQuery((*sink)->handle(), args[0], outs());
  return err ? fail(toString(std::move(err))) : 0;
}

} // namespace tessera::prof
