//===- ProfRows.h - Event files as rows of documented tables -----*- C++ -*-===//
//
// One row model for `export --sqlite`, `export --ndjson` and `sql`: the
// tables below (docs/profiling.md, "Tables"), filled from event files and
// their execution reports, handed row by row to a sink that stores them
// (SQLite) or prints them (NDJSON). The schema is declared once here; every
// row is checked against it.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TOOLS_PROF_PROFROWS_H
#define TESSERA_TOOLS_PROF_PROFROWS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

namespace tessera::prof {

enum class ColumnType { Integer, Real, Text };

struct Column {
  const char *name;
  ColumnType type;
};

struct Table {
  const char *name;
  llvm::ArrayRef<Column> columns;
  /// Columns indexed (one index each).
  llvm::ArrayRef<const char *> indexes;
};

/// Every table, in the order they are filled.
llvm::ArrayRef<Table> tables();

/// A cell: NULL, an integer, a real or text. Text is referenced: it lives
/// until the sink's row() returns.
using Value = std::variant<std::monostate, int64_t, double, llvm::StringRef>;

class RowSink {
public:
  virtual ~RowSink();
  /// One row of `table`, a value per column in the schema's order.
  virtual llvm::Error row(const Table &table, llvm::ArrayRef<Value> values) = 0;
};

/// Reads each event file and emits its rows. Ids (source_id, module_id,
/// run_id, ...) are numbered across all files from 1. Reports that cannot
/// be read (text, dropped) leave their run's report columns NULL; a warning
/// per such run goes to `warnings`.
llvm::Error emitRows(llvm::ArrayRef<std::string> eventFiles, RowSink &sink,
                     std::vector<std::string> &warnings);

} // namespace tessera::prof

#endif // TESSERA_TOOLS_PROF_PROFROWS_H
