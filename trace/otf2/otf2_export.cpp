// export_otf2: pass 1 rebuilds the communicators from the Comm_dup/Comm_split records of every rank
// (files whose footer counts none are skipped), pass 2 maps each rank's records to its location.
#include "otf2_export.hpp"


#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "../format/dumpi_format.hpp"
#include "../reader/trace_error.hpp"
#include "../reader/staged_directory.hpp"
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
  StagedDirectory staged(output_directory);  // written aside, then renamed: a failed export leaves nothing
  const TraceSet set = locate_trace(input);
  ExportResult result;
  result.world_size = world_size_of(set);
  CommunicatorTable comms = rebuild_communicators(set, result.world_size);
  write_archive(set, comms, staged.partial(), result);
  staged.publish();
  result.anchor_path = (staged.output() / (std::string(kArchiveName) + ".otf2")).string();
  return result;
}

}  // namespace amp::trace::otf2
