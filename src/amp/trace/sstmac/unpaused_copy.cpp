// SPDX-License-Identifier: BSD-3-Clause
// write_unpaused_copy: each rank's records in file order, the same pauses as the SimGrid export's.
// The gap before a record (its wall start less the previous record's wall stop) is taken out when the
// rank is paused (after an MPI_Pcontrol(0) annotation, up to and including the MPI_Pcontrol(1) that
// resumes it), and when the record is an MPI_Pcontrol(0) together with the gaps before the calls that
// move no data just ahead of it (MPI_Comm_rank after MPI_Init): the export writes compute only up to a
// call that becomes an action, so that time is not compute there either. The same when the record is
// MPI_Finalize and nothing but calls that move no data lie between it and the start of the rank's
// region (MPI_Init, or the MPI_Pcontrol(1) a proxy resumes with just to record MPI_Finalize): the export
// writes no compute there (its wait for a peer's untraced tear-down). Every record's wall start and
// stop are then written earlier by the time taken out before it, in place: seconds as u16 less the
// file's wall offset, nanoseconds as u32, big-endian (dumpi-format.md section 4). CPU times are left
// alone: SST-macro reads only the wall clock (parsedumpi_callbacks.cc, start_mpi).
#include <amp/trace/sstmac/unpaused_copy.hpp>

#include <fmt/format.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string_view>

#include <amp/trace/format/dumpi_format.hpp>
#include <amp/trace/format/function_names.hpp>
#include <amp/trace/reader/file_output.hpp>
#include <amp/trace/reader/staged_directory.hpp>
#include <amp/trace/reader/trace_error.hpp>
#include <amp/trace/reader/trace_file.hpp>
#include <amp/trace/reader/trace_set.hpp>

