// SPDX-License-Identifier: BSD-3-Clause
// The argument layout of every call record this reader decodes (format doc §5, libdumpi's field
// names and order), as data: one list of typed, named fields per function id.
#pragma once

#include <cstdint>
#include <vector>

namespace amp::trace {

enum class FieldKind : std::uint8_t {
  kInt,             // i32
  kSource,          // i32 rank, -1 printed as MPI_ANY_SOURCE
  kTag,             // i32, -1 printed as MPI_ANY_TAG
  kDatatype,        // u16
  kComm,            // u16
  kOp,              // u8
  kWin,             // u16
  kInfo,            // u16
  kGroup,           // u16
  kThreadLevel,     // u8 DUMPI thread level (Init_thread required/provided): 1 single .. 4 multiple
  kFenceAssertion,  // u8
  kRequest,         // i32
  kRequestArray,    // u32 n + n x i32
  kIntArray,        // u32 n + n x i32
  kDatatypeArray,   // u32 n + n x u16 (MPI_Type_create_struct's oldtypes)
  kStatus,          // STATUS (only when the mask enables statuses)
  kStatusArray,     // STATUS array (same)
  kArgv,            // u32 argc + argc long strings (printed as argc and argv)
  kAddress,         // u64 (Function_enter/exit)
  kIntIfRoot,       // i32 present only when field 0 (commrank) equals field 3 (root)
  kDatatypeIfRoot,  // u16, same condition
};

struct FieldSpec {
  FieldKind kind;
  const char* name;
};

// Fields of a function id, or nullptr when the layout is unknown to this reader.
const std::vector<FieldSpec>* call_schema(unsigned function_id);

}  // namespace amp::trace
