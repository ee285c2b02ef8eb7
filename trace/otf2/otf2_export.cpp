// export_otf2: pass 1 rebuilds the communicators from the Comm_dup/Comm_split records of every rank
// (files whose footer counts none are skipped), pass 2 maps each rank's records to its location.
#include "otf2_export.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "../format/dumpi_format.hpp"
#include "../reader/trace_error.hpp"
#include "../reader/trace_set.hpp"
#include "otf2_archive.hpp"

namespace amp::trace::otf2 {

namespace fs = std::filesystem;

namespace {

constexpr const char* kArchiveName = "traces";

int world_size_of(const TraceSet& set) {
  int highest = 0;
  for (int rank : set.ranks) highest = std::max(highest, rank);
  int size = highest + 1;
  auto numprocs = set.meta.find("numprocs");
  if (numprocs != set.meta.end()) size = std::max(size, std::stoi(numprocs->second));
  return size;
}

bool creates_communicators(const TraceFile& file) {
  const TraceFooter& footer = file.footer();
  return !footer.present || footer.call_counts[kCommDup] != 0 || footer.call_counts[kCommSplit] != 0 ||
         footer.call_counts[kCommFree] != 0;
}

CommunicatorTable rebuild_communicators(const TraceSet& set, int world_size) {
  CommunicatorTable table(world_size);
  for (std::size_t i = 0; i < set.bin_paths.size(); ++i) {
    TraceFile file = TraceFile::open(set.bin_paths[i]);
    if (!creates_communicators(file)) continue;
    table.begin_rank(set.ranks[i]);
    auto cursor = file.records();
    while (auto record = cursor.next()) table.observe(*record);
  }
  table.resolve_members();
  return table;
}

void write_archive(const TraceSet& set, CommunicatorTable& comms, const fs::path& directory, ExportResult& result) {
  Otf2Archive archive(directory.string(), kArchiveName);
  RegionCatalog regions;
  std::vector<LocationInfo> locations;
  for (int rank = 0; rank < comms.world_size(); ++rank) {
    auto file_index = std::find(set.ranks.begin(), set.ranks.end(), rank);
    auto writer = archive.open_location(rank);
    LocationInfo location{rank, "", 0};
    if (file_index != set.ranks.end()) {
      TraceFile file = TraceFile::open(set.bin_paths[static_cast<std::size_t>(file_index - set.ranks.begin())]);
      comms.replay_rank(rank);
      RankEventMapper mapper(file, rank, comms, regions, *writer, result.summary);
      auto cursor = file.records();
      while (auto record = cursor.next()) mapper.map(*record);
      mapper.finish();
      location.hostname = file.header().hostname.empty() ? "unknown host" : file.header().hostname;
      ++result.traced_ranks;
    }
    location.events = writer->close();
    result.events += location.events;
    locations.push_back(location);
  }
  archive.finish(locations, regions, comms);
  result.communicators = comms.communicators().size();
}

}  // namespace

ExportResult export_otf2(const std::string& input, const std::string& output_directory) {
  fs::path output(output_directory);
  if (!output.has_filename() && output.has_parent_path()) output = output.parent_path();  // "out/" -> "out"
  std::error_code ignored;
  if (fs::exists(fs::symlink_status(output, ignored)))
    throw std::runtime_error(output_directory + ": already exists; amp-trace never overwrites, name a new directory");
  const TraceSet set = locate_trace(input);
  const fs::path parent = output.has_parent_path() ? output.parent_path() : fs::path(".");
  if (fs::exists(parent, ignored) && !fs::is_directory(parent, ignored))
    throw std::runtime_error(output_directory + ": " + parent.string() + " is not a directory");
  if (!fs::is_directory(parent, ignored))
    throw std::runtime_error(output_directory + ": the directory " + parent.string() + " does not exist");
  if (output.filename().empty()) throw std::runtime_error(output_directory + ": not a directory name");

  ExportResult result;
  result.world_size = world_size_of(set);
  CommunicatorTable comms = rebuild_communicators(set, result.world_size);
  // Written aside, then renamed: an interrupted or failed export leaves nothing at the output path.
  const fs::path partial = parent / ("." + output.filename().string() + ".partial-" + std::to_string(::getpid()));
  try {
    write_archive(set, comms, partial, result);
    if (fs::exists(fs::symlink_status(output, ignored)))
      throw std::runtime_error(output_directory + ": appeared while converting; amp-trace never overwrites");
    fs::rename(partial, output);
  } catch (...) {
    fs::remove_all(partial, ignored);
    throw;
  }
  result.anchor_path = (output / (std::string(kArchiveName) + ".otf2")).string();
  return result;
}

}  // namespace amp::trace::otf2
