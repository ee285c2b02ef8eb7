// SPDX-License-Identifier: BSD-3-Clause
// RegionCatalog: region roles by call family (point-to-point, one-to-all, all-to-one, all-to-all,
// barrier, RMA), everything else a plain MPI function.
#include <amp/trace/otf2/region_catalog.hpp>

#include <amp/trace/format/dumpi_format.hpp>
#include <amp/trace/format/function_names.hpp>

namespace amp::trace::otf2 {

namespace {

OTF2_RegionRole role_of(std::uint16_t id) {
  switch (id) {
    case kBarrier:
      return OTF2_REGION_ROLE_BARRIER;
    case kBcast:
    case kScatter:
      return OTF2_REGION_ROLE_COLL_ONE2ALL;
    case kGather:
    case kReduce:
      return OTF2_REGION_ROLE_COLL_ALL2ONE;
    case kAllgather:
    case kAllgatherv:
    case kAlltoall:
    case kAlltoallv:
    case kAllreduce:
      return OTF2_REGION_ROLE_COLL_ALL2ALL;
    case kScan:
      return OTF2_REGION_ROLE_COLL_OTHER;
    case kGet:
    case kPut:
    case kAccumulate:
    case kWinCreate:
    case kWinFence:
    case kWinFree:
    case kWinPost:
    case kWinStart:
    case kWinComplete:
    case kWinWait:
      return OTF2_REGION_ROLE_RMA;
    case kSend:
    case kRecv:
    case kBsend:
    case kSsend:
    case kRsend:
    case kIsend:
    case kIbsend:
    case kIssend:
    case kIrsend:
    case kIrecv:
    case kWait:
    case kTest:
    case kRequestFree:
    case kWaitany:
    case kTestany:
    case kWaitall:
    case kTestall:
    case kWaitsome:
    case kTestsome:
    case kSendInit:
    case kBsendInit:
    case kSsendInit:
    case kRsendInit:
    case kRecvInit:
    case kStart:
    case kStartall:
    case kSendrecv:
    case kSendrecvReplace:
      return OTF2_REGION_ROLE_POINT2POINT;
    default:
      return OTF2_REGION_ROLE_FUNCTION;
  }
}

}  // namespace

RegionIndex RegionCatalog::mpi_function(std::uint16_t function_id) {
  auto found = of_function_.find(function_id);
  if (found != of_function_.end()) return found->second;
  const RegionIndex index = static_cast<RegionIndex>(regions_.size());
  regions_.push_back({std::string(function_name(function_id)), role_of(function_id), OTF2_PARADIGM_MPI});
  of_function_.emplace(function_id, index);
  return index;
}

RegionIndex RegionCatalog::user_function(const std::string& name) {
  auto found = of_user_function_.find(name);
  if (found != of_user_function_.end()) return found->second;
  const RegionIndex index = static_cast<RegionIndex>(regions_.size());
  regions_.push_back({name, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER});
  of_user_function_.emplace(name, index);
  return index;
}

}  // namespace amp::trace::otf2
