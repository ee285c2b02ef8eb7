// SPDX-License-Identifier: BSD-3-Clause
// The rows a micro-benchmark reports: printed as an aligned table, written as CSV, and embedded in
// the JSON results. Columns are named once; each row gives one value per column.
#pragma once

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>
#include <vector>

namespace amp::micro {

class ResultTable {
 public:
  explicit ResultTable(std::vector<std::string> columns);

  // One value per column, in column order (numbers, strings or booleans).
  void add_row(std::vector<nlohmann::ordered_json> values);

  const std::vector<std::string>& columns() const { return columns_; }
  std::size_t row_count() const { return rows_.size(); }
  // True when the table has a "verified" column and every row says true.
  bool all_verified() const;

  void print(std::ostream& out) const;
  // The table as CSV: a header line of the columns, then one line per row.
  std::string csv_text() const;
  // Rows as objects keyed by column name.
  nlohmann::ordered_json rows_json() const;

 private:
  std::vector<std::string> columns_;
  std::vector<std::vector<nlohmann::ordered_json>> rows_;
};

}  // namespace amp::micro
