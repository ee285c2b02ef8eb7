// SPDX-License-Identifier: BSD-3-Clause
// Table of call layouts: the DUMPI 13.0.0 argument order for the calls AMP records and the calls
// most often found in sst-dumpi traces of halo-exchange codes.
#include <amp/trace/reader/call_schema.hpp>

#include <array>
#include <memory>

#include <amp/trace/format/dumpi_format.hpp>

namespace amp::trace {

namespace {

using K = FieldKind;

std::array<std::unique_ptr<std::vector<FieldSpec>>, kFunctionIdCount> build_schemas() {
  std::array<std::unique_ptr<std::vector<FieldSpec>>, kFunctionIdCount> s;
  auto set = [&s](unsigned id, std::vector<FieldSpec> fields) {
    s[id] = std::make_unique<std::vector<FieldSpec>>(std::move(fields));
  };
  const std::vector<FieldSpec> send = {
      {K::kInt, "count"}, {K::kDatatype, "datatype"}, {K::kSource, "dest"}, {K::kTag, "tag"}, {K::kComm, "comm"}};
  for (unsigned id : {kSend, kBsend, kSsend, kRsend}) set(id, send);
  set(kRecv, {{K::kInt, "count"},
              {K::kDatatype, "datatype"},
              {K::kSource, "source"},
              {K::kTag, "tag"},
              {K::kComm, "comm"},
              {K::kStatus, "status"}});
  std::vector<FieldSpec> isend = send;
  isend.push_back({K::kRequest, "request"});
  for (unsigned id : {kIsend, kIbsend, kIssend, kIrsend, kSendInit, kBsendInit, kSsendInit, kRsendInit}) set(id, isend);
  const std::vector<FieldSpec> irecv = {{K::kInt, "count"}, {K::kDatatype, "datatype"}, {K::kSource, "source"},
                                        {K::kTag, "tag"},   {K::kComm, "comm"},         {K::kRequest, "request"}};
  set(kIrecv, irecv);
  set(kRecvInit, irecv);
  set(kWait, {{K::kRequest, "request"}, {K::kStatus, "status"}});
  set(kTest, {{K::kRequest, "request"}, {K::kInt, "flag"}, {K::kStatus, "status"}});
  set(kRequestFree, {{K::kRequest, "request"}});
  set(kWaitany, {{K::kInt, "count"}, {K::kRequestArray, "requests"}, {K::kInt, "index"}, {K::kStatus, "status"}});
  set(kTestany, {{K::kInt, "count"},
                 {K::kRequestArray, "requests"},
                 {K::kInt, "index"},
                 {K::kInt, "flag"},
                 {K::kStatus, "status"}});
  set(kWaitall, {{K::kInt, "count"}, {K::kRequestArray, "requests"}, {K::kStatusArray, "statuses"}});
  set(kTestall, {{K::kInt, "count"}, {K::kRequestArray, "requests"}, {K::kInt, "flag"}, {K::kStatusArray, "statuses"}});
  const std::vector<FieldSpec> some = {{K::kInt, "count"},
                                       {K::kRequestArray, "requests"},
                                       {K::kInt, "outcount"},
                                       {K::kIntArray, "indices"},
                                       {K::kStatusArray, "statuses"}};
  set(kWaitsome, some);
  set(kTestsome, some);
  set(kStart, {{K::kRequest, "request"}});
  set(kStartall, {{K::kInt, "count"}, {K::kRequestArray, "requests"}});
  set(kSendrecv, {{K::kInt, "sendcount"},
                  {K::kDatatype, "sendtype"},
                  {K::kSource, "dest"},
                  {K::kTag, "sendtag"},
                  {K::kInt, "recvcount"},
                  {K::kDatatype, "recvtype"},
                  {K::kSource, "source"},
                  {K::kTag, "recvtag"},
                  {K::kComm, "comm"},
                  {K::kStatus, "status"}});
  set(kSendrecvReplace, {{K::kInt, "count"},
                         {K::kDatatype, "datatype"},
                         {K::kSource, "dest"},
                         {K::kTag, "sendtag"},
                         {K::kSource, "source"},
                         {K::kTag, "recvtag"},
                         {K::kComm, "comm"},
                         {K::kStatus, "status"}});
  set(kTypeContiguous, {{K::kInt, "count"}, {K::kDatatype, "oldtype"}, {K::kDatatype, "newtype"}});
  set(kTypeVector, {{K::kInt, "count"},
                    {K::kInt, "blocklength"},
                    {K::kInt, "stride"},
                    {K::kDatatype, "oldtype"},
                    {K::kDatatype, "newtype"}});
  set(kTypeHvector, {{K::kInt, "count"},
                     {K::kInt, "blocklength"},
                     {K::kInt, "stride"},
                     {K::kDatatype, "oldtype"},
                     {K::kDatatype, "newtype"}});
  const std::vector<FieldSpec> indexed = {{K::kInt, "count"},
                                          {K::kIntArray, "lengths"},
                                          {K::kIntArray, "indices"},
                                          {K::kDatatype, "oldtype"},
                                          {K::kDatatype, "newtype"}};
  set(kTypeIndexed, indexed);
  set(kTypeHindexed, indexed);
  // The MPI-2 constructors (libdumpi's field names, "displacments" spelled as dumpi2ascii prints it).
  set(kTypeCreateHindexed, {{K::kInt, "count"},
                            {K::kIntArray, "blocklengths"},
                            {K::kIntArray, "displacements"},
                            {K::kDatatype, "oldtype"},
                            {K::kDatatype, "newtype"}});
  set(kTypeCreateHvector, {{K::kInt, "count"},
                           {K::kInt, "blocklength"},
                           {K::kInt, "stride"},
                           {K::kDatatype, "oldtype"},
                           {K::kDatatype, "newtype"}});
  set(kTypeCreateIndexedBlock, {{K::kInt, "count"},
                                {K::kInt, "blocklength"},
                                {K::kIntArray, "displacments"},
                                {K::kDatatype, "oldtype"},
                                {K::kDatatype, "newtype"}});
  set(kTypeCreateResized, {{K::kDatatype, "oldtype"}, {K::kInt, "lb"}, {K::kInt, "extent"}, {K::kDatatype, "newtype"}});
  set(kTypeCreateStruct, {{K::kInt, "count"},
                          {K::kIntArray, "blocklengths"},
                          {K::kIntArray, "displacements"},
                          {K::kDatatypeArray, "oldtypes"},
                          {K::kDatatype, "newtype"}});
  set(kGetAddress, {{K::kInt, "address"}});
  set(kTypeCommit, {{K::kDatatype, "datatype"}});
  set(kTypeFree, {{K::kDatatype, "datatype"}});
  set(kBarrier, {{K::kComm, "comm"}});
  set(kBcast, {{K::kInt, "count"}, {K::kDatatype, "datatype"}, {K::kInt, "root"}, {K::kComm, "comm"}});
  set(kGather, {{K::kInt, "commrank"},
                {K::kInt, "sendcount"},
                {K::kDatatype, "sendtype"},
                {K::kInt, "root"},
                {K::kComm, "comm"},
                {K::kIntIfRoot, "recvcount"},
                {K::kDatatypeIfRoot, "recvtype"}});
  set(kScatter, {{K::kInt, "commrank"},
                 {K::kInt, "recvcount"},
                 {K::kDatatype, "recvtype"},
                 {K::kInt, "root"},
                 {K::kComm, "comm"},
                 {K::kIntIfRoot, "sendcount"},
                 {K::kDatatypeIfRoot, "sendtype"}});
  const std::vector<FieldSpec> allgather = {{K::kInt, "sendcount"},
                                            {K::kDatatype, "sendtype"},
                                            {K::kInt, "recvcount"},
                                            {K::kDatatype, "recvtype"},
                                            {K::kComm, "comm"}};
  set(kAllgather, allgather);
  set(kAlltoall, allgather);
  set(kAllgatherv, {{K::kInt, "commsize"},
                    {K::kInt, "sendcount"},
                    {K::kDatatype, "sendtype"},
                    {K::kIntArray, "recvcounts"},
                    {K::kIntArray, "displs"},
                    {K::kDatatype, "recvtype"},
                    {K::kComm, "comm"}});
  set(kAlltoallv, {{K::kInt, "commsize"},
                   {K::kIntArray, "sendcounts"},
                   {K::kIntArray, "senddispls"},
                   {K::kDatatype, "sendtype"},
                   {K::kIntArray, "recvcounts"},
                   {K::kIntArray, "recvdispls"},
                   {K::kDatatype, "recvtype"},
                   {K::kComm, "comm"}});
  set(kReduce, {{K::kInt, "count"}, {K::kDatatype, "datatype"}, {K::kOp, "op"}, {K::kInt, "root"}, {K::kComm, "comm"}});
  const std::vector<FieldSpec> allreduce = {
      {K::kInt, "count"}, {K::kDatatype, "datatype"}, {K::kOp, "op"}, {K::kComm, "comm"}};
  set(kAllreduce, allreduce);
  set(kScan, allreduce);
  set(kCommSize, {{K::kComm, "comm"}, {K::kInt, "size"}});
  set(kCommRank, {{K::kComm, "comm"}, {K::kInt, "rank"}});
  set(kCommDup, {{K::kComm, "oldcomm"}, {K::kComm, "newcomm"}});
  set(kCommSplit, {{K::kComm, "oldcomm"}, {K::kInt, "color"}, {K::kInt, "key"}, {K::kComm, "newcomm"}});
  set(kCommFree, {{K::kComm, "comm"}});
  set(kCommGroup, {{K::kComm, "comm"}, {K::kGroup, "group"}});
  set(kGroupIncl, {{K::kGroup, "group"}, {K::kInt, "count"}, {K::kIntArray, "ranks"}, {K::kGroup, "newgroup"}});
  set(kGroupFree, {{K::kGroup, "group"}});
  set(kCommCreate, {{K::kComm, "oldcomm"}, {K::kGroup, "group"}, {K::kComm, "newcomm"}});
  set(kCartCreate, {{K::kComm, "oldcomm"},
                    {K::kInt, "ndim"},
                    {K::kIntArray, "dims"},
                    {K::kIntArray, "periods"},
                    {K::kInt, "reorder"},
                    {K::kComm, "newcomm"}});
  set(kInit, {{K::kArgv, "argv"}});
  set(kInitThread, {{K::kArgv, "argv"}, {K::kThreadLevel, "required"}, {K::kThreadLevel, "provided"}});
  set(kFinalize, {});
  const std::vector<FieldSpec> transfer = {
      {K::kInt, "origincount"}, {K::kDatatype, "origintype"}, {K::kInt, "targetrank"}, {K::kInt, "targetdisp"},
      {K::kInt, "targetcount"}, {K::kDatatype, "targettype"}, {K::kWin, "win"}};
  set(kGet, transfer);
  set(kPut, transfer);
  set(kAccumulate, {{K::kInt, "origincount"},
                    {K::kDatatype, "origintype"},
                    {K::kInt, "targetrank"},
                    {K::kInt, "targetdisp"},
                    {K::kInt, "targetcount"},
                    {K::kDatatype, "targettype"},
                    {K::kOp, "op"},
                    {K::kWin, "win"}});
  set(kWinCreate, {{K::kInt, "size"}, {K::kInt, "dispunit"}, {K::kInfo, "info"}, {K::kComm, "comm"}, {K::kWin, "win"}});
  set(kWinFence, {{K::kFenceAssertion, "assertion"}, {K::kWin, "win"}});
  set(kWinFree, {{K::kWin, "win"}});
  const std::vector<FieldSpec> post_start = {{K::kGroup, "group"}, {K::kFenceAssertion, "assertion"}, {K::kWin, "win"}};
  set(kWinPost, post_start);
  set(kWinStart, post_start);
  set(kWinComplete, {{K::kWin, "win"}});
  set(kWinWait, {{K::kWin, "win"}});
  set(kFunctionEnter, {{K::kAddress, "fn"}});
  set(kFunctionExit, {{K::kAddress, "fn"}});
  return s;
}

}  // namespace

const std::vector<FieldSpec>* call_schema(unsigned function_id) {
  static const auto schemas = build_schemas();
  return function_id < schemas.size() ? schemas[function_id].get() : nullptr;
}

}  // namespace amp::trace
