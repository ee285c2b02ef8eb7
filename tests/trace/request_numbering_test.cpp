// SPDX-License-Identifier: BSD-3-Clause
// Unit tests of the writer's request numbering: fresh ids per operation, shared handles mapped to
// the operation started into the same request variable, else to their oldest outstanding operations
// (the calling thread's first), persistent requests keeping one id until freed.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include <amp/trace/writer/request_numbering.hpp>

using amp::trace::RequestNumbering;

namespace {

MPI_Request handle(std::uint64_t value) {  // a fake handle value; no MPI call ever sees it
  MPI_Request request;
  std::memset(&request, 0, sizeof(request));
  std::memcpy(&request, &value, sizeof(request) < sizeof(value) ? sizeof(request) : sizeof(value));
  return request;
}

TEST(RequestNumbering, EveryStartedOperationGetsAFreshIdEvenWithOneSharedHandle) {
  RequestNumbering numbering;
  MPI_Request shared = handle(0x1234);
  EXPECT_EQ(numbering.started(shared), 2);
  EXPECT_EQ(numbering.started(shared), 3);
  EXPECT_EQ(numbering.started(handle(0x99)), 4);
  EXPECT_EQ(numbering.started(shared), 5);
}

TEST(RequestNumbering, RepeatedSharedHandleMapsToOldestOutstandingFirst) {
  RequestNumbering numbering;
  MPI_Request shared = handle(0x1234), other = handle(0x77);
  numbering.started(shared);  // 2
  numbering.started(other);   // 3
  numbering.started(shared);  // 4
  numbering.started(shared);  // 5
  MPI_Request waitall[4] = {shared, other, shared, shared};
  std::vector<std::int32_t> ids;
  numbering.resolve(waitall, 4, ids);
  EXPECT_EQ(ids, (std::vector<std::int32_t>{2, 3, 4, 5}));
  for (int i = 0; i < 4; ++i) numbering.completed(waitall, ids, i);
  EXPECT_EQ(numbering.started(shared), 6);
  EXPECT_EQ(numbering.resolve_one(shared), 6);
}

// MPICH and Open MPI give a zero-byte or small eager send an already-complete shared handle: the
// operations started into the request variables a Waitall passes are the ones it completes, even when
// an older operation with the same handle is still outstanding elsewhere.
TEST(RequestNumbering, SharedHandleMapsToTheOperationStartedIntoTheSameSlot) {
  RequestNumbering numbering;
  MPI_Request shared = handle(0x1234), other = handle(0x77);
  MPI_Request earlier = shared;  // a send still outstanding in another array
  MPI_Request array[4] = {other, shared, other, shared};
  numbering.started(earlier, 0, &earlier);        // 2
  numbering.started(array[0], 0, &array[0]);      // 3
  numbering.started(array[1], 0, &array[1]);      // 4
  numbering.started(handle(0x78), 0, &array[2]);  // 5
  array[2] = handle(0x78);
  numbering.started(array[3], 0, &array[3]);  // 6
  std::vector<std::int32_t> ids;
  numbering.resolve(array, 4, ids, 0, array);
  EXPECT_EQ(ids, (std::vector<std::int32_t>{3, 4, 5, 6}));  // not 2 for the first shared handle
  for (int i = 0; i < 4; ++i) numbering.completed(array, ids, i);
  EXPECT_EQ(numbering.resolve_one(earlier, 0, &earlier), 2);
  // Without slots (handles copied elsewhere first) the oldest outstanding one is named, as before.
  numbering.started(shared, 0, &array[1]);  // 7
  EXPECT_EQ(numbering.resolve_one(shared), 2);
}

TEST(RequestNumbering, WaitanyRetiresOnlyTheCompletedOccurrence) {
  RequestNumbering numbering;
  MPI_Request shared = handle(0x42);
  numbering.started(shared);  // 2
  numbering.started(shared);  // 3
  numbering.started(shared);  // 4
  MPI_Request array[3] = {shared, shared, shared};
  std::vector<std::int32_t> ids;
  numbering.resolve(array, 3, ids);
  numbering.completed(array, ids, 1);  // the operation with id 3 completed
  numbering.resolve(array, 2, ids);
  EXPECT_EQ(ids, (std::vector<std::int32_t>{2, 4}));
}

TEST(RequestNumbering, NullIsOneAndUnknownHandlesGetAnIdThatStaysUntilCompletion) {
  RequestNumbering numbering;
  EXPECT_EQ(numbering.resolve_one(MPI_REQUEST_NULL), 1);
  MPI_Request unknown = handle(0x500);
  std::int32_t first = numbering.resolve_one(unknown);  // e.g. started while tracing was paused
  EXPECT_EQ(numbering.resolve_one(unknown), first);     // a Test that did not complete, then again
  numbering.completed_one(unknown, first);
  EXPECT_NE(numbering.resolve_one(unknown), first);
}

TEST(RequestNumbering, PersistentRequestKeepsItsIdAcrossCompletionsUntilFreed) {
  RequestNumbering numbering;
  MPI_Request persistent = handle(0x2000);
  std::int32_t id = numbering.persistent_created(persistent);
  for (int round = 0; round < 3; ++round) {
    EXPECT_EQ(numbering.resolve_one(persistent), id);
    numbering.completed_one(persistent, id);
  }
  numbering.freed(persistent, id);
  EXPECT_NE(numbering.resolve_one(persistent), id);
}

TEST(RequestNumbering, ThreadsSharingAHandleEachGetTheirOwnOperations) {
  // MPI_THREAD_MULTIPLE: MPICH hands two threads' eager sends the same handle at once.
  RequestNumbering numbering;
  MPI_Request shared = handle(0x1234), mine = handle(0x55);
  const std::uint16_t first = 1, second = 2;
  EXPECT_EQ(numbering.started(shared, first), 2);
  EXPECT_EQ(numbering.started(shared, second), 3);
  EXPECT_EQ(numbering.started(mine, second), 4);
  EXPECT_EQ(numbering.resolve_one(shared, second), 3);  // not the first thread's older operation
  MPI_Request waitall[2] = {mine, shared};
  std::vector<std::int32_t> ids;
  numbering.resolve(waitall, 2, ids, second);
  EXPECT_EQ(ids, (std::vector<std::int32_t>{4, 3}));
  numbering.completed(waitall, ids, 0);
  numbering.completed(waitall, ids, 1);
  EXPECT_EQ(numbering.resolve_one(shared, first), 2);
  // A thread completing another thread's request (legal MPI) still gets an outstanding operation.
  EXPECT_EQ(numbering.resolve_one(shared, 7), 2);
}

}  // namespace