namespace amp::trace::sstmac {

namespace fs = std::filesystem;

namespace {

constexpr std::int64_t kNanosecondsPerSecond = 1000000000;

std::int64_t nanoseconds(const ClockTime& t) { return t.sec * kNanosecondsPerSecond + t.nsec; }

// Writes t (nanoseconds since the clock's zero) at `at` as the record's u16 seconds less the offset
// and u32 nanoseconds.
void put_time(std::vector<std::uint8_t>& bytes, std::size_t at, std::int64_t t, std::int32_t offset,
              const std::string& name) {
  const std::int64_t seconds = t / kNanosecondsPerSecond - offset;
  if (seconds < 0 || seconds > 0xFFFF)
    throw TraceFormatError(fmt::format("{}: a moved wall time falls outside the file's 16-bit seconds", name));
  const auto nsec = static_cast<std::uint32_t>(t % kNanosecondsPerSecond);
  bytes.at(at) = static_cast<std::uint8_t>(seconds >> 8);
  bytes.at(at + 1) = static_cast<std::uint8_t>(seconds);
  for (int i = 0; i < 4; ++i) bytes.at(at + 2 + i) = static_cast<std::uint8_t>(nsec >> (8 * (3 - i)));
}

// Where a record's wall start time lies: after its function id, mask, thread id and CPU times.
std::size_t wall_time_position(const Record& record) {
  std::size_t at = record.offset + 2 + 1;
  if (record.mask & kMaskThread) at += 2;
  if (record.mask & kMaskCpuTime) at += 12;
  return at;
}

struct Timed {
  const Record* record;
  std::int64_t start, stop;
  bool gap_taken_out = false;
};

// MPI_Finalize at `finalize` in a region that began at `region_start` (MPI_Init or a resume; the first
// record if neither): if only calls that move no data lie between, the region had no action, and none of
// its gaps is compute.
void take_out_an_empty_region(std::vector<Timed>& timed, std::size_t region_start, std::size_t finalize) {
  for (std::size_t k = region_start + 1; k < finalize; ++k)
    if (!moves_no_data(function_name(timed[k].record->function))) return;  // an action: its compute stays
  for (std::size_t k = region_start + 1; k <= finalize; ++k) timed[k].gap_taken_out = true;
}

// The file's bytes with its paused gaps taken out; adds to result's counts, returns the seconds removed.
double unpause(const TraceFile& file, std::vector<std::uint8_t>& bytes, UnpausedCopyResult& result) {
  std::vector<Record> records;
  TraceFile::Cursor cursor = file.records();
  while (std::optional<Record> record = cursor.next()) records.push_back(std::move(*record));
  result.records += records.size();
  std::vector<Timed> timed;  // the records with wall times: nothing to move or measure in the others
  for (const Record& record : records)
    if (record.mask & kMaskWallTime)
      timed.push_back({&record, nanoseconds(record.wall_start), nanoseconds(record.wall_stop)});
  bool paused = false;
  std::size_t region_start = 0;
  for (std::size_t i = 0; i < timed.size(); ++i) {
    const std::optional<std::uint32_t> level = pcontrol_level(*timed[i].record);
    const bool pcontrol = level.has_value(), pause = pcontrol && *level == 0;
    timed[i].gap_taken_out = paused || pause;
    if (pause && !paused)  // and the calls that move no data right before it
      for (std::size_t j = i; j-- > 0 && timed[j].record->function != kInit &&
                              timed[j].record->function != kInitThread &&
                              moves_no_data(function_name(timed[j].record->function));)
        timed[j].gap_taken_out = true;
    const std::uint16_t function = timed[i].record->function;
    if (function == kInit || function == kInitThread || (pcontrol && paused && !pause)) region_start = i;
    if (pcontrol) paused = pause;
    if (function == kFinalize && !paused) take_out_an_empty_region(timed, region_start, i);
  }
  std::int64_t removed = 0;
  for (std::size_t i = 0; i < timed.size(); ++i) {
    if (timed[i].gap_taken_out && i > 0 && timed[i].start > timed[i - 1].stop)
      removed += timed[i].start - timed[i - 1].stop;
    if (removed > 0) {
      const std::size_t at = wall_time_position(*timed[i].record);
      put_time(bytes, at, timed[i].start - removed, file.wall_offset(), file.name());
      put_time(bytes, at + 6, timed[i].stop - removed, file.wall_offset(), file.name());
      ++result.moved_records;
    }
  }
  return static_cast<double>(removed) * 1e-9;
}

// Writes bytes to `path` (in the staging folder); a failure names `shown_as`, the file under its final name.
void write_bytes(const fs::path& path, const fs::path& shown_as, const std::vector<std::uint8_t>& bytes) {
  append_to_file(path.string(), std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                 shown_as.string());
}

}  // namespace

UnpausedCopyResult write_unpaused_copy(const std::string& input, const std::string& output_directory) {
  StagedDirectory staged(output_directory);  // written aside, then renamed: a failed copy leaves nothing
  const TraceSet set = locate_trace(input);
  if (set.meta_path.empty())
    throw std::runtime_error("a copy for SST-macro needs the whole trace (a .meta file, its prefix or its directory)");
  staged.create();
  UnpausedCopyResult result;
  {
    std::ifstream meta(set.meta_path, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(meta)), std::istreambuf_iterator<char>());
    if (!meta && !meta.eof()) throw std::runtime_error(set.meta_path + ": cannot be read");
    const fs::path name = fs::path(set.meta_path).filename();
    append_to_file((staged.partial() / name).string(), text, (staged.output() / name).string());
  }
  for (std::size_t i = 0; i < set.bin_paths.size(); ++i) {
    const TraceFile file = TraceFile::open(set.bin_paths[i]);
    std::vector<std::uint8_t> bytes = file.bytes();
    result.removed_seconds.push_back(unpause(file, bytes, result));
    result.ranks.push_back(set.ranks[i]);
    const fs::path name = fs::path(set.bin_paths[i]).filename();
    write_bytes(staged.partial() / name, staged.output() / name, bytes);
  }
  staged.publish();
  result.directory = staged.output().string();
  return result;
}

}  // namespace amp::trace::sstmac
