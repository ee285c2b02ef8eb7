// SPDX-License-Identifier: BSD-3-Clause
// One decoded call record: function id, mask, thread, times and its arguments in file order,
// plus lookups by field name for the analyses (stats, validation, repair).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <amp/trace/format/dumpi_format.hpp>
#include <amp/trace/reader/call_schema.hpp>

namespace amp::trace {

struct ClockTime {
  std::int64_t sec = 0;
  std::uint32_t nsec = 0;
  double seconds() const { return static_cast<double>(sec) + nsec * 1e-9; }
};

struct StatusEntry {
  std::int32_t bytes = 0;
  std::int32_t source = 0;
  std::uint8_t cancelled = 0;
  std::uint8_t error = 0;
  std::int32_t tag = 0;
};

struct Field {
  const FieldSpec* spec = nullptr;
  bool present = true;                // false for an absent root-only field or disabled status
  std::int64_t value = 0;             // scalars
  std::vector<std::int32_t> values;   // int and request arrays
  std::vector<StatusEntry> statuses;  // STATUS (0 or 1 entry) and STATUS arrays
  std::vector<std::string> strings;   // argv
};

struct Record {
  std::uint64_t offset = 0;  // where the record starts in the file
  std::uint16_t function = 0;
  std::uint8_t mask = 0;
  std::uint16_t thread = 0;
  ClockTime cpu_start, cpu_stop, wall_start, wall_stop;
  std::vector<Field> fields;

  const Field* field(std::string_view name) const {
    for (const Field& f : fields)
      if (f.spec != nullptr && name == f.spec->name) return &f;
    return nullptr;
  }
  // Scalar value of a named field, or fallback when absent.
  std::int64_t scalar(std::string_view name, std::int64_t fallback = 0) const {
    const Field* f = field(name);
    return f != nullptr && f->present ? f->value : fallback;
  }
};

// The level of an MPI_Pcontrol call, which AMP's tracer stores as a Function_enter record whose "address"
// is kPcontrolAnnotationKey plus the level (dumpi_format.hpp); nothing for any other record.
inline std::optional<std::uint32_t> pcontrol_level(const Record& record) {
  if (record.function != kFunctionEnter) return std::nullopt;
  const auto address = static_cast<std::uint64_t>(record.scalar("fn"));
  if ((address & 0xFFFFFFFF00000000ull) != kPcontrolAnnotationKey) return std::nullopt;
  return static_cast<std::uint32_t>(address & 0xFFFFFFFFull);
}

}  // namespace amp::trace
