// SPDX-License-Identifier: BSD-3-Clause
// The OTF2 regions of an export: one per MPI function that occurs (named as in the DUMPI function
// table, with the role Score-P gives it) and one per user function named by Function_enter/exit.
#pragma once

#include <otf2/OTF2_Definitions.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <amp/trace/otf2/event_sink.hpp>

namespace amp::trace::otf2 {

struct Region {
  std::string name;
  OTF2_RegionRole role = OTF2_REGION_ROLE_FUNCTION;
  OTF2_Paradigm paradigm = OTF2_PARADIGM_MPI;
};

class RegionCatalog {
 public:
  RegionIndex mpi_function(std::uint16_t function_id);
  RegionIndex user_function(const std::string& name);
  const std::vector<Region>& regions() const { return regions_; }

 private:
  std::vector<Region> regions_;
  std::map<std::uint16_t, RegionIndex> of_function_;
  std::map<std::string, RegionIndex> of_user_function_;
};

}  // namespace amp::trace::otf2
