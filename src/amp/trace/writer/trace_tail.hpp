// SPDX-License-Identifier: BSD-3-Clause
// Writes everything after the last record: end-of-stream mark, header, footer, keyval, perf labels,
// datatype sizes, function addresses and the 64-byte index (format doc §3), in libdumpi's order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <amp/trace/format/dumpi_format.hpp>
#include <amp/trace/writer/byte_sink.hpp>

namespace amp::trace {

struct TraceHeader {
  std::uint64_t start_time_epoch = 0;
  std::string hostname;
  std::string username;
};

struct AddressLabel {
  std::uint64_t address = 0;
  char name[32] = {};  // fixed storage: the tail may be written from a signal handler
};

struct TraceTail {
  const TraceHeader* header = nullptr;
  const std::uint32_t* call_counts = nullptr;     // kFooterSlots entries
  const std::uint32_t* ignored_counts = nullptr;  // kFooterSlots entries
  const std::int32_t* datatype_sizes = nullptr;
  std::size_t datatype_size_count = 0;
  const AddressLabel* addresses = nullptr;
  std::size_t address_count = 0;
};

// Appends the tail at the sink's current offset and flushes. No allocation (async-signal-safe).
void write_trace_tail(ByteSink& out, const TraceTail& tail);

}  // namespace amp::trace
