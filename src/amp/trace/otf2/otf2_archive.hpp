// SPDX-License-Identifier: BSD-3-Clause
// Writing an OTF2 archive with libotf2: one event writer per location (an EventSink), then the
// global definitions (clock, system tree, locations, regions, MPI groups and communicators).
// Every libotf2 failure becomes a std::runtime_error with one line naming what failed.
#pragma once

#include <otf2/otf2.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <amp/trace/otf2/communicator_table.hpp>
#include <amp/trace/otf2/event_sink.hpp>
#include <amp/trace/otf2/region_catalog.hpp>

namespace amp::trace::otf2 {

struct LocationInfo {
  int world_rank = 0;
  std::string hostname;  // empty when the rank's file is not in the input
  std::uint64_t events = 0;
};

class Otf2Archive {
 public:
  // Creates <directory>/<name>.otf2, <name>.def and <name>/ (directory must not hold them yet).
  Otf2Archive(const std::string& directory, const std::string& name);
  ~Otf2Archive();
  Otf2Archive(const Otf2Archive&) = delete;
  Otf2Archive& operator=(const Otf2Archive&) = delete;

  class LocationWriter;
  // The event writer of one location (location id = world rank); close() it before the next.
  std::unique_ptr<LocationWriter> open_location(int world_rank);

  // After all locations are closed: the definitions, then the archive is closed.
  void finish(const std::vector<LocationInfo>& locations, const RegionCatalog& regions, CommunicatorTable& comms);

 private:
  void write_definitions(OTF2_GlobalDefWriter* defs, const std::vector<LocationInfo>& locations,
                         const RegionCatalog& regions, CommunicatorTable& comms);

  OTF2_Archive* archive_ = nullptr;
  std::uint64_t first_time_ = UINT64_MAX, last_time_ = 0;
};

class Otf2Archive::LocationWriter : public EventSink {
 public:
  LocationWriter(OTF2_Archive* archive, int world_rank, std::uint64_t& first_time, std::uint64_t& last_time);
  ~LocationWriter() override;
  // Flushes and closes the location's event file; returns its number of events.
  std::uint64_t close();

  void enter(std::uint64_t time, RegionIndex region) override;
  void leave(std::uint64_t time, RegionIndex region) override;
  void send(std::uint64_t time, std::uint32_t peer, CommIndex comm, std::uint32_t tag, std::uint64_t bytes) override;
  void isend(std::uint64_t time, std::uint32_t peer, CommIndex comm, std::uint32_t tag, std::uint64_t bytes,
             std::uint64_t request) override;
  void isend_complete(std::uint64_t time, std::uint64_t request) override;
  void irecv_request(std::uint64_t time, std::uint64_t request) override;
  void recv(std::uint64_t time, std::uint32_t peer, CommIndex comm, std::uint32_t tag, std::uint64_t bytes) override;
  void irecv(std::uint64_t time, std::uint32_t peer, CommIndex comm, std::uint32_t tag, std::uint64_t bytes,
             std::uint64_t request) override;
  void request_cancelled(std::uint64_t time, std::uint64_t request) override;
  void collective_begin(std::uint64_t time) override;
  void collective_end(std::uint64_t time, const CollectiveCall& call, CommIndex comm) override;

 private:
  void saw(std::uint64_t time);

  OTF2_Archive* archive_;
  OTF2_EvtWriter* writer_;
  std::uint64_t& first_time_;
  std::uint64_t& last_time_;
};

}  // namespace amp::trace::otf2
