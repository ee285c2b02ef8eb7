// SPDX-License-Identifier: BSD-3-Clause
// Table, CSV and JSON renderings of a micro-benchmark's rows.
#include <amp/miniapps/micro/result_table.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace amp::micro {

namespace {

std::string format_cell(const nlohmann::ordered_json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "yes" : "NO";
  if (value.is_number_float()) {
    const double number = value.get<double>();
    const double magnitude = std::fabs(number);
    if (magnitude >= 1e7 || (magnitude > 0 && magnitude < 1e-2)) return fmt::format("{:.3e}", number);
    if (magnitude >= 100) return fmt::format("{:.1f}", number);
    return fmt::format("{:.3f}", number);
  }
  return value.dump();
}

std::string csv_cell(const nlohmann::ordered_json& value) {
  if (value.is_string()) {
    std::string text = value.get<std::string>();
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) quoted += (c == '"') ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
  }
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (value.is_number_float()) return fmt::format("{:.6g}", value.get<double>());
  return value.dump();
}

}  // namespace

ResultTable::ResultTable(std::vector<std::string> columns) : columns_(std::move(columns)) {}

void ResultTable::add_row(std::vector<nlohmann::ordered_json> values) {
  if (values.size() != columns_.size()) {
    throw std::logic_error(fmt::format("row has {} values for {} columns", values.size(), columns_.size()));
  }
  rows_.push_back(std::move(values));
}

bool ResultTable::all_verified() const {
  const auto column = std::find(columns_.begin(), columns_.end(), "verified");
  if (column == columns_.end()) return false;
  const auto index = static_cast<std::size_t>(column - columns_.begin());
  return std::all_of(rows_.begin(), rows_.end(), [&](const auto& row) { return row[index] == true; });
}

void ResultTable::print(std::ostream& out) const {
  std::vector<std::vector<std::string>> cells;
  std::vector<std::size_t> widths;
  for (const auto& name : columns_) widths.push_back(name.size());
  for (const auto& row : rows_) {
    std::vector<std::string> line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      line.push_back(format_cell(row[c]));
      widths[c] = std::max(widths[c], line.back().size());
    }
    cells.push_back(std::move(line));
  }
  auto print_line = [&](const std::vector<std::string>& line) {
    for (std::size_t c = 0; c < line.size(); ++c) out << (c ? "  " : "") << fmt::format("{:>{}}", line[c], widths[c]);
    out << '\n';
  };
  print_line(columns_);
  for (const auto& line : cells) print_line(line);
}

std::string ResultTable::csv_text() const {
  std::ostringstream out;
  for (std::size_t c = 0; c < columns_.size(); ++c) out << (c ? "," : "") << columns_[c];
  out << '\n';
  for (const auto& row : rows_) {
    for (std::size_t c = 0; c < row.size(); ++c) out << (c ? "," : "") << csv_cell(row[c]);
    out << '\n';
  }
  return out.str();
}

nlohmann::ordered_json ResultTable::rows_json() const {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& row : rows_) {
    nlohmann::ordered_json object;
    for (std::size_t c = 0; c < row.size(); ++c) object[columns_[c]] = row[c];
    rows.push_back(std::move(object));
  }
  return rows;
}

}  // namespace amp::micro
