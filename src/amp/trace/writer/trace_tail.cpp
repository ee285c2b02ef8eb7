// SPDX-License-Identifier: BSD-3-Clause
// write_trace_tail: the fixed blocks that make a DUMPI file readable, written after the records so
// the reader's stream loop ends at the END_OF_STREAM mark.
#include <amp/trace/writer/trace_tail.hpp>

#include <cstring>

namespace amp::trace {

void write_trace_tail(ByteSink& out, const TraceTail& tail) {
  out.put16(kEndOfStream);

  const std::uint64_t header_offset = out.offset();
  for (std::uint8_t v : kVersion) out.put8(v);
  out.put64(tail.header->start_time_epoch);
  out.put_short_string(tail.header->hostname);
  out.put_short_string(tail.header->username);
  out.put32(0);  // meshcrd: empty int array
  out.put32(0);  // meshsize: empty int array

  const std::uint64_t footer_offset = out.offset();
  out.put64(kFootMagic);
  for (unsigned i = 0; i < kFooterSlots; ++i) out.put32(tail.call_counts[i]);
  for (unsigned i = 0; i < kFooterSlots; ++i) out.put32(tail.ignored_counts[i]);

  out.put32(0);  // keyval count; not referenced by the index (libdumpi keeps that slot 0)

  const std::uint64_t perf_offset = out.offset();
  out.put32(0);  // no perf counter labels

  const std::uint64_t sizes_offset = out.offset();
  out.put32(static_cast<std::uint32_t>(tail.datatype_size_count));
  for (std::size_t i = 0; i < tail.datatype_size_count; ++i) out.put_i32(tail.datatype_sizes[i]);

  const std::uint64_t addresses_offset = out.offset();
  out.put32(static_cast<std::uint32_t>(tail.address_count));
  for (std::size_t i = 0; i < tail.address_count; ++i) {
    out.put64(tail.addresses[i].address);
    out.put_short_string(std::string_view(tail.addresses[i].name, std::strlen(tail.addresses[i].name)));
  }

  out.put64(kHeadMagic);
  out.put64(sizes_offset);
  out.put64(addresses_offset);
  out.put64(perf_offset);
  out.put64(header_offset);
  out.put64(kBodyOffset);
  out.put64(footer_offset);
  out.put64(0);  // keyval
  out.commit();
  out.flush();
}

}  // namespace amp::trace
