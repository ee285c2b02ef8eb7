// SPDX-License-Identifier: BSD-3-Clause
// MPI_* wrappers for the derived-datatype constructors beyond contiguous/vector (indexed, hindexed,
// hvector, indexed_block, resized, struct) and MPI_Get_address, in libdumpi's layouts (ids 38, 218-222,
// 204). Each new type gets the next datatype id and its MPI_Type_size in the sizes block, so readers
// know the bytes of a message of that type. MPI_Aint values are stored truncated to 32 bits.
#include <mpi.h>

#include <amp/trace/writer/call_record.hpp>

using namespace amp::trace;

extern "C" {

int MPI_Type_indexed(int count, const int blocklengths[], const int displacements[], MPI_Datatype oldtype,
                     MPI_Datatype* newtype) {
  if (unrecorded_lifecycle_call(kTypeIndexed))
    return backend::Type_indexed(count, blocklengths, displacements, oldtype, newtype);
  CallRecord call(kTypeIndexed);
  int rc = backend::Type_indexed(count, blocklengths, displacements, oldtype, newtype);
  call.begin();
  call.i32(count);
  call.int_array(blocklengths, count);
  call.int_array(displacements, count);
  call.datatype(oldtype);
  call.new_datatype(*newtype);
  return rc;
}

int MPI_Type_create_hindexed(int count, const int blocklengths[], const MPI_Aint displacements[], MPI_Datatype oldtype,
                             MPI_Datatype* newtype) {
  if (unrecorded_lifecycle_call(kTypeCreateHindexed))
    return backend::Type_create_hindexed(count, blocklengths, displacements, oldtype, newtype);
  CallRecord call(kTypeCreateHindexed);
  int rc = backend::Type_create_hindexed(count, blocklengths, displacements, oldtype, newtype);
  call.begin();
  call.i32(count);
  call.int_array(blocklengths, count);
  call.aint_array(displacements, count);
  call.datatype(oldtype);
  call.new_datatype(*newtype);
  return rc;
}

int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  if (unrecorded_lifecycle_call(kTypeCreateHvector))
    return backend::Type_create_hvector(count, blocklength, stride, oldtype, newtype);
  CallRecord call(kTypeCreateHvector);
  int rc = backend::Type_create_hvector(count, blocklength, stride, oldtype, newtype);
  call.begin();
  call.i32(count);
  call.i32(blocklength);
  call.i32(static_cast<int>(stride));
  call.datatype(oldtype);
  call.new_datatype(*newtype);
  return rc;
}

int MPI_Type_create_indexed_block(int count, int blocklength, const int displacements[], MPI_Datatype oldtype,
                                  MPI_Datatype* newtype) {
  if (unrecorded_lifecycle_call(kTypeCreateIndexedBlock))
    return backend::Type_create_indexed_block(count, blocklength, displacements, oldtype, newtype);
  CallRecord call(kTypeCreateIndexedBlock);
  int rc = backend::Type_create_indexed_block(count, blocklength, displacements, oldtype, newtype);
  call.begin();
  call.i32(count);
  call.i32(blocklength);
  call.int_array(displacements, count);
  call.datatype(oldtype);
  call.new_datatype(*newtype);
  return rc;
}

int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype* newtype) {
  if (unrecorded_lifecycle_call(kTypeCreateResized)) return backend::Type_create_resized(oldtype, lb, extent, newtype);
  CallRecord call(kTypeCreateResized);
  int rc = backend::Type_create_resized(oldtype, lb, extent, newtype);
  call.begin();
  call.datatype(oldtype);
  call.i32(static_cast<int>(lb));
  call.i32(static_cast<int>(extent));
  call.new_datatype(*newtype);
  return rc;
}

int MPI_Type_create_struct(int count, const int blocklengths[], const MPI_Aint displacements[],
                           const MPI_Datatype types[], MPI_Datatype* newtype) {
  if (unrecorded_lifecycle_call(kTypeCreateStruct))
    return backend::Type_create_struct(count, blocklengths, displacements, types, newtype);
  CallRecord call(kTypeCreateStruct);
  int rc = backend::Type_create_struct(count, blocklengths, displacements, types, newtype);
  call.begin();
  call.i32(count);
  call.int_array(blocklengths, count);
  call.aint_array(displacements, count);
  call.datatype_array(types, count);
  call.new_datatype(*newtype);
  return rc;
}

int MPI_Get_address(const void* location, MPI_Aint* address) {
  if (unrecorded_lifecycle_call(kGetAddress)) return backend::Get_address(location, address);
  CallRecord call(kGetAddress);
  int rc = backend::Get_address(location, address);
  call.begin();
  call.i32(static_cast<int>(*address));
  return rc;
}

}  // extern "C"
