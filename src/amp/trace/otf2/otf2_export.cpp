// SPDX-License-Identifier: BSD-3-Clause
// export_otf2: the one RecordStream, read rank by rank (its communicators learnt first from every
// rank's creation calls), each rank's resolved calls mapped to its location's events.
#include <amp/trace/otf2/otf2_export.hpp>

#include <algorithm>
#include <filesystem>

#include <amp/trace/reader/record_stream.hpp>
#include <amp/trace/reader/staged_directory.hpp>
#include <amp/trace/reader/trace_error.hpp>
#include <amp/trace/reader/trace_set.hpp>
#include <amp/trace/otf2/otf2_archive.hpp>

namespace amp::trace::otf2 {

namespace fs = std::filesystem;

namespace {

constexpr const char* kArchiveName = "traces";

void write_archive(RecordStream& stream, CommunicatorTable& comms, const fs::path& directory, ExportResult& result) {
  Otf2Archive archive(directory.string(), kArchiveName);
  RegionCatalog regions;
  std::vector<LocationInfo> locations;
  for (int rank = 0; rank < comms.world_size(); ++rank) {
    auto writer = archive.open_location(rank);
    LocationInfo location{rank, "", 0};
    if (std::find(stream.ranks().begin(), stream.ranks().end(), rank) != stream.ranks().end()) {
      const TraceFile& file = stream.file(rank);
      RankEventMapper mapper(file, rank, comms, regions, *writer, result.summary);
      mapper.finish(stream.run_rank(rank, [&mapper](const ResolvedCall& call) { mapper.map(call); }));
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
  RecordStream stream(set);
  ExportResult result;
  result.world_size = stream.world_size();
  CommunicatorTable comms(stream.communicators(), result.world_size);
  try {
    write_archive(stream, comms, staged.partial(), result);
  } catch (const OutputWriteError& error) {  // named by the output, not by the hidden staging folder
    throw OutputWriteError(staged.output().string() + ": " + error.what());
  }
  staged.publish();
  result.anchor_path = (staged.output() / (std::string(kArchiveName) + ".otf2")).string();
  return result;
}

}  // namespace amp::trace::otf2
