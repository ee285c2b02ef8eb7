// SPDX-License-Identifier: BSD-3-Clause
// Constants of the DUMPI 13.0.0 on-disk format (shared/docs/dumpi-format.md): magics, block sizes,
// function ids, record mask bits and the fixed numbering of built-in MPI handles.
#pragma once

#include <cstdint>

namespace amp::trace {

inline constexpr std::uint64_t kHeadMagic = 0xFFAADD44554D5049ull;  // offset 0 and start of the index
inline constexpr std::uint64_t kFootMagic = 0x00000000F007FEE7ull;  // start of the footer
inline constexpr std::uint8_t kVersion[3] = {13, 0, 0};
inline constexpr std::uint64_t kBodyOffset = 8;  // cpu/wall offsets, then the first record
inline constexpr std::uint64_t kFirstRecordOffset = 16;
inline constexpr std::uint64_t kIndexBytes = 64;   // magic + 7 block offsets
inline constexpr unsigned kFunctionIdCount = 294;  // 0..293
inline constexpr unsigned kFooterSlots = 291;      // counts for ids 0..289 and the total (290)

// Record mask bits (§4).
inline constexpr std::uint8_t kMaskStatusBits = 0x03;
inline constexpr std::uint8_t kMaskStatusEnabled = 0x03;
inline constexpr std::uint8_t kMaskCpuTime = 0x04;
inline constexpr std::uint8_t kMaskWallTime = 0x08;
inline constexpr std::uint8_t kMaskThread = 0x40;
inline constexpr std::uint8_t kMaskPerf = 0x80;

// Function ids (§7, dumpi-function-ids.tsv): only those this project names in code.
enum FunctionId : std::uint16_t {
  kSend = 0,
  kRecv = 1,
  kBsend = 3,
  kSsend = 4,
  kRsend = 5,
  kIsend = 8,
  kIbsend = 9,
  kIssend = 10,
  kIrsend = 11,
  kIrecv = 12,
  kWait = 13,
  kTest = 14,
  kRequestFree = 15,
  kWaitany = 16,
  kTestany = 17,
  kWaitall = 18,
  kTestall = 19,
  kWaitsome = 20,
  kTestsome = 21,
  kSendInit = 26,
  kBsendInit = 27,
  kSsendInit = 28,
  kRsendInit = 29,
  kRecvInit = 30,
  kStart = 31,
  kStartall = 32,
  kSendrecv = 33,
  kSendrecvReplace = 34,
  kTypeContiguous = 35,
  kTypeVector = 36,
  kTypeHvector = 37,
  kTypeIndexed = 38,
  kTypeHindexed = 39,
  kTypeStruct = 40,
  kTypeCommit = 46,
  kTypeFree = 47,
  kBarrier = 52,
  kBcast = 53,
  kGather = 54,
  kScatter = 56,
  kAllgather = 58,
  kAllgatherv = 59,
  kAlltoall = 60,
  kAlltoallv = 61,
  kReduce = 62,
  kAllreduce = 65,
  kScan = 67,
  kCommGroup = 72,
  kGroupIncl = 76,
  kGroupFree = 80,
  kCommSize = 81,
  kCommRank = 82,
  kCommDup = 84,
  kCommCreate = 85,
  kCommSplit = 86,
  kCommFree = 87,
  kCartCreate = 99,
  kWtime = 122,
  kWtick = 123,
  kInit = 124,
  kFinalize = 125,
  kInitialized = 126,
  kAbort = 127,
  kPcontrol = 128,
  kAccumulate = 141,
  kGet = 142,
  kPut = 143,
  kWinComplete = 144,
  kWinCreate = 145,
  kWinFence = 146,
  kWinFree = 147,
  kWinPost = 150,
  kWinStart = 151,
  kWinWait = 154,
  kInitThread = 171,
  kFinalized = 202,
  kGetAddress = 204,
  kTypeCreateHindexed = 218,
  kTypeCreateHvector = 219,
  kTypeCreateIndexedBlock = 220,
  kTypeCreateResized = 221,
  kTypeCreateStruct = 222,
  kAllFunctions = 290,
  kFunctionEnter = 291,
  kFunctionExit = 292,
  kEndOfStream = 293,
};

// Calls that create a datatype (their record ends with newtype).
inline constexpr bool is_type_constructor(unsigned id) {
  return id == kTypeContiguous || id == kTypeVector || id == kTypeHvector || id == kTypeIndexed ||
         id == kTypeHindexed || id == kTypeStruct || (id >= kTypeCreateHindexed && id <= kTypeCreateStruct);
}

// Built-in handle numbering (§6).
namespace dumpi_datatype {
inline constexpr std::uint16_t kError = 0, kNull = 1, kChar = 2, kInt = 9, kDouble = 14, kByte = 5;
inline constexpr std::uint16_t kFirstUser = 28;
}  // namespace dumpi_datatype
namespace dumpi_comm {
inline constexpr std::uint16_t kError = 0, kNull = 1, kWorld = 2, kSelf = 3, kFirstUser = 4;
}
namespace dumpi_group {
inline constexpr std::uint16_t kError = 0, kNull = 1, kEmpty = 2, kFirstUser = 3;
}
namespace dumpi_op {
inline constexpr std::uint8_t kError = 0, kFirstUser = 15;
}
namespace dumpi_request {
inline constexpr std::int32_t kError = 0, kNull = 1, kFirstUser = 2;
}
inline constexpr std::uint8_t kWinFenceModeError = 0xFF;

// Pcontrol calls cannot be stored as id 128 (libundumpi has no decoder for it), so they are stored
// as Function_enter records whose "address" is this key plus the level; the address block names it.
inline constexpr std::uint64_t kPcontrolAnnotationKey = 0x50434F4E00000000ull;  // "PCON"

}  // namespace amp::trace
